//! Search latency of an archive over 1,000 varied queries, beside SQLite
//! FTS5 on the same records (`scripts/bench-archive.sh` runs it).
//!
//! Usage: `search_latency ARCHIVE_DIR [QUERIES]` (default 1000). Queries are
//! drawn deterministically from the archive's own descriptions: one or two
//! words, a phrase, or a word with a filter (agency, country, year range),
//! every tenth with facet counts. Prints the figures by query shape and the
//! slowest queries with their match counts. `SEARCH_LATENCY_NO_FTS5=1`
//! skips the FTS5 comparison (quicker while working on the archive alone);
//! `SEARCH_LATENCY_ROUNDS=N` runs the queries N times and adds the figures
//! of each query's best time (a shared machine's scheduling noise aside).

use std::time::Instant;

use archive::{Archive, Filters, Mode, SearchQuery};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().ok_or("usage: search_latency ARCHIVE_DIR [N]")?);
    let n: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1000);
    let archive = Archive::open(&dir, Mode::Read)?;
    let gazetteer = gazetteer::Gazetteer::embedded();

    // Sample descriptions spread over the store.
    let conn = rusqlite::Connection::open(dir.join(archive::STORE_FILE))?;
    let records: i64 = conn.query_row("SELECT count(*) FROM records", [], |r| r.get(0))?;
    let step = (records / n as i64).max(1);
    let mut stmt = conn.prepare(
        "SELECT json_extract(json, '$.description'), json_extract(json, '$.credit.agencies[0]'),
                country_code FROM records WHERE key % ?1 = 0 LIMIT ?2",
    )?;
    let samples: Vec<(String, Option<String>, Option<String>)> = stmt
        .query_map(rusqlite::params![step, n as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    let mut queries = Vec::new();
    let mut shapes = Vec::new();
    for (i, (description, agency, country)) in samples.iter().enumerate() {
        let words: Vec<&str> = description
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 4 && !w.chars().any(|c| c.is_ascii_digit()))
            .collect();
        if words.is_empty() {
            continue;
        }
        let w = |k: usize| words[(i * 7 + k) % words.len()].to_lowercase();
        let mut q = SearchQuery {
            limit: 20,
            ..SearchQuery::default()
        };
        let shape = match i % 5 {
            0 => "word",
            1 => "two words",
            2 if words.len() > 2 => "phrase",
            3 => "word+agency",
            _ if i % 10 == 4 => "word+country+years+facets",
            _ => "word+country+years",
        };
        match i % 5 {
            0 => q.text = Some(w(0)),
            1 => q.text = Some(format!("{} {}", w(0), w(3))),
            2 if words.len() > 2 => {
                let start = i % (words.len() - 1);
                q.text = Some(format!("\"{} {}\"", words[start], words[start + 1]).to_lowercase());
            }
            3 => {
                q.text = Some(w(1));
                q.filters = Filters {
                    agency: agency.clone(),
                    ..Filters::default()
                };
            }
            _ => {
                q.text = Some(w(2));
                q.filters = Filters {
                    country: country.clone(),
                    from: Some("2014".into()),
                    to: Some("2017".into()),
                    ..Filters::default()
                };
                q.facets = i % 10 == 4;
            }
        }
        queries.push(q);
        shapes.push(shape);
    }
    // Warm up (page cache, term dictionaries), then measure.
    for q in queries.iter().take(50) {
        archive.search(q, Some(gazetteer))?;
    }
    let mut times = Vec::with_capacity(queries.len());
    let mut totals = Vec::with_capacity(queries.len());
    let mut hits = 0usize;
    for q in &queries {
        let start = Instant::now();
        let found = archive.search(q, Some(gazetteer))?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        hits += found.total;
        totals.push(found.total);
    }
    let mut timed = times.clone();
    report("archive (tantivy + store)", &mut times, queries.len(), hits);
    // On a shared machine a query may wait for a core: more rounds, each
    // query's best time, tell what the search itself costs.
    let rounds: usize = std::env::var("SEARCH_LATENCY_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    if rounds > 1 {
        for _ in 1..rounds {
            for (q, best) in queries.iter().zip(timed.iter_mut()) {
                let start = Instant::now();
                archive.search(q, Some(gazetteer))?;
                *best = best.min(start.elapsed().as_secs_f64() * 1000.0);
            }
        }
        report(
            &format!("  best of {rounds} rounds"),
            &mut timed.clone(),
            queries.len(),
            0,
        );
    }
    // By query shape, and the slowest queries: what makes the tail.
    let mut names: Vec<&str> = shapes.clone();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let mut t: Vec<f64> = (0..queries.len())
            .filter(|&i| shapes[i] == name)
            .map(|i| timed[i])
            .collect();
        let n = t.len();
        report(&format!("  {name}"), &mut t, n, 0);
    }
    let mut order: Vec<usize> = (0..queries.len()).collect();
    order.sort_by(|&a, &b| timed[b].total_cmp(&timed[a]));
    // The slowest overall, then the slowest three of each shape.
    let mut shown: Vec<usize> = order.iter().copied().take(10).collect();
    for (k, &i) in order.iter().enumerate() {
        if k >= 10
            && order[..k]
                .iter()
                .filter(|&&j| shapes[j] == shapes[i])
                .count()
                < 3
        {
            shown.push(i);
        }
    }
    println!("  slowest:");
    for &i in &shown {
        let q = &queries[i];
        let f = &q.filters;
        println!(
            "    {:7.2} ms  {:>7} matches  {:<26} {:?}{}{}",
            timed[i],
            totals[i],
            shapes[i],
            q.text.as_deref().unwrap_or(""),
            f.agency
                .as_deref()
                .map(|a| format!(" agency={a:?}"))
                .unwrap_or_default(),
            f.country
                .as_deref()
                .map(|c| format!(" country={c}"))
                .unwrap_or_default(),
        );
    }

    if std::env::var_os("SEARCH_LATENCY_NO_FTS5").is_some() {
        return Ok(());
    }
    // The same text queries in SQLite FTS5 over the same records.
    let fts_path = dir.join("fts5-bench.sqlite3");
    let _ = std::fs::remove_file(&fts_path);
    let fts = rusqlite::Connection::open(&fts_path)?;
    // Build time: the records are already parsed, so this is FTS5's share of
    // an ingest (the archive's figure also includes parsing and clustering).
    let build = Instant::now();
    fts.execute_batch(&format!(
        "ATTACH '{}' AS a;
         CREATE VIRTUAL TABLE f USING fts5(description, names, places, agency UNINDEXED,
             country UNINDEXED, date UNINDEXED, key UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
         INSERT INTO f SELECT json_extract(json, '$.description'),
             coalesce((SELECT group_concat(json_extract(p.value, '$.name'), ' ')
                       FROM json_each(json, '$.persons') p), '') || ' ' || creators,
             coalesce(json_extract(json, '$.location.text'), '') || ' ' || coalesce(city, ''),
             json_extract(json, '$.credit.agencies[0]'), country_code, date_created, key
         FROM a.records;
         DETACH a;",
        dir.join(archive::STORE_FILE).display()
    ))?;
    let fts_build = build.elapsed().as_secs_f64();
    let fts_bytes = std::fs::metadata(&fts_path)?.len();
    let mut times = Vec::with_capacity(queries.len());
    let mut hits = 0usize;
    for q in &queries {
        let text = q.text.clone().unwrap_or_default();
        let start = Instant::now();
        let mut sql =
            String::from("SELECT key, snippet(f, 0, '[', ']', '…', 20) FROM f WHERE f MATCH ?1");
        if q.filters.agency.is_some() {
            sql.push_str(" AND agency = ?2");
        } else if q.filters.country.is_some() {
            sql.push_str(" AND country = ?2 AND date >= '2014' AND date <= '2017-12-31'");
        } else {
            sql.push_str(" AND ?2 IS NULL");
        }
        sql.push_str(" ORDER BY rank, key LIMIT 20");
        let filter = q.filters.agency.clone().or(q.filters.country.clone());
        let mut stmt = fts.prepare_cached(&sql)?;
        let rows: Vec<(i64, String)> = stmt
            .query_map(rusqlite::params![text, filter], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<Result<_, _>>()?;
        // A total as the archive gives it.
        let count: i64 = fts.query_row(
            &sql.replace(
                "SELECT key, snippet(f, 0, '[', ']', '…', 20)",
                "SELECT count(*)",
            )
            .replace(" ORDER BY rank, key LIMIT 20", ""),
            rusqlite::params![text, filter],
            |r| r.get(0),
        )?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        hits += rows.len().max(count as usize);
    }
    report("SQLite FTS5", &mut times, queries.len(), hits);
    println!(
        "FTS5 table: built from the store's {records} records in {fts_build:.1} s, {:.1} MB ({} bytes per record)",
        fts_bytes as f64 / 1e6,
        fts_bytes / records.max(1) as u64
    );
    drop(fts);
    let _ = std::fs::remove_file(&fts_path);
    Ok(())
}

fn report(name: &str, times: &mut [f64], queries: usize, hits: usize) {
    if times.is_empty() {
        return;
    }
    times.sort_by(f64::total_cmp);
    let at = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    println!(
        "{name}: {queries} queries, p50 {:.2} ms, p90 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms{}",
        at(0.5),
        at(0.9),
        at(0.95),
        at(0.99),
        times[times.len() - 1],
        if hits > 0 { format!(" ({hits} matches in all)") } else { String::new() }
    );
}
