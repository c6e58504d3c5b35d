//! Query strings to archive queries: the parameters are the CLI's flags by
//! the same names (`q` is the query text), so a page URL and a
//! `dateline search` command line select the same records.

use std::collections::HashMap;

use archive::{Filters, Near, SearchQuery};

use crate::ApiError;

/// The selection parameters, as `dateline search` names its flags.
pub const SELECT_PARAMS: &[&str] = &[
    "q", "agency", "creator", "country", "city", "province", "from", "to", "flag", "near",
    "person", "org",
];

/// A query string's parameters, each at most once.
pub struct Params(HashMap<String, String>);

impl Params {
    /// Parses a raw query string; `allowed` are the parameters the route
    /// takes besides the selection.
    pub fn parse(raw: Option<&str>, allowed: &[&str]) -> Result<Params, ApiError> {
        let mut out = HashMap::new();
        for (key, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
            let (key, value) = (key.into_owned(), value.into_owned());
            if !SELECT_PARAMS.contains(&key.as_str()) && !allowed.contains(&key.as_str()) {
                return Err(ApiError::bad_request(format!(
                    "unknown parameter {key:?} (this route takes {})",
                    SELECT_PARAMS
                        .iter()
                        .chain(allowed)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            if out.insert(key.clone(), value).is_some() {
                return Err(ApiError::bad_request(format!(
                    "parameter {key:?} given twice"
                )));
            }
        }
        Ok(Params(out))
    }

    /// A parameter's value, `None` when absent or blank.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }

    /// A number parameter between `0` and `max`, `default` when absent.
    pub fn number(&self, key: &str, default: usize, max: usize) -> Result<usize, ApiError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => match v.trim().parse::<usize>() {
                Ok(n) if n <= max => Ok(n),
                Ok(_) => Err(ApiError::bad_request(format!(
                    "{key} is at most {max} (exports have no limit)"
                ))),
                Err(_) => Err(ApiError::bad_request(format!(
                    "{key} {v:?} is not a number"
                ))),
            },
        }
    }

    /// A `true`/`false` parameter.
    pub fn flag(&self, key: &str) -> Result<bool, ApiError> {
        match self.get(key) {
            None | Some("false") | Some("0") => Ok(false),
            Some("true") | Some("1") => Ok(true),
            Some(v) => Err(ApiError::bad_request(format!(
                "{key} {v:?} is not true or false"
            ))),
        }
    }

    /// The search these parameters select, with `limit` hits.
    pub fn search(&self, limit: usize, facets: bool) -> Result<SearchQuery, ApiError> {
        let owned = |key: &str| self.get(key).map(str::to_string);
        let near = self.get("near").map(parse_near).transpose()?;
        Ok(SearchQuery {
            text: owned("q"),
            filters: Filters {
                agency: owned("agency"),
                creator: owned("creator"),
                country: owned("country"),
                city: owned("city"),
                province: owned("province"),
                from: owned("from"),
                to: owned("to"),
                flag: owned("flag"),
                near,
                person: owned("person"),
                org: owned("org"),
            },
            limit,
            facets,
        })
    }

    /// Whether a place filter is given (the gazetteer resolves those).
    pub fn has_place_filter(&self) -> bool {
        ["country", "city", "province"]
            .iter()
            .any(|k| self.get(k).is_some())
    }
}

/// `LAT,LON,KM`, as `dateline search --near` takes it.
fn parse_near(value: &str) -> Result<Near, ApiError> {
    let parts: Result<Vec<f64>, _> = value.split(',').map(|p| p.trim().parse::<f64>()).collect();
    match parts.as_deref() {
        Ok(&[lat, lon, km]) if lat.abs() <= 90.0 && lon.abs() <= 180.0 && km >= 0.0 => {
            Ok(Near { lat, lon, km })
        }
        _ => Err(ApiError::bad_request(format!(
            "near {value:?} is not LAT,LON,KM (latitude -90..90, longitude -180..180, km ≥ 0)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_map_to_the_cli_filters() {
        let p = Params::parse(
            Some("q=street+corner&city=R%61qa&near=36,38,10&limit=5"),
            &["limit"],
        )
        .expect("valid");
        let q = p
            .search(p.number("limit", 20, 100).expect("n"), false)
            .expect("q");
        assert_eq!(q.text.as_deref(), Some("street corner"));
        assert_eq!(q.filters.city.as_deref(), Some("Raqa"));
        assert_eq!(q.filters.near.map(|n| n.km), Some(10.0));
        assert_eq!(q.limit, 5);
        assert!(Params::parse(Some("bogus=1"), &[]).is_err());
        assert!(Params::parse(Some("q=a&q=b"), &[]).is_err());
        let p = Params::parse(Some("near=91,0,1"), &[]).expect("parsed");
        assert!(p.search(1, false).is_err());
        let p = Params::parse(Some("limit=1000"), &["limit"]).expect("parsed");
        assert!(p.number("limit", 20, 100).is_err());
    }
}
