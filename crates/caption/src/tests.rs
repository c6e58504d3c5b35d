//! Whole-record tests of `parse` on captions written for these tests.

use crate::parse;

fn empty_gazetteer() -> gazetteer::Gazetteer {
    gazetteer::Gazetteer::builder().build()
}

#[test]
fn text_is_whitespace_normalized_and_id_is_stable() {
    let g = empty_gazetteer();
    let a = parse("  A man  walks\n in a street. ", &g);
    let b = parse("A man walks in a street.", &g);
    assert_eq!(a.text, "A man walks in a street.");
    assert_eq!(a.id, b.id);
    assert_eq!(a.id.len(), 16);
}
