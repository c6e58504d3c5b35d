//! The `dateline` command line.
fn main() {}
