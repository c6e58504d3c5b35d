//! Fuzzes the XMP reader on arbitrary bytes: it refuses or reads, never
//! panics. The bytes are also put in a JPEG as its XMP packet and a city is
//! written over it: the result reads back with the new city and every other
//! field as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use photometa::{read_jpeg, read_xmp, write_jpeg, Error, PhotoMetadata};

fuzz_target!(|data: &[u8]| {
    let parsed = read_xmp(data);
    let Ok(len) = u16::try_from(data.len() + 31) else { return };
    let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE1];
    jpeg.extend_from_slice(&len.to_be_bytes());
    jpeg.extend_from_slice(b"http://ns.adobe.com/xap/1.0/\0");
    jpeg.extend_from_slice(data);
    jpeg.extend_from_slice(&[0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]);
    let fields = PhotoMetadata { city: Some("Idlib".into()), ..Default::default() };
    match write_jpeg(&jpeg, &fields, true) {
        Ok((out, _)) => {
            let back = read_jpeg(&out[..]).expect("written JPEG reads");
            assert!(!back.warnings.iter().any(|w| w.contains("skipped")), "{:?}", back.warnings);
            assert_eq!(back.xmp.city.as_deref(), Some("Idlib"));
            if let Ok(mut before) = parsed {
                before.city = Some("Idlib".into());
                assert_eq!(back.xmp, before);
            }
        }
        Err(Error::XmpTooLarge { .. }) => {}
        Err(e) => assert!(parsed.is_err(), "read_xmp reads it but write_jpeg fails: {e}"),
    }
});
