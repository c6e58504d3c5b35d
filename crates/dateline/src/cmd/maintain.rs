//! `dateline check` and `dateline reindex`: verify the archive, rebuild its
//! index from the store.

use std::process::ExitCode;

use anyhow::Context;
use archive::Mode;

use super::ingest::ArchiveArg;

/// Arguments of `dateline check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    archive: ArchiveArg,
}

/// Arguments of `dateline reindex`.
#[derive(Debug, clap::Args)]
pub struct ReindexArgs {
    #[command(flatten)]
    archive: ArchiveArg,
}

/// Runs `dateline check`: exit code 1 when the archive is not sound.
pub fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let archive = args.archive.open(Mode::Read)?;
    let report = archive.check().context("checking the archive")?;
    let stats = archive.stats()?;
    for problem in &report.problems {
        println!("problem: {problem}");
    }
    for note in &report.notes {
        println!("note: {note}");
    }
    println!(
        "{}: {} document(s), {} occurrence(s), {} record(s), {} variant(s); {} indexed",
        archive.dir().display(),
        stats.documents,
        stats.occurrences,
        stats.records,
        stats.variants,
        report.indexed
    );
    if report.is_ok() {
        println!("ok");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("the archive has {} problem(s)", report.problems.len());
        Ok(crate::cmd::EXIT_FAILURE)
    }
}

/// Runs `dateline reindex`.
pub fn reindex(args: ReindexArgs) -> anyhow::Result<ExitCode> {
    let mut archive = args.archive.open(Mode::Write)?;
    let count = archive.reindex().context("rebuilding the index")?;
    println!("reindexed {count} record(s) in {}", archive.dir().display());
    Ok(ExitCode::SUCCESS)
}
