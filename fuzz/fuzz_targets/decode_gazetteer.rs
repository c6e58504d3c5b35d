//! Fuzzes compact gazetteer decoding: it refuses or decodes, never panics.
//! The input is a payload, given the embedded file's header (magic, version)
//! with its own length and checksum, so that it reaches the structural checks
//! of every section instead of stopping at the checksum.
#![no_main]

use gazetteer::Gazetteer;
use libfuzzer_sys::fuzz_target;
use xxhash_rust::xxh3::xxh3_64;

fuzz_target!(|payload: &[u8]| {
    // Header: magic (8 bytes), version and flags (4 each), then the payload's
    // length and checksum (8 each).
    let mut bytes = Gazetteer::embedded_data()[..16].to_vec();
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&xxh3_64(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    let _ = Gazetteer::from_compact(&bytes);
});
