//! Fuzzes the entry points the line model and the place scorer added:
//! `segment_piece` + `parse_span` (what `dateline parse` runs), `explain_piece`
//! (what `--explain` prints) and `place_candidates` ("why this place"), on
//! both readings of a piece (whole text, or the rest of a cut line).
//!
//! Beyond the absence of panics it asserts what callers rely on: every
//! caption part and explained line is a range of the input on char
//! boundaries; `parse_span` gives the record `parse` gives for the same
//! text (it only skips reading a one-line caption's credit twice); every
//! candidate score is a number, best first.
#![no_main]

use libfuzzer_sys::fuzz_target;

fn assert_in(input: &str, span: caption::Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= input.len(),
        "{what} {span:?} outside the input"
    );
    assert!(
        input.is_char_boundary(span.start) && input.is_char_boundary(span.end),
        "{what} {span:?} splits a char"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(input) = std::str::from_utf8(rest) else {
        return;
    };
    let starts_inside_line = first & 1 == 1;
    let gazetteer = gazetteer::Gazetteer::embedded();

    for report in caption::explain_piece(input, starts_inside_line) {
        assert_in(input, report.line, "explained line");
        assert!(
            report.reasons.iter().all(|(_, margin)| margin.is_finite()),
            "a reason's margin is not a number"
        );
    }
    for found in caption::segment_piece(input, starts_inside_line) {
        assert_in(input, found.span, "caption span");
        for part in &found.parts {
            assert_in(input, *part, "caption part");
            assert!(
                found.span.start <= part.start && part.end <= found.span.end,
                "part {part:?} outside its caption {:?}",
                found.span
            );
        }
        let text = found.text(input).into_owned();
        let record = caption::parse_span(input, found, gazetteer);
        assert_eq!(
            record,
            caption::parse(&text, gazetteer),
            "parse_span and parse disagree on {text:?}"
        );
        for list in caption::place_candidates(&text, gazetteer) {
            assert!(
                list.candidates.iter().all(|c| c.score.is_finite()),
                "a candidate score is not a number"
            );
            assert!(
                list.candidates.windows(2).all(|w| w[0].score >= w[1].score),
                "candidates of {:?} not best first",
                list.mention
            );
        }
    }
});
