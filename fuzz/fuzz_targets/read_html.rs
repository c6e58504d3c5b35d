//! Fuzzes the HTML reader on arbitrary bytes: it refuses or reads, never
//! panics, and what it reads is well formed: each caption non-empty and
//! whitespace-normalized, its length bounded, its offset inside the input,
//! the captions in offset order.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = formats::html::looks_like_html(data);
    let Ok(found) = formats::html::read_html(data) else { return };
    let mut last = 0;
    for caption in &found.captions {
        let words: Vec<&str> = caption.text.split_whitespace().collect();
        assert!(!words.is_empty());
        assert_eq!(caption.text, words.join(" "));
        assert!(caption.text.len() <= 2 * formats::text::MAX_CAPTION_BYTES + 1);
        assert!(caption.offset <= data.len() as u64);
        assert!(caption.offset >= last);
        last = caption.offset;
    }
});
