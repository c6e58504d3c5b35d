//! The JSON API, the page's only data source: search, facets, histogram,
//! map, records, review, export. Handlers are thin: parse the query string,
//! borrow an archive handle on a blocking thread, shape the answer.

use std::collections::BTreeMap;
use std::sync::Arc;

use archive::{Archive, Bucket, ReviewAction, ReviewState, SearchResults};
use axum::extract::{Path, RawQuery, State as AxumState};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::map::{self, Level};
use crate::query::Params;
use crate::{flags, ApiError, State, MAX_PAGE};

type Shared = AxumState<Arc<State>>;

/// The API routes.
pub fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/api/search", get(search))
        .route("/api/facets", get(facets))
        .route("/api/histogram", get(histogram))
        .route("/api/map", get(map_counts))
        .route("/api/stats", get(stats))
        .route("/api/records/{id}", get(record))
        .route("/api/records/{id}/history", get(history))
        .route("/api/records/{id}/corrections", post(correct))
        .route("/api/records/{id}/review", post(review))
        .route("/api/review/queue", get(queue))
        .route("/api/export", get(export))
        .route("/api/openapi.json", get(openapi))
        .route("/api/{*rest}", get(no_route).post(no_route))
}

/// Runs `f` with an archive handle on a blocking thread.
async fn blocking<T: Send + 'static>(
    state: &Arc<State>,
    f: impl FnOnce(&Archive, &State) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = Arc::clone(state);
    tokio::task::spawn_blocking(move || state.pool.with(|archive| f(archive, &state)))
        .await
        .map_err(|_| ApiError::internal())?
}

/// Runs `f` with a record-page handle (see [`State::records`]) on a
/// blocking thread.
async fn blocking_store<T: Send + 'static>(
    state: &Arc<State>,
    f: impl FnOnce(&Archive) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = Arc::clone(state);
    tokio::task::spawn_blocking(move || state.records.with_store(f))
        .await
        .map_err(|_| ApiError::internal())?
}

/// The gazetteer when the query names a place (as `dateline search` loads it).
fn places(params: &Params, state: &State) -> Option<&'static gazetteer::Gazetteer> {
    params.has_place_filter().then_some(state.gazetteer)
}

/// Facet values listed per dimension unless `facet_limit` says otherwise:
/// the page shows 12, and a broad selection has thousands of photographers,
/// which were most of an answer's bytes and of its building time.
const FACET_LIMIT: usize = 20;
/// The most a `facet_limit` may ask for.
const MAX_FACET_LIMIT: usize = 100_000;

/// `GET /api/search`: ranked hits as `dateline search --json` prints them,
/// each record with its corrections applied and its review state.
async fn search(state: Shared, RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let params = Params::parse(raw.as_deref(), &["limit", "facets", "facet_limit"])?;
    let query = params.search(
        params.number("limit", 20, MAX_PAGE)?,
        params.flag("facets")?,
    )?;
    let facet_limit = params.number("facet_limit", FACET_LIMIT, MAX_FACET_LIMIT)?;
    blocking(&state, move |archive, state| {
        let results = archive.search(&query, places(&params, state))?;
        json_response(&results_json(archive, &results, facet_limit)?)
    })
    .await
}

/// A JSON answer serialized on the blocking thread that built it, from
/// structs that borrow the search results (no `serde_json::Value` copy of
/// every record).
fn json_response(answer: &impl Serialize) -> Result<Response, ApiError> {
    let body = serde_json::to_vec(answer).map_err(|_| ApiError::internal())?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// `/api/search`'s answer. The fields are in the order `serde_json::Value`
/// wrote them (its objects sort their keys), so the bytes are as before.
#[derive(Serialize)]
struct SearchAnswer<'a> {
    #[serde(flatten)]
    facets: Option<FacetsAnswer<'a>>,
    hits: Vec<HitAnswer<'a>>,
    index_behind: i64,
    total: usize,
}

