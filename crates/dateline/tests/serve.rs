//! `dateline serve` end to end: it prints its loopback URL and the token
//! once, and its search API answers what `dateline search` answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};

use crate::util::{dateline, scratch};

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `dateline serve` on a free loopback port; its first two lines.
fn serve(archive: &std::path::Path) -> (Server, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dateline"))
        .args(["serve", "--bind", "127.0.0.1:0", "--archive"])
        .arg(archive)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("dateline serve starts");
    let mut lines = BufReader::new(child.stdout.take().expect("piped"));
    let (mut url, mut token) = (String::new(), String::new());
    lines.read_line(&mut url).expect("the URL line");
    lines.read_line(&mut token).expect("the token line");
    (Server(child), url, token)
}

/// A request over a plain socket (a POST of `(token, body)` when given, else a
/// GET); the status line and the body.
fn request(addr: &str, path: &str, post: Option<(&str, &str)>) -> (String, String) {
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    let head = format!("{path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    match post {
        None => write!(stream, "GET {head}\r\n"),
        Some((token, body)) => write!(
            stream,
            "POST {head}Content-Type: application/json\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    }
    .expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

fn get(addr: &str, path: &str) -> (String, String) {
    request(addr, path, None)
}

#[test]
fn serve_prints_its_url_and_answers_as_search_does() {
    let root = scratch("serve");
    let file = root.join("wire.txt");
    std::fs::write(
        &file,
        "Volunteers unload flour at a bakery in Raqqa, Syria, March 3, 2016. REUTERS/Samir Khoury\n\n\
         Boys play football beside a damaged school in Raqqa, Syria, March 9, 2016. REUTERS/Samir Khoury\n\n\
         Fishermen mend nets at dawn in Tyre, Lebanon, June 2, 2015. (AP Photo/Karim Mansour)\n",
    )
    .expect("fixture");
    let archive = root.join("archive");
    let ingest = dateline(
        &[
            "ingest",
            "--archive",
            archive.to_str().expect("UTF-8"),
            file.to_str().expect("UTF-8"),
        ],
        b"",
    );
    assert!(
        ingest.status.success(),
        "{}",
        String::from_utf8_lossy(&ingest.stderr)
    );

    let (server, url, token) = serve(&archive);
    let addr = url
        .trim()
        .strip_prefix("dateline serve: http://")
        .and_then(|rest| rest.split('/').next())
        .expect("a loopback URL")
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{url}");
    assert!(
        token.starts_with("token for corrections (shown once"),
        "{token}"
    );
    let stored = std::fs::read_to_string(archive.join("serve.token")).expect("token file");
    assert!(token.trim().ends_with(stored.trim()));

    for (api, cli) in [
        ("/api/search?q=Raqqa", vec!["Raqqa"]),
        ("/api/search?city=Raqa", vec!["--city", "Raqa"]),
        (
            "/api/search?agency=AP&from=2015",
            vec!["--agency", "AP", "--from", "2015"],
        ),
    ] {
        let (status, body) = get(&addr, api);
        assert!(status.ends_with("200 OK"), "{api}: {status}");
        let answer: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        let mut args = vec![
            "search",
            "--json",
            "--archive",
            archive.to_str().expect("UTF-8"),
        ];
        args.extend(cli);
        let out = dateline(&args, b"");
        let expected: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("search --json");
        let ids = |v: &serde_json::Value| -> Vec<String> {
            v["hits"]
                .as_array()
                .expect("hits")
                .iter()
                .map(|h| h["id"].as_str().expect("id").to_string())
                .collect()
        };
        assert_eq!(answer["total"], expected["total"], "{api}");
        assert_eq!(ids(&answer), ids(&expected), "{api}");
    }
    drop(server);

    // A second start reads the stored token and does not print it.
    let (_server, _, again) = serve(&archive);
    assert!(again.starts_with("token for corrections: in "), "{again}");
    assert!(!again.contains(stored.trim()));
}

#[test]
fn reparse_keeps_corrections_made_through_the_server() {
    let root = scratch("reparse");
    let file = root.join("wire.txt");
    std::fs::write(
        &file,
        "Volunteers unload flour at a bakery in Raqqa, Syria, March 3, 2016. REUTERS/Samir Khoury\n\n\
         Fishermen mend nets at dawn in Tyre, Lebanon, June 2, 2015. (AP Photo/Karim Mansour)\n",
    )
    .expect("fixture");
    let archive = root.join("archive");
    let dir = archive.to_str().expect("UTF-8");
    let ingest = dateline(
        &["ingest", "--archive", dir, file.to_str().expect("UTF-8")],
        b"",
    );
    assert!(
        ingest.status.success(),
        "{}",
        String::from_utf8_lossy(&ingest.stderr)
    );
    let search = dateline(
        &["search", "--json", "--archive", dir, "--city", "Raqa"],
        b"",
    );
    let found: serde_json::Value = serde_json::from_slice(&search.stdout).expect("search --json");
    let id = found["hits"][0]["id"]
        .as_str()
        .expect("the Raqqa record")
        .to_string();

    let (server, url, _) = serve(&archive);
    let addr = url
        .trim()
        .trim_start_matches("dateline serve: http://")
        .split('/')
        .next()
        .expect("address")
        .to_string();
    let token = std::fs::read_to_string(archive.join("serve.token")).expect("token");
    let body =
        r#"{"reviewer":"Ana","field":"credit.creators","value":["S. Khoury"],"note":"as signed"}"#;
    let (status, answer) = request(
        &addr,
        &format!("/api/records/{id}/corrections"),
        Some((token.trim(), body)),
    );
    assert!(status.ends_with("201 Created"), "{status}: {answer}");
    drop(server);

    let reparse = dateline(&["reparse", "--archive", dir], b"");
    let said = String::from_utf8_lossy(&reparse.stdout);
    assert!(
        reparse.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&reparse.stderr)
    );
    // The same engine that ingested: nothing changes but the report.
    assert!(
        said.starts_with("reparsed 2 caption text(s): 0 changed, in 0 record(s)"),
        "{said}"
    );
    assert!(
        said.contains("corrections kept on top: 1 record(s) corrected"),
        "{said}"
    );

    let export = dateline(&["export", "--archive", dir, "--city", "Raqa"], b"");
    let line: serde_json::Value =
        serde_json::from_slice(export.stdout.split(|&b| b == b'\n').next().expect("a line"))
            .expect("JSON");
    assert_eq!(
        line["credit"]["creators"],
        serde_json::json!(["S. Khoury"]),
        "the correction stays on top"
    );
    assert_eq!(
        line["corrections"][0]["machine"],
        serde_json::json!(["Samir Khoury"])
    );
    let check = dateline(&["check", "--archive", dir], b"");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}
