//! Every route, header and limit of the server, through its router (no
//! socket) and once over a real loopback socket.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

#[path = "support/fixture.rs"]
mod fixture;

use fixture::{Fixture, TOKEN};

async fn call(
    app: &axum::Router,
    request: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .to_vec();
    (status, headers, body)
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, "127.0.0.1:8750")
        .body(Body::empty())
        .expect("request")
}

fn post(path: &str, body: Value, token: Option<&str>) -> Request<Body> {
    let mut r = Request::post(path)
        .header(header::HOST, "127.0.0.1:8750")
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        r = r.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    r.body(Body::from(body.to_string())).expect("request")
}

async fn json_of(app: &axum::Router, path: &str) -> Value {
    let (status, headers, body) = call(app, get(path)).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{path}: {}",
        String::from_utf8_lossy(&body)
    );
    assert_eq!(headers[header::CACHE_CONTROL], "no-store", "{path}");
    serde_json::from_slice(&body).expect("JSON")
}

#[tokio::test]
async fn search_matches_the_archive_search_with_every_filter() {
    let f = Fixture::new();
    let app = f.router(true);
    for (params, query) in f.queries() {
        let api = json_of(&app, &format!("/api/search?{params}&limit=50")).await;
        let direct = f.search(&query);
        let ids: Vec<&str> = api["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .map(|h| h["id"].as_str().expect("id"))
            .collect();
        assert_eq!(api["total"], direct.0, "{params}");
        assert_eq!(ids, direct.1, "{params}");
    }
    let all = json_of(&app, "/api/search?q=&facets=true").await;
    assert_eq!(all["total"], f.records());
    for dim in [
        "agency", "creator", "country", "city", "province", "person", "org", "flag", "year",
        "source",
    ] {
        assert!(all["facets"][dim].is_array(), "facet {dim}");
    }
    assert!(all["hits"][0]["record"]["corrections"].is_array());
}

#[tokio::test]
async fn facet_lists_stop_at_facet_limit_and_say_how_many_values_there_were() {
    let f = Fixture::new();
    let app = f.router(true);
    for route in ["/api/search?facets=true&", "/api/facets?"] {
        let full = json_of(&app, &format!("{route}facet_limit=100000")).await;
        let top = json_of(&app, &format!("{route}facet_limit=1")).await;
        let mut cut = 0;
        for (dim, values) in full["facets"].as_object().expect("facets") {
            let values = values.as_array().expect("values");
            assert_eq!(full["facet_values"][dim], values.len(), "{route} {dim}");
            assert_eq!(top["facet_values"][dim], values.len(), "{route} {dim}");
            let listed = top["facets"][dim].as_array().expect("listed");
            assert_eq!(
                listed.as_slice(),
                &values[..values.len().min(1)],
                "{route} {dim}"
            );
            cut += values.len().saturating_sub(1);
        }
        assert!(cut > 0, "{route}: some dimension has more than one value");
        let (status, _, _) = call(&app, get(&format!("{route}facet_limit=many"))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{route}");
    }
}

#[tokio::test]
async fn facets_histogram_and_map_follow_the_query() {
    let f = Fixture::new();
    let app = f.router(true);
    let facets = json_of(&app, "/api/facets?country=Syria").await;
    let countries = facets["facets"]["country"]
        .as_array()
        .expect("country facet");
    assert_eq!(countries.len(), 1, "{facets}");
    assert_eq!(countries[0]["value"], "Syria");

    let h = json_of(&app, "/api/histogram?bucket=month").await;
    let bars = h["bars"].as_array().expect("bars");
    let dated: u64 = bars
        .iter()
        .map(|b| {
            b["day"].as_u64().unwrap_or(0)
                + b["month"].as_u64().unwrap_or(0)
                + b["year"].as_u64().unwrap_or(0)
        })
        .sum();
    assert_eq!(
        dated + h["undated"].as_u64().expect("undated"),
        h["total"].as_u64().expect("total")
    );
    assert!(h["undated"].as_u64().expect("undated") > 0);
    assert!(
        bars.iter()
            .any(|b| b["period"] == "2014-05" && b["day"] == 2),
        "Homs and Aleppo, both to the day: {h}"
    );
    assert!(
        bars.iter().any(|b| b["precision"] == "year"),
        "a year-only date: {h}"
    );
    let days = json_of(&app, "/api/histogram?bucket=day&from=2014-05&to=2014-05").await;
    assert_eq!(days["bars"][0]["period"], "2014-05-04");
    for bad in ["/api/histogram?bucket=week", "/api/map?level=planet"] {
        assert_eq!(
            call(&app, get(bad)).await.0,
            StatusCode::BAD_REQUEST,
            "{bad}"
        );
    }

    let map = json_of(&app, "/api/map?level=country").await;
    let syria = map["areas"]
        .as_array()
        .expect("areas")
        .iter()
        .find(|a| a["code"] == "SY")
        .expect("Syria")
        .clone();
    assert_eq!(syria["name"], "Syria");
    assert!(syria["count"].as_u64().expect("count") >= 2);
    assert!(syria["latitude"].as_f64().is_some());
    let adm1 = json_of(&app, "/api/map?level=admin1&country=SY").await;
    assert!(
        adm1["areas"]
            .as_array()
            .expect("areas")
            .iter()
            .all(|a| a["code"].as_str().expect("code").starts_with("SY.")),
        "{adm1}"
    );
}

#[tokio::test]
async fn admin1_aggregates_count_name_place_and_filter_by_division() {
    let f = Fixture::new();
    let app = f.router(true);
    let g = gazetteer::Gazetteer::embedded();
    let map = json_of(&app, "/api/map?level=admin1").await;
    assert_eq!(map["level"], "admin1", "{map}");
    let areas = map["areas"].as_array().expect("areas");
    let area = |code: &str| areas.iter().find(|a| a["code"] == code).cloned();
    // Homs (both near-duplicate captions: one record), Aleppo, Raqqa.
    for code in ["SY.11", "SY.09", "SY.04"] {
        let a = area(code).unwrap_or_else(|| panic!("{code} counted: {map}"));
        assert_eq!(a["count"], 1, "{a}");
        assert_eq!(a["name"], g.admin1(code).expect("known").name.as_str());
        assert!(a["latitude"].as_f64().is_some() && a["longitude"].as_f64().is_some());
    }
    let total: u64 = areas
        .iter()
        .map(|a| a["count"].as_u64().expect("count"))
        .sum();
    let countries = json_of(&app, "/api/map?level=country").await;
    let in_countries: u64 = countries["areas"]
        .as_array()
        .expect("areas")
        .iter()
        .map(|a| a["count"].as_u64().expect("count"))
        .sum();
    assert!(total <= in_countries, "a division is within a country");

    // Every division counted has an outline in the map's asset.
    let (status, _, body) = call(&app, get("/assets/admin1.json")).await;
    assert_eq!(status, StatusCode::OK);
    let outlines: Value = serde_json::from_slice(&body).expect("JSON");
    assert!(
        body.len() <= 1_500_000,
        "admin1.json is {} bytes",
        body.len()
    );
    let drawn: std::collections::HashSet<&str> = outlines["divisions"]
        .as_array()
        .expect("divisions")
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect();
    for a in areas {
        let code = a["code"].as_str().expect("code");
        assert!(drawn.contains(code), "{code} has no outline");
    }
    let homs = outlines["divisions"]
        .as_array()
        .expect("divisions")
        .iter()
        .find(|d| d["code"] == "SY.11")
        .expect("Homs outline");
    let ring = homs["rings"][0].as_array().expect("a ring");
    let (lon, lat) = (
        ring[0].as_f64().expect("x") * 0.01,
        ring[1].as_f64().expect("y") * 0.01,
    );
    assert!(
        (35.0..42.0).contains(&lon) && (32.0..37.5).contains(&lat),
        "the Homs outline starts in Syria: {lon}, {lat}"
    );

    // The click-to-filter parameter: a division's code.
    let found = json_of(&app, "/api/search?province=SY.11").await;
    assert_eq!(ids_of(&found), vec![f.homs.clone()]);
    let only = json_of(&app, "/api/map?level=admin1&province=SY.11").await;
    assert_eq!(only["areas"].as_array().expect("areas").len(), 1, "{only}");
}

#[tokio::test]
async fn record_page_data_has_fields_spans_flags_occurrences_variants() {
    let f = Fixture::new();
    let app = f.router(true);
    let r = json_of(&app, &format!("/api/records/{}", f.homs)).await;
    assert_eq!(r["record"]["location"]["city"], "Homs");
    assert!(r["record"]["credit"]["span"].is_array());
    assert!(!r["occurrences"].as_array().expect("occurrences").is_empty());
    let occurrence = &r["occurrences"][0];
    assert_eq!(
        occurrence["document_info"]["content_hash"]
            .as_str()
            .expect("hash")
            .len(),
        32
    );
    assert!(occurrence["document_info"]["ingested_at"].is_string());
    // Each occurrence carries the SHA-256 of the document it came from
    // (the fixture ingests each caption as a document of its own).
    let shas: Vec<&str> = r["occurrences"]
        .as_array()
        .expect("occurrences")
        .iter()
        .map(|o| o["sha256"].as_str().expect("sha256"))
        .collect();
    let expected: Vec<String> = fixture::CAPTIONS[..2]
        .iter()
        .map(|c| archive::DocumentHashes::of(c.as_bytes()).sha256)
        .collect();
    assert_eq!(shas, expected);
    assert_eq!(occurrence["document_info"]["sha256"], expected[0].as_str());
    assert_eq!(
        r["variants"].as_array().expect("variants").len(),
        2,
        "the edited copy joined"
    );
    assert_eq!(r["review"]["state"], "unreviewed");
    let w = json_of(&app, &format!("/api/records/{}", f.weekday)).await;
    let reason = w["flag_reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .find(|x| x["flag"] == "weekday_mismatch")
        .expect("flag")["reason"]
        .clone();
    assert_eq!(reason, "says Wednesday; 4 May 2014 was a Sunday");
    for missing in [
        "/api/records/nope",
        "/api/records/a%2F..%2Fb",
        "/api/records/x/history",
        "/api/nothing",
    ] {
        let (status, _, body) = call(&app, get(missing)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
        assert!(serde_json::from_slice::<Value>(&body).expect("JSON")["error"].is_string());
    }
}

#[tokio::test]
async fn corrections_need_the_token_and_show_in_record_history_and_export() {
    let f = Fixture::new();
    let app = f.router(true);
    let path = format!("/api/records/{}/corrections", f.homs);
    let body = json!({"reviewer": "Ana", "field": "location.city", "value": "Hama", "note": "sign in the picture"});
    for token in [None, Some("wrong")] {
        let (status, headers, _) = call(&app, post(&path, body.clone(), token)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert!(headers.contains_key(header::CONTENT_SECURITY_POLICY));
    }
    let (status, _, created) = call(&app, post(&path, body.clone(), Some(TOKEN))).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&created)
    );
    let entry: Value = serde_json::from_slice(&created).expect("JSON");
    assert_eq!(
        (entry["old"].clone(), entry["new"].clone()),
        (json!("Homs"), json!("Hama"))
    );
    let review = format!("/api/records/{}/review", f.homs);
    let (status, _, _) = call(
        &app,
        post(
            &review,
            json!({"reviewer": "Ana", "state": "checked"}),
            Some(TOKEN),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    for bad in [
        json!({"reviewer": "Ana", "state": "maybe"}),
        json!({"reviewer": "Ana"}),
        json!({"reviewer": "", "note": "x"}),
    ] {
        assert_eq!(
            call(&app, post(&review, bad.clone(), Some(TOKEN))).await.0,
            StatusCode::BAD_REQUEST,
            "{bad}"
        );
    }
    let wrong_type = json!({"reviewer": "Ana", "field": "location.city", "value": 7});
    assert_eq!(
        call(&app, post(&path, wrong_type, Some(TOKEN))).await.0,
        StatusCode::BAD_REQUEST
    );
    let unknown = json!({"reviewer": "Ana", "field": "location.city", "value": "x", "extra": 1});
    assert_eq!(
        call(&app, post(&path, unknown, Some(TOKEN))).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    let r = json_of(&app, &format!("/api/records/{}", f.homs)).await;
    assert_eq!(r["record"]["location"]["city"], "Hama");
    assert_eq!(r["machine"]["location"]["city"], "Homs");
    assert_eq!(r["corrections"][0]["machine"], "Homs");
    assert_eq!(r["review"]["state"], "checked");
    let history = json_of(&app, &format!("/api/records/{}/history", f.homs)).await;
    assert_eq!(history["log"].as_array().expect("log").len(), 2);
    let queue = json_of(&app, "/api/review/queue").await;
    assert!(queue["records"]
        .as_array()
        .expect("records")
        .iter()
        .all(|r| r["id"] != f.homs.as_str()));

    let (status, headers, body) = call(&app, get("/api/export?format=jsonl&city=Hama")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["x-total-count"], "1");
    let line: Value =
        serde_json::from_slice(body.split(|&b| b == b'\n').next().expect("a line")).expect("JSON");
    assert_eq!(
        line["location"]["city"], "Hama",
        "the export carries the corrected value"
    );
    assert_eq!(line["corrections"][0]["field"], "location.city");
}

/// The facet counts of one dimension, as `(value, count)`.
fn facet_counts(results: &Value, dim: &str) -> Vec<(String, u64)> {
    results["facets"][dim]
        .as_array()
        .expect("facet")
        .iter()
        .map(|v| {
            (
                v["value"].as_str().expect("value").to_string(),
                v["count"].as_u64().expect("count"),
            )
        })
        .collect()
}

fn ids_of(results: &Value) -> Vec<String> {
    results["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| h["id"].as_str().expect("id").to_string())
        .collect()
}

#[tokio::test]
async fn facets_filters_search_and_exports_see_the_corrected_values() {
    let f = Fixture::new();
    let app = f.router(true);
    let homs = f.homs.clone();
    let count = |facets: &Value, dim: &str, value: &str| {
        facet_counts(facets, dim)
            .into_iter()
            .find(|(v, _)| v == value)
            .map_or(0, |(_, n)| n)
    };
    let before = json_of(&app, "/api/facets").await;
    assert_eq!(count(&before, "city", "Homs"), 1);
    assert_eq!(count(&before, "city", "Hama"), 0);
    for spelling in ["Homs", "Hims"] {
        let found = json_of(&app, &format!("/api/search?city={spelling}")).await;
        assert_eq!(ids_of(&found), vec![homs.clone()], "{spelling}");
    }

    let correct = |field: &str, value: Value| {
        post(
            &format!("/api/records/{homs}/corrections"),
            json!({"reviewer": "Ana", "field": field, "value": value}),
            Some(TOKEN),
        )
    };
    for (field, value) in [
        ("location.city", json!("Hama")),
        ("credit.agencies", json!(["Agence France-Presse"])),
        (
            "description",
            json!("A cyclist passes closed stalls in Hama"),
        ),
    ] {
        let (status, _, body) = call(&app, correct(field, value)).await;
        assert_eq!(status, StatusCode::CREATED, "{field}");
        let entry: Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(entry["indexed"], true, "no ingest is running: {entry}");
    }

    // Facets count the record under the reviewer's values only.
    let after = json_of(&app, "/api/facets").await;
    assert_eq!(count(&after, "city", "Homs"), 0, "{after}");
    assert_eq!(count(&after, "city", "Hama"), 1, "{after}");
    assert_eq!(count(&after, "agency", "Agence France-Presse"), 1);
    assert_eq!(
        count(&after, "agency", "Reuters"),
        count(&before, "agency", "Reuters") - 1
    );
    assert_eq!(after["total"], before["total"]);
    let with_hits = json_of(&app, "/api/search?facets=true&limit=50").await;
    assert_eq!(count(&with_hits, "city", "Hama"), 1);

    // Filters: found by the new city, not the old, whatever the spelling
    // (the machine's GeoNames id of Homs is not the record's any more).
    for (query, expected) in [
        ("city=Hama", vec![homs.clone()]),
        ("city=Homs", vec![]),
        ("city=Hims", vec![]),
        ("agency=Agence+France-Presse", vec![homs.clone()]),
        ("q=stalls", vec![homs.clone()]),
        ("q=bicycle", vec![]),
    ] {
        let found = json_of(&app, &format!("/api/search?{query}")).await;
        assert_eq!(ids_of(&found), expected, "{query}");
    }
    let agency = json_of(&app, "/api/search?agency=Reuters&limit=50").await;
    assert!(!ids_of(&agency).contains(&homs), "{agency}");
    let hit = &json_of(&app, "/api/search?q=stalls").await["hits"][0];
    assert!(
        hit["snippet"].as_str().expect("snippet").contains("stalls"),
        "the snippet is of the corrected description: {hit}"
    );
    assert_eq!(hit["record"]["location"]["city"], "Hama");
    let map = json_of(&app, "/api/map?level=country&city=Hama").await;
    assert_eq!(map["total"], 1);

    // Exports select by the corrected values and name the fields corrected.
    let (_, headers, body) = call(&app, get("/api/export?format=jsonl&city=Homs")).await;
    assert_eq!(headers["x-total-count"], "0");
    assert!(body.is_empty());
    let (_, headers, body) = call(&app, get("/api/export?format=jsonl&city=Hama")).await;
    assert_eq!(headers["x-total-count"], "1");
    let line: Value = serde_json::from_slice(&body).expect("one JSON line");
    assert_eq!(line["location"]["city"], "Hama");
    let mut corrected: Vec<&str> = line["corrections"]
        .as_array()
        .expect("corrections")
        .iter()
        .map(|c| c["field"].as_str().expect("field"))
        .collect();
    corrected.sort_unstable();
    assert_eq!(
        corrected,
        ["credit.agencies", "description", "location.city"]
    );

    // The index is derived from the store: rebuilt, it holds the same.
    {
        let mut archive =
            archive::Archive::open(f.dir.path(), archive::Mode::Write).expect("writer");
        archive.reindex().expect("reindex");
        assert!(archive.check().expect("check").is_ok());
    }
    let rebuilt = json_of(&app, "/api/facets").await;
    assert_eq!(rebuilt["facets"], after["facets"]);

    // While another process holds the index writer (an ingest), the
    // correction waits in the store, and searches say the index is behind;
    // that writer's next sync indexes it.
    let ingest = archive::Archive::open(f.dir.path(), archive::Mode::Write).expect("writer");
    let (status, _, body) = call(&app, correct("location.city", json!("Idlib"))).await;
    assert_eq!(status, StatusCode::CREATED);
    let entry: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(entry["indexed"], false, "{entry}");
    let lagging = json_of(&app, "/api/search?city=Idlib").await;
    assert_eq!(lagging["total"], 0);
    assert!(lagging["index_behind"].as_i64().expect("behind") > 0);
    let mut ingest = ingest;
    ingest.sync_index().expect("the writer's sync");
    drop(ingest);
    let caught_up = json_of(&app, "/api/search?city=Idlib").await;
    assert_eq!(ids_of(&caught_up), vec![homs.clone()]);
    assert_eq!(caught_up["index_behind"], 0);
}

#[tokio::test]
async fn a_correction_fills_in_a_place_the_machine_left_empty() {
    // No place in the caption: the machine's location is null.
    let (f, ids) = Fixture::with(&["A portrait of the painter in her studio. REUTERS/Mona Saleh"]);
    let app = f.router(true);
    let id = &ids[0];
    let before = json_of(&app, &format!("/api/records/{id}")).await;
    assert!(before["record"]["location"].is_null(), "{before}");

    let (status, _, body) = call(
        &app,
        post(
            &format!("/api/records/{id}/corrections"),
            json!({"reviewer": "Ana", "field": "location.city", "value": "Hama"}),
            Some(TOKEN),
        ),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&body)
    );
    let entry: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(
        (entry["old"].clone(), entry["new"].clone()),
        (json!(null), json!("Hama"))
    );
    assert_eq!(entry["indexed"], true);

    // The record shows it, with every other location field present and
    // null, and says the machine had nothing.
    let r = json_of(&app, &format!("/api/records/{id}")).await;
    assert_eq!(r["record"]["location"]["city"], "Hama", "{r}");
    assert!(r["record"]["location"]["country"].is_null());
    assert!(r["record"]["location"]
        .as_object()
        .expect("location")
        .contains_key("geonames_id"));
    assert!(r["machine"]["location"].is_null());
    assert_eq!(r["corrections"][0]["field"], "location.city");
    assert!(r["corrections"][0]["machine"].is_null());

    // Facets, search and export see it.
    let facets = json_of(&app, "/api/facets").await;
    assert!(
        facet_counts(&facets, "city").contains(&("Hama".to_string(), 1)),
        "{facets}"
    );
    let found = json_of(&app, "/api/search?city=Hama").await;
    assert_eq!(ids_of(&found), vec![id.clone()]);
    assert_eq!(found["hits"][0]["record"]["location"]["city"], "Hama");
    let (_, headers, body) = call(&app, get("/api/export?format=jsonl&city=Hama")).await;
    assert_eq!(headers["x-total-count"], "1");
    let line: Value = serde_json::from_slice(&body).expect("one JSON line");
    assert_eq!(line["id"], id.as_str());
    assert_eq!(line["location"]["city"], "Hama");

    // Corrected back to nothing, it is found under no city again.
    let (status, _, _) = call(
        &app,
        post(
            &format!("/api/records/{id}/corrections"),
            json!({"reviewer": "Ana", "field": "location.city", "value": null}),
            Some(TOKEN),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let found = json_of(&app, "/api/search?city=Hama").await;
    assert_eq!(found["total"], 0, "{found}");
}

/// The review queue's ids with whether each shows flags, in order.
async fn queue_of(app: &axum::Router) -> Vec<(String, bool)> {
    let queue = json_of(app, "/api/review/queue?limit=100").await;
    queue["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            let flags = r["flags"].as_array().map_or(0, Vec::len);
            (r["id"].as_str().expect("id").to_string(), flags > 0)
        })
        .collect()
}

/// Whether every flagged record of a queue comes before every other.
fn flagged_first(queue: &[(String, bool)]) -> bool {
    queue.windows(2).all(|w| w[0].1 || !w[1].1)
}

#[tokio::test]
async fn the_review_queue_follows_the_corrected_flags_and_states() {
    let f = Fixture::new();
    let app = f.router(true);
    let before = queue_of(&app).await;
    assert_eq!(before.len() as u64, f.records());
    assert!(flagged_first(&before), "{before:?}");
    let position = |queue: &[(String, bool)], id: &str| queue.iter().position(|(i, _)| i == id);
    let homs = f.homs.clone();
    assert_eq!(
        before
            .iter()
            .find(|(i, _)| *i == homs)
            .map(|(_, flagged)| *flagged),
        Some(false),
        "the Homs record has no machine flag"
    );
    let first_unflagged = before
        .iter()
        .position(|(_, flagged)| !flagged)
        .expect("some");
    assert!(
        first_unflagged >= 2,
        "at least two flagged records: {before:?}"
    );
    let cleared = before[0].0.clone();

    let correct = |id: &str, flags: Value| {
        post(
            &format!("/api/records/{id}/corrections"),
            json!({"reviewer": "Ana", "field": "flags", "value": flags}),
            Some(TOKEN),
        )
    };
    // The first flagged record's flags cleared, the Homs one flagged.
    for (id, flags) in [(&cleared, json!([])), (&homs, json!(["unverified"]))] {
        let (status, _, body) = call(&app, correct(id, flags)).await;
        assert_eq!(
            status,
            StatusCode::CREATED,
            "{}",
            String::from_utf8_lossy(&body)
        );
    }
    let after = queue_of(&app).await;
    assert_eq!(after.len(), before.len());
    assert!(
        flagged_first(&after),
        "ordered by the flags shown: {after:?}"
    );
    let at = |id: &str| position(&after, id).expect("queued");
    assert!(
        at(&homs) < first_unflagged,
        "the record a reviewer flagged leads: {after:?}"
    );
    assert!(
        at(&cleared) >= first_unflagged - 1 && !after[at(&cleared)].1,
        "the record whose flags were cleared waits with the unflagged: {after:?}"
    );
    // Null clears them as well.
    let (status, _, _) = call(&app, correct(&homs, Value::Null)).await;
    assert_eq!(status, StatusCode::CREATED);
    let nulled = queue_of(&app).await;
    assert!(position(&nulled, &homs) > position(&nulled, &before[1].0));

    // Marked checked, a record leaves the queue; back to unreviewed, it
    // returns.
    let mark = |state: &str| {
        post(
            &format!("/api/records/{homs}/review"),
            json!({"reviewer": "Ana", "state": state}),
            Some(TOKEN),
        )
    };
    assert_eq!(call(&app, mark("checked")).await.0, StatusCode::CREATED);
    assert_eq!(position(&queue_of(&app).await, &homs), None);
    assert_eq!(call(&app, mark("unreviewed")).await.0, StatusCode::CREATED);
    assert!(position(&queue_of(&app).await, &homs).is_some());
}

#[tokio::test]
async fn exports_stream_every_record_without_a_cap() {
    let f = Fixture::new();
    let app = f.router(true);
    let (status, headers, body) = call(&app, get("/api/export?format=jsonl")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/x-ndjson");
    let lines = body
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(lines as u64, f.records());
    assert_eq!(headers["x-total-count"], f.records().to_string().as_str());
    let (status, _, _) = call(&app, get("/api/export?format=xmp")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _, body) = call(&app, get("/api/export?format=jsonl&from=2014-13")).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "{}",
        String::from_utf8_lossy(&body)
    );
}

#[tokio::test]
async fn security_headers_on_every_answer() {
    let f = Fixture::new();
    let app = f.router(true);
    for path in [
        "/",
        "/r/abc",
        "/review",
        "/assets/app.css",
        "/api/stats",
        "/api/nothing",
        "/assets/none.js",
    ] {
        let (_, headers, _) = call(&app, get(path)).await;
        assert_eq!(
            headers[header::CONTENT_SECURITY_POLICY],
            server::CSP,
            "{path}"
        );
        assert!(
            server::CSP.contains("frame-ancestors 'none'")
                && server::CSP.contains("script-src 'self'")
        );
        assert!(!server::CSP.contains("unsafe-inline"));
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer", "{path}");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY", "{path}");
        assert!(headers.contains_key("permissions-policy"), "{path}");
        assert!(
            !headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN),
            "{path}: no CORS"
        );
    }
}

#[tokio::test]
async fn hosts_origins_and_tokens_are_checked() {
    let f = Fixture::new();
    let app = f.router(true);
    let with_host = |host: &str| {
        Request::get("/api/stats")
            .header(header::HOST, host)
            .body(Body::empty())
            .expect("request")
    };
    for host in ["localhost:8750", "127.0.0.1", "[::1]:8750"] {
        assert_eq!(
            call(&app, with_host(host)).await.0,
            StatusCode::OK,
            "{host}"
        );
    }
    for host in ["evil.example", "evil.example:8750", "127.0.0.1.nip.io:8750"] {
        assert_eq!(
            call(&app, with_host(host)).await.0,
            StatusCode::FORBIDDEN,
            "{host}"
        );
    }
    let body = json!({"reviewer": "Ana", "note": "n"});
    let path = format!("/api/records/{}/review", f.homs);
    let mut cross = post(&path, body.clone(), Some(TOKEN));
    cross.headers_mut().insert(
        header::ORIGIN,
        "http://evil.example".parse().expect("value"),
    );
    assert_eq!(call(&app, cross).await.0, StatusCode::FORBIDDEN);
    let mut same = post(&path, body.clone(), Some(TOKEN));
    same.headers_mut().insert(
        header::ORIGIN,
        "http://127.0.0.1:8750".parse().expect("value"),
    );
    assert_eq!(call(&app, same).await.0, StatusCode::CREATED);
    let mut fetch_site = post(&path, body, Some(TOKEN));
    fetch_site
        .headers_mut()
        .insert("sec-fetch-site", "cross-site".parse().expect("value"));
    assert_eq!(call(&app, fetch_site).await.0, StatusCode::FORBIDDEN);

    // Off loopback: any Host, but reads need the token; the page itself does not.
    let open = f.router(false);
    let any_host = |auth: Option<&str>| {
        let mut r = Request::get("/api/stats").header(header::HOST, "archive.example");
        if let Some(t) = auth {
            r = r.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        r.body(Body::empty()).expect("request")
    };
    assert_eq!(
        call(&open, any_host(None)).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(call(&open, any_host(Some(TOKEN))).await.0, StatusCode::OK);
    let page = Request::get("/")
        .header(header::HOST, "archive.example")
        .body(Body::empty())
        .expect("request");
    assert_eq!(call(&open, page).await.0, StatusCode::OK);
}

#[tokio::test]
async fn limits_on_query_body_and_page_size() {
    let f = Fixture::new();
    let app = f.router(true);
    let long = format!("/api/search?q={}", "a".repeat(server::MAX_QUERY_BYTES));
    assert_eq!(call(&app, get(&long)).await.0, StatusCode::URI_TOO_LONG);
    assert_eq!(
        call(&app, get("/api/search?limit=201")).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        call(&app, get("/api/search?limit=200")).await.0,
        StatusCode::OK
    );
    assert_eq!(
        call(&app, get("/api/search?path=/etc/passwd")).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        call(&app, get("/api/search?q=a&q=b")).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        call(&app, get("/api/search?near=1,2")).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        call(&app, get("/api/search?facets=maybe")).await.0,
        StatusCode::BAD_REQUEST
    );
    let big = json!({"reviewer": "Ana", "note": "x".repeat(server::MAX_BODY_BYTES)});
    let path = format!("/api/records/{}/review", f.homs);
    assert_eq!(
        call(&app, post(&path, big, Some(TOKEN))).await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let not_json = Request::post(&path)
        .header(header::HOST, "127.0.0.1")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .body(Body::from("reviewer=Ana"))
        .expect("request");
    assert_eq!(
        call(&app, not_json).await.0,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
}

#[tokio::test]
async fn pages_and_assets_are_embedded_without_inline_code() {
    let f = Fixture::new();
    let app = f.router(true);
    for (path, media) in [
        ("/", "text/html"),
        ("/r/x", "text/html"),
        ("/review", "text/html"),
        ("/assets/app.css", "text/css"),
        ("/assets/search.js", "text/javascript"),
        ("/assets/world.json", "application/json"),
        ("/assets/admin1.json", "application/json"),
    ] {
        let (status, headers, body) = call(&app, get(path)).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            headers[header::CONTENT_TYPE]
                .to_str()
                .expect("ascii")
                .starts_with(media),
            "{path}"
        );
        if media == "text/html" {
            let html = String::from_utf8(body).expect("UTF-8");
            // Every script has a src; no style element or attribute; no
            // handler attribute: the CSP would block them anyway.
            assert_eq!(
                html.matches("<script").count(),
                html.matches("<script src=\"/assets/").count(),
                "{path}"
            );
            for inline in [
                "<style",
                " style=",
                " onclick=",
                " onload=",
                "javascript:",
                "http://",
                "https://",
            ] {
                assert!(!html.contains(inline), "{path} has {inline}");
            }
        }
    }
    for path in [
        "/assets/..%2FCargo.toml",
        "/assets/%2e%2e/src/lib.rs",
        "/assets/",
        "/etc/passwd",
    ] {
        assert_eq!(
            call(&app, get(path)).await.0,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
}

#[tokio::test]
async fn every_openapi_route_answers() {
    let f = Fixture::new();
    let app = f.router(true);
    let doc = json_of(&app, "/api/openapi.json").await;
    assert_eq!(doc["openapi"], "3.0.3");
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.len() >= 12);
    for (path, methods) in paths {
        let concrete = path.replace("{id}", &f.homs);
        for method in methods.as_object().expect("methods").keys() {
            let request = match method.as_str() {
                "get" => get(&concrete),
                "post" => post(
                    &concrete,
                    json!({"reviewer": "Ana", "note": "n", "field": "flags", "value": []}),
                    Some(TOKEN),
                ),
                other => panic!("unexpected method {other}"),
            };
            let status = call(&app, request).await.0;
            assert!(
                status.is_success() || status == StatusCode::UNPROCESSABLE_ENTITY,
                "{method} {path}: {status}"
            );
        }
    }
}

#[tokio::test]
async fn serves_over_a_loopback_socket() {
    let f = Fixture::new();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let state = f.state(true);
    let server = tokio::spawn(server::serve(listener, Arc::clone(&state), async {
        let _ = stopped.await;
    }));
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(
            format!("GET /api/stats HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await
        .expect("write");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains(&format!("\"records\":{}", f.records())),
        "{answer}"
    );
    let _ = stop.send(());
    server.await.expect("joined").expect("served");
}