/// One hit: the record as the search read it, borrowed.
#[derive(Serialize)]
struct HitAnswer<'a> {
    highlights: &'a [(usize, usize)],
    id: &'a str,
    record: &'a Value,
    review_state: ReviewState,
    /// As `json!` gave it: the `f32` widened to `f64`.
    score: f64,
    snippet: &'a str,
}

/// `facets`: each dimension's `limit` most frequent values with their
/// counts (the archive lists them most frequent first); `facet_values`:
/// how many distinct values each has in all.
#[derive(Serialize)]
struct FacetsAnswer<'a> {
    facet_values: BTreeMap<&'a str, usize>,
    facets: BTreeMap<&'a str, Vec<FacetCount<'a>>>,
}

#[derive(Serialize)]
struct FacetCount<'a> {
    count: u64,
    value: &'a str,
}

fn results_json<'a>(
    archive: &Archive,
    results: &'a SearchResults,
    facet_limit: usize,
) -> Result<SearchAnswer<'a>, ApiError> {
    // The page's review states in one query, not one per hit.
    let ids: Vec<&str> = results.hits.iter().map(|hit| hit.id.as_str()).collect();
    let states = archive.review_states(&ids)?;
    let hits = results
        .hits
        .iter()
        .zip(states)
        .map(|(hit, review_state)| HitAnswer {
            highlights: &hit.snippet.highlights,
            id: &hit.id,
            record: &hit.record,
            review_state,
            score: f64::from(hit.score),
            snippet: &hit.snippet.text,
        })
        .collect();
    Ok(SearchAnswer {
        facets: results
            .facets
            .as_ref()
            .map(|facets| facets_answer(facets, facet_limit)),
        hits,
        index_behind: results.index_behind,
        total: results.total,
    })
}

fn facets_answer(facets: &archive::Facets, limit: usize) -> FacetsAnswer<'_> {
    let mut listed = BTreeMap::new();
    let mut distinct = BTreeMap::new();
    for (dim, values) in facets {
        let counts = values
            .iter()
            .take(limit)
            .map(|(value, count)| FacetCount {
                count: *count,
                value,
            })
            .collect();
        listed.insert(dim.as_str(), counts);
        distinct.insert(dim.as_str(), values.len());
    }
    FacetsAnswer {
        facet_values: distinct,
        facets: listed,
    }
}

/// `/api/facets`'s answer.
#[derive(Serialize)]
struct FacetsRouteAnswer<'a> {
    #[serde(flatten)]
    facets: Option<FacetsAnswer<'a>>,
    total: usize,
}

/// `GET /api/facets`: the counts per value of every dimension over the
/// selection.
async fn facets(state: Shared, RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let params = Params::parse(raw.as_deref(), &["facet_limit"])?;
    let query = params.search(0, true)?;
    let facet_limit = params.number("facet_limit", FACET_LIMIT, MAX_FACET_LIMIT)?;
    blocking(&state, move |archive, state| {
        let results = archive.search(&query, places(&params, state))?;
        json_response(&FacetsRouteAnswer {
            facets: results
                .facets
                .as_ref()
                .map(|facets| facets_answer(facets, facet_limit)),
            total: results.total,
        })
    })
    .await
}

/// `GET /api/histogram`: the selection by date taken.
async fn histogram(state: Shared, RawQuery(raw): RawQuery) -> Result<Json<Value>, ApiError> {
    let params = Params::parse(raw.as_deref(), &["bucket"])?;
    let bucket = match params.get("bucket") {
        None => Bucket::Month,
        Some(b) => {
            Bucket::parse(b).ok_or_else(|| ApiError::bad_request("bucket is day, month or year"))?
        }
    };
    let query = params.search(0, false)?;
    blocking(&state, move |archive, state| {
        let h = archive.date_histogram(&query, bucket, places(&params, state))?;
        Ok(Json(
            serde_json::to_value(h).map_err(|_| ApiError::internal())?,
        ))
    })
    .await
}

