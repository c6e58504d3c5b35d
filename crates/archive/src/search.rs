//! Search: a free-text query over descriptions, names and places, filters,
//! facet counts, ranked hits with snippets.

use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;
// Arc, not Rc: an `Archive` is `Send`, so a server can hand one between threads.
use std::sync::Arc;

use gazetteer::{Gazetteer, MatchKind};
use rusqlite::Connection;
use serde_json::Value;
use tantivy::columnar::Column;
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, EmptyQuery, EnableScoring, Occur,
    PhraseQuery, Query, QueryParser, RangeQuery, TermQuery,
};
use tantivy::schema::{Facet, Field, IndexRecordOption};
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocId, Score, Searcher, SegmentReader, Term};

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
#[derive(Debug, Clone, Default, PartialEq)]
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
    /// The record with its corrections (see
    /// [`Archive::records_with_corrections`]).
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

/// Score boost of a word found in a person's name.
const PERSON_BOOST: Score = 1.5;
/// Score boost of a word found in a place.
const PLACE_BOOST: Score = 1.5;

/// The parser of a query's text: every word must match, in any of the text
/// fields (description, names, places), without boosts.
fn text_parser(index: &tantivy::Index, f: &crate::index::Fields) -> QueryParser {
    let mut parser = QueryParser::for_index(
        index,
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
    parser
}

impl Archive {
    /// Runs a search. Place filters resolve through `gazetteer` when given
    /// (every spelling of the place); without it they match folded names.
    pub fn search(
        &self,
        query: &SearchQuery,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<SearchResults, Error> {
        let searcher = self.reader.searcher();
        let plan = self.plan(&searcher, query, gazetteer)?;
        // The page's first view (no text, no filter) counts facets over
        // every record: its counts are kept for the index generation.
        let everything = plan.text.is_none() && query.filters == Filters::default();
        let kept = if query.facets && everything {
            self.all_facets(&searcher)
        } else {
            None
        };
        let counted = (query.facets && kept.is_none()).then(|| CountKey::of(query, gazetteer));
        let mut found = self.find(&searcher, &plan, query.limit, counted.as_ref())?;
        if let Some(kept) = kept {
            found.facets = Some(Facets::clone(&kept));
        } else if query.facets && everything {
            if let Some(facets) = &found.facets {
                self.keep_all_facets(&searcher, facets);
            }
        }

        // Only the page shown is read from the store and given snippets,
        // with the reviewer's values, as the index has them.
        let keys: Vec<u64> = found.top.iter().map(|&(_, key)| key).collect();
        let records = self.records_with_corrections(&keys)?;
        let snippets = match &plan.text {
            Some(q) => {
                let mut g = SnippetGenerator::create(&searcher, &**q, self.fields.description)
                    .map_err(|e| Error::index("making snippets", e))?;
                g.set_max_num_chars(SNIPPET_CHARS);
                Some(g)
            }
            None => None,
        };
        let mut hits = Vec::with_capacity(records.len());
        for ((score, key), record) in found.top.into_iter().zip(records) {
            let description = record["description"].as_str().unwrap_or("");
            let snippet = match &snippets {
                Some(g) => {
                    let s = g.snippet(description.trim());
                    Snippet {
                        text: s.fragment().to_string(),
                        highlights: s.highlighted().iter().map(|r| (r.start, r.end)).collect(),
                    }
                }
                None => Snippet {
                    text: head(description, SNIPPET_CHARS),
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
        let index_behind = (self.store_seq()? - self.searched_watermark(&searcher)?).max(0);
        Ok(SearchResults {
            total: found.total,
            hits,
            facets: found.facets,
            index_behind,
        })
    }

    /// Every record key matching a query, best first (for exports).
    pub fn search_keys(
        &self,
        query: &SearchQuery,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<Vec<u64>, Error> {
        let searcher = self.reader.searcher();
        let plan = self.plan(&searcher, query, gazetteer)?;
        let limit = searcher.num_docs() as usize;
        let found = self.find(&searcher, &plan, limit, None)?;
        Ok(found.top.into_iter().map(|(_, key)| key).collect())
    }

    /// How a query is run: what selects documents in the inverted index,
    /// and what is checked per document on fast fields.
    fn plan(
        &self,
        searcher: &Searcher,
        query: &SearchQuery,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<Plan, Error> {
        let f = &self.fields;
        let text = match query.text.as_deref().map(str::trim) {
            Some(text) if !text.is_empty() => {
                let mut parser = text_parser(&self.index, f);
                // A word is looked for in every field, but most words are in
                // one or two: the fields where a word is nowhere are left out
                // (the same matches and scores; an intersection of words
                // then walks posting lists instead of six-way unions).
                let (bare, _errors) = parser.parse_query_lenient(text);
                let boosts = [(f.persons, PERSON_BOOST), (f.places, PLACE_BOOST)];
                match without_absent_terms(&*bare, searcher, &boosts) {
                    Some(query) => Some(query),
                    None => {
                        for (field, boost) in boosts {
                            parser.set_field_boost(field, boost);
                        }
                        Some(parser.parse_query_lenient(text).0)
                    }
                }
            }
            _ => None,
        };
        let (filters, mut checks) = self.filter_queries(searcher, &query.filters, gazetteer)?;
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        if let Some(q) = &text {
            clauses.push((Occur::Must, q.box_clone()));
        }
        for filter in filters {
            clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(filter, 0.0))));
        }
        if clauses.is_empty() {
            // Nothing in the inverted index narrows the search: a range of
            // a fast field leads (a scan of its column), the rest is checked.
            if let Some(lead) = checks.take_lead(f) {
                clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(lead, 0.0))));
            }
        }
        // A single word alone can skip blocks of documents that cannot make
        // the page (block-max WAND); the total is then counted apart.
        let prunable = clauses.len() == 1 && text.is_some() && checks.is_empty() && {
            let mut fields = Vec::new();
            let mut single = true;
            if let Some(q) = &text {
                q.query_terms(&mut |term, positions| {
                    single &= !positions && !fields.contains(&term.field());
                    fields.push(term.field());
                });
            }
            single && !fields.is_empty()
        };
        let query: Box<dyn Query> = match clauses.len() {
            0 => Box::new(AllQuery),
            1 if text.is_some() => clauses.remove(0).1,
            _ => Box::new(BooleanQuery::new(clauses)),
        };
        Ok(Plan {
            text,
            query,
            checks,
            prunable,
        })
    }

    /// The total, the best `limit` keys and the facet counts of a plan
    /// (when `facets` names the query counted: see [`SegmentCountCache`]).
    fn find(
        &self,
        searcher: &Searcher,
        plan: &Plan,
        limit: usize,
        facets: Option<&CountKey>,
    ) -> Result<Found, Error> {
        let failed = |e| {
            Error::index(
                "searching the index (run `dateline reindex` if it persists)",
                e,
            )
        };
        let scored = plan.text.is_some() && limit > 0;
        let weight = plan
            .query
            .weight(if scored {
                EnableScoring::enabled_from_searcher(searcher)
            } else {
                EnableScoring::disabled_from_searcher(searcher)
            })
            .map_err(failed)?;
        let facet_maps = match facets {
            Some(_) => Some(self.facet_maps(searcher)?),
            None => None,
        };
        let count_cache = facets.map(|_| Arc::clone(&self.search_cache.borrow().shared));
        let mut counts = facet_maps.as_ref().map(|m| m.zeroed_counts());
        // A large segment's counts are made apart (then kept, and added to
        // `counts`); a small one's straight into `counts`.
        let mut apart = facet_maps.as_ref().map(|m| m.zeroed_counts());
        let mut top = TopK::new(limit);
        let mut total: u64 = 0;
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            // This segment's total and facet counts, when kept from an
            // earlier search of the same query (same documents, same deletes).
            let key = match (facets, &facet_maps) {
                (Some(query), Some(_)) if segment.max_doc() >= COUNT_CACHE_MIN_DOCS => {
                    Some(SegmentCountKey::of(query, segment))
                }
                _ => None,
            };
            let cached = match (&key, &count_cache, &facet_maps) {
                (Some(key), Some(cache), Some(maps)) => cache.counts.get(key, &maps.segments[ord]),
                _ => None,
            };
            if let (Some(cached), Some(counts)) = (&cached, &mut counts) {
                total += cached.total;
                cached.add_to(counts);
                if limit == 0 {
                    continue;
                }
            }
            let alive = segment.alive_bitset();
            let checks = plan.checks.for_segment(segment).map_err(failed)?;
            let keys = segment
                .fast_fields()
                .u64("key")
                .map_err(failed)?
                .first_or_default_col(0);
            let before = total;
            let mut facets = match (&facet_maps, &mut counts, &mut apart) {
                _ if cached.is_some() => None,
                (Some(maps), _, Some(apart)) if key.is_some() => Some(maps.segment(ord, apart)),
                (Some(maps), Some(counts), _) => Some(maps.segment(ord, counts)),
                _ => None,
            };
            let counting = cached.is_none();
            let admit = |doc: DocId| {
                alive.is_none_or(|a| a.is_alive(doc)) && checks.as_ref().is_none_or(|c| c.pass(doc))
            };
            if plan.prunable && scored {
                // Count (and facets) without scores, then the page with
                // block skipping.
                match &mut facets {
                    None if !counting => {}
                    None => total += u64::from(weight.count(segment).map_err(failed)?),
                    Some(facets) => weight
                        .for_each_no_score(segment, &mut |docs| {
                            for &doc in docs {
                                if admit(doc) {
                                    total += 1;
                                    facets.collect(doc);
                                }
                            }
                        })
                        .map_err(failed)?,
                }
                weight
                    .for_each_pruning(top.threshold(), segment, &mut |doc, score| {
                        if admit(doc) {
                            top.offer(score, || keys.get_val(doc));
                        }
                        top.threshold()
                    })
                    .map_err(failed)?;
            } else if scored {
                weight
                    .for_each(segment, &mut |doc, score| {
                        if admit(doc) {
                            total += u64::from(counting);
                            if let Some(facets) = &mut facets {
                                facets.collect(doc);
                            }
                            top.offer(score, || keys.get_val(doc));
                        }
                    })
                    .map_err(failed)?;
            } else if limit == 0 && facets.is_none() && checks.is_none() {
                total += u64::from(weight.count(segment).map_err(failed)?);
            } else {
                weight
                    .for_each_no_score(segment, &mut |docs| {
                        for &doc in docs {
                            if admit(doc) {
                                total += u64::from(counting);
                                if let Some(facets) = &mut facets {
                                    facets.collect(doc);
                                }
                                top.offer(0.0, || keys.get_val(doc));
                            }
                        }
                    })
                    .map_err(failed)?;
            }
            // A large segment counted apart: its counts kept and added.
            if let (Some(key), None, Some(cache), Some(maps), Some(counts), Some(apart)) = (
                key,
                &cached,
                &count_cache,
                &facet_maps,
                &mut counts,
                &mut apart,
            ) {
                let segment_counts = SegmentCounts::take(total - before, apart);
                segment_counts.add_to(counts);
                cache
                    .counts
                    .keep(key, Arc::clone(&maps.segments[ord]), segment_counts);
            }
        }
        Ok(Found {
            total: total as usize,
            top: top.into_sorted(),
            facets: facet_maps
                .zip(counts)
                .map(|(maps, counts)| maps.facets(&counts)),
        })
    }

    /// Calls `visit` with every record matching a query (its segment's
    /// state from `open`, and its document), for aggregates the facet
    /// counts do not give; returns how many matched.
    pub(crate) fn each_match<S>(
        &self,
        query: &SearchQuery,
        gazetteer: Option<&Gazetteer>,
        mut open: impl FnMut(&SegmentReader) -> tantivy::Result<S>,
        mut visit: impl FnMut(&mut S, DocId),
    ) -> Result<u64, Error> {
        let searcher = self.reader.searcher();
        let plan = self.plan(&searcher, query, gazetteer)?;
        let failed = |e| Error::index("searching the index", e);
        let weight = plan
            .query
            .weight(EnableScoring::disabled_from_searcher(&searcher))
            .map_err(failed)?;
        let mut total = 0;
        for segment in searcher.segment_readers() {
            let alive = segment.alive_bitset();
            let checks = plan.checks.for_segment(segment).map_err(failed)?;
            let mut state = open(segment).map_err(failed)?;
            weight
                .for_each_no_score(segment, &mut |docs| {
                    for &doc in docs {
                        if alive.is_none_or(|a| a.is_alive(doc))
                            && checks.as_ref().is_none_or(|c| c.pass(doc))
                        {
                            total += 1;
                            visit(&mut state, doc);
                        }
                    }
                })
                .map_err(failed)?;
        }
        Ok(total)
    }

    /// Facet values of the current searcher's segments. A segment's columns
    /// never change, so a new generation (a correction commits a one-record
    /// segment and deletes in another) reads only its new segments' values.
    /// The columns are shared with the other handles of the process that
    /// [`Archive::share_facets`] joined, so each segment is decoded once.
    fn facet_maps(&self, searcher: &Searcher) -> Result<Arc<FacetMaps>, Error> {
        let shared = {
            let cache = self.search_cache.borrow();
            if let Some(maps) = cache.facets.as_ref().filter(|m| m.is_of(searcher)) {
                return Ok(Arc::clone(maps));
            }
            Arc::clone(&cache.shared)
        };
        let maps = shared
            .maps_of(searcher)
            .map_err(|e| Error::index("reading facet values", e))?;
        self.search_cache.borrow_mut().facets = Some(Arc::clone(&maps));
        Ok(maps)
    }

    /// Makes this handle use the facet columns of `other` (another handle
    /// on the same archive in this process) instead of decoding its own:
    /// a server's handles then hold each segment's columns once, not once
    /// each, and decode a new segment once.
    pub fn share_facets(&mut self, other: &Archive) {
        let shared = Arc::clone(&other.search_cache.borrow().shared);
        let cache = self.search_cache.get_mut();
        cache.shared = shared;
        cache.facets = None;
    }

    /// The facet counts over every record of the searcher's generation, if
    /// kept.
    fn all_facets(&self, searcher: &Searcher) -> Option<Arc<Facets>> {
        let generation = generation_of(searcher);
        let cache = self.search_cache.borrow();
        let (g, facets) = cache.all_facets.as_ref()?;
        (*g == generation).then(|| Arc::clone(facets))
    }

    /// Keeps the facet counts over every record of the searcher's
    /// generation (a commit makes a new generation, so they are not used
    /// after it).
    fn keep_all_facets(&self, searcher: &Searcher, facets: &Facets) {
        let generation = generation_of(searcher);
        self.search_cache.borrow_mut().all_facets = Some((generation, Arc::new(facets.clone())));
    }

    /// The index watermark, read once per index generation searched (the
    /// reader reloads only when this process commits).
    fn searched_watermark(&self, searcher: &Searcher) -> Result<i64, Error> {
        let generation = searcher.generation().generation_id();
        if let Some((g, watermark)) = self.search_cache.borrow().watermark {
            if g == generation {
                return Ok(watermark);
            }
        }
        let watermark = self.index_watermark()?;
        self.search_cache.borrow_mut().watermark = Some((generation, watermark));
        Ok(watermark)
    }

    /// The filters as index queries (terms and phrases), and the checks of
    /// dates and distance, made per document on fast fields: a range query
    /// would scan its column ahead of every document the other clauses
    /// find, where a check reads one value.
    fn filter_queries(
        &self,
        searcher: &Searcher,
        filters: &Filters,
        gazetteer: Option<&Gazetteer>,
    ) -> Result<(Vec<Box<dyn Query>>, Checks), Error> {
        let f = &self.fields;
        let mut out: Vec<Box<dyn Query>> = Vec::new();
        let mut checks = Checks::default();
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
            out.push(any_of(searcher, terms));
        }
        if let Some(city) = &filters.city {
            out.push(any_of(searcher, city_terms(f, city, gazetteer)));
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
            out.push(any_of(searcher, terms));
        }
        if let Some(from) = &filters.from {
            let (start, _) = index::date_range(from.trim())
                .ok_or_else(|| Error::BadQuery(format!("--from {from:?} is not YYYY[-MM[-DD]]")))?;
            checks.from = Some(start);
        }
        if let Some(to) = &filters.to {
            let (_, end) = index::date_range(to.trim())
                .ok_or_else(|| Error::BadQuery(format!("--to {to:?} is not YYYY[-MM[-DD]]")))?;
            checks.to = Some(end);
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
            // A bounding box first (cheap), then the exact circle.
            let dlat = near.km / 111.0;
            checks.lat = Some((near.lat - dlat, near.lat + dlat));
            let cos = near.lat.to_radians().cos();
            if cos > 0.01 {
                let dlon = near.km / (111.32 * cos);
                if near.lon - dlon >= -180.0 && near.lon + dlon <= 180.0 {
                    checks.lon = Some((near.lon - dlon, near.lon + dlon));
                }
            }
            checks.near = Some(near);
        }
        Ok((out, checks))
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

/// `query` (as parsed without field boosts) with the term clauses that
/// match nothing in the index left out where that changes nothing (an
/// optional or excluded clause), and the field boosts applied as the parser
/// applies them; `None` when the query has parts this cannot rebuild.
fn without_absent_terms(
    query: &dyn Query,
    searcher: &Searcher,
    boosts: &[(Field, Score)],
) -> Option<Box<dyn Query>> {
    let boosted = |query: Box<dyn Query>, field: Field| -> Box<dyn Query> {
        match boosts.iter().find(|(f, _)| *f == field) {
            Some(&(_, boost)) => Box::new(BoostQuery::new(query, boost)),
            None => query,
        }
    };
    if let Some(term) = query.downcast_ref::<TermQuery>() {
        return Some(boosted(Box::new(term.clone()), term.term().field()));
    }
    if let Some(phrase) = query.downcast_ref::<PhraseQuery>() {
        return Some(boosted(Box::new(phrase.clone()), phrase.field()));
    }
    let boolean = query.downcast_ref::<BooleanQuery>()?;
    // The parser asks for one optional clause at least (the words' fields).
    let minimum = boolean.get_minimum_number_should_match();
    if minimum > 1 {
        return None;
    }
    let mut clauses = Vec::with_capacity(boolean.clauses().len());
    for (occur, clause) in boolean.clauses() {
        let rebuilt = without_absent_terms(&**clause, searcher, boosts)?;
        let nowhere = |term: &Term| searcher.doc_freq(term).is_ok_and(|n| n == 0);
        let absent = clause
            .downcast_ref::<TermQuery>()
            .is_some_and(|t| nowhere(t.term()))
            || clause
                .downcast_ref::<PhraseQuery>()
                .is_some_and(|p| p.phrase_terms().iter().any(nowhere));
        if absent && matches!(occur, Occur::Should | Occur::MustNot) {
            continue;
        }
        clauses.push((*occur, rebuilt));
    }
    let should = clauses.iter().filter(|(o, _)| *o == Occur::Should).count();
    if minimum == 1 && should == 0 {
        // Every optional clause was absent: nothing can match.
        return Some(Box::new(EmptyQuery));
    }
    Some(match clauses.len() {
        0 => Box::new(EmptyQuery),
        1 if clauses[0].0 != Occur::MustNot => clauses.remove(0).1,
        _ => Box::new(BooleanQuery::with_minimum_required_clauses(
            clauses, minimum,
        )),
    })
}

/// Documents with any of the terms; terms the index has nowhere are left
/// out (a place's many spellings are mostly absent), a single one is a
/// plain term query.
fn any_of(searcher: &Searcher, terms: Vec<Term>) -> Box<dyn Query> {
    let mut present: Vec<Term> = Vec::with_capacity(terms.len());
    for term in terms {
        if !present.contains(&term) && searcher.doc_freq(&term).map_or(true, |n| n > 0) {
            present.push(term);
        }
    }
    let query =
        |t: Term| -> Box<dyn Query> { Box::new(TermQuery::new(t, IndexRecordOption::Basic)) };
    match present.len() {
        0 => Box::new(EmptyQuery),
        1 => query(present.remove(0)),
        _ => Box::new(BooleanQuery::new(
            present
                .into_iter()
                .map(|t| (Occur::Should, query(t)))
                .collect(),
        )),
    }
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

/// What searches keep between them, per index generation.
#[derive(Default)]
pub(crate) struct SearchCache {
    /// The facet columns of the last generation this handle searched with
    /// facets.
    facets: Option<Arc<FacetMaps>>,
    /// Where they come from, shared with other handles.
    shared: Arc<SharedFacets>,
    /// The generation and the watermark its commit carries.
    watermark: Option<(u64, i64)>,
    /// The generation and the facet counts over all its records.
    all_facets: Option<(Generation, Arc<Facets>)>,
}

/// What a searcher sees: its segments and their deletes. Not tantivy's
/// generation id, which every reload renews even when nothing changed
/// (the server reloads before each request, so caches keyed by it were
/// rebuilt every time).
type Generation = BTreeMap<tantivy::index::SegmentId, Option<tantivy::Opstamp>>;

fn generation_of(searcher: &Searcher) -> Generation {
    searcher.generation().segments().clone()
}

/// A query ready to run (see [`Archive::plan`]).
struct Plan {
    /// The free-text part, for scores and snippets.
    text: Option<Box<dyn Query>>,
    /// What selects documents in the inverted index.
    query: Box<dyn Query>,
    /// What is checked per document.
    checks: Checks,
    /// `query` is one word alone: the page can be found with block skipping
    /// and the total counted without scores.
    prunable: bool,
}

/// What [`Archive::find`] found.
struct Found {
    total: usize,
    /// Score and key, best first.
    top: Vec<(Score, u64)>,
    facets: Option<Facets>,
}

/// Conditions checked per document on fast fields (a document without the
/// value fails, as it would a range query).
#[derive(Debug, Default)]
struct Checks {
    /// The last day the photo may have been taken is on or after this.
    from: Option<i64>,
    /// The first day it may have been taken is on or before this.
    to: Option<i64>,
    /// Latitude between.
    lat: Option<(f64, f64)>,
    /// Longitude between.
    lon: Option<(f64, f64)>,
    /// Within the circle.
    near: Option<Near>,
}

impl Checks {
    fn is_empty(&self) -> bool {
        self.from.is_none()
            && self.to.is_none()
            && self.lat.is_none()
            && self.lon.is_none()
            && self.near.is_none()
    }

    /// One check as a range query, to lead when nothing else selects.
    fn take_lead(&mut self, f: &Fields) -> Option<Box<dyn Query>> {
        if let Some(start) = self.from.take() {
            return Some(Box::new(RangeQuery::new(
                Bound::Included(Term::from_field_i64(f.date_to, start)),
                Bound::Unbounded,
            )));
        }
        if let Some(end) = self.to.take() {
            return Some(Box::new(RangeQuery::new(
                Bound::Unbounded,
                Bound::Included(Term::from_field_i64(f.date_from, end)),
            )));
        }
        self.lat
            .take()
            .map(|(low, high)| f64_range(f.lat, low, high))
    }

    fn for_segment(&self, segment: &SegmentReader) -> tantivy::Result<Option<SegmentChecks>> {
        if self.is_empty() {
            return Ok(None);
        }
        let ff = segment.fast_fields();
        let geo = self.lat.is_some() || self.lon.is_some() || self.near.is_some();
        Ok(Some(SegmentChecks {
            from: match self.from {
                Some(start) => Some((ff.column_opt::<i64>("date_to")?, start)),
                None => None,
            },
            to: match self.to {
                Some(end) => Some((ff.column_opt::<i64>("date_from")?, end)),
                None => None,
            },
            lat: if geo {
                ff.column_opt::<f64>("lat")?
            } else {
                None
            },
            lon: if geo {
                ff.column_opt::<f64>("lon")?
            } else {
                None
            },
            geo,
            lat_range: self.lat,
            lon_range: self.lon,
            near: self.near,
        }))
    }
}

/// [`Checks`] on one segment's columns (`None`: no document has the value).
struct SegmentChecks {
    from: Option<(Option<Column<i64>>, i64)>,
    to: Option<(Option<Column<i64>>, i64)>,
    geo: bool,
    lat: Option<Column<f64>>,
    lon: Option<Column<f64>>,
    lat_range: Option<(f64, f64)>,
    lon_range: Option<(f64, f64)>,
    near: Option<Near>,
}

impl SegmentChecks {
    fn pass(&self, doc: DocId) -> bool {
        if let Some((column, start)) = &self.from {
            match column.as_ref().and_then(|c| c.first(doc)) {
                Some(last_day) if last_day >= *start => {}
                _ => return false,
            }
        }
        if let Some((column, end)) = &self.to {
            match column.as_ref().and_then(|c| c.first(doc)) {
                Some(first_day) if first_day <= *end => {}
                _ => return false,
            }
        }
        if self.geo {
            let (Some(lat), Some(lon)) = (
                self.lat.as_ref().and_then(|c| c.first(doc)),
                self.lon.as_ref().and_then(|c| c.first(doc)),
            ) else {
                return false;
            };
            let within = |v: f64, range: Option<(f64, f64)>| {
                range.is_none_or(|(low, high)| low <= v && v <= high)
            };
            if !within(lat, self.lat_range) || !within(lon, self.lon_range) {
                return false;
            }
            if let Some(near) = self.near {
                if gazetteer::distance_km((near.lat, near.lon), (lat, lon)) > near.km {
                    return false;
                }
            }
        }
        true
    }
}

/// The best `limit` (score, key) pairs: higher score first, then lower
/// key (store order), so equal scores always come out in the same order.
struct TopK {
    limit: usize,
    /// Up to twice `limit`, cut back to `limit` when full.
    buffer: Vec<(Score, u64)>,
    /// The worst pair kept once `limit` are kept.
    worst: Option<(Score, u64)>,
}

fn better(a: &(Score, u64), b: &(Score, u64)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
}

impl TopK {
    fn new(limit: usize) -> TopK {
        TopK {
            limit,
            buffer: Vec::with_capacity(limit.min(1 << 16) * 2),
            worst: None,
        }
    }

    /// Offers a document; its key is read only when its score may do.
    #[inline]
    fn offer(&mut self, score: Score, key: impl FnOnce() -> u64) {
        if self.limit == 0 {
            return;
        }
        if let Some(worst) = self.worst {
            if score < worst.0 {
                return;
            }
            let pair = (score, key());
            if better(&pair, &worst).is_ge() {
                return;
            }
            self.push(pair);
        } else {
            self.push((score, key()));
        }
    }

    fn push(&mut self, pair: (Score, u64)) {
        self.buffer.push(pair);
        if self.buffer.len() >= self.limit.saturating_mul(2).max(2) {
            self.cut();
        }
    }

    fn cut(&mut self) {
        if self.buffer.len() > self.limit {
            self.buffer.select_nth_unstable_by(self.limit - 1, better);
            self.buffer.truncate(self.limit);
        }
        if self.buffer.len() == self.limit {
            self.worst = self.buffer.iter().copied().max_by(better);
        }
    }

    /// The score a document must reach to be offered (a tie may still win
    /// on its key, so the threshold is just below the worst kept score).
    fn threshold(&self) -> Score {
        match self.worst {
            Some((score, _)) => next_below(score),
            None => Score::MIN,
        }
    }

    fn into_sorted(mut self) -> Vec<(Score, u64)> {
        self.cut();
        self.buffer.sort_unstable_by(better);
        self.buffer
    }
}

/// The largest float below `x` (finite `x`).
fn next_below(x: Score) -> Score {
    if x.is_nan() || x == Score::MIN {
        return x;
    }
    if x == 0.0 {
        return -Score::from_bits(1);
    }
    let bits = x.to_bits();
    Score::from_bits(if x > 0.0 { bits - 1 } else { bits + 1 })
}

/// A dimension's values in one segment, per document, as numbers in
/// [`FacetValues`], decoded once from the segment's column (segments are
/// immutable, so this is kept for as long as the segment is searched).
/// Counting a match is then one array read and one increment per
/// dimension, where the column costs a rank lookup in its optional or
/// multivalued index, a bit-unpacking read and the ordinal map per value.
enum DimensionColumn {
    /// No document has more than one value: `ids[doc]`, [`NO_VALUE`] when
    /// it has none.
    Single(Vec<u32>),
    /// A document's distinct values are `ids[offsets[doc]..offsets[doc + 1]]`.
    Multi { offsets: Vec<u32>, ids: Vec<u32> },
}

/// A document without a value in a [`DimensionColumn::Single`].
const NO_VALUE: u32 = u32::MAX;

impl DimensionColumn {
    /// Decodes `column` (its ordinals mapped through `map`) for the
    /// documents `0..max_doc`. Repeated values of one document are kept
    /// once: a document counts once per distinct value.
    fn decode(column: &Column<u64>, map: &[u32], max_doc: DocId) -> DimensionColumn {
        let value = |row| map[column.values.get_val(row) as usize];
        if column.get_cardinality() != tantivy::columnar::Cardinality::Multivalued {
            let ids = (0..max_doc)
                .map(|doc| match column.index.value_row_ids(doc) {
                    rows if rows.is_empty() => NO_VALUE,
                    rows => value(rows.start),
                })
                .collect();
            return DimensionColumn::Single(ids);
        }
        let mut offsets = Vec::with_capacity(max_doc as usize + 1);
        let mut ids: Vec<u32> = Vec::new();
        offsets.push(0);
        for doc in 0..max_doc {
            let start = ids.len();
            for row in column.index.value_row_ids(doc) {
                let id = value(row);
                if !ids[start..].contains(&id) {
                    ids.push(id);
                }
            }
            offsets.push(ids.len() as u32);
        }
        ids.shrink_to_fit();
        DimensionColumn::Multi { offsets, ids }
    }

    /// Adds one to the count of each of `doc`'s values.
    #[inline]
    fn count(&self, doc: DocId, counts: &mut [u64]) {
        match self {
            DimensionColumn::Single(ids) => {
                let id = ids[doc as usize];
                if id != NO_VALUE {
                    counts[id as usize] += 1;
                }
            }
            DimensionColumn::Multi { offsets, ids } => {
                let (start, end) = (offsets[doc as usize], offsets[doc as usize + 1]);
                for &id in &ids[start as usize..end as usize] {
                    counts[id as usize] += 1;
                }
            }
        }
    }
}

/// The facet columns of one segment. The single-valued dimensions' numbers
/// are kept row by row (a document's are side by side), so counting a match
/// reads one or two cache lines for all of them, where a column each read
/// one line per dimension, each a likely cache miss on a large segment
/// (the largest cost of a served search in the profile).
struct SegmentColumns {
    /// The dimensions (indexes into [`FACETS`]) kept in `rows`, in order.
    single: Vec<usize>,
    /// `rows[doc * single.len() + j]`: document `doc`'s number in dimension
    /// `single[j]`, [`NO_VALUE`] when it has none.
    rows: Vec<u32>,
    /// The multi-valued dimensions, each with its column.
    multi: Vec<(usize, DimensionColumn)>,
}

impl SegmentColumns {
    /// Arranges the decoded columns (per dimension, `None`: no document of
    /// the segment has a value).
    fn new(dims: Vec<Option<DimensionColumn>>, max_doc: DocId) -> SegmentColumns {
        let mut single = Vec::new();
        let mut columns = Vec::new();
        let mut multi = Vec::new();
        for (d, dim) in dims.into_iter().enumerate() {
            match dim {
                Some(DimensionColumn::Single(ids)) => {
                    single.push(d);
                    columns.push(ids);
                }
                Some(column) => multi.push((d, column)),
                None => {}
            }
        }
        let mut rows = Vec::with_capacity(max_doc as usize * columns.len());
        for doc in 0..max_doc as usize {
            rows.extend(columns.iter().map(|ids| ids[doc]));
        }
        SegmentColumns {
            single,
            rows,
            multi,
        }
    }
}

/// The distinct values of each dimension, numbered in the order first met.
/// Only ever appended to while segments are reused, so the numbers in a
/// segment's map stay valid; started afresh when no segment is (after a
/// merge), so values of segments gone do not pile up.
pub(crate) struct FacetValues {
    values: Vec<Vec<String>>,
    ids: Vec<HashMap<String, u32>>,
}

impl FacetValues {
    fn new() -> FacetValues {
        FacetValues {
            values: vec![Vec::new(); FACETS.len()],
            ids: vec![HashMap::new(); FACETS.len()],
        }
    }

    /// The number of `value` in dimension `d`, added if new.
    fn id(&mut self, d: usize, value: &str) -> u32 {
        if let Some(&id) = self.ids[d].get(value) {
            return id;
        }
        let id = self.values[d].len() as u32;
        self.values[d].push(value.to_string());
        self.ids[d].insert(value.to_string(), id);
        id
    }
}

/// Facet values appended to by one handle while others name their counts.
type SharedValues = Arc<std::sync::RwLock<FacetValues>>;

/// How many generations' facet maps [`SharedFacets`] keeps: the newest and
/// the one before it, which a handle not yet refreshed may still search.
const KEPT_GENERATIONS: usize = 2;

/// The facet maps of the generations searched last, shared by the handles
/// of one process (see [`Archive::share_facets`]).
#[derive(Default)]
pub(crate) struct SharedFacets {
    /// Newest first.
    kept: std::sync::Mutex<Vec<Arc<FacetMaps>>>,
    /// Facet counts of large segments, per query.
    counts: SegmentCountCache,
}

impl SharedFacets {
    /// The maps of `searcher`'s segments, built if no handle has yet (one
    /// at a time: a handle needing a new segment waits for the one decoding
    /// it rather than decoding it too).
    fn maps_of(&self, searcher: &Searcher) -> tantivy::Result<Arc<FacetMaps>> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(maps) = kept.iter().find(|m| m.is_of(searcher)) {
            return Ok(Arc::clone(maps));
        }
        let maps = Arc::new(FacetMaps::build(searcher, &kept)?);
        kept.insert(0, Arc::clone(&maps));
        kept.truncate(KEPT_GENERATIONS);
        Ok(maps)
    }
}

/// The facet columns of every segment of one index generation, each with
/// the map from its ordinals to numbers in [`FacetValues`].
pub(crate) struct FacetMaps {
    /// The segments, in the searcher's order.
    ids: Vec<tantivy::index::SegmentId>,
    /// Per dimension, how many values there were when these maps were made
    /// (the size of a count vector).
    sizes: Vec<usize>,
    /// Per segment.
    segments: Vec<Arc<SegmentColumns>>,
    /// The values the segments' numbers stand for (only appended to while
    /// these maps live, so the first `sizes` of each stay as they were).
    values: SharedValues,
}

impl FacetMaps {
    /// The maps of `searcher`'s segments: those of `previous` (newest
    /// first) where one has the segment and maps to the same values as the
    /// newest, the others read from the segment's dictionaries.
    fn build(searcher: &Searcher, previous: &[Arc<FacetMaps>]) -> tantivy::Result<FacetMaps> {
        let readers = searcher.segment_readers();
        let base = previous.first();
        let kept = |id: &tantivy::index::SegmentId| {
            let base = base?;
            previous
                .iter()
                .filter(|p| Arc::ptr_eq(&p.values, &base.values))
                .find_map(|p| {
                    let at = p.ids.iter().position(|i| i == id)?;
                    Some(Arc::clone(&p.segments[at]))
                })
        };
        let reuses = readers.iter().any(|r| kept(&r.segment_id()).is_some());
        let values = match base {
            Some(base) if reuses => Arc::clone(&base.values),
            _ => Arc::new(std::sync::RwLock::new(FacetValues::new())),
        };
        let mut segments = Vec::with_capacity(readers.len());
        for segment in readers {
            let columns = match kept(&segment.segment_id()) {
                Some(columns) => columns,
                None => Arc::new(segment_columns(segment, &values)?),
            };
            segments.push(columns);
        }
        let sizes = values
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values
            .iter()
            .map(Vec::len)
            .collect();
        Ok(FacetMaps {
            ids: readers.iter().map(|r| r.segment_id()).collect(),
            sizes,
            segments,
            values,
        })
    }

    /// Whether these are the maps of `searcher`'s segments.
    fn is_of(&self, searcher: &Searcher) -> bool {
        let readers = searcher.segment_readers();
        readers.len() == self.ids.len()
            && readers
                .iter()
                .zip(&self.ids)
                .all(|(r, id)| r.segment_id() == *id)
    }

    fn zeroed_counts(&self) -> Vec<Vec<u64>> {
        self.sizes.iter().map(|&n| vec![0; n]).collect()
    }

    /// The counter of one segment, adding to `counts`.
    fn segment<'a>(&'a self, ord: usize, counts: &'a mut [Vec<u64>]) -> SegmentFacets<'a> {
        SegmentFacets {
            dims: &self.segments[ord],
            counts,
        }
    }

    /// Counts as values, largest first (ties by value).
    fn facets(&self, counts: &[Vec<u64>]) -> Facets {
        let values = self.values.read().unwrap_or_else(|e| e.into_inner());
        let mut out = Facets::new();
        for (d, dim) in FACETS.iter().enumerate() {
            let mut found: Vec<(String, u64)> = counts[d]
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(id, &n)| (values.values[d][id].clone(), n))
                .collect();
            found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            out.insert((*dim).to_string(), found);
        }
        out
    }
}

