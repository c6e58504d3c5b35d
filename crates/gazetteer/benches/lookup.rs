//! Lookup and load benchmarks on the embedded gazetteer:
//! `cargo bench -p gazetteer --bench lookup`.

use criterion::{black_box, Criterion, Throughput};
use gazetteer::{fold, translit_key, Gazetteer};

/// What a caption parser asks about: places as written (hits, spelling
/// variants) and the capitalized words around them (mostly misses).
const QUERIES: &[&str] = &[
    "Damascus",
    "Syria",
    "Aleppo",
    "Raqqa",
    "Deir ez-Zor",
    "Maarat al-Numan",
    "Haresta",
    "Douma",
    "Khan Sheikhoun",
    "Hmeymim",
    "Reuters",
    "Photo",
    "Omar Sanadiki",
    "Free Syrian Army",
    "Republican Guard",
    "Umayyad Square",
    "October",
    "Monday",
    "Islamic State",
    "Kurdish",
    "Idlib",
    "Mosul",
    "Kyiv",
    "Kharkiv Oblast",
    "Tripoli",
    "Lebanon",
    "Getty Images",
    "AFP",
    "Joseph Eid",
    "Syrian Democratic Forces",
    "White Helmets",
    "Ghouta",
];

/// Lookups per second over [`QUERIES`], with a fold-only baseline.
fn lookup(c: &mut Criterion) {
    let g = Gazetteer::embedded();
    let expected_hits: usize = QUERIES.iter().map(|q| g.places_named(q).len()).sum();
    let expected_maybe = QUERIES.iter().filter(|q| g.might_be_place(q)).count();
    let mut group = c.benchmark_group("lookup");
    group.throughput(Throughput::Elements(QUERIES.len() as u64));
    group.bench_function("fold", |b| {
        b.iter(|| {
            QUERIES
                .iter()
                .map(|q| fold(black_box(q)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("translit_key", |b| {
        b.iter(|| {
            QUERIES
                .iter()
                .map(|q| translit_key(black_box(q)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("places_named", |b| {
        b.iter(|| {
            let hits: usize = QUERIES
                .iter()
                .map(|q| g.places_named(black_box(q)).len())
                .sum();
            assert_eq!(hits, expected_hits);
        })
    });
    group.bench_function("might_be_place", |b| {
        b.iter(|| {
            let maybe = QUERIES
                .iter()
                .filter(|q| g.might_be_place(black_box(q)))
                .count();
            assert_eq!(maybe, expected_maybe);
        })
    });
    group.finish();
}

/// Decoding the embedded data, as `Gazetteer::embedded` does once.
fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    group.bench_function("decode_embedded", |b| {
        b.iter(|| {
            let g = Gazetteer::from_compact(Gazetteer::embedded_data()).map(|g| g.n_places());
            assert_eq!(g.ok(), Some(234_908));
        })
    });
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    lookup(&mut criterion);
    load(&mut criterion);
    criterion.final_summary();
}
