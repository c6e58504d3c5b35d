//! Bad storage under the archive: a full disk and a read-only directory.
//! Each must give a clear error and lose nothing already committed.
//!
//! A full disk is simulated two ways: a file-size limit on the child
//! (`ulimit -f`, any user; writes past it fail with EFBIG), which runs in
//! the normal suite, and a 2 MB tmpfs (ENOSPC) with a read-only remount,
//! which needs root and `mount` (CI runs as root) and skips elsewhere,
//! saying why.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::util::{captions, dateline, scratch};

fn run_ok(args: &[&str]) -> String {
    let output = dateline(args, b"");
    assert!(
        output.status.success(),
        "dateline {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Records matching a word, as `search --json` counts them.
fn total(archive: &Path, word: &str) -> u64 {
    let out = run_ok(&[
        "search",
        "--json",
        word,
        "--archive",
        archive.to_str().expect("UTF-8 path"),
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    v["total"].as_u64().expect("a total")
}

/// `check` passes and the archive holds exactly `occurrences`.
fn assert_intact(archive: &Path, occurrences: u64) {
    let a = archive.to_str().expect("UTF-8 path");
    let out = run_ok(&["check", "--archive", a]);
    assert!(out.trim_end().ends_with("ok"), "check: {out}");
    assert!(
        out.contains(&format!(" {occurrences} occurrence(s),")),
        "expected {occurrences} occurrences: {out}"
    );
}

/// Runs dateline through `sh` with a file-size limit of `blocks` 512-byte
/// blocks; SIGXFSZ is ignored so a write past the limit fails (EFBIG) as a
/// full disk does, instead of killing the process.
fn dateline_with_fsize_limit(blocks: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_dateline"))
        .args(args)
        .output()
        .expect("sh runs")
}

/// Ingest, expecting failure; returns stderr.
/// The arguments of `dateline ingest --archive ARCHIVE FILE`.
fn ingest<'a>(archive: &'a str, file: &'a Path) -> [&'a str; 4] {
    [
        "ingest",
        "--archive",
        archive,
        file.to_str().expect("UTF-8 path"),
    ]
}

fn expect_failure(output: Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !output.status.success(),
        "{what}: ingest succeeded: {}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(
        !stderr.contains("panicked"),
        "{what}: a panic, not an error: {stderr}"
    );
    stderr
}

#[test]
fn a_file_size_limit_fails_the_ingest_and_keeps_what_was_committed() {
    let root = scratch("archive-fsize");
    let archive = root.join("archive");
    let a = archive.to_str().expect("UTF-8 path");
    let first = root.join("first.txt");
    std::fs::write(&first, captions(0, 20)).expect("write");
    run_ok(&ingest(a, &first));
    assert_intact(&archive, 20);
    let before = total(&archive, "bread");
    assert!(before > 0);

    // A document too large for what the limit leaves: the store grows past
    // it (each caption stores its text and parsed record).
    let big = root.join("big.txt");
    std::fs::write(&big, captions(1000, 3000)).expect("write");
    let store = std::fs::metadata(archive.join("archive.sqlite3"))
        .expect("store")
        .len();
    let blocks = store / 512 + 512;
    let stderr = expect_failure(
        dateline_with_fsize_limit(blocks, &ingest(a, &big)),
        "ulimit -f",
    );
    assert!(
        stderr.contains("big.txt") || stderr.contains("full") || stderr.contains("large"),
        "the error names the document or the cause: {stderr}"
    );
    assert_intact(&archive, 20);
    assert_eq!(total(&archive, "bread"), before);

    // With room again, the same document goes in whole.
    run_ok(&ingest(a, &big));
    assert_intact(&archive, 3020);
}

/// Whether this process may mount (root with a working `mount`); prints
/// why not when it may not.
fn can_mount(probe: &Path) -> bool {
    std::fs::create_dir_all(probe).expect("probe dir");
    let ok = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
        .arg(probe)
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        let _ = Command::new("umount").arg(probe).status();
    } else {
        eprintln!("skipping: cannot mount a tmpfs here (needs root; CI runs as root)");
    }
    ok
}

fn mount(args: &[&str], dir: &Path) {
    let status = Command::new("mount")
        .args(args)
        .arg(dir)
        .status()
        .expect("mount runs");
    assert!(status.success(), "mount {args:?} {}", dir.display());
}

/// Unmounts on drop, so a failing test leaves no mount behind.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// An archive on a fresh tmpfs of `size` holding `n` ingested captions:
/// the scratch root, the mount (unmounted on drop) and the archive
/// directory; `None` where mounting is not allowed.
fn archive_on_tmpfs(name: &str, size: &str, n: usize) -> Option<(PathBuf, Mounted, PathBuf)> {
    let root = scratch(name);
    let mnt = root.join("mnt");
    if !can_mount(&mnt) {
        return None;
    }
    mount(
        &["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"],
        &mnt,
    );
    let mounted = Mounted(mnt.clone());
    let archive = mnt.join("archive");
    let first = root.join("first.txt");
    std::fs::write(&first, captions(0, n)).expect("write");
    run_ok(&ingest(archive.to_str().expect("UTF-8 path"), &first));
    Some((root, mounted, archive))
}

#[test]
fn a_full_disk_and_a_read_only_directory_give_errors_and_lose_nothing() {
    let Some((root, mounted, archive)) = archive_on_tmpfs("archive-tmpfs", "2m", 20) else {
        return;
    };
    let a = archive.to_str().expect("UTF-8 path");
    assert_intact(&archive, 20);

    // Full disk: 3,000 captions do not fit in 2 MB.
    let big = root.join("big.txt");
    std::fs::write(&big, captions(1000, 3000)).expect("write");
    let stderr = expect_failure(dateline(&ingest(a, &big), b""), "full tmpfs");
    assert!(
        stderr.contains("full") || stderr.contains("space"),
        "the error says the disk is full: {stderr}"
    );
    assert_intact(&archive, 20);

    // Read-only: an ingest is refused with a clear error.
    mount(&["-o", "remount,ro"], &mounted.0);
    let second = root.join("second.txt");
    std::fs::write(&second, captions(5000, 5)).expect("write");
    let stderr = expect_failure(dateline(&ingest(a, &second), b""), "read-only");
    assert!(
        stderr.to_lowercase().contains("read-only") && stderr.contains("cannot be written"),
        "the error says the archive is read-only: {stderr}"
    );
    mount(&["-o", "remount,rw,size=64m"], &mounted.0);
    assert_intact(&archive, 20);
    run_ok(&ingest(a, &big));
    run_ok(&ingest(a, &second));
    assert_intact(&archive, 3025);
}

/// `search --json --facets` output of a query, asserting success.
fn search_json(archive: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["search", "--json", "--facets"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--archive", archive.to_str().expect("UTF-8 path")]);
    serde_json::from_str(&run_ok(&all)).expect("JSON")
}

#[test]
fn a_read_only_archive_is_searched_as_it_is_and_never_rebuilt() {
    let Some((_root, mounted, archive)) = archive_on_tmpfs("archive-ro-search", "16m", 60) else {
        return;
    };
    let a = archive.to_str().expect("UTF-8 path");
    let queries: [&[&str]; 4] = [
        &["bread"],
        &["--from", "2005", "--to", "2015", "fuel"],
        &["--country", "Syria", "--limit", "3"],
        &["--near", "36.2,37.1,50"],
    ];
    let before: Vec<serde_json::Value> = queries.iter().map(|q| search_json(&archive, q)).collect();
    assert!(before[0]["total"].as_u64() > Some(0));

    // Read-only: the same answers, from a store nobody can write and an
    // index whose locks cannot be taken.
    mount(&["-o", "remount,ro"], &mounted.0);
    for (query, expected) in queries.iter().zip(&before) {
        assert_eq!(&search_json(&archive, query), expected, "{query:?}");
    }
    assert!(run_ok(&["check", "--archive", a])
        .trim_end()
        .ends_with("ok"));
    let exported = run_ok(&["export", "--format", "jsonl", "--archive", a]);
    let id = before[0]["hits"][0]["id"].as_str().expect("an id");
    assert!(exported.lines().count() > 0 && exported.contains(id));
    assert!(run_ok(&["show", id, "--archive", a]).contains(id));

    // An index that would have to be rebuilt is not: a clear error.
    mount(&["-o", "remount,rw"], &mounted.0);
    let index = archive.join("index");
    std::fs::remove_dir_all(&index).expect("remove the index");
    std::fs::create_dir(&index).expect("an empty index directory");
    mount(&["-o", "remount,ro"], &mounted.0);
    let output = dateline(&["search", "bread", "--archive", a], b"");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "searched without an index");
    assert!(
        stderr.contains("cannot be written") && stderr.contains("reindex"),
        "the error says why and what to do: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    mount(&["-o", "remount,rw"], &mounted.0);
    assert_eq!(
        std::fs::read_dir(&index).expect("index dir").count(),
        0,
        "nothing was written"
    );
    // Writable again, a reader rebuilds the index and finds the same.
    assert_eq!(search_json(&archive, queries[0]), before[0]);
}
