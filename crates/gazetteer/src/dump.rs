//! Loading the standard GeoNames dump files (tab-separated, UTF-8) from a
//! directory: `allCountries.txt` or country files (`SY.txt`),
//! `countryInfo.txt`, `admin1CodesASCII.txt` and, optionally,
//! `alternateNamesV2.txt` (or the older `alternateNames.txt`).
//!
//! Column layouts are those of <https://download.geonames.org/export/dump/readme.txt>.

use crate::{Error, Gazetteer, GazetteerBuilder, GeonameId, PlaceEntry};
use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// Columns of the geoname table.
const GEONAME_COLUMNS: usize = 19;
/// `isolanguage` values in the alternate names table that are codes, links or
/// phonetics rather than names a caption would use.
const SKIPPED_NAME_KINDS: &[&str] = &[
    "post", "link", "iata", "icao", "faac", "tcid", "unlc", "abbr", "wkdt", "fr_1793", "phon",
    "piny",
];

impl Gazetteer {
    /// Loads GeoNames dump files from `dir`:
    /// - `allCountries.txt`, or else every country file `XX.txt` there
    ///   (required): every feature of class `P` (populated place) is kept,
    ///   whatever its population;
    /// - `countryInfo.txt` (required): country names and ids;
    /// - `admin1CodesASCII.txt` (required): first-level division names;
    /// - `alternateNamesV2.txt` or `alternateNames.txt` (optional): alternate
    ///   names, used instead of the geoname table's `alternatenames` column.
    ///
    /// The whole of GeoNames (about five million populated places) needs
    /// several GB of memory; a country file needs little.
    pub fn from_geonames_dir(dir: &Path) -> Result<Gazetteer, Error> {
        let geoname_files = geoname_files(dir)?;
        let country_info = require(dir, "countryInfo.txt")?;
        let admin1_codes = require(dir, "admin1CodesASCII.txt")?;
        let alternate_names = ["alternateNamesV2.txt", "alternateNames.txt"]
            .into_iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file());

        let mut builder = Gazetteer::builder();
        read_country_info(&country_info, &mut builder)?;
        read_admin1_codes(&admin1_codes, &mut builder)?;
        let use_name_column = alternate_names.is_none();
        let mut places = Vec::new();
        for path in &geoname_files {
            read_geonames(path, use_name_column, &mut places)?;
        }
        if let Some(path) = alternate_names {
            read_alternate_names(&path, &mut places)?;
        }
        for place in places {
            builder.place(place);
        }
        Ok(builder.build())
    }
}

fn require(dir: &Path, name: &'static str) -> Result<PathBuf, Error> {
    let path = dir.join(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(Error::MissingFile {
            dir: dir.to_path_buf(),
            expected: name,
        })
    }
}

/// `allCountries.txt` if present, else the country files, sorted.
fn geoname_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let all = dir.join("allCountries.txt");
    if all.is_file() {
        return Ok(vec![all]);
    }
    let io_error = |source| Error::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error)? {
        let path = entry.map_err(io_error)?.path();
        let is_country_file = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            n.len() == 6
                && n.ends_with(".txt")
                && n.as_bytes()[..2].iter().all(u8::is_ascii_uppercase)
        });
        if is_country_file && path.is_file() {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(Error::MissingFile {
            dir: dir.to_path_buf(),
            expected: "allCountries.txt or a country file such as SY.txt",
        });
    }
    files.sort();
    Ok(files)
}

/// Calls `f` with each line (without its line break) and its 1-based number;
/// an `Err(what)` from `f` becomes [`Error::BadLine`].
fn for_each_line(path: &Path, mut f: impl FnMut(&str) -> Result<(), String>) -> Result<(), Error> {
    let file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let mut line = String::new();
    let mut line_no = 0;
    loop {
        line.clear();
        line_no += 1;
        match reader.read_line(&mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(Error::BadLine {
                    path: path.to_path_buf(),
                    line: line_no,
                    what: "expected UTF-8 text, found other bytes".into(),
                })
            }
            Err(source) => {
                return Err(Error::Io {
                    path: path.to_path_buf(),
                    source,
                })
            }
        }
        let text = line.trim_end_matches(['\n', '\r']);
        if text.is_empty() {
            continue;
        }
        f(text).map_err(|what| Error::BadLine {
            path: path.to_path_buf(),
            line: line_no,
            what,
        })?;
    }
}

