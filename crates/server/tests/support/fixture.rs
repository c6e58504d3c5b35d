//! A small archive of captions written for these tests (credits, dates of
//! every precision, a near-duplicate, a weekday contradiction, hostile
//! markup, Arabic), and servers over it.

#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use archive::{Archive, Filters, Mode, Near, SearchQuery};

/// The token the test servers take.
pub const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// Captions, one document each.
pub const CAPTIONS: &[&str] = &[
    "A man rides a bicycle past shuttered shops in Homs, Syria, May 4, 2014. REUTERS/Lina Haddad",
    "A man rides his bicycle past the shuttered shops in Homs, Syria, May 4, 2014. REUTERS/Lina Haddad",
    "Smoke rises over a neighbourhood of Aleppo, Syria, on Wednesday, May 4, 2014. (AP Photo/Karim Mansour)",
    "FILE PHOTO: Fishermen mend nets on the shore in Tyre, Lebanon. (AP Photo/Karim Mansour)",
    "Children play football in a camp near Erbil, Iraq, in 2015. Photo by Sara Lind/AFP",
    "Volunteers unload flour sacks at a bakery in Raqqa, Syria, March 2016. REUTERS/Samir Khoury",
    "<script>alert('x')</script> Protesters gather in Kyiv, Ukraine, March 2, 2014, near <img src=x onerror=alert(2)> a barricade; see <a href=\"javascript:alert(3)\">javascript:alert(3)</a> \u{202E}txt.exe REUTERS/Ivan Petrenko",
    "متظاهرون يتجمعون في ساحة في دمشق، سوريا، 5 آذار 2013. Jane Roe/AFP",
];

/// The archive and ids of records the tests look at.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub homs: String,
    pub weekday: String,
    pub xss: String,
}

/// The export formats the test servers offer: JSON Lines only.
struct Jsonl;

impl server::Exporter for Jsonl {
    fn formats(&self) -> &[server::ExportFormat] {
        &[server::ExportFormat {
            name: "jsonl",
            media_type: "application/x-ndjson",
            extension: "jsonl",
        }]
    }

    fn export(
        &self,
        _format: &str,
        records: &mut dyn Iterator<Item = serde_json::Value>,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<(), server::ExportError> {
        for record in records {
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

impl Fixture {
    /// Ingests [`CAPTIONS`] into a fresh archive.
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let ids = ingest(dir.path(), CAPTIONS);
        Fixture {
            homs: ids[0].clone(),
            weekday: ids[2].clone(),
            xss: ids[6].clone(),
            dir,
        }
    }

    /// An archive of [`CAPTIONS`] and `more` (one document each), with the
    /// record ids of `more`, for tests that need records this one lacks.
    pub fn with(more: &[&str]) -> (Fixture, Vec<String>) {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut captions = CAPTIONS.to_vec();
        captions.extend_from_slice(more);
        let ids = ingest(dir.path(), &captions);
        let f = Fixture {
            homs: ids[0].clone(),
            weekday: ids[2].clone(),
            xss: ids[6].clone(),
            dir,
        };
        (f, ids[CAPTIONS.len()..].to_vec())
    }

    /// A server's state; `loopback`: as bound to 127.0.0.1 (else 0.0.0.0).
    pub fn state(&self, loopback: bool) -> Arc<server::State> {
        let config = server::ServeConfig {
            archive: self.dir.path().to_path_buf(),
            bind: if loopback {
                "127.0.0.1:8750"
            } else {
                "0.0.0.0:8750"
            }
            .parse()
            .expect("address"),
            token: server::Token::new(TOKEN),
            readers: 2,
        };
        Arc::new(
            server::State::open(&config, gazetteer::Gazetteer::embedded(), Arc::new(Jsonl))
                .expect("state"),
        )
    }

    /// The router over the archive.
    pub fn router(&self, loopback: bool) -> axum::Router {
        server::router(self.state(loopback))
    }

    /// How many records the archive holds.
    pub fn records(&self) -> u64 {
        let archive = Archive::open(self.dir.path(), Mode::Read).expect("open");
        archive.stats().expect("stats").records as u64
    }

    /// The total and the ids, best first, of an archive search (as
    /// `dateline search` runs it: the gazetteer for place filters).
    pub fn search(&self, query: &SearchQuery) -> (usize, Vec<String>) {
        let archive = Archive::open(self.dir.path(), Mode::Read).expect("open");
        let f = &query.filters;
        let places = f.country.is_some() || f.city.is_some() || f.province.is_some();
        let found = archive
            .search(query, places.then(gazetteer::Gazetteer::embedded))
            .expect("search");
        (found.total, found.hits.into_iter().map(|h| h.id).collect())
    }

    /// Query strings with the search each stands for: every filter.
    pub fn queries(&self) -> Vec<(&'static str, SearchQuery)> {
        let q = |text: Option<&str>, filters: Filters| SearchQuery {
            text: text.map(str::to_string),
            filters,
            limit: 50,
            facets: false,
        };
        let s = |v: &str| Some(v.to_string());
        vec![
            ("q=shops", q(Some("shops"), Filters::default())),
            (
                "q=%22shuttered+shops%22",
                q(Some("\"shuttered shops\""), Filters::default()),
            ),
            (
                "q=man+-bicycle",
                q(Some("man -bicycle"), Filters::default()),
            ),
            (
                "agency=Reuters",
                q(
                    None,
                    Filters {
                        agency: s("Reuters"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "creator=Karim+Mansour",
                q(
                    None,
                    Filters {
                        creator: s("Karim Mansour"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "country=SY",
                q(
                    None,
                    Filters {
                        country: s("SY"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "city=Raqa",
                q(
                    None,
                    Filters {
                        city: s("Raqa"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "province=Homs",
                q(
                    None,
                    Filters {
                        province: s("Homs"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "from=2014-05&to=2014-05-31",
                q(
                    None,
                    Filters {
                        from: s("2014-05"),
                        to: s("2014-05-31"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "flag=file_photo",
                q(
                    None,
                    Filters {
                        flag: s("file_photo"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "near=34.73,36.72,30",
                q(
                    None,
                    Filters {
                        near: Some(Near {
                            lat: 34.73,
                            lon: 36.72,
                            km: 30.0,
                        }),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "person=Jane",
                q(
                    None,
                    Filters {
                        person: s("Jane"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "org=Reuters",
                q(
                    None,
                    Filters {
                        org: s("Reuters"),
                        ..Filters::default()
                    },
                ),
            ),
            (
                "q=smoke&country=Syria&from=2014",
                q(
                    Some("smoke"),
                    Filters {
                        country: s("Syria"),
                        from: s("2014"),
                        ..Filters::default()
                    },
                ),
            ),
        ]
    }
}

/// Ingests each caption as its own document; returns their record ids.
pub fn ingest(dir: &Path, captions: &[&str]) -> Vec<String> {
    archive::test_archive::with_captions(dir, captions).1
}
