//! The search against a reference: tantivy's own collectors (top documents
//! with the key as tie-break, count, facet collector) over a query with
//! every filter as an index query, on an archive of several segments with
//! deleted documents (records re-indexed when a variant joined them).

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::ops::Bound;

use tantivy::collector::{Count, FacetCollector, MultiCollector, TopDocs};
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, RangeQuery};
use tantivy::{DocId, Score, SegmentReader, Term};

use super::{text_parser, Filters, Near, SearchQuery, PERSON_BOOST, PLACE_BOOST};
use crate::index::FACETS;
use crate::{Archive, Mode, NewOccurrence};

const SUBJECTS: &[&str] = &[
    "A boy",
    "Two women",
    "A nurse",
    "Farmers",
    "A shepherd",
    "Firefighters",
    "A vendor",
];
const ACTIONS: &[&str] = &[
    "carries bread past a damaged mosque",
    "walks along a flooded road",
    "waits in line for fuel at a station",
    "repairs a water pipe near the market",
    "sells vegetables from a cart",
    "sits beside a burned car",
    "clears debris from a street",
];
const PLACES: &[&str] = &[
    "Aleppo, Syria",
    "Homs, Syria",
    "Raqqa, Syria",
    "Kyiv, Ukraine",
    "Kharkiv, Ukraine",
    "Beirut, Lebanon",
    "Mosul, Iraq",
];
const MONTHS: &[&str] = &["January", "March", "May", "July", "October"];
const CREDITS: &[&str] = &[
    "REUTERS/Lina Haddad",
    "REUTERS/Samir Khoury",
    "(AP Photo/Karim Mansour)",
    "(AP Photo/Olena Shevchenko)",
];

/// Invented captions, `n` from `from`; every seventh a file photo.
fn captions(from: usize, n: usize) -> Vec<String> {
    (from..from + n)
        .map(|i| {
            format!(
                "{}{} {} in {}, {} {}, {}. {}",
                if i % 7 == 3 { "FILE - " } else { "" },
                SUBJECTS[i % SUBJECTS.len()],
                ACTIONS[(i / 3) % ACTIONS.len()],
                PLACES[(i / 2) % PLACES.len()],
                MONTHS[i % MONTHS.len()],
                1 + i % 27,
                2010 + i % 11,
                CREDITS[(i / 5) % CREDITS.len()],
            )
        })
        .collect()
}

/// Adds one document of captions and indexes it (one segment each).
fn ingest(archive: &mut Archive, name: &str, captions: &[String]) {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let text = captions.join("\n\n");
    let mut doc = archive
        .begin_document(
            name,
            text.len() as u64,
            &crate::DocumentHashes::of(text.as_bytes()),
        )
        .expect("begin")
        .expect("a new document");
    let mut offset = 0;
    for caption in captions {
        doc.add(NewOccurrence {
            offset,
            exact_text: caption.clone(),
            record: caption::parse(caption, gazetteer),
        })
        .expect("add");
        offset += caption.len() as u64 + 2;
    }
    doc.commit().expect("commit");
    archive.sync_index().expect("index");
}

/// What the reference finds: total, (score, key) best first, facets.
type Reference = (
    usize,
    Vec<(Score, u64)>,
    BTreeMap<String, Vec<(String, u64)>>,
);

