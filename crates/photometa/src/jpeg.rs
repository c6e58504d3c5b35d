//! JPEG marker segments: a streaming reader that stops at the start of scan,
//! and a strict parser of a whole file in memory for the writer.
//!
//! A JPEG is `FFD8` (SOI) followed by marker segments `FF xx LL LL data`
//! (the 16-bit big-endian length counts itself, so a segment holds at most
//! 65,533 bytes of data), then `FFDA` (SOS) and the entropy-coded image data
//! up to `FFD9` (EOI). Fill bytes (`FF` repeated before a marker) are
//! allowed, and the standalone markers (`FF01`, `FFD0`–`FFD7`) carry no
//! length. Neither reader ever looks at what follows the SOS marker.

use std::io::{self, Read};

use crate::Error;

/// APP1 marker (EXIF, XMP, extended XMP).
pub(crate) const APP1: u8 = 0xE1;
/// APP13 marker (Photoshop image resources, which hold IPTC-IIM).
pub(crate) const APP13: u8 = 0xED;
const SOS: u8 = 0xDA;
const EOI: u8 = 0xD9;
const SOI: u8 = 0xD8;
/// The marker given to a run of junk bytes between segments in a
/// [`Layout`] (no real marker segment has code `00`).
pub(crate) const JUNK: u8 = 0x00;

/// Signature of a standard XMP packet in APP1.
pub(crate) const XMP_SIG: &[u8] = b"http://ns.adobe.com/xap/1.0/\0";
/// Signature of an extended XMP chunk in APP1.
pub(crate) const XMP_EXT_SIG: &[u8] = b"http://ns.adobe.com/xmp/extension/\0";
/// Signature of Photoshop image resources in APP13.
pub(crate) const PS_SIG: &[u8] = b"Photoshop 3.0\0";

/// Largest data a marker segment can hold (65,535 minus the length field).
pub(crate) const MAX_SEGMENT_DATA: usize = 65_533;

/// What a segment carries, as far as this crate cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// APP1 with a standard XMP packet.
    Xmp,
    /// APP1 with an extended XMP chunk.
    XmpExt,
    /// APP1 with XMP under a non-standard header (`XMP\0://ns.adobe.com/xap/1.0/`,
    /// a bare `<?xpacket`): read, as ExifTool reads it, but copied as it is
    /// when writing, as ExifTool does ("ignored when writing").
    XmpNonStandard,
    /// APP13 with Photoshop image resources.
    Photoshop,
    /// Anything else (kept as is by the writer).
    Other,
}

/// Classifies a segment by its marker and the start of its data.
pub(crate) fn kind(marker: u8, data: &[u8]) -> Kind {
    match marker {
        APP1 if data.starts_with(XMP_SIG) => Kind::Xmp,
        APP1 if data.starts_with(XMP_EXT_SIG) => Kind::XmpExt,
        APP1 if is_nonstandard_xmp(data) => Kind::XmpNonStandard,
        APP13 if data.starts_with(PS_SIG) => Kind::Photoshop,
        _ => Kind::Other,
    }
}

/// ExifTool's test for XMP in an APP1 segment without the standard
/// signature (`ProcessJPEG` in `ExifTool.pm`): the data starts with `http`
/// or `XMP\0`, or holds `<exif:` or `<?xpacket`, and is none of the other
/// APP1 kinds it knows (EXIF, Casio QVCI, FLIR, Parrot).
fn is_nonstandard_xmp(data: &[u8]) -> bool {
    let exif = data
        .windows(5)
        .take(5)
        .any(|w| w.eq_ignore_ascii_case(b"Exif\0"));
    let other = [&b"QVCI\0"[..], b"FLIR\0", b"PARROT\0"]
        .iter()
        .any(|sig| data.starts_with(sig));
    if exif || other {
        return false;
    }
    let holds = |needle: &[u8]| memchr::memmem::find(data, needle).is_some();
    data.starts_with(b"http")
        || data.starts_with(b"XMP\0")
        || holds(b"<exif:")
        || holds(b"<?xpacket")
}

/// A metadata segment read by the streaming reader.
#[derive(Debug)]
pub(crate) struct MetaSegment {
    pub kind: Kind,
    /// Offset of the marker in the file.
    pub offset: u64,
    /// The segment's data after its signature.
    pub payload: Vec<u8>,
}

/// Most APP1/APP13 data the streaming reader keeps (a stream of endless
/// segments cannot make it grow without bound).
const MAX_METADATA: usize = 64 << 20;