/// A segment's facet columns, its ordinals mapped to numbers in `values`
/// (written to only while the dictionaries are read, not while the columns
/// are decoded).
fn segment_columns(
    segment: &SegmentReader,
    values: &SharedValues,
) -> tantivy::Result<SegmentColumns> {
    let mut dims = Vec::with_capacity(FACETS.len());
    for (d, dim) in FACETS.iter().enumerate() {
        let Some(column) = segment.fast_fields().str(&format!("facet_{dim}"))? else {
            dims.push(None);
            continue;
        };
        let mut map = Vec::with_capacity(column.num_terms());
        {
            let mut values = values.write().unwrap_or_else(|e| e.into_inner());
            let mut terms = column.dictionary().stream()?;
            while terms.advance() {
                let facet = Facet::from_encoded(terms.key().to_vec())
                    .map_err(|e| tantivy::TantivyError::InternalError(e.to_string()))?;
                map.push(values.id(d, facet.to_path().last().copied().unwrap_or("")));
            }
        }
        dims.push(Some(DimensionColumn::decode(
            column.ords(),
            &map,
            segment.max_doc(),
        )));
    }
    Ok(SegmentColumns::new(dims, segment.max_doc()))
}

/// Facet counting in one segment.
struct SegmentFacets<'a> {
    dims: &'a SegmentColumns,
    counts: &'a mut [Vec<u64>],
}

