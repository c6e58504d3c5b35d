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
use crate::photo::{SidecarDir, SidecarNames};

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
    // Corrections applied in every format: an export carries the reviewed
    // values and names the fields a reviewer changed.
    // A store error ends the records; it is kept here and reported, and a
    // file is then not completed.
    let failure = std::cell::Cell::new(None);
    let mut records = keys
        .chunks(CHUNK)
        .map(|chunk| archive.records_with_corrections(chunk))
        .map_while(|read| read.map_err(|e| failure.set(Some(e))).ok())
        .flatten();
    match args.format {
        Format::Jsonl | Format::Csv | Format::Geojson => {
            // Unlocked (`Send`, as the stream writer takes it): the buffer
            // takes the lock once per 256 KiB.
            let mut out = io::BufWriter::with_capacity(256 * 1024, io::stdout());
            write_records(args.format, &mut records, &mut out)?;
            out.flush()?;
        }
        Format::Parquet => {
            let path = args
                .out
                .as_deref()
                .context("--format parquet needs --out FILE")?;
            // A file renamed into place when whole, not the stream.
            let mut file = crate::parquet::create_with(path, true)?;
            for stored in &mut records {
                let (record, info) = parquet_row(stored)?;
                file.write(&record, Some(&info))?;
            }
            if let Some(e) = failure.take() {
                return Err(e.into());
            }
            file.finish()?;
        }
        Format::Xmp => {
            let dir = args
                .out
                .as_deref()
                .context("--format xmp needs --out DIR")?;
            let mut sidecars = SidecarDir::create(dir)?;
            for stored in &mut records {
                let (record, sidecar) = sidecar_of(stored)?;
                sidecars.write(&record.id, record.image_url.as_deref(), sidecar.as_bytes())?;
            }
        }
    }
    match failure.take() {
        Some(e) => Err(e.into()),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Writes records (as the archive stores them, corrections applied) as one
/// stream in any format: JSON Lines, CSV, GeoJSON, GeoParquet (row groups
/// written as they fill), or XMP sidecars as a tar archive of
/// `NAME.xmp` files (named as `--format xmp --out DIR` names them). The
/// API's export route streams through this.
pub(crate) fn write_records(
    format: Format,
    records: &mut dyn Iterator<Item = Value>,
    out: &mut (dyn Write + Send),
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
        Format::Parquet => {
            let mut file = columnar::GeoParquetWriter::new(&mut *out, true)?;
            for stored in records {
                let (record, info) = parquet_row(stored)?;
                file.write(&record, Some(&info))?;
            }
            file.finish()?;
        }
        Format::Xmp => {
            let mut tar = tar::Builder::new(&mut *out);
            let mut names = SidecarNames::default();
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            for stored in records {
                let (record, sidecar) = sidecar_of(stored)?;
                let name = names.name(&record.id, record.image_url.as_deref());
                let mut header = tar::Header::new_ustar();
                header.set_size(sidecar.len() as u64);
                header.set_mode(0o644);
                header.set_mtime(now);
                header.set_entry_type(tar::EntryType::Regular);
                // A name too long for the header goes in a GNU long-name
                // entry; `tar` and every archiver read it.
                tar.append_data(&mut header, &name, sidecar.as_bytes())
                    .with_context(|| format!("adding {name} to the tar archive"))?;
            }
            tar.finish()?;
        }
    }
    Ok(())
}

/// A stored record as a GeoParquet row: the record's columns and the
/// archive's (counts, corrected fields).
fn parquet_row(stored: Value) -> anyhow::Result<(caption::CaptionRecord, columnar::ArchiveInfo)> {
    let info = columnar::ArchiveInfo::of_export(&stored);
    let record = serde_json::from_value(stored).context("reading a stored record")?;
    Ok((record, info))
}

/// A stored record and its XMP sidecar.
fn sidecar_of(stored: Value) -> anyhow::Result<(caption::CaptionRecord, String)> {
    let record: caption::CaptionRecord =
        serde_json::from_value(stored).context("reading a stored record")?;
    let sidecar = photometa::xmp_sidecar(&crate::photo::metadata_of(&record));
    Ok((record, sidecar))
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
