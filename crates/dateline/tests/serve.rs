//! `dateline serve` end to end: it prints its loopback URL and the token
//! once, and its search API answers what `dateline search` answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};

use crate::util::{assert_success, captions, dateline, scratch};

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

/// `HOST:PORT` of the URL line `dateline serve` prints.
fn address_of(url_line: &str) -> String {
    url_line
        .trim()
        .trim_start_matches("dateline serve: http://")
        .split('/')
        .next()
        .expect("address")
        .to_string()
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
    assert_success(&dateline(
        &["ingest", "--archive", dir, file.to_str().expect("UTF-8")],
        b"",
    ));
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
    let addr = address_of(&url);
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

/// A GET over a plain socket: the status line, the headers (names in lower
/// case) and the body, de-chunked (a streamed export is sent in chunks).
fn get_bytes(addr: &str, path: &str) -> (String, Vec<(String, String)>, Vec<u8>) {
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("read");
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().unwrap_or("").to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = answer[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v == "chunked")
    {
        let mut plain = Vec::new();
        let mut rest = &body[..];
        loop {
            let eol = rest
                .windows(2)
                .position(|w| w == b"\r\n")
                .expect("a chunk size");
            let size = usize::from_str_radix(
                String::from_utf8_lossy(&rest[..eol])
                    .split(';')
                    .next()
                    .unwrap_or(""),
                16,
            )
            .expect("a hex chunk size");
            rest = &rest[eol + 2..];
            if size == 0 {
                break;
            }
            plain.extend_from_slice(&rest[..size]);
            rest = &rest[size + 2..];
        }
        body = plain;
    }
    (status, headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> &'a str {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

/// The files of a tar archive, by name.
fn tar_files(bytes: &[u8]) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut archive = tar::Archive::new(bytes);
    let mut files = std::collections::BTreeMap::new();
    for entry in archive.entries().expect("a tar archive") {
        let mut entry = entry.expect("an entry");
        let name = entry.path().expect("a name").display().to_string();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).expect("content");
        files.insert(name, content);
    }
    files
}

#[test]
fn the_api_exports_every_cli_format_uncapped_as_the_cli_does() {
    let root = scratch("serve-export");
    let file = root.join("many.txt");
    std::fs::write(&file, captions(0, 260)).expect("fixture");
    let archive = root.join("archive");
    let dir = archive.to_str().expect("UTF-8");
    assert_success(&dateline(
        &["ingest", "--archive", dir, file.to_str().expect("UTF-8")],
        b"",
    ));
    let cli = |args: &[&str]| {
        let mut all = vec!["export", "--archive", dir];
        all.extend(args);
        let out = dateline(&all, b"");
        assert_success(&out);
        out.stdout
    };
    let jsonl = cli(&["--format", "jsonl"]);
    let records = jsonl
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    // More than a search page may hold (server::MAX_PAGE): no cap.
    assert!(records > 200, "{records} records");

    let (server, url, _) = serve(&archive);
    let addr = address_of(&url);
    let api = |format: &str, query: &str| {
        let (status, headers, body) =
            get_bytes(&addr, &format!("/api/export?format={format}{query}"));
        assert!(status.ends_with("200 OK"), "{format}: {status}");
        (headers, body)
    };

    // The streamed text formats: byte for byte what the CLI writes.
    for (format, media_type) in [
        ("jsonl", "application/x-ndjson"),
        ("csv", "text/csv; charset=utf-8"),
        ("geojson", "application/geo+json"),
    ] {
        let (headers, body) = api(format, "");
        assert_eq!(header(&headers, "content-type"), media_type);
        assert_eq!(header(&headers, "x-total-count"), records.to_string());
        assert_eq!(body, cli(&["--format", format]), "{format}");
    }
    let (_, csv) = api("csv", "");
    assert_eq!(csv.iter().filter(|&&b| b == b'\n').count(), records + 1);
    let (_, geojson) = api("geojson", "");
    let geojson: serde_json::Value = serde_json::from_slice(&geojson).expect("GeoJSON");
    assert_eq!(
        geojson["features"].as_array().expect("features").len(),
        records
    );

    // GeoParquet: every record a row, the rows of the CLI's file.
    let (headers, parquet) = api("parquet", "");
    assert_eq!(
        header(&headers, "content-type"),
        "application/vnd.apache.parquet"
    );
    assert!(header(&headers, "content-disposition").contains("dateline-export.parquet"));
    let rows = |bytes: Vec<u8>| -> Vec<String> {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let reader = SerializedFileReader::new(bytes::Bytes::from(bytes)).expect("a Parquet file");
        assert!(reader
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .is_some_and(|kv| kv.iter().any(|k| k.key == "geo")));
        reader
            .get_row_iter(None)
            .expect("rows")
            .map(|row| row.expect("a row").to_string())
            .collect()
    };
    let from_api = rows(parquet);
    assert_eq!(from_api.len(), records);
    let file = root.join("cli.parquet");
    cli(&[
        "--format",
        "parquet",
        "--out",
        file.to_str().expect("UTF-8"),
    ]);
    assert_eq!(
        from_api,
        rows(std::fs::read(&file).expect("the CLI's file"))
    );

    // XMP sidecars: a tar of the files `--format xmp --out DIR` writes.
    let (headers, tar) = api("xmp", "");
    assert_eq!(header(&headers, "content-type"), "application/x-tar");
    assert!(header(&headers, "content-disposition").contains("dateline-export.xmp.tar"));
    let from_api = tar_files(&tar);
    assert_eq!(from_api.len(), records);
    let sidecars = root.join("sidecars");
    cli(&[
        "--format",
        "xmp",
        "--out",
        sidecars.to_str().expect("UTF-8"),
    ]);
    let mut from_cli = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&sidecars).expect("sidecars") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        from_cli.insert(name, std::fs::read(&path).expect("sidecar"));
    }
    assert_eq!(from_api, from_cli);

    // A selection: the same records as the CLI's, in every format.
    let (headers, body) = api("jsonl", "&from=2010&to=2014");
    let selected = cli(&["--format", "jsonl", "--from", "2010", "--to", "2014"]);
    assert_eq!(body, selected);
    let n = selected
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert!(n > 0 && n < records, "{n}");
    assert_eq!(header(&headers, "x-total-count"), n.to_string());
    assert_eq!(tar_files(&api("xmp", "&from=2010&to=2014").1).len(), n);
    let (status, _, body) = get_bytes(&addr, "/api/export?format=tiff");
    assert!(status.contains("400"), "{status}");
    let error = String::from_utf8_lossy(&body);
    assert!(
        error.contains("jsonl, csv, geojson, xmp, parquet"),
        "{error}"
    );
    drop(server);
}
