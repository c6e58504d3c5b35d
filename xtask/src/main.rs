//! Project chores run with `cargo xtask`.
fn main() {}
