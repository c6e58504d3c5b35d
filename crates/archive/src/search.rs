//! Search: a free-text query over descriptions, names and places, filters,
//! facet counts, ranked hits with snippets.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::ops::Bound;

use gazetteer::{Gazetteer, MatchKind};
use rusqlite::Connection;
use serde_json::Value;
use tantivy::collector::{
    Collector, Count, FacetCollector, MultiCollector, SegmentCollector, TopDocs,
};
use tantivy::columnar::ColumnValues;
use tantivy::query::{
    AllQuery, BooleanQuery, ConstScoreQuery, EmptyQuery, Occur, PhraseQuery, Query, QueryParser,
    RangeQuery, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, TantivyDocument, Term};

use crate::index::{self, Fields, FACETS};
use crate::{Archive, Error};

/// A search: free text, filters, how many hits, whether to count facets.
#[derive(Debug, Clone, Default)]
pub struct SearchQuery {
    /// Free text (tantivy query syntax: words, `"phrases"`, `-excluded`);
    /// every word must match by default. `None`: every record.
    pub text: Option<String>,
    /// Filters, all of which must hold.
    pub filters: Filters,
    /// Hits to return (0: count only).
    pub limit: usize,
    /// Count facets over all matching records.
    pub facets: bool,
}

impl SearchQuery {
    /// A query for `text` with no filters and 10 hits.
    pub fn text(text: &str) -> SearchQuery {
        SearchQuery {
            text: Some(text.to_string()),
            limit: 10,
            ..SearchQuery::default()
        }
    }
}

/// Filters on the record's fields.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// Credited agency (words of its name, `Getty` finds `Getty Images`).
    pub agency: Option<String>,
    /// Credited creator (words of the name).
    pub creator: Option<String>,
    /// Country: name or ISO code.
    pub country: Option<String>,
    /// City: any spelling the gazetteer knows (`Raqa` finds `Raqqa`).
    pub city: Option<String>,
    /// Province (first-level division): name or `CC.NN` code.
    pub province: Option<String>,
    /// Date taken on or after: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    pub from: Option<String>,
    /// Date taken on or before.
    pub to: Option<String>,
    /// A verification flag (`file_photo`, `unverified`, …).
    pub flag: Option<String>,
    /// Within a distance of a point.
    pub near: Option<Near>,
    /// A person shown (words of the name).
    pub person: Option<String>,
    /// An organization named.
    pub org: Option<String>,
}

/// A circle on the map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Near {
    /// Latitude of the centre.
    pub lat: f64,
    /// Longitude of the centre.
    pub lon: f64,
    /// Radius in kilometres.
    pub km: f64,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResults {
    /// Records matching.
    pub total: usize,
    /// The best `limit` of them, best first (ties by store order).
    pub hits: Vec<Hit>,
    /// Facet counts when asked for.
    pub facets: Option<Facets>,
    /// Store changes not yet in the index (an ingest is running, or was
    /// killed; the next writer catches up).
    pub index_behind: i64,
}

/// Facet dimension → (value, count), largest first.
pub type Facets = BTreeMap<String, Vec<(String, u64)>>;

/// One matching record.
#[derive(Debug, Clone)]
pub struct Hit {
    /// Store key.
    pub key: u64,
    /// Public id.
    pub id: String,
    /// Relevance.
    pub score: f32,
    /// The description around the matched words.
    pub snippet: Snippet,
    /// The record (see [`Archive::records_by_key`]).
    pub record: Value,
}

/// A piece of the description with the matched words marked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The text.
    pub text: String,
    /// Byte ranges of the matched words in `text`.
    pub highlights: Vec<(usize, usize)>,
}

const SNIPPET_CHARS: usize = 200;

