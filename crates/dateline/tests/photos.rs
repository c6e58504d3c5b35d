//! JPEG in and out, checked against ExifTool (the reference reader and
//! writer photo desks use): `parse photo.jpg`, `tag`, `parse --format xmp`.
//!
//! ExifTool tests skip with a message where `exiftool` is missing, and fail
//! when `CI=true` (CI installs it).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{assert_success, dateline, records, records_of_success, scratch};

/// A caption in wire style, written for these tests.
const CAPTION: &str = "A fisherman repairs his net at the harbour of Byblos, Lebanon, \
     April 10, 2024. REUTERS/Karim Haddad";

fn exiftool() -> Option<&'static str> {
    let found = Command::new("exiftool").arg("-ver").output().is_ok();
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

/// A small real JPEG with no metadata.
fn plain_jpeg() -> Vec<u8> {
    let (w, h) = (48u16, 32u16);
    let pixels: Vec<u8> = (0..u32::from(w) * u32::from(h))
        .flat_map(|i| [(i % 251) as u8, (i / 7 % 253) as u8, (i * 3 % 255) as u8])
        .collect();
    let mut out = Vec::new();
    jpeg_encoder::Encoder::new(&mut out, 85)
        .encode(&pixels, w, h, jpeg_encoder::ColorType::Rgb)
        .expect("encode");
    out
}

/// Writes `dir/harbour.jpg` with [`CAPTION`] in IPTC and XMP, and the
/// other `tags`, all by ExifTool.
fn captioned_jpeg(exiftool: &str, dir: &Path, tags: &[&str]) -> PathBuf {
    let path = dir.join("harbour.jpg");
    std::fs::write(&path, plain_jpeg()).expect("write jpeg");
    let status = Command::new(exiftool)
        .args(["-q", "-overwrite_original", "-codedcharacterset=utf8"])
        .arg(format!("-IPTC:Caption-Abstract={CAPTION}"))
        .arg(format!("-XMP-dc:Description={CAPTION}"))
        .args(tags)
        .arg(&path)
        .status()
        .expect("exiftool runs");
    assert!(status.success());
    path
}

/// Tag values as ExifTool reads them, `-G1` group-qualified.
fn exif_json(exiftool: &str, path: &Path) -> serde_json::Value {
    let output = Command::new(exiftool)
        .args(["-j", "-G1", "-n", "-struct"])
        .arg(path)
        .output()
        .expect("exiftool runs");
    assert!(output.status.success());
    let list: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    list[0].clone()
}

/// Everything from the start-of-scan marker on: the compressed image data.
fn image_data(jpeg: &[u8]) -> &[u8] {
    let mut pos = 2;
    while jpeg[pos + 1] != 0xDA {
        let len = usize::from(u16::from_be_bytes([jpeg[pos + 2], jpeg[pos + 3]]));
        pos += 2 + len;
    }
    &jpeg[pos..]
}

#[test]
fn parse_reads_a_jpeg_caption_and_its_stated_fields() {
    let Some(exiftool) = exiftool() else { return };
    let dir = scratch("photos-parse");
    let photo = captioned_jpeg(
        exiftool,
        &dir,
        &[
            "-XMP-photoshop:City=Jbeil",
            "-XMP-iptcCore:CountryCode=LB",
            "-XMP-photoshop:DateCreated=2024-04-11",
            "-IPTC:By-line=Karim Haddad",
        ],
    );
    // Recognised by content: the same bytes under a .txt name.
    let renamed = dir.join("harbour.txt");
    std::fs::copy(&photo, &renamed).expect("copy");
    for path in [&photo, &renamed] {
        let found = records_of_success(&dateline(&["parse", path.to_str().expect("utf-8")], b""));
        assert_eq!(found.len(), 1);
        let record = &found[0];
        assert_eq!(record["text"], CAPTION);
        assert_eq!(record["image_url"], path.to_str().expect("utf-8"));
        // Byblos is Jbeil: the same GeoNames place, so no conflict there.
        assert_eq!(record["location"]["country_code"], "LB");
        // The file's date wins over the caption's, and the clash is reported.
        assert_eq!(record["date_created"], "2024-04-11");
        let conflicts = record["conflicts"].as_array().expect("conflicts");
        let fields: Vec<&str> = conflicts
            .iter()
            .map(|c| c["field"].as_str().expect("field"))
            .collect();
        assert_eq!(fields, ["date_created"], "{conflicts:?}");
        assert_eq!(conflicts[0]["parsed"], "2024-04-10");
    }
}