/// Reads the metadata segments of a JPEG stream, stopping at SOS or EOI.
///
/// Non-metadata segments are skipped (read and discarded, never stored).
/// A stream that is not a JPEG is an error; a stream that breaks off or
/// goes wrong after a valid SOI gives the segments read so far and a warning.
pub(crate) fn read_segments<R: Read>(
    mut r: R,
    warnings: &mut Vec<String>,
) -> Result<Vec<MetaSegment>, Error> {
    let mut soi = [0u8; 2];
    if let Err(e) = r.read_exact(&mut soi) {
        return Err(match e.kind() {
            io::ErrorKind::UnexpectedEof => Error::NotJpeg,
            _ => Error::Io(e),
        });
    }
    if soi != [0xFF, SOI] {
        return Err(Error::NotJpeg);
    }
    let mut out = Vec::new();
    let mut pos: u64 = 2;
    let mut stored = 0usize;
    loop {
        // Up to the next `FF`. Bytes between segments that are not a marker
        // are junk some writers leave; ExifTool skips them with a warning
        // ("Skipped unknown N bytes"), and so does this reader, so that the
        // metadata after them is still read.
        let mut b = [0u8; 1];
        let mut skipped = 0u64;
        let at_marker = loop {
            if !read_or_eof(&mut r, &mut b)? {
                break false;
            }
            if b[0] == 0xFF {
                break true;
            }
            skipped += 1;
        };
        if skipped > 0 {
            warnings.push(format!(
                "skipped {skipped} unknown bytes at offset {pos}, where a JPEG marker was expected"
            ));
            pos += skipped;
        }
        if !at_marker {
            warnings.push(format!("JPEG ends at byte {pos} before the image data"));
            break;
        }
        let marker_at = pos;
        pos += 1;
        // Fill bytes: more `FF`s before the marker code.
        let marker = loop {
            if !read_or_eof(&mut r, &mut b)? {
                break None;
            }
            pos += 1;
            if b[0] != 0xFF {
                break Some(b[0]);
            }
        };
        let Some(marker) = marker else {
            warnings.push(format!("JPEG ends at byte {pos} inside a marker"));
            break;
        };
        match marker {
            SOS | EOI => break,
            // `FF00` is no marker (a stuffed byte out of place): junk too.
            0x00 | 0x01 | 0xD0..=0xD7 => continue,
            _ => {}
        }
        let mut len = [0u8; 2];
        if !read_full(&mut r, &mut len)? {
            warnings.push(format!("JPEG ends at byte {pos} inside a segment length"));
            break;
        }
        pos += 2;
        let len = usize::from(u16::from_be_bytes(len));
        if len < 2 {
            warnings.push(format!(
                "corrupt JPEG: segment length {len} at offset {marker_at}"
            ));
            break;
        }
        let n = len - 2;
        if (marker == APP1 || marker == APP13) && stored + n > MAX_METADATA {
            warnings.push(format!(
                "more than {} MiB of metadata segments: the rest is not read",
                MAX_METADATA >> 20
            ));
            break;
        }
        if marker == APP1 || marker == APP13 {
            let mut data = vec![0u8; n];
            if !read_full(&mut r, &mut data)? {
                warnings.push(format!(
                    "JPEG ends inside the segment at offset {marker_at} (length {len})"
                ));
                break;
            }
            let k = kind(marker, &data);
            let sig = match k {
                Kind::Xmp => XMP_SIG.len(),
                Kind::XmpExt => XMP_EXT_SIG.len(),
                Kind::Photoshop => PS_SIG.len(),
                // The packet is found inside by `xmp::decode_packet`.
                Kind::XmpNonStandard | Kind::Other => 0,
            };
            if k != Kind::Other {
                data.drain(..sig);
                stored += data.len();
                out.push(MetaSegment {
                    kind: k,
                    offset: marker_at,
                    payload: data,
                });
            }
        } else {
            let copied = io::copy(&mut (&mut r).take(n as u64), &mut io::sink())?;
            if copied != n as u64 {
                warnings.push(format!(
                    "JPEG ends inside the segment at offset {marker_at} (length {len})"
                ));
                break;
            }
        }
        pos += n as u64;
    }
    Ok(out)
}

/// Reads one byte; `false` at end of input.
fn read_or_eof<R: Read>(r: &mut R, b: &mut [u8; 1]) -> Result<bool, Error> {
    loop {
        match r.read(b) {
            Ok(0) => return Ok(false),
            Ok(_) => return Ok(true),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Io(e)),
        }
    }
}

/// Fills `buf`; `false` if the input ends first.
fn read_full<R: Read>(r: &mut R, buf: &mut [u8]) -> Result<bool, Error> {
    match r.read_exact(buf) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(Error::Io(e)),
    }
}

/// A segment of an in-memory JPEG, for the writer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    pub marker: u8,
    /// Offset of the `FF` of the marker.
    pub start: usize,
    /// Offset of the segment data (after the length).
    pub data_start: usize,
    /// End of the segment.
    pub end: usize,
}

/// A whole JPEG split into its header segments and the rest (from SOS on).
#[derive(Debug)]
pub(crate) struct Layout {
    pub segments: Vec<Span>,
    /// Offset of the SOS marker: everything from here on is copied verbatim.
    pub scan_start: usize,
}