fn columns<'a>(line: &'a str, at_least: usize, table: &str) -> Result<Vec<&'a str>, String> {
    let cols: Vec<&str> = line.split('\t').collect();
    if cols.len() < at_least {
        return Err(format!(
            "expected {at_least} tab-separated columns of {table}, found {}",
            cols.len()
        ));
    }
    Ok(cols)
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected {what}, found {text:?}"))
}

fn read_country_info(path: &Path, builder: &mut GazetteerBuilder) -> Result<(), Error> {
    for_each_line(path, |line| {
        if line.starts_with('#') {
            return Ok(());
        }
        let cols = columns(line, 17, "countryInfo")?;
        let id: GeonameId = number(cols[16], "a geonameid in column 17")?;
        if crate::CountryCode::new(cols[0]).is_none() {
            return Err(format!(
                "expected a two-letter ISO code in column 1, found {:?}",
                cols[0]
            ));
        }
        builder.country(cols[0], cols[4], id);
        Ok(())
    })
}

fn read_admin1_codes(path: &Path, builder: &mut GazetteerBuilder) -> Result<(), Error> {
    for_each_line(path, |line| {
        let cols = columns(line, 4, "admin1CodesASCII")?;
        let (code, name, ascii_name) = (cols[0], cols[1], cols[2]);
        if code.get(..2).and_then(crate::CountryCode::new).is_none()
            || code.as_bytes().get(2) != Some(&b'.')
        {
            return Err(format!(
                "expected an admin1 code `CC.NN` in column 1, found {code:?}"
            ));
        }
        let id = if cols[3].trim().is_empty() {
            None
        } else {
            Some(number(cols[3], "a geonameid in column 4")?)
        };
        builder.admin1(code, name, id);
        if ascii_name != name && !ascii_name.is_empty() {
            builder.admin1_alias(code, ascii_name);
        }
        Ok(())
    })
}

fn read_geonames(
    path: &Path,
    use_name_column: bool,
    places: &mut Vec<PlaceEntry>,
) -> Result<(), Error> {
    for_each_line(path, |line| {
        let cols = columns(line, GEONAME_COLUMNS, "the geoname table")?;
        if cols[6] != "P" {
            return Ok(());
        }
        let id: GeonameId = number(cols[0], "a geonameid in column 1")?;
        let latitude: f64 = number(cols[4], "a latitude in column 5")?;
        let longitude: f64 = number(cols[5], "a longitude in column 6")?;
        if !(-90.0..=90.0).contains(&latitude) || !(-180.0..=180.0).contains(&longitude) {
            return Err(format!(
                "expected coordinates, found {latitude}, {longitude}"
            ));
        }
        let population: u64 = if cols[14].trim().is_empty() {
            0
        } else {
            number(cols[14], "a population in column 15")?
        };
        let alternate_names = if use_name_column {
            cols[3]
                .split(',')
                .filter(|n| crate::builder::indexable_alternate(n).is_some())
                .map(str::to_string)
                .collect()
        } else {
            Vec::new()
        };
        places.push(PlaceEntry {
            id,
            name: cols[1].to_string(),
            latitude,
            longitude,
            country: cols[8].to_string(),
            admin1: Some(cols[10].to_string()).filter(|a| !a.is_empty()),
            population: u32::try_from(population).unwrap_or(u32::MAX),
            alternate_names,
        });
        Ok(())
    })
}

fn read_alternate_names(path: &Path, places: &mut [PlaceEntry]) -> Result<(), Error> {
    let by_id: HashMap<GeonameId, usize> =
        places.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    for_each_line(path, |line| {
        let cols = columns(line, 4, "alternateNames")?;
        let id: GeonameId = number(cols[1], "a geonameid in column 2")?;
        let Some(&i) = by_id.get(&id) else {
            return Ok(());
        };
        if SKIPPED_NAME_KINDS.contains(&cols[2])
            || crate::builder::indexable_alternate(cols[3]).is_none()
        {
            return Ok(());
        }
        places[i].alternate_names.push(cols[3].to_string());
        Ok(())
    })
}