impl SegmentFacets<'_> {
    /// Counts a document once for each distinct value it has.
    #[inline]
    fn collect(&mut self, doc: DocId) {
        let dims = self.dims;
        let width = dims.single.len();
        if let Some(row) = dims
            .rows
            .get(doc as usize * width..(doc as usize + 1) * width)
        {
            for (&d, &id) in dims.single.iter().zip(row) {
                if id != NO_VALUE {
                    self.counts[d][id as usize] += 1;
                }
            }
        }
        for (d, column) in &dims.multi {
            column.count(doc, &mut self.counts[*d]);
        }
    }
}

/// Segments with fewer documents are counted each time, not kept in the
/// [`SegmentCountCache`] (a correction's one-record segments). Every
/// segment is kept in tests, so that the comparisons with tantivy's
/// collectors count through the cache too.
const COUNT_CACHE_MIN_DOCS: DocId = if cfg!(test) { 1 } else { 10_000 };
/// The most the [`SegmentCountCache`] holds: entries, and value counts
/// (8 bytes each) over all entries.
const COUNT_CACHE_ENTRIES: usize = 4096;
const COUNT_CACHE_VALUES: usize = 4 << 20;

/// What a search's facet counts depend on, besides the segments: the
/// query's text and filters, and whether places resolve through the
/// gazetteer. (The limit does not change which records match.)
pub(crate) struct CountKey(Arc<str>);