/// `GET /api/map`: the selection counted per country or division.
async fn map_counts(state: Shared, RawQuery(raw): RawQuery) -> Result<Json<Value>, ApiError> {
    let params = Params::parse(raw.as_deref(), &["level"])?;
    let level = match params.get("level") {
        None => Level::Country,
        Some(l) => {
            Level::parse(l).ok_or_else(|| ApiError::bad_request("level is country or admin1"))?
        }
    };
    let query = params.search(0, true)?;
    blocking(&state, move |archive, state| {
        let results = archive.search(&query, places(&params, state))?;
        let counts = results
            .facets
            .as_ref()
            .and_then(|f| f.get(level.facet()))
            .cloned()
            .unwrap_or_default();
        let located: u64 = counts.iter().map(|(_, n)| n).sum();
        Ok(Json(json!({
            "level": level,
            "total": results.total,
            "unplaced": (results.total as u64).saturating_sub(located),
            "areas": map::areas(level, &counts, state.gazetteer),
        })))
    })
    .await
}

/// `GET /api/stats`: what the archive holds.
async fn stats(state: Shared, RawQuery(raw): RawQuery) -> Result<Json<Value>, ApiError> {
    Params::parse(raw.as_deref(), &[])?;
    blocking(&state, |archive, _| {
        let s = archive.stats()?;
        Ok(Json(json!({
            "documents": s.documents,
            "occurrences": s.occurrences,
            "records": s.records,
            "variants": s.variants,
        })))
    })
    .await
}

/// A record id from the path: the caption ids are short ASCII.
fn record_id(id: &str) -> Result<String, ApiError> {
    if id.is_empty()
        || id.len() > 64
        || !id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(ApiError::not_found(format!("no record {id:?}")));
    }
    Ok(id.to_string())
}

/// `GET /api/records/{id}`: the record (corrected) and the machine's, its
/// variants, occurrences with their documents, flags in words, review.
async fn record(state: Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let id = record_id(&id)?;
    blocking_store(&state, move |archive| {
        let Some(mut details) = archive.record_details(&id)? else {
            return Err(ApiError::not_found(format!("no record {id:?}")));
        };
        let public_id = details["id"].as_str().unwrap_or_default().to_string();
        let mut record = details["record"].take();
        let machine = record.clone();
        record["id"] = json!(public_id);
        let corrections = archive.apply_corrections(&mut record)?;
        if let Some(occurrences) = details["occurrences"].as_array_mut() {
            for occurrence in occurrences {
                if let Some(doc) = occurrence["document"].as_i64() {
                    occurrence["document_info"] = json!(archive.document(doc)?);
                }
            }
        }
        details["flag_reasons"] = flags::reasons(&machine);
        details["machine"] = machine;
        details["record"] = record;
        details["corrections"] = json!(corrections);
        details["review"] = json!({
            "state": archive.review_state(&public_id)?,
            "log": archive.review_log(&public_id)?,
        });
        details["correctable"] = json!(archive::CORRECTABLE);
        Ok(Json(details))
    })
    .await
}

/// `GET /api/records/{id}/history`: the review log, oldest first.
async fn history(state: Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let id = record_id(&id)?;
    blocking_store(&state, move |archive| {
        let Some(details) = archive.record_details(&id)? else {
            return Err(ApiError::not_found(format!("no record {id:?}")));
        };
        let public_id = details["id"].as_str().unwrap_or_default();
        Ok(Json(json!({
            "id": public_id,
            "state": archive.review_state(public_id)?,
            "log": archive.review_log(public_id)?,
        })))
    })
    .await
}

/// The body of `POST /api/records/{id}/corrections`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CorrectionBody {
    reviewer: String,
    field: String,
    value: Value,
    #[serde(default)]
    note: String,
}

