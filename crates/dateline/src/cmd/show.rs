//! `dateline show ID`: one record with its variants and occurrences.

use std::io::{self, Write};
use std::process::ExitCode;

use archive::Mode;
use serde_json::Value;

use super::ingest::ArchiveArg;

/// Arguments of `dateline show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The record's id, or the id of any of its variants.
    #[arg(value_name = "ID")]
    id: String,
    #[command(flatten)]
    archive: ArchiveArg,
    /// Print JSON: {id, record, variants, occurrences}.
    #[arg(long)]
    json: bool,
}

/// Runs `dateline show`.
pub fn run(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let archive = args.archive.open(Mode::Read)?;
    let Some(details) = archive.record_details(args.id.trim())? else {
        anyhow::bail!(
            "no record with id {:?} in {}",
            args.id,
            archive.dir().display()
        );
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    if args.json {
        serde_json::to_writer_pretty(&mut out, &details)?;
        writeln!(out)?;
    } else {
        write_text(&mut out, &details)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn write_text(out: &mut impl Write, details: &Value) -> io::Result<()> {
    let r = &details["record"];
    let s = |v: &Value| v.as_str().unwrap_or("-").to_string();
    let list = |v: &Value| {
        let items: Vec<String> = v
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|x| {
                        x.as_str().map_or_else(
                            || x["name"].as_str().unwrap_or("").to_string(),
                            str::to_string,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        if items.is_empty() {
            "-".to_string()
        } else {
            items.join("; ")
        }
    };
    let loc = &r["location"];
    writeln!(out, "record {}", s(&details["id"]))?;
    writeln!(out, "  description:   {}", s(&r["description"]))?;
    writeln!(out, "  credit:        {}", s(&r["credit"]["raw"]))?;
    writeln!(out, "  creators:      {}", list(&r["credit"]["creators"]))?;
    writeln!(out, "  agencies:      {}", list(&r["credit"]["agencies"]))?;
    writeln!(out, "  source:        {}", s(&r["credit"]["source"]))?;
    writeln!(out, "  date taken:    {}", s(&r["date_created"]))?;
    let place: Vec<String> = ["sublocation", "city", "province", "country"]
        .iter()
        .filter_map(|k| loc[*k].as_str().map(str::to_string))
        .collect();
    writeln!(
        out,
        "  place:         {}{}",
        if place.is_empty() {
            "-".into()
        } else {
            place.join(", ")
        },
        match (loc["latitude"].as_f64(), loc["longitude"].as_f64()) {
            (Some(lat), Some(lon)) => format!(" ({lat:.4}, {lon:.4})"),
            _ => String::new(),
        }
    )?;
    writeln!(out, "  persons:       {}", list(&r["persons"]))?;
    writeln!(out, "  organizations: {}", list(&r["organizations"]))?;
    writeln!(out, "  flags:         {}", list(&r["flags"]))?;
    let variants = details["variants"].as_array().cloned().unwrap_or_default();
    writeln!(out, "\n{} variant(s):", variants.len())?;
    for v in &variants {
        writeln!(
            out,
            "  {}{}  first seen in {}\n    {}",
            s(&v["id"]),
            if v["representative"].as_bool() == Some(true) {
                " (shown)"
            } else {
                ""
            },
            s(&v["first_seen_in"]),
            s(&v["text"])
        )?;
    }
    let occurrences = details["occurrences"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    writeln!(out, "\n{} occurrence(s):", occurrences.len())?;
    for o in &occurrences {
        writeln!(
            out,
            "  {} #{} bytes {}+{}  variant {}\n    sha256 {}",
            s(&o["path"]),
            o["position"],
            o["offset"],
            o["length"],
            s(&o["variant"]),
            o["sha256"]
                .as_str()
                .unwrap_or("not recorded (ingested before schema 3)")
        )?;
    }
    Ok(())
}
