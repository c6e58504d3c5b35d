//! Fuzzes the IPTC-IIM reader on arbitrary bytes: it refuses or reads, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = photometa::read_iim(data);
});