/// The body of `POST /api/records/{id}/review`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    reviewer: String,
    #[serde(default)]
    state: Option<String>,
    #[serde(default)]
    note: String,
}

/// `POST /api/records/{id}/corrections`: one field corrected.
async fn correct(
    state: Shared,
    Path(id): Path<String>,
    Json(body): Json<CorrectionBody>,
) -> Result<Response, ApiError> {
    let id = record_id(&id)?;
    let action = ReviewAction::Correct {
        field: body.field,
        value: body.value,
    };
    write_review(&state, id, body.reviewer, action, body.note).await
}

/// `POST /api/records/{id}/review`: the state set, or a note added.
async fn review(
    state: Shared,
    Path(id): Path<String>,
    Json(body): Json<ReviewBody>,
) -> Result<Response, ApiError> {
    let id = record_id(&id)?;
    let action = match body.state.as_deref() {
        Some(s) => ReviewAction::SetState(
            ReviewState::parse(s)
                .ok_or_else(|| ApiError::bad_request("state is unreviewed, checked or disputed"))?,
        ),
        None if body.note.trim().is_empty() => {
            return Err(ApiError::bad_request("a review needs a state or a note"))
        }
        None => ReviewAction::Note,
    };
    write_review(&state, id, body.reviewer, action, body.note).await
}

/// Appends a review entry; a correction is then indexed (see
/// [`catch_up_index`]) before the answer, so the next search, facet count
/// and export see it. The answer is the entry, with `indexed`: whether the
/// index has the correction yet.
async fn write_review(
    state: &Arc<State>,
    id: String,
    reviewer: String,
    action: ReviewAction,
    note: String,
) -> Result<Response, ApiError> {
    let corrects = matches!(action, ReviewAction::Correct { .. });
    let entry = blocking(state, move |archive, _| {
        archive
            .review(&id, &reviewer, action, &note)?
            .ok_or_else(|| ApiError::not_found(format!("no record {id:?}")))
    })
    .await?;
    let mut answer = json!(entry);
    if corrects {
        let state = Arc::clone(state);
        answer["indexed"] = json!(tokio::task::spawn_blocking(move || catch_up_index(&state))
            .await
            .unwrap_or(false));
    }
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// Brings the index up to the store (a correction changed a record) and
/// says whether it could. The server's handles only read, so the index
/// writer is taken for the moment it takes (one at a time, so two
/// reviewers never contend for it); while an ingest or a reindex holds it,
/// that process indexes the change instead (searches report `index_behind`
/// until it has).
fn catch_up_index(state: &State) -> bool {
    let _one_at_a_time = state.index_writes.lock().unwrap_or_else(|e| e.into_inner());
    match Archive::catch_up_index(&state.archive_dir) {
        Ok(()) => true,
        Err(archive::Error::Busy) => false,
        Err(e) => {
            eprintln!("dateline serve: indexing a correction: {e}");
            false
        }
    }
}

/// `GET /api/review/queue`: unreviewed records, flagged first.
async fn queue(state: Shared, RawQuery(raw): RawQuery) -> Result<Json<Value>, ApiError> {
    let params = Params::parse(raw.as_deref(), &["limit"])?;
    let limit = params.number("limit", 50, MAX_PAGE)?;
    blocking(&state, move |archive, _| {
        let keys = archive.review_queue(limit)?;
        let records = archive.records_with_corrections(&keys)?;
        Ok(Json(json!({ "records": records })))
    })
    .await
}

/// `GET /api/export`: the selection in a CLI export format, streamed.
async fn export(state: Shared, RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let params = Params::parse(raw.as_deref(), &["format"])?;
    crate::export::export(Arc::clone(&state), params).await
}

/// `GET /api/openapi.json`: this API, described.
async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("../assets/openapi.json"),
    )
        .into_response()
}

async fn no_route() -> ApiError {
    ApiError::not_found("no such API route (see /api/openapi.json)")
}
