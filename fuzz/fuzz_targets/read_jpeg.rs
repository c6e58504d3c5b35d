//! Fuzzes the JPEG metadata reader and writer on arbitrary bytes: reading
//! never panics; when writing succeeds, the image data (SOS onwards) is
//! unchanged, the fields written read back and every other field reads as
//! before.
#![no_main]

use libfuzzer_sys::fuzz_target;
use photometa::{read_jpeg, write_jpeg, PhotoMetadata};

fuzz_target!(|data: &[u8]| {
    let Ok(before) = read_jpeg(data) else { return };
    let fields = PhotoMetadata {
        city: Some("Idlib".into()),
        creators: vec!["Ann".into()],
        gps: Some((35.9, 36.6)),
        ..Default::default()
    };
    let Ok((out, _)) = write_jpeg(data, &fields, true) else { return };
    let after = read_jpeg(&out[..]).expect("a written JPEG reads");
    assert_eq!(&data[scan_start(data)..], &out[scan_start(&out)..]);
    for (old, new) in [(&before.merged, &after.merged), (&before.xmp, &after.xmp)] {
        let mut expected = old.clone();
        expected.city = Some("Idlib".into());
        expected.creators = vec!["Ann".into()];
        expected.gps = new.gps;
        assert_eq!(&expected, new);
        let (lat, lon) = new.gps.expect("GPS written");
        assert!((lat - 35.9).abs() < 1e-6 && (lon - 36.6).abs() < 1e-6);
    }
    let mut expected = before.iim.clone();
    expected.city = Some("Idlib".into());
    expected.creators = vec!["Ann".into()];
    assert_eq!(expected, after.iim);
});

/// Offset of the SOS (or EOI) marker of a JPEG the writer accepted, read
/// as the reader does: junk bytes between segments and `FF00` skipped, fill
/// `FF`s before a marker code, no length after RSTn, TEM or a stray `00`.
fn scan_start(b: &[u8]) -> usize {
    let byte = |at: usize| b.get(at).copied();
    let mut pos = 2;
    loop {
        while byte(pos).is_some_and(|x| x != 0xFF) {
            pos += 1;
        }
        let marker_at = pos;
        while byte(pos) == Some(0xFF) {
            pos += 1;
        }
        match byte(pos) {
            None => return b.len(),
            Some(0xDA | 0xD9) => return marker_at,
            Some(0x00 | 0x01 | 0xD0..=0xD7) => pos += 1,
            Some(_) => {
                let (Some(hi), Some(lo)) = (byte(pos + 1), byte(pos + 2)) else { return b.len() };
                pos += 1 + usize::from(u16::from_be_bytes([hi, lo]));
            }
        }
    }
}
