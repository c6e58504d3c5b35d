//! Round trips with ExifTool, the reference reader and writer: files tagged
//! by ExifTool are read by photometa, files written by photometa are read
//! and validated by ExifTool.
//!
//! Skipped with a message when `exiftool` is missing, except under `CI=true`,
//! where a missing ExifTool fails the tests.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use photometa::{read_jpeg, read_xmp, write_jpeg, xmp_sidecar, Field, PhotoMetadata};
use serde_json::Value;

/// Whether ExifTool is here; panics under CI when it is not.
fn have_exiftool() -> bool {
    let ok = Command::new("exiftool")
        .arg("-ver")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "exiftool is required under CI (apt-get install libimage-exiftool-perl)"
        );
        eprintln!("skipped: exiftool not found (apt-get install libimage-exiftool-perl)");
    }
    ok
}

fn exiftool(args: &[&str]) -> String {
    let out = Command::new("exiftool").args(args).output().unwrap();
    let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
    s.push_str(&String::from_utf8_lossy(&out.stderr));
    s
}

/// ExifTool's tags for a file, family-1 groups, structures kept, numbers raw.
fn tags(path: &Path) -> Value {
    let out = Command::new("exiftool")
        .args(["-j", "-G1", "-struct", "-n", "-a", "-charset", "iptc=UTF8"])
        .arg(path)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v[0].clone()
}

