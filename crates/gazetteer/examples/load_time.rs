//! Measures decoding the embedded gazetteer: `cargo run --release -p gazetteer --example load_time`.

use gazetteer::Gazetteer;
use std::time::Instant;

fn main() {
    let rss_before = peak_rss_kb();
    let start = Instant::now();
    let gazetteer = match Gazetteer::try_embedded() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let elapsed = start.elapsed();
    println!(
        "decoded {} places, {} admin1, {} countries from {:.1} MB in {:.0} ms",
        gazetteer.n_places(),
        gazetteer.all_admin1().len(),
        gazetteer.countries().len(),
        Gazetteer::embedded_data().len() as f64 / 1e6,
        elapsed.as_secs_f64() * 1e3
    );
    println!(
        "heap held by the gazetteer: about {:.0} MB",
        gazetteer.heap_bytes() as f64 / 1e6
    );
    if let (Some(before), Some(after)) = (rss_before, peak_rss_kb()) {
        println!(
            "peak RSS: {:.0} MB (before decoding: {:.0} MB)",
            after as f64 / 1024.0,
            before as f64 / 1024.0
        );
    }
}

/// Peak resident set size in KiB, from `/proc/self/status` (Linux only).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
