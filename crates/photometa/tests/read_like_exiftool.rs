//! XMP read as ExifTool reads it: a non-standard APP1 header, UTF-16 and
//! UTF-32 packets of either byte order, several standard packets (the last
//! one read wins), junk bytes between segments. Each case is a small file
//! built here; where ExifTool is installed, its answer is checked too
//! (skipped without it, except under `CI=true`).

#![allow(clippy::unwrap_used)]

use std::process::Command;

use photometa::read_jpeg;

const STANDARD: &[u8] = b"http://ns.adobe.com/xap/1.0/\0";
const NON_STANDARD: &[u8] = b"XMP\0://ns.adobe.com/xap/1.0/\0";

fn segment(marker: u8, data: &[u8]) -> Vec<u8> {
    let mut out = vec![0xFF, marker];
    out.extend_from_slice(&u16::try_from(data.len() + 2).unwrap().to_be_bytes());
    out.extend_from_slice(data);
    out
}

fn packet(city: &str) -> String {
    format!(
        "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\
         <x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\
         <rdf:Description rdf:about=\"\" xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\" photoshop:City=\"{city}\"/>\
         </rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>"
    )
}

fn jpeg(segments: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![0xFF, 0xD8];
    for s in segments {
        out.extend_from_slice(s);
    }
    out.extend_from_slice(&[0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9]);
    out
}

fn xmp(header: &[u8], body: &[u8]) -> Vec<u8> {
    segment(0xE1, &[header, body].concat())
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

fn utf32(text: &str, big_endian: bool) -> Vec<u8> {
    text.chars()
        .flat_map(|c| {
            let c = u32::from(c);
            if big_endian {
                c.to_be_bytes()
            } else {
                c.to_le_bytes()
            }
        })
        .collect()
}

/// The cases: a name, the file, the city ExifTool reads.
fn cases() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let jfif = segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
    vec![
        (
            "non-standard header",
            jpeg(&[xmp(NON_STANDARD, packet("Homs").as_bytes())]),
            "Homs",
        ),
        (
            "UTF-16LE",
            jpeg(&[xmp(STANDARD, &utf16(&packet("Hama"), false))]),
            "Hama",
        ),
        (
            "UTF-16BE",
            jpeg(&[xmp(STANDARD, &utf16(&packet("Deir ez-Zor"), true))]),
            "Deir ez-Zor",
        ),
        (
            "UTF-32LE",
            jpeg(&[xmp(STANDARD, &utf32(&packet("Daraa"), false))]),
            "Daraa",
        ),
        (
            "UTF-32BE",
            jpeg(&[xmp(STANDARD, &utf32(&packet("Idlib"), true))]),
            "Idlib",
        ),
        (
            "two standard packets",
            jpeg(&[
                xmp(STANDARD, packet("Aleppo").as_bytes()),
                xmp(STANDARD, packet("Damascus").as_bytes()),
            ]),
            "Damascus",
        ),
        (
            "junk between segments",
            jpeg(&[
                jfif,
                b"\0\0junk".to_vec(),
                xmp(STANDARD, packet("Tartus").as_bytes()),
            ]),
            "Tartus",
        ),
    ]
}

#[test]
fn xmp_is_read_as_exiftool_reads_it() {
    for (name, file, city) in cases() {
        let found = read_jpeg(&file[..]).unwrap();
        assert_eq!(found.merged.city.as_deref(), Some(city), "{name}");
    }
    let junk = &cases()[6].1;
    let warnings = read_jpeg(&junk[..]).unwrap().warnings;
    assert!(
        warnings[0].contains("skipped 6 unknown bytes"),
        "{warnings:?}"
    );
}

#[test]
fn exiftool_agrees() {
    if Command::new("exiftool").arg("-ver").output().is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "exiftool is missing (CI installs libimage-exiftool-perl)"
        );
        eprintln!("skipping: exiftool is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (i, (name, file, city)) in cases().into_iter().enumerate() {
        let path = dir.path().join(format!("{i}.jpg"));
        std::fs::write(&path, &file).unwrap();
        let out = Command::new("exiftool")
            .args(["-j", "-G1", "-XMP-photoshop:City"])
            .arg(&path)
            .output()
            .unwrap();
        let tags: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(tags[0]["XMP-photoshop:City"], city, "{name}");
    }
}

#[test]
fn a_non_standard_packet_keeps_its_values_when_writing() {
    let original = jpeg(&[xmp(NON_STANDARD, packet("Homs").as_bytes())]);
    let fields = photometa::PhotoMetadata {
        source: Some("SANA".into()),
        ..Default::default()
    };
    let (out, report) = photometa::write_jpeg(&original, &fields, false).unwrap();
    assert_eq!(report.written, [photometa::Field::Source]);
    let read = read_jpeg(&out[..]).unwrap().merged;
    assert_eq!(read.source.as_deref(), Some("SANA"));
    assert_eq!(read.city.as_deref(), Some("Homs"));
    // A field it fills counts as filled.
    let city = photometa::PhotoMetadata {
        city: Some("Hama".into()),
        ..Default::default()
    };
    let (_, report) = photometa::write_jpeg(&original, &city, false).unwrap();
    assert_eq!(report.kept, [photometa::Field::City]);
}

/// Writing over XMP that stood under a non-standard header: its properties
/// are folded into the one standard packet written (nothing it stated is
/// lost, and it keeps its precedence over the earlier standard packet), and
/// what was written is what reads back.
#[test]
fn writing_folds_non_standard_xmp_into_the_standard_packet() {
    let original = jpeg(&[
        xmp(STANDARD, packet("Aleppo").as_bytes()),
        xmp(NON_STANDARD, packet("Homs").as_bytes()),
    ]);
    assert_eq!(
        read_jpeg(&original[..]).unwrap().merged.city.as_deref(),
        Some("Homs")
    );

    let creators = photometa::PhotoMetadata {
        creators: vec!["Ann Lee".into()],
        ..Default::default()
    };
    let (out, _) = photometa::write_jpeg(&original, &creators, false).unwrap();
    let read = read_jpeg(&out[..]).unwrap();
    assert_eq!(read.merged.creators, ["Ann Lee"]);
    assert_eq!(
        read.xmp.city.as_deref(),
        Some("Homs"),
        "the folded packet's city"
    );
    let headers = out
        .windows(NON_STANDARD.len())
        .filter(|w| *w == NON_STANDARD)
        .count();
    assert_eq!(
        headers, 0,
        "the non-standard segment is replaced, not kept beside"
    );

    let city = photometa::PhotoMetadata {
        city: Some("Idlib".into()),
        ..Default::default()
    };
    let (out, _) = photometa::write_jpeg(&original, &city, true).unwrap();
    let read = read_jpeg(&out[..]).unwrap();
    assert_eq!(read.xmp.city.as_deref(), Some("Idlib"));
    assert_eq!(read.merged.city.as_deref(), Some("Idlib"));
}
