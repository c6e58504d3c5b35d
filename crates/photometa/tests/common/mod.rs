//! Helpers shared by the integration tests: small real JPEGs and their parts.
#![allow(dead_code, clippy::unwrap_used)]

use jpeg_encoder::{ColorType, Encoder};

/// A real baseline JPEG, `w`×`h`, with a smooth pattern (or noise, which
/// compresses badly and so gives large image data).
pub fn make_jpeg(w: u16, h: u16, noise: bool) -> Vec<u8> {
    let mut px = Vec::with_capacity(usize::from(w) * usize::from(h) * 3);
    let mut seed: u32 = 0x1234_5678;
    for y in 0..h {
        for x in 0..w {
            if noise {
                for _ in 0..3 {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    px.push(seed as u8);
                }
            } else {
                px.extend([(x * 4) as u8, (y * 4) as u8, ((x + y) * 2) as u8]);
            }
        }
    }
    let mut out = Vec::new();
    Encoder::new(&mut out, 90)
        .encode(&px, w, h, ColorType::Rgb)
        .unwrap();
    out
}

/// Offset of the SOS marker (the start of the compressed image data).
pub fn scan_start(jpeg: &[u8]) -> usize {
    let mut pos = 2;
    loop {
        assert_eq!(jpeg[pos], 0xFF, "marker expected at {pos}");
        let marker = jpeg[pos + 1];
        if marker == 0xDA {
            return pos;
        }
        let len = usize::from(u16::from_be_bytes([jpeg[pos + 2], jpeg[pos + 3]]));
        pos += 2 + len;
    }
}

/// The header segments (marker and whole segment bytes) before SOS.
pub fn segments(jpeg: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pos = 2;
    while jpeg[pos + 1] != 0xDA {
        let len = usize::from(u16::from_be_bytes([jpeg[pos + 2], jpeg[pos + 3]]));
        out.push((jpeg[pos + 1], jpeg[pos..pos + 2 + len].to_vec()));
        pos += 2 + len;
    }
    out
}

/// Segments other than XMP (APP1 `http://ns.adobe.com/xap`) and Photoshop APP13.
pub fn other_segments(jpeg: &[u8]) -> Vec<(u8, Vec<u8>)> {
    segments(jpeg)
        .into_iter()
        .filter(|(m, s)| {
            !(*m == 0xE1 && s[4..].starts_with(b"http://ns.adobe.com/xap/1.0/\0")
                || *m == 0xED && s[4..].starts_with(b"Photoshop 3.0\0"))
        })
        .collect()
}
