//! `dateline parse --explain`: why each input line was kept or left out,
//! and how each record's fields were read, for a person to check.
//!
//! Text input is read whole (explaining is for looking at a page, not for
//! throughput), so every line is named by its number in the file.

use std::io::{self, Read, Write};
use std::path::PathBuf;

use anyhow::Context;
use caption::{CaptionRecord, LineKind};
use gazetteer::Gazetteer;

use crate::input::{self, Form, Piece};

/// Explains every input (stdin when `files` is empty) on stdout.
pub fn run(files: &[PathBuf], gazetteer: &Gazetteer) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for (path, name) in input::named_inputs(files) {
        let mut bytes = Vec::new();
        input::open(path, &name)?
            .read_to_end(&mut bytes)
            .with_context(|| format!("reading {name}"))?;
        let mut pieces = Vec::new();
        input::read_document(
            &bytes[..],
            path,
            &name,
            usize::MAX,
            &mut |batch| {
                pieces.extend(batch);
                Ok(())
            },
            &mut |warning| eprintln!("dateline: warning: {warning}"),
        )?;
        writeln!(out, "== {name}")?;
        let line_starts = line_starts(&bytes);
        for piece in &pieces {
            explain_piece(&mut out, piece, &line_starts, gazetteer)?;
        }
    }
    out.flush().context("writing the explanation")
}

/// Byte offset of each line's start.
fn line_starts(bytes: &[u8]) -> Vec<u64> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', bytes).map(|i| i as u64 + 1))
        .collect()
}

fn line_number(line_starts: &[u64], offset: u64) -> usize {
    line_starts.partition_point(|&start| start <= offset)
}

fn explain_piece(
    out: &mut impl Write,
    piece: &Piece,
    line_starts: &[u64],
    gazetteer: &Gazetteer,
) -> anyhow::Result<()> {
    if let Form::Paragraph { starts_inside_line } = piece.form {
        let reports = caption::explain_piece(&piece.text, starts_inside_line);
        for report in reports {
            let number = line_number(line_starts, piece.offset + report.line.start as u64);
            let why: Vec<String> = report
                .reasons
                .iter()
                .map(|(feature, margin)| {
                    if *margin > 0.0 {
                        format!("{feature} (+{margin:.1})")
                    } else {
                        feature.clone()
                    }
                })
                .collect();
            let marker = if report.kind == LineKind::Chrome {
                "-"
            } else {
                "+"
            };
            writeln!(
                out,
                "{marker} line {number:>4} {:<30} {}\n      why: {}; rather than {}",
                report.kind.name(),
                excerpt(report.line.of(&piece.text)),
                if why.is_empty() {
                    "the neighbouring lines".to_string()
                } else {
                    why.join(", ")
                },
                report.runner_up.name(),
            )?;
        }
    }
    for found in input::records_of(piece, gazetteer) {
        let number = line_number(line_starts, piece.offset + found.span.start as u64);
        writeln!(
            out,
            "record at line {number}: {}",
            excerpt(&found.record.text)
        )?;
        explain_record(out, &found.record)?;
        explain_place(out, &found.record.text, gazetteer)?;
    }
    Ok(())
}

fn explain_record(out: &mut impl Write, record: &CaptionRecord) -> io::Result<()> {
    let credit = &record.credit;
    match &credit.raw {
        Some(raw) => writeln!(
            out,
            "    credit {raw:?}: creators {:?}, agencies {:?}, source {}",
            credit.creators,
            credit.agencies,
            credit
                .source
                .as_deref()
                .map_or("none".to_string(), |s| format!("{s:?}")),
        )?,
        None => writeln!(out, "    credit: none found")?,
    }
    match record
        .dates
        .iter()
        .find(|d| d.role == caption::DateRole::Created)
    {
        Some(date) => writeln!(out, "    date taken {} from {:?}", date.date, date.text)?,
        None => writeln!(
            out,
            "    date taken: none ({} other dates)",
            record.dates.len()
        )?,
    }
    match &record.location {
        Some(place) => writeln!(
            out,
            "    place {} / {} / {} (GeoNames {}) from {:?}",
            place.city.as_deref().unwrap_or("-"),
            place.province.as_deref().unwrap_or("-"),
            place.country.as_deref().unwrap_or("-"),
            place
                .geonames_id
                .map_or("-".to_string(), |id| id.to_string()),
            place.text.as_deref().unwrap_or(""),
        )?,
        None => writeln!(out, "    place: none")?,
    }
    if !record.flags.is_empty() {
        let flags: Vec<String> = record.flags.iter().map(|f| format!("{f:?}")).collect();
        writeln!(out, "    flags {}", flags.join(", "))?;
    }
    Ok(())
}

/// Candidates shown per place mention.
const CANDIDATES_SHOWN: usize = 3;

/// "Why this place": every mention the resolver looked up, its best
/// candidates with their scores, and the features that decided between the
/// first two (see `caption/src/place/score.rs`).
fn explain_place(out: &mut impl Write, text: &str, gazetteer: &Gazetteer) -> io::Result<()> {
    for list in caption::place_candidates(text, gazetteer) {
        let held: Vec<&str> = list.countries.iter().map(|c| c.as_str()).collect();
        writeln!(
            out,
            "    place mention {:?}: {} candidates{}",
            list.mention,
            list.candidates.len(),
            if held.is_empty() {
                String::new()
            } else {
                format!(" in {}", held.join(", "))
            },
        )?;
        let weights = caption::place_weights();
        for (rank, candidate) in list.candidates.iter().take(CANDIDATES_SHOWN).enumerate() {
            let deciding = match (rank, list.candidates.get(1)) {
                (0, Some(second)) => deciding_features(candidate, second, &weights),
                _ => String::new(),
            };
            writeln!(
                out,
                "      {} {:>6.2} {} ({}{}, pop. {}) GeoNames {}{}",
                if rank == 0 { "*" } else { " " },
                candidate.score,
                candidate.name,
                candidate.country.as_str(),
                candidate
                    .admin1_code
                    .as_deref()
                    .map_or(String::new(), |code| format!(" {code}")),
                candidate.population,
                candidate.id,
                deciding,
            )?;
        }
    }
    Ok(())
}

/// The features that put `best` ahead of `second`, largest share first.
fn deciding_features(
    best: &caption::ScoredCandidate,
    second: &caption::ScoredCandidate,
    weights: &caption::PlaceWeights,
) -> String {
    let a = best.features.contributions(weights);
    let b = second.features.contributions(weights);
    let mut shares: Vec<(&str, f64)> = caption::PLACE_FEATURE_NAMES
        .iter()
        .zip(a.iter().zip(b.iter()))
        .map(|(name, (x, y))| (*name, x - y))
        .filter(|(_, d)| d.abs() > 1e-9)
        .collect();
    shares.sort_by(|x, y| y.1.abs().total_cmp(&x.1.abs()));
    if shares.is_empty() {
        return " — a tie, kept in the gazetteer's order".to_string();
    }
    let parts: Vec<String> = shares
        .iter()
        .map(|(name, d)| format!("{name} {d:+.2}"))
        .collect();
    format!(" — ahead by {}", parts.join(", "))
}

/// A line or caption cut to fit one terminal line.
fn excerpt(text: &str) -> String {
    const MAX_CHARS: usize = 72;
    let text = caption::normalize_whitespace(text);
    if text.chars().count() <= MAX_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_CHARS - 1).collect();
    format!("{cut}…")
}
