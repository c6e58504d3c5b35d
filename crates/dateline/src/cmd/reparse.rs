//! `dateline reparse`: the current engine run again over every caption the
//! archive stores, corrections kept on top.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use archive::Mode;

use super::ingest::ArchiveArg;

/// Arguments of `dateline reparse`.
#[derive(Debug, clap::Args)]
pub struct ReparseArgs {
    #[command(flatten)]
    archive: ArchiveArg,
    /// Load GeoNames dump files from DIR instead of the embedded gazetteer.
    #[arg(long, value_name = "DIR")]
    gazetteer: Option<PathBuf>,
}

/// Runs `dateline reparse`: prints what changed, field by field.
pub fn run(args: ReparseArgs) -> anyhow::Result<ExitCode> {
    let gazetteer = super::parse::load_gazetteer(args.gazetteer.as_deref())?;
    let mut archive = args.archive.open(Mode::Write)?;
    let report = archive
        .reparse(|text, stored| {
            let mut record = caption::parse(text, gazetteer);
            // What the input stated (a JPEG's IPTC, a page's JSON-LD) is
            // kept with the record, so it is applied again as at ingest.
            if let Some(stated) = &stored.stated {
                caption::apply_stated(&mut record, stated, gazetteer);
            }
            record.image_url.clone_from(&stored.image_url);
            record
        })
        .context("parsing the archive's captions again")?;
    println!(
        "reparsed {} caption text(s): {} changed, in {} record(s)",
        report.variants, report.variants_changed, report.records_changed
    );
    for (field, n) in &report.fields {
        println!("  {field}: {n}");
    }
    if report.kept_text_changed > 0 {
        println!(
            "kept {} caption(s) as they were: the engine now normalises their text differently",
            report.kept_text_changed
        );
    }
    println!(
        "corrections kept on top: {} record(s) corrected; {} corrected field(s) have a new machine value under them",
        report.corrected_records, report.corrections_over_changed_values
    );
    Ok(ExitCode::SUCCESS)
}