impl CountKey {
    fn of(query: &SearchQuery, gazetteer: Option<&Gazetteer>) -> CountKey {
        CountKey(
            format!(
                "{:?}\u{0}{:?}\u{0}{}",
                query.text,
                query.filters,
                gazetteer.is_some()
            )
            .into(),
        )
    }
}

/// One segment's counts of one query: a segment's documents never change,
/// and its deletes only with its delete opstamp, so the counts stay exact
/// for as long as both are the same.
#[derive(Clone, PartialEq, Eq, Hash)]
struct SegmentCountKey {
    query: Arc<str>,
    segment: tantivy::index::SegmentId,
    deletes: Option<tantivy::Opstamp>,
    deleted: DocId,
}

impl SegmentCountKey {
    fn of(query: &CountKey, segment: &SegmentReader) -> SegmentCountKey {
        SegmentCountKey {
            query: Arc::clone(&query.0),
            segment: segment.segment_id(),
            deletes: segment.delete_opstamp(),
            deleted: segment.num_deleted_docs(),
        }
    }
}

/// A segment's matches and their non-zero facet counts.
struct SegmentCounts {
    total: u64,
    /// Per dimension, (value number, count).
    counts: Vec<Vec<(u32, u32)>>,
}

impl SegmentCounts {
    /// The counts of `apart`, which are zeroed again.
    fn take(total: u64, apart: &mut [Vec<u64>]) -> SegmentCounts {
        let counts = apart
            .iter_mut()
            .map(|dim| {
                let mut found = Vec::new();
                for (id, n) in dim.iter_mut().enumerate() {
                    if *n > 0 {
                        found.push((id as u32, *n as u32));
                        *n = 0;
                    }
                }
                found
            })
            .collect();
        SegmentCounts { total, counts }
    }

