//! What the `fit-*` commands share: their options and how they write (or
//! check) the generated weights file.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// `[--shared DIR] [--out FILE] [--check]`.
pub struct FitArgs {
    /// The workspace root.
    pub top: PathBuf,
    /// The shared material (default `../shared`).
    pub shared: PathBuf,
    /// The weights file written.
    pub out: PathBuf,
    /// Only check that `out` is what the fit gives.
    pub check_only: bool,
}

impl FitArgs {
    /// Parses the options; `default_out` is relative to the workspace root.
    pub fn parse(args: &[String], default_out: &str) -> anyhow::Result<FitArgs> {
        let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut parsed = FitArgs {
            shared: top.join("../shared"),
            out: top.join(default_out),
            check_only: false,
            top,
        };
        let mut args = args.iter();
        while let Some(flag) = args.next() {
            match flag.as_str() {
                "--shared" => {
                    parsed.shared = args.next().context("--shared needs a directory")?.into()
                }
                "--out" => parsed.out = args.next().context("--out needs a file")?.into(),
                "--check" => parsed.check_only = true,
                other => anyhow::bail!("unknown option {other:?}"),
            }
        }
        Ok(parsed)
    }

    /// Writes `source` to the weights file, or with `--check` fails when
    /// the file differs from it (`command` is what regenerates it).
    pub fn write_or_check(&self, source: &str, command: &str) -> anyhow::Result<()> {
        let out = &self.out;
        if self.check_only {
            let current = std::fs::read_to_string(out).unwrap_or_default();
            anyhow::ensure!(
                current == source,
                "{} is not what the fit gives: run `{command}`",
                out.display()
            );
            println!("{} is up to date", out.display());
        } else {
            std::fs::write(out, source).with_context(|| format!("writing {}", out.display()))?;
            println!("wrote {}", out.display());
        }
        Ok(())
    }
}