/// The query with every filter in the index (ranges included), collected
/// by tantivy's collectors; `near` checked on the results.
fn reference(archive: &Archive, query: &SearchQuery) -> Reference {
    let searcher = archive.reader.searcher();
    let f = &archive.fields;
    let plan = archive.plan(&searcher, query, None).expect("plan");
    let (filters, checks) = archive
        .filter_queries(&searcher, &query.filters, None)
        .expect("filters");
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    // The text as the parser gives it, every field of every word.
    if let Some(text) = query
        .text
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        let mut parser = text_parser(&archive.index, f);
        parser.set_field_boost(f.persons, PERSON_BOOST);
        parser.set_field_boost(f.places, PLACE_BOOST);
        clauses.push((Occur::Must, parser.parse_query_lenient(text).0));
    }
    let mut all_filters = filters;
    if let Some(start) = checks.from {
        all_filters.push(Box::new(RangeQuery::new(
            Bound::Included(Term::from_field_i64(f.date_to, start)),
            Bound::Unbounded,
        )));
    }
    if let Some(end) = checks.to {
        all_filters.push(Box::new(RangeQuery::new(
            Bound::Unbounded,
            Bound::Included(Term::from_field_i64(f.date_from, end)),
        )));
    }
    if let Some((low, high)) = checks.lat {
        all_filters.push(super::f64_range(f.lat, low, high));
    }
    if let Some((low, high)) = checks.lon {
        all_filters.push(super::f64_range(f.lon, low, high));
    }
    for filter in all_filters {
        clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(filter, 0.0))));
    }
    let full: Box<dyn Query> = if clauses.is_empty() {
        Box::new(tantivy::query::AllQuery)
    } else {
        Box::new(BooleanQuery::new(clauses))
    };
    let mut multi = MultiCollector::new();
    let everything = searcher.num_docs() as usize + 1;
    let top = multi.add_collector(TopDocs::with_limit(everything).tweak_score(
        |segment: &SegmentReader| {
            let keys = segment
                .fast_fields()
                .u64("key")
                .expect("keys")
                .first_or_default_col(0);
            let ff = segment.fast_fields();
            let lat = ff.column_opt::<f64>("lat").expect("lat");
            let lon = ff.column_opt::<f64>("lon").expect("lon");
            move |doc: DocId, score: Score| {
                let position = lat
                    .as_ref()
                    .and_then(|c| c.first(doc))
                    .zip(lon.as_ref().and_then(|c| c.first(doc)));
                (score, Reverse(keys.get_val(doc)), position)
            }
        },
    ));
    let facet_handles: Vec<_> = FACETS
        .iter()
        .map(|dim| {
            let mut c = FacetCollector::for_field(format!("facet_{dim}"));
            c.add_facet("/");
            multi.add_collector(c)
        })
        .collect();
    multi.add_collector(Count);
    let mut fruits = searcher.search(&*full, &multi).expect("search");
    let within = |position: Option<(f64, f64)>| match (query.filters.near, position) {
        (None, _) => true,
        (Some(near), Some((lat, lon))) => {
            gazetteer::distance_km((near.lat, near.lon), (lat, lon)) <= near.km
        }
        (Some(_), None) => false,
    };
    let all: Vec<(Score, u64)> = top
        .extract(&mut fruits)
        .into_iter()
        .filter(|((_, _, position), _)| within(*position))
        .map(|((score, Reverse(key), _), _)| (if plan.text.is_some() { score } else { 0.0 }, key))
        .collect();
    let mut facets = BTreeMap::new();
    for (dim, handle) in FACETS.iter().zip(facet_handles) {
        let counts = handle.extract(&mut fruits);
        let mut values: Vec<(String, u64)> = counts
            .get("/")
            .map(|(facet, n)| (facet.to_path().last().copied().unwrap_or("").to_string(), n))
            .collect();
        values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        facets.insert((*dim).to_string(), values);
    }
    // Facets of the reference count every match before the circle; only
    // compared when there is no circle.
    let total = all.len();
    let mut all = all;
    // Ranked by score, ties by key (the reference's order, restated).
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    (total, all, facets)
}

fn check(archive: &Archive, query: &SearchQuery) {
    let (total, all, facets) = reference(archive, query);
    let found = archive.search(query, None).expect("search");
    assert_eq!(found.total, total, "total of {query:?}");
    let want: Vec<u64> = all.iter().take(query.limit).map(|&(_, k)| k).collect();
    let got: Vec<u64> = found.hits.iter().map(|h| h.key).collect();
    assert_eq!(got, want, "hits of {query:?}");
    for (hit, &(score, _)) in found.hits.iter().zip(&all) {
        assert!(
            (hit.score - score).abs() <= 1e-4 * score.abs().max(1.0),
            "score of {query:?}: {} vs {score}",
            hit.score
        );
    }
    if query.facets && query.filters.near.is_none() {
        assert_eq!(found.facets.as_ref(), Some(&facets), "facets of {query:?}");
    }
    if query.facets {
        let counted = found.facets.as_ref().expect("facets");
        assert_eq!(counted.len(), FACETS.len());
    }
    let keys = archive.search_keys(query, None).expect("keys");
    let every: Vec<u64> = all.iter().map(|&(_, k)| k).collect();
    assert_eq!(keys, every, "search_keys of {query:?}");
}