    fn add_to(&self, counts: &mut [Vec<u64>]) {
        for (dim, found) in counts.iter_mut().zip(&self.counts) {
            for &(id, n) in found {
                dim[id as usize] += u64::from(n);
            }
        }
    }

    fn values(&self) -> usize {
        self.counts.iter().map(Vec::len).sum::<usize>() + 1
    }
}

/// Facet counts of large segments per query, shared by a process's
/// handles (see [`SharedFacets`]), least recently used dropped first: a
/// correction commits a small segment and deletes in one large one, so a
/// query asked again recounts only the segments that changed.
#[derive(Default)]
struct SegmentCountCache {
    inner: std::sync::Mutex<CountEntries>,
}

#[derive(Default)]
struct CountEntries {
    /// Each with the columns its value numbers refer to and when it was
    /// last used.
    entries: HashMap<SegmentCountKey, (Arc<SegmentColumns>, Arc<SegmentCounts>, u64)>,
    tick: u64,
    values: usize,
}

impl SegmentCountCache {
    /// The counts kept for `key`, if made with these columns (the same
    /// value numbering).
    fn get(
        &self,
        key: &SegmentCountKey,
        columns: &Arc<SegmentColumns>,
    ) -> Option<Arc<SegmentCounts>> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.tick += 1;
        let tick = inner.tick;
        let (kept_columns, counts, used) = inner.entries.get_mut(key)?;
        if !Arc::ptr_eq(kept_columns, columns) {
            return None;
        }
        *used = tick;
        Some(Arc::clone(counts))
    }

    fn keep(&self, key: SegmentCountKey, columns: Arc<SegmentColumns>, counts: SegmentCounts) {
        let size = counts.values();
        if size > COUNT_CACHE_VALUES / 4 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        while !inner.entries.is_empty()
            && (inner.entries.len() >= COUNT_CACHE_ENTRIES
                || inner.values + size > COUNT_CACHE_VALUES)
        {
            let oldest = inner
                .entries
                .iter()
                .min_by_key(|(_, (_, _, used))| *used)
                .map(|(k, _)| k.clone());
            if let Some((_, gone, _)) = oldest.and_then(|k| inner.entries.remove(&k)) {
                inner.values -= gone.values();
            }
        }
        inner.tick += 1;
        let tick = inner.tick;
        if let Some((_, replaced, _)) = inner.entries.insert(key, (columns, Arc::new(counts), tick))
        {
            inner.values -= replaced.values();
        }
        inner.values += size;
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

mod json;

#[cfg(test)]
mod tests;
