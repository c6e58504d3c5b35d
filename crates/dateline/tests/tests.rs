//! Integration tests of the `dateline` binary (one test binary, modules by topic).

mod archive;
mod archive_crash;
mod archive_faults;
mod cli;
mod conformance;
mod dev_scores;
mod pages;
mod photos;
mod serve;
mod util;
