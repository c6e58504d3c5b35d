//! `dateline search`: ranked records with snippets, filters and facets.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;
use archive::{Archive, Filters, Mode, Near, SearchQuery, SearchResults};
use gazetteer::Gazetteer;

use super::ingest::ArchiveArg;

/// Arguments of `dateline search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    #[command(flatten)]
    archive: ArchiveArg,
    #[command(flatten)]
    select: SelectArgs,
    /// Count records per agency, creator, country, city, year and flag.
    #[arg(long)]
    facets: bool,
    /// One JSON object: total, hits (id, score, snippet, record), facets.
    #[arg(long)]
    json: bool,
    /// Hits to show.
    #[arg(long, value_name = "N", default_value_t = 20)]
    limit: usize,
}

/// A query and filters: what `search` and `export` select.
#[derive(Debug, Clone, clap::Args)]
pub struct SelectArgs {
    /// Words to find in descriptions, names and places (all must match;
    /// `"a phrase"`, `-word` to exclude, `a OR b`).
    #[arg(value_name = "QUERY")]
    query: Vec<String>,
    /// Credited agency (`Reuters`, `Getty`).
    #[arg(long, value_name = "NAME")]
    agency: Option<String>,
    /// Credited photographer.
    #[arg(long, value_name = "NAME")]
    creator: Option<String>,
    /// Country name or ISO code.
    #[arg(long, value_name = "NAME")]
    country: Option<String>,
    /// City, in any spelling the gazetteer knows (`Raqa` finds `Raqqa`).
    #[arg(long, value_name = "NAME")]
    city: Option<String>,
    /// Province (first-level division): name or `CC.NN` code.
    #[arg(long, value_name = "NAME")]
    province: Option<String>,
    /// Taken on or after (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    from: Option<String>,
    /// Taken on or before (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    to: Option<String>,
    /// A verification flag (`file_photo`, `unverified`, `handout`, …).
    #[arg(long, value_name = "FLAG")]
    flag: Option<String>,
    /// Within KM kilometres of a point.
    #[arg(long, value_name = "LAT,LON,KM", value_parser = parse_near, allow_hyphen_values = true)]
    near: Option<Near>,
    /// A person shown.
    #[arg(long, value_name = "NAME")]
    person: Option<String>,
    /// An organization named.
    #[arg(long, value_name = "NAME")]
    org: Option<String>,
    /// Load GeoNames dump files from DIR instead of the embedded gazetteer
    /// (to resolve place filters).
    #[arg(long, value_name = "DIR")]
    gazetteer: Option<std::path::PathBuf>,
}

impl SelectArgs {
    /// The query, with `limit` hits.
    pub fn query(&self, limit: usize, facets: bool) -> SearchQuery {
        let text = self.query.join(" ");
        SearchQuery {
            text: (!text.trim().is_empty()).then_some(text),
            filters: Filters {
                agency: self.agency.clone(),
                creator: self.creator.clone(),
                country: self.country.clone(),
                city: self.city.clone(),
                province: self.province.clone(),
                from: self.from.clone(),
                to: self.to.clone(),
                flag: self.flag.clone(),
                near: self.near,
                person: self.person.clone(),
                org: self.org.clone(),
            },
            limit,
            facets,
        }
    }

    /// Whether nothing is selected beyond "everything".
    pub fn is_everything(&self) -> bool {
        let q = self.query(0, false);
        q.text.is_none()
            && [
                &q.filters.agency,
                &q.filters.creator,
                &q.filters.country,
                &q.filters.city,
                &q.filters.province,
                &q.filters.from,
                &q.filters.to,
                &q.filters.flag,
                &q.filters.person,
                &q.filters.org,
            ]
            .iter()
            .all(|f| f.is_none())
            && q.filters.near.is_none()
    }

    /// The gazetteer, loaded only when a place filter needs it.
    pub fn gazetteer(&self) -> anyhow::Result<Option<&'static Gazetteer>> {
        if self.city.is_none() && self.province.is_none() && self.country.is_none() {
            return Ok(None);
        }
        super::parse::load_gazetteer(self.gazetteer.as_deref()).map(Some)
    }
}

fn parse_near(value: &str) -> Result<Near, String> {
    let parts: Vec<f64> = value
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{value:?} is not LAT,LON,KM"))?;
    match parts[..] {
        [lat, lon, km] if lat.abs() <= 90.0 && lon.abs() <= 180.0 && km >= 0.0 => {
            Ok(Near { lat, lon, km })
        }
        _ => Err(format!(
            "{value:?} is not LAT,LON,KM (latitude -90..90, longitude -180..180, km ≥ 0)"
        )),
    }
}

/// Runs `dateline search`.
pub fn run(args: SearchArgs) -> anyhow::Result<ExitCode> {
    let archive: Archive = args.archive.open(Mode::Read)?;
    let gazetteer = args.select.gazetteer()?;
    let query = args.select.query(args.limit, args.facets);
    let results = archive.search(&query, gazetteer).context("searching")?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    if args.json {
        serde_json::to_writer(&mut out, &results.to_json())?;
        writeln!(out)?;
    } else {
        write_text(&mut out, &results, io::stdout().is_terminal())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn write_text(out: &mut impl Write, results: &SearchResults, color: bool) -> io::Result<()> {
    writeln!(
        out,
        "{} record(s){}",
        results.total,
        if results.hits.len() < results.total {
            format!(", best {} shown", results.hits.len())
        } else {
            String::new()
        }
    )?;
    for hit in &results.hits {
        let r = &hit.record;
        let place = [&r["location"]["city"], &r["location"]["country"]]
            .iter()
            .filter_map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let credit = r["credit"]["raw"].as_str().unwrap_or("no credit");
        writeln!(
            out,
            "\n{}  {}  {}  {}",
            hit.id,
            r["date_created"].as_str().unwrap_or("----------"),
            if place.is_empty() { "?" } else { &place },
            credit
        )?;
        let (open, close) = if color {
            ("\x1b[1m", "\x1b[0m")
        } else {
            ("[", "]")
        };
        let mut line = String::new();
        let mut at = 0;
        for &(start, end) in &hit.snippet.highlights {
            if start < at || end > hit.snippet.text.len() {
                continue;
            }
            line.push_str(&hit.snippet.text[at..start]);
            line.push_str(open);
            line.push_str(&hit.snippet.text[start..end]);
            line.push_str(close);
            at = end;
        }
        line.push_str(&hit.snippet.text[at..]);
        writeln!(out, "    {line}")?;
    }
    if let Some(facets) = &results.facets {
        writeln!(out)?;
        for (dim, values) in facets {
            let shown: Vec<String> = values
                .iter()
                .take(10)
                .map(|(v, n)| format!("{v} ({n})"))
                .collect();
            let more = values.len().saturating_sub(10);
            writeln!(
                out,
                "{dim}: {}{}",
                if shown.is_empty() {
                    "-".to_string()
                } else {
                    shown.join(", ")
                },
                if more > 0 {
                    format!(", and {more} more")
                } else {
                    String::new()
                }
            )?;
        }
    }
    if results.index_behind > 0 {
        writeln!(
            out,
            "\n(the index is {} change(s) behind the store: an ingest is running, or the next one catches up)",
            results.index_behind
        )?;
    }
    Ok(())
}
