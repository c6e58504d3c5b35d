//! Fuzzes the text reader on arbitrary bytes: it refuses or reads, never
//! panics, and what it reads loses no non-whitespace byte of valid UTF-8.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mut reader) = formats::text::CaptionReader::new(data) else { return };
    let mut words = 0;
    while let Ok(Some(batch)) = reader.next_batch(4096) {
        words += batch.iter().map(|c| c.text.split_whitespace().count()).sum::<usize>();
    }
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(words, text.split_whitespace().count());
    }
});
