//! Speed check: reads the metadata of many tagged JPEGs, one thread.
//!
//! ```sh
//! cargo run --release -p photometa --example read_many -- [COUNT] [DIR]
//! ```
//!
//! Writes COUNT (default 10,000) copies of one tagged JPEG with about 200 KB
//! of image data to DIR (default `/tmp/photometa-bench`, reused when already
//! there), then times `read_jpeg` over all of them: once on the bare file
//! (which reads nothing past the start of scan) and once through a
//! `BufReader`. The files are in the page cache after writing, so this
//! measures the parsing and the system calls, not the disk.
#![allow(clippy::unwrap_used)]

use std::io::BufReader;
use std::path::PathBuf;
use std::time::Instant;

use jpeg_encoder::{ColorType, Encoder};
use photometa::{read_jpeg, write_jpeg, PhotoMetadata};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args
        .next()
        .map_or(10_000, |a| a.parse().expect("COUNT is a number"));
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "/tmp/photometa-bench".into()));
    std::fs::create_dir_all(&dir).unwrap();

    // Noise compresses badly: 320×256 at quality 95 gives about 200 KB.
    let (w, h) = (320u16, 256u16);
    let mut seed: u32 = 0x9E37_79B9;
    let px: Vec<u8> = (0..usize::from(w) * usize::from(h) * 3)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as u8
        })
        .collect();
    let mut plain = Vec::new();
    Encoder::new(&mut plain, 95)
        .encode(&px, w, h, ColorType::Rgb)
        .unwrap();
    let fields = PhotoMetadata {
        creators: vec!["Omar Haj Kadour".into()],
        credit_line: Some("AFP via Getty Images".into()),
        source: Some("AFP".into()),
        date_created: Some("2024-03-05".into()),
        city: Some("Idlib".into()),
        province_state: Some("Idlib Governorate".into()),
        country: Some("Syria".into()),
        country_code: Some("SY".into()),
        persons_shown: vec!["Raed Saleh".into()],
        organisations: vec!["White Helmets".into()],
        gps: Some((35.93, 36.63)),
        ..Default::default()
    };
    let (tagged, _) = write_jpeg(&plain, &fields, false).unwrap();
    let paths: Vec<PathBuf> = (0..count)
        .map(|i| dir.join(format!("photo{i:05}.jpg")))
        .collect();
    for p in &paths {
        if std::fs::metadata(p).map(|m| m.len()).ok() != Some(tagged.len() as u64) {
            std::fs::write(p, &tagged).unwrap();
        }
    }
    println!(
        "{count} files of {} KB each in {}",
        tagged.len() / 1024,
        dir.display()
    );

    for buffered in [false, true] {
        let start = Instant::now();
        let mut cities = 0;
        for p in &paths {
            let f = std::fs::File::open(p).unwrap();
            let m = if buffered {
                read_jpeg(BufReader::new(f))
            } else {
                read_jpeg(f)
            }
            .unwrap();
            cities += usize::from(m.merged.city.is_some());
        }
        assert_eq!(cities, count);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "read_jpeg on {}: {count} files in {secs:.3} s ({:.1} µs per file)",
            if buffered { "BufReader<File>" } else { "File" },
            secs * 1e6 / count as f64
        );
    }
}