/// Parses a whole JPEG strictly: any structural problem before SOS is an error.
pub(crate) fn layout(bytes: &[u8]) -> Result<Layout, Error> {
    if !bytes.starts_with(&[0xFF, SOI]) {
        return Err(Error::NotJpeg);
    }
    let mut segments = Vec::new();
    let mut pos = 2;
    loop {
        let marker_at = pos;
        match bytes.get(pos) {
            None => return Err(Error::Truncated { offset: pos }),
            Some(0xFF) => {}
            Some(_) => {
                // Junk between segments (see `read_segments`): kept as a
                // pseudo-segment, so the writer copies it byte for byte.
                let end = memchr::memchr(0xFF, &bytes[pos..]).map_or(bytes.len(), |n| pos + n);
                segments.push(Span {
                    marker: JUNK,
                    start: pos,
                    data_start: pos,
                    end,
                });
                pos = end;
                continue;
            }
        }
        while bytes.get(pos) == Some(&0xFF) {
            pos += 1;
        }
        let Some(&marker) = bytes.get(pos) else {
            return Err(Error::Truncated { offset: pos });
        };
        pos += 1;
        match marker {
            SOS => {
                return Ok(Layout {
                    segments,
                    scan_start: marker_at,
                });
            }
            EOI => {
                return Err(Error::Corrupt {
                    offset: marker_at,
                    reason: "end of image before any image data".into(),
                })
            }
            0x00 | 0x01 | 0xD0..=0xD7 => {
                segments.push(Span {
                    marker,
                    start: marker_at,
                    data_start: pos,
                    end: pos,
                });
                continue;
            }
            _ => {}
        }
        let Some(len) = bytes.get(pos..pos + 2) else {
            return Err(Error::Truncated { offset: pos });
        };
        let len = usize::from(u16::from_be_bytes([len[0], len[1]]));
        if len < 2 {
            return Err(Error::Corrupt {
                offset: marker_at,
                reason: format!("segment length {len}"),
            });
        }
        let end = pos + len;
        if end > bytes.len() {
            return Err(Error::Truncated {
                offset: bytes.len(),
            });
        }
        segments.push(Span {
            marker,
            start: marker_at,
            data_start: pos + 2,
            end,
        });
        pos = end;
    }
}

/// Appends a marker segment (`FF marker length data`) to `out`.
///
/// `data` must hold at most [`MAX_SEGMENT_DATA`] bytes (checked by callers).
pub(crate) fn push_segment(out: &mut Vec<u8>, marker: u8, parts: &[&[u8]]) {
    let n: usize = parts.iter().map(|p| p.len()).sum();
    debug_assert!(n <= MAX_SEGMENT_DATA);
    let len = u16::try_from(n + 2).unwrap_or(u16::MAX);
    out.extend_from_slice(&[0xFF, marker]);
    out.extend_from_slice(&len.to_be_bytes());
    for p in parts {
        out.extend_from_slice(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(marker: u8, data: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        push_segment(&mut v, marker, &[data]);
        v
    }

    #[test]
    fn stops_at_sos_and_keeps_metadata() {
        let mut f = vec![0xFF, SOI];
        f.extend(seg(0xE0, b"JFIF\0\x01\x01"));
        f.extend(seg(APP1, b"http://ns.adobe.com/xap/1.0/\0<x/>"));
        f.extend(seg(APP13, b"Photoshop 3.0\08BIM"));
        f.extend([0xFF, SOS, 0, 2, 0xFF]); // scan data is never looked at
        let mut w = Vec::new();
        let segs = read_segments(&f[..], &mut w).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(segs.len(), 2);
        assert_eq!(segs[0].kind, Kind::Xmp);
        assert_eq!(segs[0].payload, b"<x/>");
        assert_eq!(segs[1].kind, Kind::Photoshop);
        let l = layout(&f).unwrap();
        assert_eq!(l.segments.len(), 3);
        assert_eq!(&f[l.scan_start..l.scan_start + 2], &[0xFF, SOS]);
    }

    #[test]
    fn truncation_is_a_warning_when_streaming_and_an_error_in_memory() {
        let mut f = vec![0xFF, SOI];
        f.extend(seg(APP1, b"http://ns.adobe.com/xap/1.0/\0<x/>"));
        f.truncate(f.len() - 2);
        let mut w = Vec::new();
        assert!(read_segments(&f[..], &mut w).unwrap().is_empty());
        assert_eq!(w.len(), 1);
        assert!(matches!(layout(&f), Err(Error::Truncated { .. })));
        assert!(matches!(
            read_segments(&b"GIF89a"[..], &mut w),
            Err(Error::NotJpeg)
        ));
        assert!(matches!(
            read_segments(&b""[..], &mut w),
            Err(Error::NotJpeg)
        ));
    }
}