/// Validation warnings (and errors) ExifTool reports for a file.
fn problems(path: &Path) -> Vec<String> {
    let out = exiftool(&[
        "-validate",
        "-warning",
        "-error",
        "-a",
        "-s",
        path.to_str().unwrap(),
    ]);
    out.lines()
        .filter(|l| !l.starts_with("Validate") || !l.contains("OK"))
        .map(|l| l.split_once(':').map_or(l, |p| p.1).trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

fn texts(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().flat_map(texts).collect(),
        Value::Null => vec![],
        Value::String(s) => vec![s.clone()],
        other => vec![other.to_string()],
    }
}

fn tag(t: &Value, name: &str) -> Option<String> {
    texts(&t[name]).into_iter().next()
}

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn save(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn all_fields(code: &str) -> PhotoMetadata {
    PhotoMetadata {
        description: Some("never written to a JPEG".into()),
        creators: vec!["Omar Haj Kadour".into(), "Zoë Ünal".into()],
        credit_line: Some("AFP via Getty Images".into()),
        source: Some("AFP".into()),
        date_created: Some("2024-03-05".into()),
        sublocation: Some("Bab al-Hawa crossing".into()),
        city: Some("Idlib".into()),
        province_state: Some("Idlib Governorate".into()),
        country: Some("Syria".into()),
        country_code: Some(code.into()),
        persons_shown: vec!["Ahmad al-Sharaa".into(), "Raed Saleh".into()],
        organisations: vec!["White Helmets".into(), "Türkiye Red Crescent".into()],
        gps: Some((35.9306, 36.6339)),
    }
}

fn assert_gps(loc: &Value, lat: f64, lon: f64) {
    let l = &loc[0];
    assert!(
        (l["GPSLatitude"].as_f64().unwrap() - lat).abs() < 1e-6,
        "{l}"
    );
    assert!(
        (l["GPSLongitude"].as_f64().unwrap() - lon).abs() < 1e-6,
        "{l}"
    );
}

#[test]
fn exiftool_reads_back_every_field_written_and_validates_clean() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let plain = save(d.path(), "plain.jpg", &common::make_jpeg(64, 48, false));
    // Give the original EXIF and a comment, which must survive untouched.
    exiftool(&[
        "-q",
        "-overwrite_original",
        "-EXIF:Make=TestCam",
        "-EXIF:Artist=Someone",
        "-Comment=hello",
        plain.to_str().unwrap(),
    ]);
    let original = std::fs::read(&plain).unwrap();
    let before = problems(&plain);
    assert!(
        before.is_empty(),
        "the test JPEG itself has problems: {before:?}"
    );

    let (out, report) = write_jpeg(&original, &all_fields("SYR"), false).unwrap();
    assert!(report.kept.is_empty(), "{report:?}");
    assert_eq!(report.written.len(), 12);
    let tagged = save(d.path(), "tagged.jpg", &out);

    // Image data and other segments byte-identical.
    assert_eq!(
        &original[common::scan_start(&original)..],
        &out[common::scan_start(&out)..]
    );
    assert_eq!(
        common::other_segments(&original),
        common::other_segments(&out)
    );

    let after = problems(&tagged);
    assert!(after.is_empty(), "exiftool -validate: {after:?}");

    let t = tags(&tagged);
    assert_eq!(texts(&t["IPTC:By-line"]), ["Omar Haj Kadour", "Zoë Ünal"]);
    assert_eq!(texts(&t["XMP-dc:Creator"]), ["Omar Haj Kadour", "Zoë Ünal"]);
    for (iim, xmp, want) in [
        (
            "IPTC:Credit",
            "XMP-photoshop:Credit",
            "AFP via Getty Images",
        ),
        ("IPTC:Source", "XMP-photoshop:Source", "AFP"),
        (
            "IPTC:DateCreated",
            "XMP-photoshop:DateCreated",
            "2024:03:05",
        ),
        (
            "IPTC:Sub-location",
            "XMP-iptcCore:Location",
            "Bab al-Hawa crossing",
        ),
        ("IPTC:City", "XMP-photoshop:City", "Idlib"),
        (
            "IPTC:Province-State",
            "XMP-photoshop:State",
            "Idlib Governorate",
        ),
        (
            "IPTC:Country-PrimaryLocationName",
            "XMP-photoshop:Country",
            "Syria",
        ),
        (
            "IPTC:Country-PrimaryLocationCode",
            "XMP-iptcCore:CountryCode",
            "SYR",
        ),
    ] {
        assert_eq!(tag(&t, iim).as_deref(), Some(want), "{iim} in {t:#}");
        assert_eq!(tag(&t, xmp).as_deref(), Some(want), "{xmp} in {t:#}");
    }
    assert_eq!(
        texts(&t["XMP-iptcExt:PersonInImage"]),
        ["Ahmad al-Sharaa", "Raed Saleh"]
    );
    assert_eq!(
        texts(&t["XMP-iptcExt:OrganisationInImageName"]),
        ["White Helmets", "Türkiye Red Crescent"]
    );
    let loc = &t["XMP-iptcExt:LocationShown"];
    assert_gps(loc, 35.9306, 36.6339);
    assert_eq!(loc[0]["City"], "Idlib");
    assert_eq!(t["IPTC:CodedCharacterSet"], "\u{1b}%G");
    // Untouched: the description, EXIF, the comment.
    assert!(t.get("XMP-dc:Description").is_none() && t.get("IPTC:Caption-Abstract").is_none());
    assert_eq!(t["IFD0:Make"], "TestCam");
    assert_eq!(t["File:Comment"], "hello");
    // The IPTC digest is current.
    let dg = exiftool(&[
        "-s3",
        "-IPTCDigest",
        "-CurrentIPTCDigest",
        tagged.to_str().unwrap(),
    ]);
    let lines: Vec<&str> = dg.lines().collect();
    assert_eq!(lines.len(), 2, "{dg}");
    assert_eq!(lines[0], lines[1]);

    // And photometa reads back what it wrote.
    let m = read_jpeg(&out[..]).unwrap();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let mut want = all_fields("SYR");
    want.description = None;
    assert_eq!(m.merged.creators, want.creators);
    let (lat, lon) = m.merged.gps.unwrap();
    assert!((lat - 35.9306).abs() < 1e-6 && (lon - 36.6339).abs() < 1e-6);
    let mut merged = m.merged.clone();
    merged.gps = want.gps;
    assert_eq!(merged, want);
}

#[test]
fn two_letter_country_code_goes_to_iim_as_alpha3() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let (out, report) =
        write_jpeg(&common::make_jpeg(16, 16, false), &all_fields("SY"), false).unwrap();
    assert!(
        report.notes.iter().any(|n| n.contains("\"SYR\"")),
        "{report:?}"
    );
    let p = save(d.path(), "sy.jpg", &out);
    assert!(problems(&p).is_empty(), "{:?}", problems(&p));
    let t = tags(&p);
    assert_eq!(tag(&t, "XMP-iptcCore:CountryCode").as_deref(), Some("SY"));
    assert_eq!(
        tag(&t, "IPTC:Country-PrimaryLocationCode").as_deref(),
        Some("SYR")
    );
    // Not a code at all: XMP only.
    let (out, report) = write_jpeg(
        &common::make_jpeg(16, 16, false),
        &all_fields("Syria"),
        false,
    )
    .unwrap();
    assert!(
        report.notes.iter().any(|n| n.contains("XMP only")),
        "{report:?}"
    );
    let p = save(d.path(), "syria.jpg", &out);
    let t = tags(&p);
    assert!(t.get("IPTC:Country-PrimaryLocationCode").is_none());
}

