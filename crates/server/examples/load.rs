//! Load for `dateline serve` (run by `scripts/serve-load.sh`): N clients
//! on loopback, each sending searches with facets and record pages for a
//! fixed number of requests, and one more client writing corrections; it
//! reports server-side latency (the `Server-Timing` header) and client-side
//! latency per kind, errors, and the corrections acknowledged, one per line
//! into `ACKED_FILE` so a crash test can look for each.
//!
//! `load URL TOKEN [--clients 32] [--requests 200] [--corrections 200] [--acked FILE]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

type Http = Client<hyper_util::client::legacy::connect::HttpConnector, Full<bytes::Bytes>>;

/// Words the generated corpus uses, for queries.
const WORDS: &[&str] = &[
    "street", "market", "children", "smoke", "protest", "fuel", "damaged", "water", "women",
    "bread", "soldiers", "refugees", "camp", "school", "hospital", "rubble", "car", "police",
    "farmers", "boat",
];
const FILTERS: &[&str] = &[
    "",
    "&agency=Reuters",
    "&country=Syria",
    "&from=2015&to=2016",
    "&flag=file_photo",
    "&city=Aleppo",
];

#[derive(Default)]
struct Timings {
    server: Vec<f64>,
    client: Vec<f64>,
    errors: u64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn report(name: &str, mut t: Timings) {
    t.server.sort_by(f64::total_cmp);
    t.client.sort_by(f64::total_cmp);
    println!(
        "{name}: {} requests, {} errors; server p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; client p50 {:.2} ms, p99 {:.2} ms",
        t.server.len(),
        t.errors,
        percentile(&t.server, 0.5),
        percentile(&t.server, 0.99),
        t.server.last().copied().unwrap_or(f64::NAN),
        percentile(&t.client, 0.5),
        percentile(&t.client, 0.99),
    );
}

/// One request; its status, server time and body.
async fn send(
    http: &Http,
    method: &str,
    url: &str,
    token: &str,
    body: Option<String>,
) -> Result<(u16, f64, Vec<u8>), String> {
    let mut request = hyper::Request::builder().method(method).uri(url);
    if let Some(authority) = url.split('/').nth(2) {
        request = request.header("host", authority);
    }
    if body.is_some() {
        request = request
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"));
    }
    let request = request
        .body(Full::new(bytes::Bytes::from(body.unwrap_or_default())))
        .map_err(|e| e.to_string())?;
    let response = http.request(request).await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let server = response
        .headers()
        .get("server-timing")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("app;dur="))
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, server, body.to_vec()))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(base), Some(token)) = (args.first().cloned(), args.get(1).cloned()) else {
        eprintln!(
            "usage: load URL TOKEN [--clients N] [--requests N] [--corrections N] [--acked FILE]"
        );
        std::process::exit(2);
    };
    let option = |name: &str, default: usize| -> usize {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let acked = args
        .iter()
        .position(|a| a == "--acked")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let (clients, requests, corrections) = (
        option("--clients", 32),
        option("--requests", 200),
        option("--corrections", 200),
    );
    let base = base.trim_end_matches('/').to_string();
    let http: Http = Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .build_http();
    // Record ids to visit: the first page of a broad search.
    let ids: Vec<String> = match send(
        &http,
        "GET",
        &format!("{base}/api/search?limit=200"),
        &token,
        None,
    )
    .await
    {
        Ok((200, _, body)) => serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["hits"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|h| h["id"].as_str().map(str::to_string))
            .collect(),
        other => {
            eprintln!("the server does not answer a search: {other:?}");
            std::process::exit(1);
        }
    };
    if ids.is_empty() {
        eprintln!("the archive is empty");
        std::process::exit(1);
    }
    let ids = Arc::new(ids);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..clients {
        let (http, base, token, ids) =
            (http.clone(), base.clone(), token.clone(), Arc::clone(&ids));
        tasks.push(tokio::spawn(async move {
            let (mut search, mut record) = (Timings::default(), Timings::default());
            for i in 0..requests {
                let n = c * 7919 + i * 104_729;
                let (url, t) = if i % 4 == 3 {
                    (
                        format!("{base}/api/records/{}", ids[n % ids.len()]),
                        &mut record,
                    )
                } else {
                    let w = WORDS[n % WORDS.len()];
                    let f = FILTERS[(n / 7) % FILTERS.len()];
                    (
                        format!("{base}/api/search?q={w}{f}&facets=true&limit=20"),
                        &mut search,
                    )
                };
                let at = Instant::now();
                match send(&http, "GET", &url, &token, None).await {
                    Ok((200, server, _)) => {
                        t.server.push(server);
                        t.client.push(at.elapsed().as_secs_f64() * 1000.0);
                    }
                    _ => t.errors += 1,
                }
            }
            (search, record)
        }));
    }
    let writer = {
        let (http, base, token, ids) =
            (http.clone(), base.clone(), token.clone(), Arc::clone(&ids));
        tokio::spawn(async move {
            let mut t = Timings::default();
            let mut acknowledged = Vec::new();
            for i in 0..corrections {
                let id = &ids[i % ids.len()];
                let note = format!("load-{}-{i}", std::process::id());
                let body = serde_json::json!({
                    "reviewer": "load", "field": "location.sublocation", "value": note, "note": note,
                })
                .to_string();
                let at = Instant::now();
                match send(
                    &http,
                    "POST",
                    &format!("{base}/api/records/{id}/corrections"),
                    &token,
                    Some(body),
                )
                .await
                {
                    Ok((201, server, _)) => {
                        t.server.push(server);
                        t.client.push(at.elapsed().as_secs_f64() * 1000.0);
                        acknowledged.push(format!("{id} {note}"));
                    }
                    _ => t.errors += 1,
                }
            }
            (t, acknowledged)
        })
    };
    let (mut search, mut record) = (Timings::default(), Timings::default());
    for task in tasks {
        if let Ok((s, r)) = task.await {
            search.server.extend(s.server);
            search.client.extend(s.client);
            search.errors += s.errors;
            record.server.extend(r.server);
            record.client.extend(r.client);
            record.errors += r.errors;
        }
    }
    let (writes, acknowledged) = writer.await.unwrap_or_default();
    let elapsed = started.elapsed().as_secs_f64();
    let total = search.server.len() + record.server.len() + writes.server.len();
    println!(
        "{clients} clients + 1 writer, {total} requests in {elapsed:.1} s ({:.0}/s)",
        total as f64 / elapsed
    );
    report("search with facets", search);
    report("record", record);
    report("correction", writes);
    if let Some(path) = acked {
        let _ = std::fs::write(path, acknowledged.join("\n") + "\n");
    }
}
