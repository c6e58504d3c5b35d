//! Replays the inputs that once broke a fuzz target (`test_data/fuzz-failures`),
//! with the targets' checks: reading never panics, and a write reads back
//! with the fields written and every other field as before.
#![allow(clippy::unwrap_used)]

use photometa::{read_jpeg, read_xmp, write_jpeg, PhotoMetadata};

fn fields() -> PhotoMetadata {
    PhotoMetadata {
        city: Some("Idlib".into()),
        creators: vec!["Ann".into()],
        gps: Some((35.9, 36.6)),
        ..Default::default()
    }
}

fn check_jpeg(data: &[u8]) {
    let Ok(before) = read_jpeg(data) else { return };
    let Ok((out, _)) = write_jpeg(data, &fields(), true) else {
        return;
    };
    let after = read_jpeg(&out[..]).unwrap();
    let mut expected = before.merged.clone();
    expected.city = Some("Idlib".into());
    expected.creators = vec!["Ann".into()];
    expected.gps = after.merged.gps;
    assert_eq!(expected, after.merged);
    assert!(after.merged.gps.is_some());
}

#[test]
fn replay_fuzz_failures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/fuzz-failures");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        match path.extension().and_then(|e| e.to_str()) {
            Some("jpg") => check_jpeg(&data),
            Some("xmp") => {
                let _ = read_xmp(&data);
                let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE1];
                jpeg.extend_from_slice(&u16::try_from(data.len() + 31).unwrap().to_be_bytes());
                jpeg.extend_from_slice(b"http://ns.adobe.com/xap/1.0/\0");
                jpeg.extend_from_slice(&data);
                jpeg.extend_from_slice(&[0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]);
                check_jpeg(&jpeg);
            }
            _ => continue,
        }
        n += 1;
    }
    assert!(n >= 2, "the fuzz failures are there");
}
