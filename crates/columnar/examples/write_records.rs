//! Times the GeoParquet writer alone: parses up to 100,000 captions of a
//! corpus (`cargo xtask corpus`) once, then writes N records (default one
//! million, the parsed ones over and over) to a file on this one thread.
//!
//! `cargo run --release -p columnar --example write_records -- CORPUS OUT [N]`

use std::io::BufWriter;
use std::time::Instant;

/// Distinct records kept in memory (about 2 kB each).
const DISTINCT: usize = 100_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [corpus, out, rest @ ..] = args.as_slice() else {
        return Err("usage: write_records CORPUS OUT [N]".into());
    };
    let total: usize = rest.first().map_or(Ok(1_000_000), |n| n.parse())?;
    let gazetteer = gazetteer::Gazetteer::embedded();
    let text = std::fs::read_to_string(corpus)?;
    let records: Vec<caption::CaptionRecord> = text
        .split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .take(DISTINCT)
        .map(|p| caption::parse(p, gazetteer))
        .collect();
    if records.is_empty() {
        return Err("the corpus has no captions".into());
    }
    let start = Instant::now();
    let file = std::fs::File::create(out)?;
    let mut writer = columnar::GeoParquetWriter::new(BufWriter::new(file), false)?;
    for record in records.iter().cycle().take(total) {
        writer.write(record, None)?;
    }
    writer.finish()?.into_inner()?.sync_all()?;
    let seconds = start.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(out)?.len();
    println!(
        "{total} records ({} distinct) written in {seconds:.2} s on one thread = {:.0} records/s; \
         {bytes} bytes = {:.0} bytes per record",
        records.len(),
        total as f64 / seconds,
        bytes as f64 / total as f64
    );
    Ok(())
}
