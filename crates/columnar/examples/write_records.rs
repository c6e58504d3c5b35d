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
    let cpu_start = cpu_seconds();
    let file = std::fs::File::create(out)?;
    let mut writer = columnar::GeoParquetWriter::new(BufWriter::new(file), false)?;
    for record in records.iter().cycle().take(total) {
        writer.write(record, None)?;
    }
    writer.finish()?.into_inner()?.sync_all()?;
    let seconds = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{:.2} s CPU", b - a),
        _ => "CPU time unknown".to_string(),
    };
    let bytes = std::fs::metadata(out)?.len();
    println!(
        "{total} records ({} distinct) written in {seconds:.2} s ({cpu}) on one thread = {:.0} records/s; \
         {bytes} bytes = {:.0} bytes per record",
        records.len(),
        total as f64 / seconds,
        bytes as f64 / total as f64
    );
    Ok(())
}

/// This process's user + system CPU time so far, from `/proc/self/stat`
/// (Linux; fields 14 and 15, in clock ticks of 1/100 s, the kernel's
/// `USER_HZ` on every mainstream architecture). On a shared machine the
/// wall time also counts other processes' turns on the core; this does not.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    // after_name starts at field 3, so fields 14 and 15 are at 11 and 12.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}