#[test]
fn search_agrees_with_tantivy_collectors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut archive = Archive::open(&dir.path().join("a"), Mode::Write).expect("open");
    ingest(&mut archive, "one.txt", &captions(0, 150));
    ingest(&mut archive, "two.txt", &captions(150, 150));
    // Cut and extended copies of earlier captions join their records, which
    // are indexed again: the first segments get deleted documents.
    let again: Vec<String> = captions(0, 60)
        .into_iter()
        .map(|c| format!("{c} Residents said the shelling continued."))
        .collect();
    ingest(&mut archive, "three.txt", &again);
    ingest(&mut archive, "four.txt", &captions(300, 90));
    let searcher = archive.reader.searcher();
    assert!(searcher.segment_readers().len() > 1, "several segments");
    assert!(
        searcher
            .segment_readers()
            .iter()
            .any(|s| s.alive_bitset().is_some()),
        "some deleted documents"
    );

    let text = |t: &str| Some(t.to_string());
    let mut queries = Vec::new();
    for t in [
        None,
        text("bread"),
        text("street"),
        text("syria"),
        text("market water"),
        text("\"flooded road\""),
        text("fuel -syria"),
        text("shelling"),
        text("nothingmatches"),
        text("mansour bread"),
        text("aleppo"),
        text("\"lina haddad\" -fuel"),
        text("kyiv^2 water"),
    ] {
        for filters in [
            Filters::default(),
            Filters {
                agency: text("Reuters"),
                ..Filters::default()
            },
            Filters {
                creator: text("Karim Mansour"),
                from: text("2013"),
                ..Filters::default()
            },
            Filters {
                from: text("2012-03"),
                to: text("2016"),
                ..Filters::default()
            },
            Filters {
                to: text("2014"),
                ..Filters::default()
            },
            Filters {
                country: text("Ukraine"),
                flag: text("file_photo"),
                ..Filters::default()
            },
            Filters {
                near: Some(Near {
                    lat: 36.2,
                    lon: 37.1,
                    km: 250.0,
                }),
                ..Filters::default()
            },
            Filters {
                near: Some(Near {
                    lat: 50.0,
                    lon: 33.0,
                    km: 500.0,
                }),
                from: text("2015"),
                ..Filters::default()
            },
        ] {
            for (limit, facets) in [(10, true), (3, false), (0, true), (0, false), (500, false)] {
                queries.push(SearchQuery {
                    text: t.clone(),
                    filters: filters.clone(),
                    limit,
                    facets,
                });
            }
        }
    }
    for query in &queries {
        check(&archive, query);
    }
    // Read handles sharing their facet columns (as a server's do) count
    // what a handle of its own counts.
    let shared = Archive::open(&dir.path().join("a"), Mode::Read).expect("open");
    let mut sharing = Archive::open(&dir.path().join("a"), Mode::Read).expect("open");
    sharing.share_facets(&shared);
    let facet_queries: Vec<&SearchQuery> = queries.iter().filter(|q| q.facets).collect();
    for query in &facet_queries {
        check(&shared, query);
        check(&sharing, query);
    }
    // Corrections re-index their records into a new segment and delete
    // the old documents: the counts of the segments already decoded and of
    // the new one must still agree with the collectors.
    let corrected = archive
        .search(&SearchQuery::text("street"), None)
        .expect("search");
    assert!(corrected.hits.len() >= 4, "{}", corrected.hits.len());
    let fixes = [
        ("location.city", serde_json::json!("Hama")),
        (
            "credit.creators",
            serde_json::json!(["Noor Saleh", "Omar Aziz"]),
        ),
        ("location.country", serde_json::Value::Null),
        ("credit.agencies", serde_json::json!(["AFP", "AFP"])),
    ];
    for (hit, (field, value)) in corrected.hits.iter().zip(fixes) {
        archive
            .review(
                &hit.id,
                "Ana",
                crate::ReviewAction::Correct {
                    field: field.into(),
                    value,
                },
                "",
            )
            .expect("review")
            .expect("record exists");
    }
    assert!(archive.sync_index().expect("sync") > 0);
    for query in queries.iter().filter(|q| q.facets) {
        check(&archive, query);
    }
    // The sharing handles: one still on the generation before the
    // corrections while the other has moved on (the new segment decoded
    // once, into values both use), then both on the new one.
    shared.refresh().expect("refresh");
    for query in &facet_queries {
        check(&shared, query);
        check(&sharing, query);
    }
    sharing.refresh().expect("refresh");
    for query in &facet_queries {
        check(&sharing, query);
    }
    // Some queries find many records, with ties on the page's edge.
    let broad = archive
        .search(&SearchQuery::text("syria"), None)
        .expect("search");
    assert!(broad.total > 100, "{}", broad.total);

    // Rebuilt into one segment: the same records match (scores move a
    // little: the deleted documents no longer count in term statistics).
    let sorted_keys = |archive: &Archive, q: &SearchQuery| {
        let mut keys = archive.search_keys(q, None).expect("keys");
        keys.sort_unstable();
        keys
    };
    let before: Vec<Vec<u64>> = queries.iter().map(|q| sorted_keys(&archive, q)).collect();
    archive.reindex().expect("reindex");
    assert_eq!(archive.reader.searcher().segment_readers().len(), 1);
    for (query, keys) in queries.iter().zip(&before) {
        check(&archive, query);
        assert_eq!(&sorted_keys(&archive, query), keys, "{query:?}");
    }
    // No segment in common with the maps kept: the sharing handles start
    // their values afresh.
    sharing.refresh().expect("refresh");
    for query in &facet_queries {
        check(&sharing, query);
    }
    shared.refresh().expect("refresh");
    for query in &facet_queries {
        check(&shared, query);
    }
}

