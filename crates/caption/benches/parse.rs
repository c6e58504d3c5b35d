//! Whole-caption throughput of `caption::parse` with the embedded gazetteer,
//! against plain passes over the same bytes, so results read as ratios.
//!
//! The captions are the project's own demo and test galleries.

use criterion::{BenchmarkId, Criterion, Throughput};

const GALLERIES: [&str; 4] = [
    include_str!("../../../demo/gallery.txt"),
    include_str!("../test_data/ok/0001_credit_conventions.txt"),
    include_str!("../test_data/ok/0002_place_patterns.txt"),
    include_str!("../test_data/ok/0003_flags_and_dates.txt"),
];

/// `parse/caption`: segment-free parse of each caption; `baseline/memchr`
/// counts spaces (the floor of any pass over the bytes);
/// `baseline/normalize_whitespace` is the first step `parse` takes.
fn parse(c: &mut Criterion) {
    let captions: Vec<String> = GALLERIES
        .iter()
        .flat_map(|g| {
            caption::segment(g)
                .into_iter()
                .map(move |c| c.text(g).into_owned())
        })
        .collect();
    let bytes: usize = captions.iter().map(|c| c.len()).sum();
    let gazetteer = gazetteer::Gazetteer::embedded();
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(BenchmarkId::new("parse", "caption"), |b| {
        b.iter(|| {
            let located = captions
                .iter()
                .filter(|text| {
                    caption::parse(std::hint::black_box(text), gazetteer)
                        .location
                        .is_some()
                })
                .count();
            assert_eq!(located, 42);
        })
    });
    group.bench_function(BenchmarkId::new("baseline", "memchr"), |b| {
        b.iter(|| {
            let spaces: usize = captions
                .iter()
                .map(|text| {
                    memchr::memchr_iter(b' ', std::hint::black_box(text).as_bytes()).count()
                })
                .sum();
            assert!(spaces > 0);
        })
    });
    group.bench_function(BenchmarkId::new("baseline", "normalize_whitespace"), |b| {
        b.iter(|| {
            let total: usize = captions
                .iter()
                .map(|text| caption::normalize_whitespace(std::hint::black_box(text)).len())
                .sum();
            assert!(total > 0);
        })
    });
    group.finish();
}

/// Runs the group; `cargo bench -p caption --bench parse`.
fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    parse(&mut criterion);
    criterion.final_summary();
}
