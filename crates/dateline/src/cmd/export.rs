//! `dateline export`: the selected records as JSON Lines, CSV, GeoJSON,
//! XMP sidecars or GeoParquet.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use archive::Mode;
use serde_json::{json, Value};

use super::ingest::ArchiveArg;
use super::search::SelectArgs;
use crate::photo::SidecarDir;

/// Records fetched from the store at a time.
const CHUNK: usize = 1000;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One record per line, as `dateline parse` prints them (plus the
    /// archive's counts).
    Jsonl,
    /// One row per record, IPTC columns.
    Csv,
    /// A FeatureCollection, one point per located record.
    Geojson,
    /// XMP sidecars, one per record, into `--out DIR`.
    Xmp,
    /// One GeoParquet file, `--out FILE`: typed columns plus the
    /// archive's counts and corrected fields.
    Parquet,
}

/// Arguments of `dateline export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[command(flatten)]
    archive: ArchiveArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// Directory for the sidecars of `--format xmp`; the file of
    /// `--format parquet`.
    #[arg(long, value_name = "DIR|FILE", required_if_eq_any([("format", "xmp"), ("format", "parquet")]))]
    out: Option<PathBuf>,
    #[command(flatten)]
    select: SelectArgs,
}

/// The CSV columns: IPTC Photo Metadata names where one exists.
const CSV_COLUMNS: &[&str] = &[
    "id",
    "Description",
    "Creator",
    "Credit Line",
    "Source",
    "Agencies",
    "Date Created",
    "Sublocation",
    "City",
    "Province/State",
    "Country",
    "Country Code",
    "Person Shown",
    "Organisation In Image Name",
    "Latitude",
    "Longitude",
    "GeoNames Id",
    "Flags",
    "Variants",
    "Occurrences",
    "Corrected Fields",
];

/// Runs `dateline export`.
pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    if args.out.is_some() && !matches!(args.format, Format::Xmp | Format::Parquet) {
        anyhow::bail!(
            "--out is for --format xmp (DIR) or parquet (FILE); the other formats go to stdout"
        );
    }
    let archive = args.archive.open(Mode::Read)?;
    let keys = if args.select.is_everything() {
        archive.all_keys()?
    } else {
        let gazetteer = args.select.gazetteer()?;
        archive
            .search_keys(&args.select.query(0, false), gazetteer)
            .context("selecting records")?
    };
    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(256 * 1024, stdout);
    match args.format {
        Format::Jsonl | Format::Csv | Format::Geojson => {
            // Corrections applied: an export carries the reviewed values
            // and names the fields a reviewer changed.
            let mut failure = None;
            {
                let mut records = keys
                    .chunks(CHUNK)
                    .map(|chunk| archive.records_with_corrections(chunk))
                    .map_while(|read| read.map_err(|e| failure = Some(e)).ok())
                    .flatten();
                write_records(args.format, &mut records, &mut out)?;
            }
            if let Some(e) = failure {
                return Err(e.into());
            }
        }
        Format::Parquet => {
            let path = args
                .out
                .as_deref()
                .context("--format parquet needs --out FILE")?;
            let mut file = crate::parquet::create_with(path, true)?;
            for chunk in keys.chunks(CHUNK) {
                // As the streamed formats: the reviewed values, and the
                // fields a reviewer changed in `corrected_fields`.
                for stored in archive.records_with_corrections(chunk)? {
                    let info = columnar::ArchiveInfo::of_export(&stored);
                    let record: caption::CaptionRecord =
                        serde_json::from_value(stored).context("reading a stored record")?;
                    file.write(&record, Some(&info))?;
                }
            }
            file.finish()?;
        }
        Format::Xmp => {
            let dir = args
                .out
                .as_deref()
                .context("--format xmp needs --out DIR")?;
            let mut sidecars = SidecarDir::create(dir)?;
            for chunk in keys.chunks(CHUNK) {
                for stored in archive.records_by_key(chunk)? {
                    let record: caption::CaptionRecord =
                        serde_json::from_value(stored).context("reading a stored record")?;
                    let sidecar = photometa::xmp_sidecar(&crate::photo::metadata_of(&record));
                    sidecars.write(&record.id, record.image_url.as_deref(), sidecar.as_bytes())?;
                }
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Writes records (as the archive stores them) in a streamed format:
/// JSON Lines, CSV or GeoJSON (`Xmp` and `Parquet` write files, so are
/// not one).
pub(crate) fn write_records(
    format: Format,
    records: &mut dyn Iterator<Item = Value>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    match format {
        Format::Jsonl => {
            for record in records {
                serde_json::to_writer(&mut *out, &record)?;
                out.write_all(b"\n")?;
            }
        }
        Format::Csv => {
            let mut csv = csv::Writer::from_writer(&mut *out);
            csv.write_record(CSV_COLUMNS)?;
            for record in records {
                csv.write_record(csv_row(&record))?;
            }
            csv.flush()?;
        }
        Format::Geojson => {
            out.write_all(b"{\"type\":\"FeatureCollection\",\"features\":[")?;
            let mut first = true;
            for record in records {
                if let Some(feature) = feature(&record) {
                    if !first {
                        out.write_all(b",")?;
                    }
                    first = false;
                    out.write_all(b"\n")?;
                    serde_json::to_writer(&mut *out, &feature)?;
                }
            }
            out.write_all(b"\n]}\n")?;
        }
        Format::Xmp => anyhow::bail!("XMP sidecars are files in a directory, not a stream"),
        Format::Parquet => {
            anyhow::bail!("Parquet is a file written whole (--out FILE), not a stream")
        }
    }
    Ok(())
}

fn text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn joined(v: &Value, key: Option<&str>) -> String {
    v.as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| text(key.map_or(item, |k| &item[k])))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default()
}

fn csv_row(r: &Value) -> Vec<String> {
    let loc = &r["location"];
    vec![
        text(&r["id"]),
        text(&r["description"]),
        joined(&r["credit"]["creators"], None),
        text(&r["credit"]["raw"]),
        text(&r["credit"]["source"]),
        joined(&r["credit"]["agencies"], None),
        text(&r["date_created"]),
        text(&loc["sublocation"]),
        text(&loc["city"]),
        text(&loc["province"]),
        text(&loc["country"]),
        text(&loc["country_code"]),
        joined(&r["persons"], Some("name")),
        joined(&r["organizations"], None),
        text(&loc["latitude"]),
        text(&loc["longitude"]),
        text(&loc["geonames_id"]),
        joined(&r["flags"], None),
        text(&r["archive"]["variants"]),
        text(&r["archive"]["occurrences"]),
        corrected_fields(r).join("; "),
    ]
}

/// The fields a reviewer corrected (the values shown are theirs).
fn corrected_fields(r: &Value) -> Vec<&str> {
    r["corrections"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["field"].as_str())
        .collect()
}

/// A GeoJSON point feature for a located record.
fn feature(r: &Value) -> Option<Value> {
    let loc = &r["location"];
    let (lat, lon) = (loc["latitude"].as_f64()?, loc["longitude"].as_f64()?);
    Some(json!({
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [lon, lat]},
        "properties": {
            "id": r["id"],
            "description": r["description"],
            "creators": r["credit"]["creators"],
            "agencies": r["credit"]["agencies"],
            "date_created": r["date_created"],
            "city": loc["city"],
            "province": loc["province"],
            "country": loc["country"],
            "geonames_id": loc["geonames_id"],
            "flags": r["flags"],
            "corrected_fields": corrected_fields(r),
        },
    }))
}
