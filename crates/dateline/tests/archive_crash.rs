//! Crash safety: an ingest killed with SIGKILL at random moments leaves an
//! archive that `check` accepts, with every document wholly present or
//! absent; searches run during the ingest; a rerun completes it, equal to an
//! uninterrupted ingest. Slow, so it runs in CI (`CI=true`) or with
//! `DATELINE_CRASH_TEST=1`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{dateline, scratch, ACTIONS, SUBJECTS};

const FILES: usize = 16;
const CAPTIONS_PER_FILE: usize = 30;
const KILLS: usize = 20;

const PLACES: &[&str] = &[
    "Aleppo, Syria",
    "Homs, Syria",
    "Idlib, Syria",
    "Mosul, Iraq",
    "Gaziantep, Turkey",
    "Amman, Jordan",
];
const CREDITS: &[&str] = &[
    "REUTERS/Lina Haddad",
    "(AP Photo/Karim Mansour)",
    "(Photo by Samir Khoury/AFP)",
];
const MONTHS: &[&str] = &["January", "March", "May", "August", "October", "December"];

/// The `k`th invented caption.
fn caption(k: usize) -> String {
    format!(
        "{} {} in {} {} {}, {}. {}",
        SUBJECTS[k % SUBJECTS.len()],
        ACTIONS[(k / SUBJECTS.len()) % ACTIONS.len()],
        PLACES[(k / 7) % PLACES.len()],
        MONTHS[(k / 3) % MONTHS.len()],
        1 + k % 28,
        2012 + (k / 97) % 6,
        CREDITS[(k / 5) % CREDITS.len()],
    )
}

/// Invented captions, distinct, with a repeat of an earlier file's caption
/// in each file so clustering across documents is exercised.
fn write_corpus(dir: &Path) -> usize {
    std::fs::create_dir_all(dir).expect("corpus dir");
    let mut n = 0usize;
    let mut total = 0;
    for file in 0..FILES {
        let mut text = String::new();
        for _ in 0..CAPTIONS_PER_FILE {
            text.push_str(&caption(n));
            text.push_str("\n\n");
            n += 1;
            total += 1;
        }
        if file > 0 {
            // A repeat of the first caption of the previous file.
            text.push_str(&caption((file - 1) * CAPTIONS_PER_FILE));
            text.push('\n');
            total += 1;
        }
        std::fs::write(dir.join(format!("part-{file:03}.txt")), text).expect("corpus file");
    }
    total
}

fn check_ok(archive: &Path) -> String {
    let out = dateline(
        &["check", "--archive", archive.to_str().expect("UTF-8 path")],
        b"",
    );
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "check failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// `documents, occurrences, records, variants` from check's summary line.
fn counts(check_output: &str) -> Vec<u64> {
    let line = check_output
        .lines()
        .find(|l| l.contains("document(s),"))
        .expect("a summary line");
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a count"))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .take(5)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

/// Each stored document holds exactly its file's captions.
fn documents_whole(archive: &Path) {
    let conn = rusqlite::Connection::open(archive.join("archive.sqlite3")).expect("open the store");
    let mut stmt = conn
        .prepare(
            "SELECT d.path, d.occurrences, (SELECT count(*) FROM occurrences o WHERE o.document = d.id)
             FROM documents d",
        )
        .expect("query");
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })
        .expect("rows");
    for row in rows {
        let (path, declared, stored) = row.expect("a row");
        let expected = if path.ends_with("part-000.txt") {
            CAPTIONS_PER_FILE
        } else {
            CAPTIONS_PER_FILE + 1
        };
        assert_eq!(stored, declared, "{path}");
        assert_eq!(stored as usize, expected, "{path} is partly stored");
    }
}

#[test]
fn sigkilled_ingests_leave_a_sound_archive_and_a_rerun_completes_it() {
    // Twenty ingests and checks take tens of seconds: CI runs this test,
    // a developer's `cargo test` only when asked.
    if std::env::var("CI").is_err() && std::env::var("DATELINE_CRASH_TEST").is_err() {
        eprintln!("skipping the SIGKILL crash test (slow): set DATELINE_CRASH_TEST=1 to run it");
        return;
    }
    let root = scratch("archive-crash");
    let corpus = root.join("corpus");
    write_corpus(&corpus);
    let corpus_arg = corpus.to_str().expect("UTF-8 path");

    // The reference: one uninterrupted ingest.
    let reference = root.join("reference");
    let started = Instant::now();
    let out = dateline(
        &[
            "ingest",
            corpus_arg,
            "--archive",
            reference.to_str().expect("UTF-8 path"),
        ],
        b"",
    );
    assert!(out.status.success());
    let full_run = started.elapsed();
    let expected = counts(&check_ok(&reference));

    // Kill points spread over the whole run, from before the store is
    // opened to the final index commit.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    eprintln!("crash test seed {seed}, uninterrupted ingest {full_run:?}");
    let mut state = seed;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let crashed = root.join("crashed");
    let crashed_arg = crashed.to_str().expect("UTF-8 path");
    let mut searched_during_ingest = false;
    for kill in 0..KILLS {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dateline"))
            .args(["ingest", corpus_arg, "--archive", crashed_arg])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ingest starts");
        let at = full_run.mul_f64((random() % 1000) as f64 / 1000.0);
        std::thread::sleep(at);
        // A search while the ingest runs is not blocked by it.
        if kill % 4 == 1 && crashed.join("archive.sqlite3").exists() {
            let started = Instant::now();
            let search = dateline(
                &["search", "--json", "market", "--archive", crashed_arg],
                b"",
            );
            if search.status.success() {
                searched_during_ingest = true;
                assert!(started.elapsed() < Duration::from_secs(10));
            }
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        if crashed.join("archive.sqlite3").exists() {
            check_ok(&crashed);
            documents_whole(&crashed);
        }
    }
    assert!(searched_during_ingest || full_run < Duration::from_millis(300));

    // A rerun completes the archive, equal to the uninterrupted one.
    let out = dateline(&["ingest", corpus_arg, "--archive", crashed_arg], b"");
    assert!(out.status.success());
    let got = counts(&check_ok(&crashed));
    assert_eq!(
        got, expected,
        "documents, occurrences, records, variants, indexed"
    );
    documents_whole(&crashed);
    let _ = std::fs::remove_dir_all(root);
}
