//! Fuzzes the parser entry points: `segment` then `parse` on any UTF-8 text,
//! asserting the record invariants (spans inside `text` on char boundaries,
//! description no longer than text), not only the absence of panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let gazetteer = gazetteer::Gazetteer::embedded();
    for caption in caption::segment(input) {
        let record = caption::parse(&caption.text(input), gazetteer);
        let text = &record.text;
        let check = |span: caption::Span| {
            assert!(span.start <= span.end && span.end <= text.len(), "span {span:?} outside text");
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end), "span {span:?} splits a char");
        };
        record.credit.span.map(check);
        record.dates.iter().for_each(|d| check(d.span));
        record.persons.iter().for_each(|p| check(p.span));
        if let Some(location) = &record.location {
            location.span.map(check);
        }
        assert!(record.description.len() <= text.len());
    }
});
