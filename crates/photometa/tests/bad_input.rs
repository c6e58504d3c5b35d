//! Bad input: truncated and corrupt JPEGs, refused XMP, broken IIM, huge
//! lengths. Reading gives a clear error or a clean partial result with
//! warnings; writing refuses what it cannot preserve; nothing panics.
#![allow(clippy::unwrap_used)]

mod common;

use photometa::{
    read_iim, read_jpeg, read_xmp, write_atomically, write_jpeg, Error, PhotoMetadata,
};

fn fields() -> PhotoMetadata {
    PhotoMetadata {
        creators: vec!["Ann".into()],
        city: Some("Idlib".into()),
        country_code: Some("SYR".into()),
        gps: Some((35.9, 36.6)),
        ..Default::default()
    }
}

fn tagged() -> Vec<u8> {
    write_jpeg(&common::make_jpeg(16, 16, false), &fields(), false)
        .unwrap()
        .0
}

/// A JPEG with one extra segment inserted right after SOI.
fn with_segment(marker: u8, data: &[u8]) -> Vec<u8> {
    let plain = common::make_jpeg(8, 8, false);
    let mut out = plain[..2].to_vec();
    out.extend_from_slice(&[0xFF, marker]);
    out.extend_from_slice(&u16::try_from(data.len() + 2).unwrap().to_be_bytes());
    out.extend_from_slice(data);
    out.extend_from_slice(&plain[2..]);
    out
}

#[test]
fn every_truncation_reads_partially_and_never_panics() {
    let full = tagged();
    let scan = common::scan_start(&full);
    for cut in 0..full.len() {
        let part = &full[..cut];
        match read_jpeg(part) {
            Ok(m) => {
                if cut <= scan {
                    assert!(!m.warnings.is_empty() || cut == scan, "cut {cut}");
                }
            }
            Err(Error::NotJpeg) => assert!(cut < 2),
            Err(e) => panic!("cut {cut}: {e}"),
        }
        match write_jpeg(part, &fields(), false) {
            Ok((out, _)) => {
                assert!(cut > scan, "cut {cut} wrote");
                assert_eq!(&out[common::scan_start(&out)..], &part[scan..]);
            }
            Err(Error::NotJpeg | Error::Truncated { .. }) => assert!(cut <= scan + 1),
            Err(e) => panic!("cut {cut}: unexpected {e}"),
        }
    }
}

#[test]
fn every_corrupt_header_byte_is_handled() {
    let full = tagged();
    let scan = common::scan_start(&full);
    for at in 0..scan + 4 {
        for v in [0x00, 0xFF, 0x1C, 0x80] {
            let mut bad = full.clone();
            bad[at] = v;
            let _ = read_jpeg(&bad[..]);
            if let Ok((out, _)) = write_jpeg(&bad, &fields(), true) {
                assert_eq!(
                    read_jpeg(&out[..]).unwrap().merged.city.as_deref(),
                    Some("Idlib")
                );
            }
        }
    }
}

#[test]
fn huge_lengths_are_reported_not_allocated() {
    // A segment length past the end of the file.
    let mut f = common::make_jpeg(8, 8, false);
    f.truncate(2);
    f.extend_from_slice(&[0xFF, 0xE1, 0xFF, 0xFF, b'h']);
    let m = read_jpeg(&f[..]).unwrap();
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(matches!(
        write_jpeg(&f, &fields(), false),
        Err(Error::Truncated { .. })
    ));

    // A Photoshop resource claiming 4 GB.
    let mut ps = b"Photoshop 3.0\08BIM\x04\x04\0\0".to_vec();
    ps.extend_from_slice(&u32::MAX.to_be_bytes());
    ps.extend_from_slice(b"\x1c\x02\x5a\x00\x05Paris");
    let f = with_segment(0xED, &ps);
    let m = read_jpeg(&f[..]).unwrap();
    assert!(
        m.warnings.iter().any(|w| w.contains("claims")),
        "{:?}",
        m.warnings
    );
    assert!(matches!(
        write_jpeg(&f, &fields(), false),
        Err(Error::Photoshop(_))
    ));

    // An extended XMP chunk claiming 4 GB, named by the main packet.
    let guid = "0123456789ABCDEF0123456789ABCDEF";
    let main = format!(
        r#"http://ns.adobe.com/xap/1.0/{}<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="{guid}"/></rdf:RDF></x:xmpmeta>"#,
        '\0'
    );
    let mut ext = b"http://ns.adobe.com/xmp/extension/\0".to_vec();
    ext.extend_from_slice(guid.as_bytes());
    ext.extend_from_slice(&u32::MAX.to_be_bytes());
    ext.extend_from_slice(&0u32.to_be_bytes());
    ext.extend_from_slice(b"<x/>");
    let mut f = with_segment(0xE1, main.as_bytes());
    let tail = f.split_off(2);
    f.extend_from_slice(&[0xFF, 0xE1]);
    f.extend_from_slice(&u16::try_from(ext.len() + 2).unwrap().to_be_bytes());
    f.extend_from_slice(&ext);
    f.extend_from_slice(&tail);
    let m = read_jpeg(&f[..]).unwrap();
    assert!(
        m.warnings.iter().any(|w| w.contains("extended XMP")),
        "{:?}",
        m.warnings
    );
}

