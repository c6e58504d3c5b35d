//! Helpers shared by the integration tests: running the binary, finding
//! `../shared`, scratch directories.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `dateline` with `args`, feeding `stdin`.
pub fn dateline(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dateline"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dateline runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The command may stop reading early (refused input): ignore EPIPE.
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("dateline finishes");
    let _ = feeder.join();
    output
}

/// Parsed JSON lines of a command's stdout.
pub fn records(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect()
}

/// Fails, showing the command's stderr, unless it succeeded.
pub fn assert_success(output: &Output) {
    assert!(
        output.status.success(),
        "dateline failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The records of a command that must have succeeded.
pub fn records_of_success(output: &Output) -> Vec<serde_json::Value> {
    assert_success(output);
    records(output)
}

/// The shared folder (`../shared` beside the checkout), when present.
/// Tests that need it print why they skip where it is absent.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    if dir.join("eval/dev.jsonl").is_file() {
        Some(dir)
    } else {
        eprintln!("skipping: ../shared (eval and seeds) is not beside this checkout");
        None
    }
}

/// The `exiftool` command, the reference reader the photo tests check
/// against; `None` (with a message) where it is missing, a failure when
/// `CI=true` (CI installs libimage-exiftool-perl).
pub fn exiftool() -> Option<&'static str> {
    let found = std::process::Command::new("exiftool")
        .arg("-ver")
        .output()
        .is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "exiftool is missing (CI installs libimage-exiftool-perl)"
        );
        eprintln!("skipping: exiftool is not installed");
        return None;
    }
    Some("exiftool")
}

/// A fresh scratch directory under the target dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Who a test caption shows (the archive tests invent their captions).
pub const SUBJECTS: &[&str] = &[
    "A boy",
    "Two women",
    "A rescue worker",
    "An elderly man",
    "A fighter",
    "Children",
    "A street vendor",
    "A nurse",
    "Farmers",
    "A shepherd",
    "Volunteers",
    "A girl",
];
/// What they do.
pub const ACTIONS: &[&str] = &[
    "carries bread past a damaged mosque",
    "walks along a flooded road",
    "waits in line for fuel",
    "repairs a water pipe",
    "sells vegetables from a cart",
    "sits beside a burned car",
    "clears rubble from a school yard",
    "looks at the ruins of a market",
];

/// Distinct invented captions, `n` of them starting at `from`, about 300
/// bytes each, as one text document.
pub fn captions(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| {
            format!(
                "{} {} in Aleppo, Syria, May {}, {}. Residents say caption number {i} was \
                 written for this test only, to fill the archive. REUTERS/Lina Haddad{}\n\n",
                SUBJECTS[i % SUBJECTS.len()],
                ACTIONS[(i / SUBJECTS.len()) % ACTIONS.len()],
                1 + i % 28,
                2000 + i % 25,
                ["", "i", "ov", "son"][(i / 30) % 4],
            )
        })
        .collect()
}