#[test]
fn reads_what_exiftool_writes_utf8_iim_and_xmp() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let p = save(d.path(), "et.jpg", &common::make_jpeg(32, 32, false));
    let out = exiftool(&[
        "-q",
        "-overwrite_original",
        "-charset",
        "iptc=UTF8",
        "-IPTC:CodedCharacterSet=UTF8",
        "-IPTC:By-line=Zoë Ünal",
        "-IPTC:By-line=Ann Lee",
        "-IPTC:City=Zürich",
        "-IPTC:DateCreated=2023:07:00",
        "-IPTC:Caption-Abstract=Ça va — oui",
        "-IPTC:Country-PrimaryLocationCode=CHE",
        "-XMP-photoshop:Credit=Reuters & co <x>",
        "-XMP-iptcCore:Location=Altstadt",
        "-XMP-iptcExt:PersonInImage=Ann",
        "-XMP-iptcExt:PersonInImage=Bob",
        "-XMP-iptcExt:OrganisationInImageName=UN",
        "-XMP-iptcExt:LocationShownGPSLatitude=47.3769",
        "-XMP-iptcExt:LocationShownGPSLongitude=-8.5417",
        "-XMP-dc:Description=Une légende",
        p.to_str().unwrap(),
    ]);
    assert!(out.trim().is_empty(), "{out}");
    let m = read_jpeg(
        std::fs::File::open(&p)
            .map(std::io::BufReader::new)
            .unwrap(),
    )
    .unwrap();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(m.iim.creators, ["Zoë Ünal", "Ann Lee"]);
    assert_eq!(m.iim.city.as_deref(), Some("Zürich"));
    assert_eq!(m.iim.date_created.as_deref(), Some("2023-07"));
    assert_eq!(m.iim.description.as_deref(), Some("Ça va — oui"));
    assert_eq!(m.iim.country_code.as_deref(), Some("CHE"));
    assert_eq!(m.xmp.credit_line.as_deref(), Some("Reuters & co <x>"));
    assert_eq!(m.xmp.sublocation.as_deref(), Some("Altstadt"));
    assert_eq!(m.xmp.persons_shown, ["Ann", "Bob"]);
    assert_eq!(m.xmp.organisations, ["UN"]);
    let (lat, lon) = m.xmp.gps.unwrap();
    assert!(
        (lat - 47.3769).abs() < 1e-6 && (lon + 8.5417).abs() < 1e-6,
        "{lat} {lon}"
    );
    // XMP wins where both have the description (the digest is current).
    assert_eq!(m.merged.description.as_deref(), Some("Une légende"));
    assert_eq!(m.merged.city.as_deref(), Some("Zürich"));
}