#[test]
fn iim_with_a_wrong_length() {
    let mut ps = b"Photoshop 3.0\08BIM\x04\x04\0\0\0\0\0\x14".to_vec();
    // City "Paris", then Credit claiming 200 bytes where 5 are left.
    ps.extend_from_slice(b"\x1c\x02\x5a\x00\x05Paris\x1c\x02\x6e\x00\xc8AFP\0\0");
    let f = with_segment(0xED, &ps);
    let m = read_jpeg(&f[..]).unwrap();
    assert_eq!(
        m.iim.city.as_deref(),
        Some("Paris"),
        "what came before is kept"
    );
    assert!(
        m.warnings.iter().any(|w| w.contains("claims 200 bytes")),
        "{:?}",
        m.warnings
    );
    assert!(matches!(
        write_jpeg(&f, &fields(), false),
        Err(Error::Iim(_))
    ));
    let err = read_iim(b"\x1c\x02\x5a\x00\x05Paris\x1c\x02\x6e\x00\xc8AFP").unwrap_err();
    assert!(err.to_string().contains("claims 200 bytes"), "{err}");
}

#[test]
fn xmp_with_a_doctype_is_refused() {
    let evil = r#"<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY x SYSTEM "file:///etc/passwd">]><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"><photoshop:City>&x;</photoshop:City></rdf:Description></rdf:RDF></x:xmpmeta>"#;
    let err = read_xmp(evil.as_bytes()).unwrap_err();
    assert!(matches!(err, Error::XmpDoctype));
    assert!(err.to_string().contains("DOCTYPE"));
    let f = with_segment(
        0xE1,
        &[b"http://ns.adobe.com/xap/1.0/\0", evil.as_bytes()].concat(),
    );
    let m = read_jpeg(&f[..]).unwrap();
    assert_eq!(m.merged.city, None);
    assert!(
        m.warnings.iter().any(|w| w.contains("DOCTYPE")),
        "{:?}",
        m.warnings
    );
    assert!(matches!(
        write_jpeg(&f, &fields(), false),
        Err(Error::XmpDoctype)
    ));
}

#[test]
fn values_that_cannot_be_written() {
    let jpeg = common::make_jpeg(8, 8, false);
    let bad_date = PhotoMetadata {
        date_created: Some("5 March 2024".into()),
        ..Default::default()
    };
    assert!(matches!(
        write_jpeg(&jpeg, &bad_date, false),
        Err(Error::InvalidValue { .. })
    ));
    let bad_gps = PhotoMetadata {
        gps: Some((95.0, 0.0)),
        ..Default::default()
    };
    assert!(matches!(
        write_jpeg(&jpeg, &bad_gps, false),
        Err(Error::InvalidValue { .. })
    ));
    let huge = PhotoMetadata {
        persons_shown: (0..5000).map(|i| format!("Person number {i}")).collect(),
        ..Default::default()
    };
    assert!(matches!(
        write_jpeg(&jpeg, &huge, false),
        Err(Error::XmpTooLarge { .. })
    ));
    assert!(matches!(
        write_jpeg(b"GIF89a", &fields(), false),
        Err(Error::NotJpeg)
    ));
    // Nothing to write: the file comes back as it was.
    let (same, report) = write_jpeg(&jpeg, &PhotoMetadata::default(), false).unwrap();
    assert_eq!(same, jpeg);
    assert!(report.written.is_empty());
}

#[test]
fn large_iim_spans_several_app13_segments() {
    // Keywords (kept from the original) that just fit one APP13 segment: with the
    // new datasets and the digest they no longer do, and the writer splits the
    // resources over two APP13 segments, which readers put back together.
    let mut iim = Vec::new();
    for i in 0..2619 {
        let kw = format!("keyword number {i:05}");
        iim.extend_from_slice(&[0x1c, 2, 25, 0, kw.len() as u8]);
        iim.extend_from_slice(kw.as_bytes());
    }
    let mut ps = b"Photoshop 3.0\08BIM\x04\x04\0\0".to_vec();
    ps.extend_from_slice(&u32::try_from(iim.len()).unwrap().to_be_bytes());
    ps.extend_from_slice(&iim);
    assert!(ps.len() < 65_533);
    let f = with_segment(0xED, &ps);
    let (out, _) = write_jpeg(&f, &fields(), false).unwrap();
    let app13 = common::segments(&out)
        .iter()
        .filter(|(m, _)| *m == 0xED)
        .count();
    assert_eq!(app13, 2);
    let m = read_jpeg(&out[..]).unwrap();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(m.iim.city.as_deref(), Some("Idlib"));
}

#[test]
fn atomic_write_replaces_the_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.jpg");
    std::fs::write(&p, b"old").unwrap();
    write_atomically(&p, b"new").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"new");
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    assert!(write_atomically(&d.path().join("missing/a.jpg"), b"x").is_err());
}
