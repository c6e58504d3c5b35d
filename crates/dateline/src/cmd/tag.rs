//! `dateline tag`: the photo-desk job. Read each image's caption, extract
//! its fields, and write them back into the image's IPTC-IIM and XMP.
//!
//! What is written is what `dateline parse` prints for the same file: the
//! record comes from the same path (`input::records_of`, stated fields
//! merged) and goes through the one mapping, `photo::metadata_of`.
//!
//! Fields the image already has are kept unless `--overwrite`; the
//! description itself is never rewritten. The image data is copied byte for
//! byte (photometa rewrites only the metadata segments). `--in-place`
//! writes a temporary file beside the image and renames it over the
//! original, so a killed run leaves the old image or the new one, never
//! half of either.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use gazetteer::Gazetteer;

use crate::photo;

/// Arguments of `dateline tag`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("destination").required(true).args(["in_place", "out"])))]
pub struct TagArgs {
    /// JPEG images to tag.
    #[arg(required = true, value_name = "IMAGE")]
    images: Vec<PathBuf>,
    /// Rewrite each image where it is (atomically: temporary file, then rename).
    #[arg(long)]
    in_place: bool,
    /// Write the tagged copies into DIR, under their own file names.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace fields the image already has (by default they are kept).
    #[arg(long)]
    overwrite: bool,
    /// Load GeoNames dump files from DIR instead of the embedded gazetteer.
    #[arg(long, value_name = "DIR")]
    gazetteer: Option<PathBuf>,
}

/// Runs `dateline tag`: every image is tried; the exit code is 1 when any
/// failed.
pub fn run(args: TagArgs) -> anyhow::Result<ExitCode> {
    let gazetteer = super::parse::load_gazetteer(args.gazetteer.as_deref())?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the output directory {}", dir.display()))?;
    }
    let mut failures = 0;
    for image in &args.images {
        let destination = match &args.out {
            Some(dir) => match image.file_name() {
                Some(name) => dir.join(name),
                None => {
                    eprintln!("dateline: error: {}: not a file name", image.display());
                    failures += 1;
                    continue;
                }
            },
            None => image.clone(),
        };
        match tag_one(image, &destination, args.overwrite, gazetteer) {
            Ok(summary) => println!("{}: {summary}", image.display()),
            Err(err) => {
                eprintln!("dateline: error: {}: {err:#}", image.display());
                failures += 1;
            }
        }
    }
    Ok(if failures > 0 {
        crate::cmd::EXIT_FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Tags one image, writing the result to `destination`; returns a summary
/// of the fields written and kept.
fn tag_one(
    image: &Path,
    destination: &Path,
    overwrite: bool,
    gazetteer: &Gazetteer,
) -> anyhow::Result<String> {
    let original = std::fs::read(image).context("reading")?;
    let found = photometa::read_jpeg(&original[..])?;
    for warning in &found.warnings {
        eprintln!("dateline: warning: {}: {warning}", image.display());
    }
    // The record `dateline parse` prints for this file, through the same
    // path (caption parsed, stated fields merged), so that what is written
    // is what parse shows.
    let piece = photo::caption_piece(&found.merged, None)
        .context("the image has no caption (IPTC Caption-Abstract or XMP Description) to read")?;
    let record = crate::input::records_of(&piece, gazetteer)
        .into_iter()
        .next()
        .map(|found| found.record)
        .context("the caption gave no record")?;
    let fields = photometa::PhotoMetadata {
        description: None,
        ..photo::metadata_of(&record)
    };
    let (tagged, report) = photometa::write_jpeg(&original, &fields, overwrite)?;
    photometa::write_atomically(destination, &tagged)
        .with_context(|| format!("writing {}", destination.display()))?;
    let names = |fields: &[photometa::Field]| {
        if fields.is_empty() {
            "nothing".to_string()
        } else {
            fields
                .iter()
                .map(|f| format!("{f:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let mut summary = format!("wrote {}", names(&report.written));
    if !report.kept.is_empty() {
        summary.push_str(&format!("; kept {} (already filled)", names(&report.kept)));
    }
    for note in &report.notes {
        summary.push_str(&format!("; {note}"));
    }
    Ok(summary)
}