/// Facet counts by brute force: each matching record's stored JSON read
/// and its values counted once per record, as the index documents give them
/// (no index involved beyond which records match).
fn counted_from_records(archive: &Archive, keys: &[u64]) -> BTreeMap<String, Vec<(String, u64)>> {
    let mut counts: BTreeMap<String, BTreeMap<String, u64>> = FACETS
        .iter()
        .map(|dim| ((*dim).to_string(), BTreeMap::new()))
        .collect();
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    for record in archive.records_by_key(keys).expect("records") {
        let location = &record["location"];
        let one = |v: &serde_json::Value| v.as_str().map(str::to_string).into_iter().collect();
        let upper = |v: &serde_json::Value| -> Vec<String> {
            v.as_str()
                .map(str::to_ascii_uppercase)
                .into_iter()
                .collect()
        };
        let persons: Vec<String> = record["persons"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["name"].as_str().map(str::to_string))
            .collect();
        let year: Vec<String> = record["date_created"]
            .as_str()
            .and_then(crate::index::date_range)
            .map(|(from, _)| (from / 10000).to_string())
            .into_iter()
            .collect();
        let values: [(&str, Vec<String>); 12] = [
            ("agency", strings(&record["credit"]["agencies"])),
            ("creator", strings(&record["credit"]["creators"])),
            ("country", one(&location["country"])),
            ("city", one(&location["city"])),
            ("year", year),
            ("flag", strings(&record["flags"])),
            ("province", one(&location["province"])),
            ("source", one(&record["credit"]["source"])),
            ("person", persons),
            ("org", strings(&record["organizations"])),
            ("country_code", upper(&location["country_code"])),
            ("admin1", upper(&location["province_code"])),
        ];
        for (dim, mut values) in values {
            values.sort();
            values.dedup();
            for value in values {
                *counts
                    .get_mut(dim)
                    .expect("dimension")
                    .entry(value.replace('/', " "))
                    .or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .map(|(dim, values)| {
            let mut values: Vec<(String, u64)> = values.into_iter().collect();
            values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            (dim, values)
        })
        .collect()
}

#[test]
fn facet_counts_equal_a_count_over_the_matching_records() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut archive = Archive::open(&dir.path().join("a"), Mode::Write).expect("open");
    ingest(&mut archive, "one.txt", &captions(0, 120));
    ingest(&mut archive, "two.txt", &captions(120, 80));
    let every_key = |archive: &Archive| -> Vec<u64> {
        let mut keys: Vec<u64> = archive
            .conn
            .prepare("SELECT key FROM records")
            .expect("prepare")
            .query_map([], |r| r.get::<_, i64>(0))
            .expect("keys")
            .map(|k| k.expect("key") as u64)
            .collect();
        keys.sort_unstable();
        keys
    };
    let text = |t: &str| Some(t.to_string());
    let queries = [
        SearchQuery::default(),
        SearchQuery {
            text: text("street"),
            ..SearchQuery::default()
        },
        SearchQuery {
            text: text("syria"),
            filters: Filters {
                from: text("2013"),
                ..Filters::default()
            },
            ..SearchQuery::default()
        },
        SearchQuery {
            filters: Filters {
                agency: text("Reuters"),
                ..Filters::default()
            },
            ..SearchQuery::default()
        },
    ];
    for query in queries {
        let query = SearchQuery {
            limit: 5,
            facets: true,
            ..query
        };
        let mut keys = archive.search_keys(&query, None).expect("keys");
        keys.sort_unstable();
        if query.text.is_none() && query.filters == Filters::default() {
            assert_eq!(
                keys,
                every_key(&archive),
                "the empty query matches everything"
            );
        }
        assert!(!keys.is_empty(), "{query:?} matches");
        let want = counted_from_records(&archive, &keys);
        // Twice: the second time the empty query's counts are the kept ones.
        for _ in 0..2 {
            let found = archive.search(&query, None).expect("search");
            assert_eq!(found.total, keys.len());
            assert_eq!(found.facets.as_ref(), Some(&want), "facets of {query:?}");
        }
    }
    // A commit makes the kept counts of the empty query stale.
    ingest(&mut archive, "three.txt", &captions(200, 40));
    let query = SearchQuery {
        limit: 5,
        facets: true,
        ..SearchQuery::default()
    };
    let found = archive.search(&query, None).expect("search");
    let keys = every_key(&archive);
    assert_eq!(found.total, keys.len());
    assert_eq!(found.facets, Some(counted_from_records(&archive, &keys)));
}