impl Archive {
    /// Runs a search. Place filters resolve through `gazetteer` when given
    /// (every spelling of the place); without it they match folded names.
    pub fn search(
        &self,
        query: &SearchQuery,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<SearchResults, Error> {
        let searcher = self.reader.searcher();
        let f = &self.fields;
        let text_query = match query.text.as_deref().map(str::trim) {
            Some(text) if !text.is_empty() => {
                let mut parser = QueryParser::for_index(
                    &self.index,
                    vec![
                        f.description,
                        f.persons,
                        f.orgs,
                        f.creators,
                        f.agencies,
                        f.places,
                    ],
                );
                parser.set_conjunction_by_default();
                parser.set_field_boost(f.persons, 1.5);
                parser.set_field_boost(f.places, 1.5);
                let (parsed, _errors) = parser.parse_query_lenient(text);
                Some(parsed)
            }
            _ => None,
        };
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        if let Some(q) = &text_query {
            clauses.push((Occur::Must, q.box_clone()));
        }
        for filter in self.filter_queries(&query.filters, gazetteer)? {
            clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(filter, 0.0))));
        }
        let full: Box<dyn Query> = match clauses.len() {
            0 => Box::new(AllQuery),
            _ => Box::new(BooleanQuery::new(clauses)),
        };

        let mut multi = MultiCollector::new();
        let top = multi.add_collector(TopDocs::with_limit(query.limit.max(1)).tweak_score(
            |segment: &SegmentReader| {
                let keys = segment
                    .fast_fields()
                    .u64("key")
                    .ok()
                    .map(|c| c.first_or_default_col(0));
                move |doc: DocId, score: Score| {
                    (score, Reverse(keys.as_ref().map_or(0, |k| k.get_val(doc))))
                }
            },
        ));
        let count = multi.add_collector(Count);
        let facet_handles: Vec<_> = if query.facets {
            FACETS
                .iter()
                .map(|dim| {
                    let mut c = FacetCollector::for_field(format!("facet_{dim}"));
                    c.add_facet("/");
                    multi.add_collector(c)
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut fruits = match query.filters.near {
            Some(near) => searcher.search(&*full, &GeoFilter { inner: multi, near }),
            None => searcher.search(&*full, &multi),
        }
        .map_err(|e| {
            Error::index(
                "searching the index (run `dateline reindex` if it persists)",
                e,
            )
        })?;
        let top = top.extract(&mut fruits);
        let total = count.extract(&mut fruits);
        let facets = if query.facets {
            let mut out = Facets::new();
            for (dim, handle) in FACETS.iter().zip(facet_handles) {
                let counts = handle.extract(&mut fruits);
                let mut values: Vec<(String, u64)> = counts
                    .get("/")
                    .map(|(facet, n)| {
                        (facet.to_path().last().copied().unwrap_or("").to_string(), n)
                    })
                    .collect();
                values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                out.insert((*dim).to_string(), values);
            }
            Some(out)
        } else {
            None
        };

        let snippets = match &text_query {
            Some(q) => {
                let mut g = SnippetGenerator::create(&searcher, &**q, f.description)
                    .map_err(|e| Error::index("making snippets", e))?;
                g.set_max_num_chars(SNIPPET_CHARS);
                Some(g)
            }
            None => None,
        };
        let keys: Vec<u64> = top.iter().map(|((_, Reverse(key)), _)| *key).collect();
        let records = if query.limit == 0 {
            Vec::new()
        } else {
            self.records_by_key(&keys)?
        };
        let mut hits = Vec::new();
        for (((score, Reverse(key)), address), record) in top.into_iter().zip(records) {
            let snippet = match &snippets {
                Some(g) => {
                    let doc: TantivyDocument = searcher
                        .doc(address)
                        .map_err(|e| Error::index("reading a hit", e))?;
                    let s = g.snippet_from_doc(&doc);
                    Snippet {
                        text: s.fragment().to_string(),
                        highlights: s.highlighted().iter().map(|r| (r.start, r.end)).collect(),
                    }
                }
                None => Snippet {
                    text: head(record["description"].as_str().unwrap_or(""), SNIPPET_CHARS),
                    highlights: Vec::new(),
                },
            };
            hits.push(Hit {
                key,
                id: record["id"].as_str().unwrap_or("").to_string(),
                score,
                snippet,
                record,
            });
        }
        let index_behind = (self.store_seq()? - self.index_watermark()?).max(0);
        Ok(SearchResults {
            total,
            hits,
            facets,
            index_behind,
        })
    }

    /// Every record key matching a query, best first (for exports).
    pub fn search_keys(
        &self,
        query: &SearchQuery,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<Vec<u64>, Error> {
        let all = SearchQuery {
            limit: 0,
            facets: false,
            ..query.clone()
        };
        let total = self.search(&all, gazetteer)?.total;
        if total == 0 {
            return Ok(Vec::new());
        }
        let mut full = query.clone();
        full.limit = total;
        full.facets = false;
        Ok(self
            .search(&full, gazetteer)?
            .hits
            .iter()
            .map(|h| h.key)
            .collect())
    }

    fn filter_queries(
        &self,
        filters: &Filters,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<Vec<Box<dyn Query>>, Error> {
        let f = &self.fields;
        let mut out: Vec<Box<dyn Query>> = Vec::new();
        for (value, field) in [
            (&filters.agency, f.agencies),
            (&filters.creator, f.creators),
            (&filters.person, f.persons),
            (&filters.org, f.orgs),
        ] {
            if let Some(value) = value {
                out.push(self.phrase(field, value)?);
            }
        }
        if let Some(country) = &filters.country {
            let country = country.trim();
            let mut terms = vec![Term::from_field_text(
                f.country_key,
                &gazetteer::fold(country),
            )];
            if country.len() == 2 {
                terms.push(Term::from_field_text(
                    f.country_code,
                    &country.to_ascii_uppercase(),
                ));
            }
            if let Some(c) = gazetteer.and_then(|g| g.country_named(country)) {
                terms.push(Term::from_field_text(f.country_code, c.code.as_str()));
            }
            out.push(any_of(terms));
        }
        if let Some(city) = &filters.city {
            out.push(any_of(city_terms(f, city, gazetteer)));
        }
        if let Some(province) = &filters.province {
            let province = province.trim();
            let mut terms = vec![
                Term::from_field_text(f.province_key, &gazetteer::fold(province)),
                Term::from_field_text(f.province_code, &province.to_ascii_uppercase()),
            ];
            for admin1 in gazetteer
                .map(|g| g.admin1_named(province, None))
                .unwrap_or_default()
            {
                terms.push(Term::from_field_text(f.province_code, &admin1.code));
            }
            out.push(any_of(terms));
        }
        if let Some(from) = &filters.from {
            let (start, _) = index::date_range(from.trim())
                .ok_or_else(|| Error::BadQuery(format!("--from {from:?} is not YYYY[-MM[-DD]]")))?;
            out.push(Box::new(RangeQuery::new(
                Bound::Included(Term::from_field_i64(f.date_to, start)),
                Bound::Unbounded,
            )));
        }
        if let Some(to) = &filters.to {
            let (_, end) = index::date_range(to.trim())
                .ok_or_else(|| Error::BadQuery(format!("--to {to:?} is not YYYY[-MM[-DD]]")))?;
            out.push(Box::new(RangeQuery::new(
                Bound::Unbounded,
                Bound::Included(Term::from_field_i64(f.date_from, end)),
            )));
        }
        if let Some(flag) = &filters.flag {
            let flag = flag.trim().to_ascii_lowercase().replace(['-', ' '], "_");
            out.push(Box::new(TermQuery::new(
                Term::from_field_text(f.flag, &flag),
                IndexRecordOption::Basic,
            )));
        }
        if let Some(near) = filters.near {
            if !(near.lat.abs() <= 90.0 && near.lon.abs() <= 180.0 && near.km >= 0.0) {
                return Err(Error::BadQuery(
                    "--near needs LAT (-90..90), LON (-180..180) and KM (≥ 0)".into(),
                ));
            }
            // Bounding box first (an index range), the exact circle in the
            // collector.
            let dlat = near.km / 111.0;
            out.push(f64_range(f.lat, near.lat - dlat, near.lat + dlat));
            let cos = near.lat.to_radians().cos();
            if cos > 0.01 {
                let dlon = near.km / (111.32 * cos);
                if near.lon - dlon >= -180.0 && near.lon + dlon <= 180.0 {
                    out.push(f64_range(f.lon, near.lon - dlon, near.lon + dlon));
                }
            }
        }
        Ok(out)
    }

    /// The words of `value` as a phrase in `field`, tokenized as indexed.
    fn phrase(&self, field: Field, value: &str) -> Result<Box<dyn Query>, Error> {
        let mut analyzer = self
            .index
            .tokenizer_for_field(field)
            .map_err(|e| Error::index("tokenizing a filter", e))?;
        let mut stream = analyzer.token_stream(value);
        let mut terms = Vec::new();
        while let Some(token) = stream.next() {
            terms.push(Term::from_field_text(field, &token.text));
        }
        Ok(match terms.len() {
            0 => Box::new(EmptyQuery),
            1 => Box::new(TermQuery::new(terms.remove(0), IndexRecordOption::Basic)),
            _ => Box::new(PhraseQuery::new(terms)),
        })
    }
}

/// Terms matching a city: the folded name as given, and every gazetteer
/// place of that name in any spelling (by GeoNames id and by its name).
fn city_terms(f: &Fields, city: &str, gazetteer: Option<&Gazetteer>) -> Vec<Term> {
    let city = city.trim();
    let mut terms = vec![Term::from_field_text(f.city_key, &gazetteer::fold(city))];
    if let Some(g) = gazetteer {
        let matches = g.places_named(city);
        // Spelling variants (folded, transliterated) are the same place; a
        // consonant skeleton alone is weak, used only when nothing better.
        let strong = matches.iter().any(|m| m.kind != MatchKind::Skeleton);
        for m in matches
            .iter()
            .filter(|m| !strong || m.kind != MatchKind::Skeleton)
        {
            terms.push(Term::from_field_u64(f.geonames_id, u64::from(m.place.id)));
            terms.push(Term::from_field_text(
                f.city_key,
                &gazetteer::fold(&m.place.name),
            ));
        }
    }
    terms
}

fn any_of(terms: Vec<Term>) -> Box<dyn Query> {
    Box::new(BooleanQuery::new(
        terms
            .into_iter()
            .map(|t| {
                (
                    Occur::Should,
                    Box::new(TermQuery::new(t, IndexRecordOption::Basic)) as Box<dyn Query>,
                )
            })
            .collect(),
    ))
}

fn f64_range(field: Field, low: f64, high: f64) -> Box<dyn Query> {
    Box::new(RangeQuery::new(
        Bound::Included(Term::from_field_f64(field, low)),
        Bound::Included(Term::from_field_f64(field, high)),
    ))
}

/// The first `max` characters of `text`, cut at a word.
fn head(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    match cut.rfind(' ') {
        Some(space) => format!("{}…", &cut[..space]),
        None => cut,
    }
}

/// Great-circle distance in kilometres.
pub(crate) fn haversine_km(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = p2 - p1;
    let dl = (lon2 - lon1).to_radians();
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * 6371.0088 * a.sqrt().asin()
}

/// Passes on to `inner` only the documents within `near` (exact distance
/// from the lat/lon fast fields; the query has already cut a bounding box).
struct GeoFilter<C> {
    inner: C,
    near: Near,
}

struct GeoFilterSegment<S> {
    inner: S,
    near: Near,
    lat: std::sync::Arc<dyn ColumnValues<f64>>,
    lon: std::sync::Arc<dyn ColumnValues<f64>>,
}

impl<C: Collector> Collector for GeoFilter<C> {
    type Fruit = C::Fruit;
    type Child = GeoFilterSegment<C::Child>;

    fn for_segment(
        &self,
        ordinal: SegmentOrdinal,
        segment: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        Ok(GeoFilterSegment {
            inner: self.inner.for_segment(ordinal, segment)?,
            near: self.near,
            lat: segment
                .fast_fields()
                .f64("lat")?
                .first_or_default_col(f64::NAN),
            lon: segment
                .fast_fields()
                .f64("lon")?
                .first_or_default_col(f64::NAN),
        })
    }

    fn requires_scoring(&self) -> bool {
        self.inner.requires_scoring()
    }

    fn merge_fruits(
        &self,
        fruits: Vec<<Self::Child as SegmentCollector>::Fruit>,
    ) -> tantivy::Result<Self::Fruit> {
        self.inner.merge_fruits(fruits)
    }
}

impl<S: SegmentCollector> SegmentCollector for GeoFilterSegment<S> {
    type Fruit = S::Fruit;

    fn collect(&mut self, doc: DocId, score: Score) {
        let (lat, lon) = (self.lat.get_val(doc), self.lon.get_val(doc));
        if haversine_km(self.near.lat, self.near.lon, lat, lon) <= self.near.km {
            self.inner.collect(doc, score);
        }
    }

    fn harvest(self) -> Self::Fruit {
        self.inner.harvest()
    }
}

/// See [`Archive::records_by_key`].
pub(crate) fn records_by_key(conn: &Connection, keys: &[u64]) -> Result<Vec<Value>, Error> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT r.id, r.json,
                    (SELECT count(*) FROM occurrences o WHERE o.record = r.key),
                    (SELECT count(*) FROM variants v WHERE v.record = r.key)
             FROM records r WHERE r.key = ?1",
        )
        .map_err(|e| Error::sqlite("reading records", e))?;
    let mut out = Vec::with_capacity(keys.len());
    for &key in keys {
        let (id, json, occurrences, variants): (String, String, i64, i64) = stmt
            .query_row([key as i64], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .map_err(|e| Error::sqlite("reading a record", e))?;
        let mut record: Value =
            serde_json::from_str(&json).map_err(|_| Error::BadRecord(id.clone()))?;
        if let Some(object) = record.as_object_mut() {
            let variant = object.insert("id".into(), Value::String(id.clone()));
            object.insert(
                "archive".into(),
                serde_json::json!({
                    "variant": variant,
                    "occurrences": occurrences,
                    "variants": variants,
                }),
            );
        }
        out.push(record);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn haversine_matches_known_distances() {
        // Damascus to Aleppo: about 310 km.
        let d = super::haversine_km(33.5102, 36.2913, 36.2021, 37.1343);
        assert!((d - 310.0).abs() < 15.0, "{d}");
        assert!(super::haversine_km(10.0, 20.0, 10.0, 20.0) < 1e-9);
    }
}
