//! `Archive`: a dateline archive opened for reading, searched as
//! `dateline search --json` searches it.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    _dateline,
    ArchiveError,
    pyo3::exceptions::PyException,
    "An archive could not be opened or read; the message is the CLI's."
);

/// An archive opened read-only. The archive keeps per-thread caches
/// (`Rc`), so it stays on the thread that opened it: Python raises
/// `RuntimeError` if another thread uses it, and searches hold the GIL.
#[pyclass(module = "dateline._dateline", unsendable)]
pub struct Archive {
    archive: archive::Archive,
    dir: PathBuf,
}

fn archive_error(context: &str, err: archive::Error) -> PyErr {
    ArchiveError::new_err(format!("{context}: {err}"))
}

#[pymethods]
impl Archive {
    #[new]
    fn new(path: PathBuf) -> PyResult<Archive> {
        let mut opened = archive::Archive::open(&path, archive::Mode::Read).map_err(|err| {
            archive_error(&format!("opening the archive {}", path.display()), err)
        })?;
        for notice in opened.take_notices() {
            eprintln!("dateline: {notice}");
        }
        Ok(Archive {
            archive: opened,
            dir: path,
        })
    }

    /// The archive's directory.
    #[getter]
    fn path(&self) -> PathBuf {
        self.dir.clone()
    }

    /// Searches; returns `dateline search --json`'s object as JSON text.
    #[pyo3(signature = (
        query=None, *, agency=None, creator=None, country=None, city=None,
        province=None, date_from=None, date_to=None, flag=None, near=None,
        person=None, org=None, facets=false, limit=20
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search_json(
        &self,
        query: Option<String>,
        agency: Option<String>,
        creator: Option<String>,
        country: Option<String>,
        city: Option<String>,
        province: Option<String>,
        date_from: Option<String>,
        date_to: Option<String>,
        flag: Option<String>,
        near: Option<(f64, f64, f64)>,
        person: Option<String>,
        org: Option<String>,
        facets: bool,
        limit: usize,
    ) -> PyResult<String> {
        let near = near
            .map(|(lat, lon, km)| {
                if lat.abs() <= 90.0 && lon.abs() <= 180.0 && km >= 0.0 {
                    Ok(archive::Near { lat, lon, km })
                } else {
                    Err(PyValueError::new_err(format!(
                        "{lat},{lon},{km} is not LAT,LON,KM (latitude -90..90, longitude -180..180, km ≥ 0)"
                    )))
                }
            })
            .transpose()?;
        let needs_places = city.is_some() || province.is_some() || country.is_some();
        let gazetteer = needs_places.then(crate::gazetteer).transpose()?;
        let query = archive::SearchQuery {
            text: query.filter(|q| !q.trim().is_empty()),
            filters: archive::Filters {
                agency,
                creator,
                country,
                city,
                province,
                from: date_from,
                to: date_to,
                flag,
                near,
                person,
                org,
            },
            limit,
            facets,
        };
        let results = self
            .archive
            .search(&query, gazetteer)
            .map_err(|err| archive_error("searching", err))?;
        Ok(results.to_json().to_string())
    }

    /// A record with its variants and occurrences (`dateline show`), as
    /// JSON text; `None` when no record has that id.
    fn show_json(&self, id: &str) -> PyResult<Option<String>> {
        let found = self
            .archive
            .record_details(id)
            .map_err(|err| archive_error("reading the record", err))?;
        Ok(found.map(|v| v.to_string()))
    }
}