#[test]
fn reads_latin1_iim_from_exiftool() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let p = save(d.path(), "latin.jpg", &common::make_jpeg(16, 16, false));
    exiftool(&[
        "-q",
        "-overwrite_original",
        "-charset",
        "iptc=Latin",
        "-IPTC:City=Zürich",
        "-IPTC:Credit=Agence Française",
        p.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&p).unwrap();
    assert!(
        bytes.windows(6).any(|w| w == b"Z\xfcrich"),
        "ExifTool wrote Latin-1"
    );
    let m = read_jpeg(&bytes[..]).unwrap();
    assert_eq!(m.merged.city.as_deref(), Some("Zürich"));
    assert_eq!(m.merged.credit_line.as_deref(), Some("Agence Française"));

    // Writing declares UTF-8 and converts the old Latin-1 values, so they still read right.
    let (out, report) = write_jpeg(
        &bytes,
        &PhotoMetadata {
            source: Some("AFP".into()),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    assert_eq!(report.written, [Field::Source]);
    let q = save(d.path(), "latin2.jpg", &out);
    assert!(problems(&q).is_empty(), "{:?}", problems(&q));
    let t = tags(&q);
    assert_eq!(tag(&t, "IPTC:City").as_deref(), Some("Zürich"));
    assert_eq!(tag(&t, "IPTC:Credit").as_deref(), Some("Agence Française"));
    assert_eq!(tag(&t, "IPTC:Source").as_deref(), Some("AFP"));
}

#[test]
fn reads_extended_xmp_from_exiftool() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let p = save(d.path(), "ext.jpg", &common::make_jpeg(16, 16, false));
    let long = (0..15000)
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(long.len() > 70_000);
    let out = exiftool(&[
        "-q",
        "-overwrite_original",
        &format!("-XMP-dc:Description={long}"),
        "-XMP-photoshop:City=Homs",
        p.to_str().unwrap(),
    ]);
    assert!(out.trim().is_empty(), "{out}");
    let bytes = std::fs::read(&p).unwrap();
    assert!(
        bytes
            .windows(34)
            .any(|w| w == b"http://ns.adobe.com/xmp/extension/"),
        "ExifTool wrote extended XMP"
    );
    let m = read_jpeg(&bytes[..]).unwrap();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(m.xmp.description.as_deref(), Some(long.trim()));
    assert_eq!(m.xmp.city.as_deref(), Some("Homs"));

    // Writing keeps the extended XMP, and ExifTool still reads it.
    let (out, _) = write_jpeg(
        &bytes,
        &PhotoMetadata {
            source: Some("AP".into()),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    let q = save(d.path(), "ext2.jpg", &out);
    assert!(problems(&q).is_empty(), "{:?}", problems(&q));
    let t = tags(&q);
    assert_eq!(
        tag(&t, "XMP-dc:Description").map(|s| s.len()),
        Some(long.trim().len())
    );
    assert_eq!(tag(&t, "XMP-photoshop:Source").as_deref(), Some("AP"));
}

/// Splits an APP1 XMP segment (as ExifTool wrote it) into a JPEG a second time, with other values.
#[test]
fn reads_and_merges_multiple_xmp_packets() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let a = save(d.path(), "a.jpg", &common::make_jpeg(16, 16, false));
    exiftool(&[
        "-q",
        "-overwrite_original",
        "-XMP-photoshop:City=Aleppo",
        a.to_str().unwrap(),
    ]);
    let b = save(d.path(), "b.jpg", &common::make_jpeg(16, 16, false));
    exiftool(&[
        "-q",
        "-overwrite_original",
        "-XMP-photoshop:Source=SANA",
        "-XMP-photoshop:City=Damascus",
        b.to_str().unwrap(),
    ]);
    let a = std::fs::read(a).unwrap();
    let b = std::fs::read(b).unwrap();
    let seg_b = common::segments(&b)
        .into_iter()
        .find(|(m, s)| *m == 0xE1 && s[4..].starts_with(b"http://ns.adobe.com/xap"))
        .unwrap()
        .1;
    let at = common::scan_start(&a);
    // Put b's packet just before the image data (after a's own packet).
    let dqt = common::segments(&a)
        .iter()
        .take_while(|(m, _)| *m >= 0xE0 && *m <= 0xEF)
        .map(|s| s.1.len())
        .sum::<usize>()
        + 2;
    assert!(dqt <= at);
    let mut two = a[..dqt].to_vec();
    two.extend_from_slice(&seg_b);
    two.extend_from_slice(&a[dqt..]);
    let m = read_jpeg(&two[..]).unwrap();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    // ExifTool's choice: the packet read last wins.
    let both = save(d.path(), "two.jpg", &two);
    let t = tags(&both);
    assert_eq!(tag(&t, "XMP-photoshop:City").as_deref(), Some("Damascus"));
    assert_eq!(
        m.xmp.city.as_deref(),
        Some("Damascus"),
        "the last packet wins"
    );
    assert_eq!(m.xmp.source.as_deref(), Some("SANA"));

    // Writing merges the packets into one, which ExifTool reads.
    let (out, _) = write_jpeg(
        &two,
        &PhotoMetadata {
            credit_line: Some("AFP".into()),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    let xmp_segments = common::segments(&out)
        .iter()
        .filter(|(m, s)| *m == 0xE1 && s[4..].starts_with(b"http://ns.adobe.com/xap"))
        .count();
    assert_eq!(xmp_segments, 1);
    let q = save(d.path(), "merged.jpg", &out);
    let t = tags(&q);
    assert_eq!(tag(&t, "XMP-photoshop:Source").as_deref(), Some("SANA"));
    assert_eq!(tag(&t, "XMP-photoshop:Credit").as_deref(), Some("AFP"));
    assert_eq!(tag(&t, "XMP-photoshop:City").as_deref(), Some("Damascus"));
}

#[test]
fn keeps_filled_fields_unless_overwrite() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let p = save(d.path(), "filled.jpg", &common::make_jpeg(24, 24, false));
    exiftool(&[
        "-q",
        "-overwrite_original",
        "-IPTC:City=Paris",
        "-XMP-photoshop:City=Paris",
        "-XMP-photoshop:Credit=Reuters",
        "-XMP-dc:Creator=Old Name",
        "-IPTC:By-line=Old Name",
        "-IPTC:Keywords=protest",
        "-XMP-dc:Subject=protest",
        "-XMP-iptcExt:PersonInImage=Old Person",
        "-XMP-xmp:Rating=3",
        "-XMP-dc:Description=Keep me",
        p.to_str().unwrap(),
    ]);
    let original = std::fs::read(&p).unwrap();
    let (out, report) = write_jpeg(&original, &all_fields("SYR"), false).unwrap();
    assert_eq!(
        report.kept,
        [
            Field::Creators,
            Field::CreditLine,
            Field::City,
            Field::PersonsShown
        ]
    );
    let q = save(d.path(), "kept.jpg", &out);
    assert!(problems(&q).is_empty(), "{:?}", problems(&q));
    let t = tags(&q);
    assert_eq!(tag(&t, "IPTC:City").as_deref(), Some("Paris"));
    assert_eq!(tag(&t, "XMP-photoshop:City").as_deref(), Some("Paris"));
    assert_eq!(tag(&t, "XMP-photoshop:Credit").as_deref(), Some("Reuters"));
    assert_eq!(texts(&t["XMP-dc:Creator"]), ["Old Name"]);
    assert_eq!(texts(&t["XMP-iptcExt:PersonInImage"]), ["Old Person"]);
    assert_eq!(tag(&t, "XMP-photoshop:Source").as_deref(), Some("AFP"));
    assert_eq!(tag(&t, "IPTC:Keywords").as_deref(), Some("protest"));
    assert_eq!(tag(&t, "XMP-dc:Subject").as_deref(), Some("protest"));
    assert_eq!(tag(&t, "XMP-xmp:Rating").as_deref(), Some("3"));
    assert_eq!(tag(&t, "XMP-dc:Description").as_deref(), Some("Keep me"));
    // The location shown carries the city as it stands (kept: Paris).
    assert_eq!(t["XMP-iptcExt:LocationShown"][0]["City"], "Paris");

    // Overwrite replaces them in IIM and XMP, leaving no stale copy.
    let (out, report) = write_jpeg(&out, &all_fields("SYR"), true).unwrap();
    assert!(report.kept.is_empty());
    let r = save(d.path(), "overwritten.jpg", &out);
    assert!(problems(&r).is_empty(), "{:?}", problems(&r));
    let t = tags(&r);
    assert_eq!(texts(&t["IPTC:City"]), ["Idlib"]);
    assert_eq!(texts(&t["XMP-photoshop:City"]), ["Idlib"]);
    assert_eq!(texts(&t["XMP-dc:Creator"]), ["Omar Haj Kadour", "Zoë Ünal"]);
    assert_eq!(texts(&t["IPTC:By-line"]), ["Omar Haj Kadour", "Zoë Ünal"]);
    assert_eq!(
        texts(&t["XMP-iptcExt:PersonInImage"]),
        ["Ahmad al-Sharaa", "Raed Saleh"]
    );
    assert_eq!(
        t["XMP-iptcExt:LocationShown"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(tag(&t, "XMP-dc:Description").as_deref(), Some("Keep me"));
    assert_eq!(tag(&t, "IPTC:Keywords").as_deref(), Some("protest"));
    assert_eq!(
        &original[common::scan_start(&original)..],
        &out[common::scan_start(&out)..]
    );
}

#[test]
fn iim_values_cut_to_their_maximum_and_xmp_keeps_them_whole() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let long = "Ünal ".repeat(10); // 60 bytes, more than By-line's 32
    let fields = PhotoMetadata {
        creators: vec![long.trim().to_owned()],
        ..Default::default()
    };
    let (out, report) = write_jpeg(&common::make_jpeg(16, 16, false), &fields, false).unwrap();
    assert_eq!(report.notes.len(), 1, "{report:?}");
    let p = save(d.path(), "long.jpg", &out);
    assert!(problems(&p).is_empty(), "{:?}", problems(&p));
    let t = tags(&p);
    let iim = tag(&t, "IPTC:By-line").unwrap();
    assert!(iim.len() <= 32 && long.starts_with(&iim), "{iim:?}");
    assert_eq!(tag(&t, "XMP-dc:Creator").as_deref(), Some(long.trim()));
}

#[test]
fn sidecar_reads_the_same_in_exiftool_and_photometa() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let fields = all_fields("SY");
    let packet = xmp_sidecar(&fields);
    let p = save(d.path(), "photo.xmp", packet.as_bytes());
    let t = tags(&p);
    assert_eq!(
        tag(&t, "XMP-dc:Description").as_deref(),
        Some("never written to a JPEG")
    );
    assert_eq!(texts(&t["XMP-dc:Creator"]), ["Omar Haj Kadour", "Zoë Ünal"]);
    assert_eq!(
        tag(&t, "XMP-photoshop:Credit").as_deref(),
        Some("AFP via Getty Images")
    );
    assert_eq!(
        tag(&t, "XMP-photoshop:DateCreated").as_deref(),
        Some("2024:03:05")
    );
    assert_eq!(
        tag(&t, "XMP-iptcCore:Location").as_deref(),
        Some("Bab al-Hawa crossing")
    );
    assert_eq!(
        tag(&t, "XMP-photoshop:State").as_deref(),
        Some("Idlib Governorate")
    );
    assert_eq!(tag(&t, "XMP-iptcCore:CountryCode").as_deref(), Some("SY"));
    assert_eq!(
        texts(&t["XMP-iptcExt:OrganisationInImageName"]),
        ["White Helmets", "Türkiye Red Crescent"]
    );
    assert_gps(&t["XMP-iptcExt:LocationShown"], 35.9306, 36.6339);
    let warnings = exiftool(&["-validate", "-warning", "-a", "-s", p.to_str().unwrap()]);
    assert!(
        warnings.contains("OK") && !warnings.contains("Warning"),
        "{warnings}"
    );

    let mut back = read_xmp(packet.as_bytes()).unwrap();
    let (lat, lon) = back.gps.take().unwrap();
    assert!((lat - 35.9306).abs() < 1e-6 && (lon - 36.6339).abs() < 1e-6);
    let mut want = fields;
    want.gps = None;
    assert_eq!(back, want);
}

#[test]
fn iim_split_over_two_app13_segments_reads_in_exiftool() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let p = save(d.path(), "kw.jpg", &common::make_jpeg(16, 16, false));
    // Enough keywords that the IIM and the new fields need two APP13 segments.
    let mut args: Vec<String> = vec!["-q".into(), "-overwrite_original".into()];
    args.extend((0..2700).map(|i| format!("-IPTC:Keywords=keyword number {i:05}")));
    args.push(p.to_str().unwrap().into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    exiftool(&refs);
    let original = std::fs::read(&p).unwrap();
    let (out, _) = write_jpeg(&original, &all_fields("SYR"), false).unwrap();
    assert!(
        common::segments(&out)
            .iter()
            .filter(|(m, _)| *m == 0xED)
            .count()
            >= 2
    );
    let q = save(d.path(), "kw2.jpg", &out);
    assert!(problems(&q).is_empty(), "{:?}", problems(&q));
    let t = tags(&q);
    assert_eq!(texts(&t["IPTC:Keywords"]).len(), 2700);
    assert_eq!(tag(&t, "IPTC:City").as_deref(), Some("Idlib"));
}

#[test]
fn gps_joins_an_existing_location_shown() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let p = save(d.path(), "loc.jpg", &common::make_jpeg(16, 16, false));
    exiftool(&[
        "-q",
        "-overwrite_original",
        "-XMP-iptcExt:LocationShownCity=Paris",
        "-XMP-iptcExt:LocationShownSublocation=Louvre",
        p.to_str().unwrap(),
    ]);
    let original = std::fs::read(&p).unwrap();
    let fields = PhotoMetadata {
        gps: Some((48.8606, 2.3376)),
        ..Default::default()
    };
    let (out, report) = write_jpeg(&original, &fields, false).unwrap();
    assert_eq!(report.written, [Field::Gps], "{report:?}");
    let q = save(d.path(), "loc2.jpg", &out);
    assert!(problems(&q).is_empty(), "{:?}", problems(&q));
    let t = tags(&q);
    let loc = &t["XMP-iptcExt:LocationShown"];
    assert_eq!(loc.as_array().map(Vec::len), Some(1), "{loc}");
    assert_eq!(loc[0]["City"], "Paris");
    assert_eq!(loc[0]["Sublocation"], "Louvre");
    assert_gps(loc, 48.8606, 2.3376);
    // Now it has GPS: kept unless overwrite.
    let (_, report) = write_jpeg(
        &out,
        &PhotoMetadata {
            gps: Some((1.0, 2.0)),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    assert_eq!(report.kept, [Field::Gps]);
}

#[test]
fn stale_digest_stays_stale_and_adds_no_warning() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let city = PhotoMetadata {
        city: Some("Idlib".into()),
        ..Default::default()
    };
    let (mut f, _) = write_jpeg(&common::make_jpeg(16, 16, false), &city, false).unwrap();
    let needle = b"\x1c\x02\x5a\x00\x05Idlib";
    let at = f.windows(needle.len()).position(|w| w == needle).unwrap();
    f[at + 5..at + 10].copy_from_slice(b"Hamah");
    let p = save(d.path(), "stale.jpg", &f);
    let before = problems(&p);
    let (out, _) = write_jpeg(
        &f,
        &PhotoMetadata {
            source: Some("AFP".into()),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    let q = save(d.path(), "stale2.jpg", &out);
    let after = problems(&q);
    assert!(
        after.iter().all(|w| before.contains(w)),
        "new warnings: {after:?} (before: {before:?})"
    );
    let t = tags(&q);
    assert_eq!(tag(&t, "IPTC:City").as_deref(), Some("Hamah"));
    assert_eq!(tag(&t, "IPTC:Source").as_deref(), Some("AFP"));
    eprintln!("ExifTool on a stale digest: {before:?}");
}

#[test]
fn dates_with_time_and_partial_dates() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    for (given, iim, xmp) in [
        (
            "2024-03-05T14:30:00+03:00",
            "2024:03:05",
            "2024:03:05 14:30:00+03:00",
        ),
        ("2024-03", "2024:03:00", "2024:03"),
        ("2024", "2024:00:00", "2024"),
    ] {
        let fields = PhotoMetadata {
            date_created: Some(given.into()),
            ..Default::default()
        };
        let (out, _) = write_jpeg(&common::make_jpeg(8, 8, false), &fields, false).unwrap();
        let p = save(d.path(), "date.jpg", &out);
        assert!(problems(&p).is_empty(), "{given}: {:?}", problems(&p));
        let t = tags(&p);
        assert_eq!(tag(&t, "IPTC:DateCreated").as_deref(), Some(iim), "{given}");
        assert_eq!(
            tag(&t, "XMP-photoshop:DateCreated").as_deref(),
            Some(xmp),
            "{given}"
        );
        let back = read_jpeg(&out[..]).unwrap();
        assert_eq!(back.merged.date_created.as_deref(), Some(given));
        let want_iim = given.split('T').next().unwrap();
        assert_eq!(back.iim.date_created.as_deref(), Some(want_iim));
    }
}

#[test]
fn reads_a_sidecar_made_by_exiftool() {
    if !have_exiftool() {
        return;
    }
    let d = dir();
    let p = d.path().join("made.xmp");
    let out = exiftool(&[
        "-q",
        "-XMP-dc:Creator=Ann Lee",
        "-XMP-photoshop:City=Mosul",
        "-XMP-photoshop:Country=Iraq",
        "-XMP-iptcCore:CountryCode=IQ",
        "-XMP-dc:Description=Caption",
        "-XMP-iptcExt:PersonInImage=Bob",
        "-XMP-iptcExt:LocationShownGPSLatitude=36.34",
        "-XMP-iptcExt:LocationShownGPSLongitude=43.13",
        p.to_str().unwrap(),
    ]);
    assert!(out.trim().is_empty(), "{out}");
    let m = read_xmp(&std::fs::read(&p).unwrap()).unwrap();
    assert_eq!(m.creators, ["Ann Lee"]);
    assert_eq!(m.city.as_deref(), Some("Mosul"));
    assert_eq!(m.country.as_deref(), Some("Iraq"));
    assert_eq!(m.country_code.as_deref(), Some("IQ"));
    assert_eq!(m.description.as_deref(), Some("Caption"));
    assert_eq!(m.persons_shown, ["Bob"]);
    let (lat, lon) = m.gps.unwrap();
    assert!((lat - 36.34).abs() < 1e-6 && (lon - 43.13).abs() < 1e-6);
}