#[test]
fn a_jpeg_without_caption_or_a_broken_one_is_reported_not_a_panic() {
    let dir = scratch("photos-bad");
    let plain = dir.join("plain.jpg");
    std::fs::write(&plain, plain_jpeg()).expect("write");
    let output = dateline(&["parse", plain.to_str().expect("utf-8")], b"");
    assert!(output.status.success());
    assert!(records(&output).is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no caption"));

    let cut = dir.join("cut.jpg");
    std::fs::write(&cut, &plain_jpeg()[..20]).expect("write");
    // A cut file gives what it holds (nothing here) and says where it ends.
    let output = dateline(&["parse", cut.to_str().expect("utf-8")], b"");
    assert!(output.status.success());
    assert!(records(&output).is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cut.jpg: JPEG ends at byte 20"), "{stderr}");
}

#[test]
fn tag_writes_fields_exiftool_reads_back_and_keeps_the_image_data() {
    let Some(exiftool) = exiftool() else { return };
    let dir = scratch("photos-tag");
    // The city is already filled: kept unless --overwrite.
    let photo = captioned_jpeg(
        exiftool,
        &dir,
        &["-XMP-photoshop:City=Jbeil", "-IPTC:City=Jbeil"],
    );
    let before = std::fs::read(&photo).expect("read");
    let out = dir.join("out");
    let output = dateline(
        &[
            "tag",
            "--out",
            out.to_str().expect("utf-8"),
            photo.to_str().expect("utf-8"),
        ],
        b"",
    );
    assert_success(&output);
    let tagged_path = out.join("harbour.jpg");
    let tagged = std::fs::read(&tagged_path).expect("tagged copy");
    assert_eq!(
        image_data(&tagged),
        image_data(&before),
        "image data untouched"
    );
    assert_eq!(
        std::fs::read(&photo).expect("read"),
        before,
        "--out leaves the original"
    );

    let validate = Command::new(exiftool)
        .args(["-validate", "-warning", "-a", "-s3"])
        .arg(&tagged_path)
        .output()
        .expect("exiftool runs");
    let report = String::from_utf8_lossy(&validate.stdout);
    assert!(
        report.lines().next().is_some_and(|l| l.starts_with("OK")),
        "exiftool -validate: {report}"
    );

    let tags = exif_json(exiftool, &tagged_path);
    assert_eq!(tags["IPTC:By-line"], "Karim Haddad");
    assert_eq!(tags["XMP-dc:Creator"], serde_json::json!(["Karim Haddad"]));
    assert_eq!(tags["IPTC:Credit"], "REUTERS/Karim Haddad");
    assert_eq!(tags["XMP-photoshop:Credit"], "REUTERS/Karim Haddad");
    assert_eq!(tags["IPTC:DateCreated"], "2024:04:10");
    assert_eq!(tags["XMP-photoshop:Country"], "Lebanon");
    assert_eq!(tags["XMP-iptcCore:CountryCode"], "LB");
    assert_eq!(
        tags["XMP-photoshop:City"], "Jbeil",
        "a filled field is kept"
    );

    // --in-place --overwrite: the city becomes the caption's, atomically.
    let output = dateline(
        &[
            "tag",
            "--in-place",
            "--overwrite",
            tagged_path.to_str().expect("utf-8"),
        ],
        b"",
    );
    assert!(output.status.success());
    let tags = exif_json(exiftool, &tagged_path);
    let city = tags["XMP-photoshop:City"].as_str().expect("city");
    assert_ne!(city, "Jbeil");
    assert_eq!(tags["IPTC:City"].as_str(), Some(city));
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .expect("out dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left: {leftovers:?}");
}

#[test]
fn xmp_sidecars_carry_the_record_for_exiftool() {
    let Some(exiftool) = exiftool() else { return };
    let dir = scratch("photos-sidecar");
    let output = dateline(
        &[
            "parse",
            "--format",
            "xmp",
            "--out",
            dir.to_str().expect("utf-8"),
        ],
        format!("{CAPTION}\n").as_bytes(),
    );
    assert_success(&output);
    assert!(output.stdout.is_empty());
    let json = dateline(&["parse"], format!("{CAPTION}\n").as_bytes());
    let record = &records(&json)[0];
    let sidecar = dir.join(format!("{}.xmp", record["id"].as_str().expect("id")));
    let tags = exif_json(exiftool, &sidecar);
    assert_eq!(tags["XMP-dc:Description"], CAPTION);
    assert_eq!(tags["XMP-dc:Creator"], serde_json::json!(["Karim Haddad"]));
    assert_eq!(tags["XMP-photoshop:Credit"], "REUTERS/Karim Haddad");
    assert_eq!(tags["XMP-photoshop:DateCreated"], "2024:04:10");
    assert_eq!(tags["XMP-photoshop:City"], record["location"]["city"]);
    assert_eq!(tags["XMP-iptcCore:CountryCode"], "LB");
}
