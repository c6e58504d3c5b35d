//! `Gazetteer::from_geonames_dir` on small hand-written dumps in `tests/data/`.

use gazetteer::{CountryCode, Error, Gazetteer, MatchKind};
use std::path::{Path, PathBuf};

fn data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
}

fn load(dir: &str) -> Gazetteer {
    match Gazetteer::from_geonames_dir(&data(dir)) {
        Ok(g) => g,
        Err(e) => panic!("loading {dir}: {e}"),
    }
}

fn top(g: &Gazetteer, name: &str) -> Option<u32> {
    g.places_named(name).first().map(|m| m.place.id)
}

#[test]
fn country_files_with_alternate_names() {
    let g = load("geonames");
    // Populated places only: the air base (class S) and the river (H) are out.
    let ids: Vec<u32> = g.places().iter().map(|p| p.id).collect();
    assert_eq!(ids, vec![163345, 169897, 170592, 170654, 172955, 266826]);
    assert_eq!(top(&g, "Raqqah"), Some(172955));
    assert_eq!(top(&g, "Raqa"), Some(172955));
    assert_eq!(top(&g, "Trablous"), Some(266826));
    assert_eq!(top(&g, "Haresta"), Some(169897));
    // The alternateNames file replaces the geoname table's name column
    // (`Rakka` is only there) and its codes and links are skipped.
    let rakka = g.places_named("Rakka");
    assert_eq!(
        (rakka[0].place.id, rakka[0].kind),
        (172955, MatchKind::Transliterated)
    );
    assert!(g.places_named("RQA").is_empty());
    assert!(g.places_named("Hmeymim").is_empty());
    let raqqa = g.place(172955).expect("Ar Raqqah");
    assert_eq!(raqqa.admin1_code.as_deref(), Some("SY.04"));
    assert_eq!(raqqa.country, CountryCode::new("SY").expect("code"));
    assert!((raqqa.latitude - 35.95283).abs() < 1e-9);
    assert_eq!(g.place(163345).map(|p| p.population), Some(0));
    assert_eq!(g.country_named("Syria").map(|c| c.id), Some(163843));
    assert_eq!(
        g.country_named("Türkiye").map(|c| c.name.as_str()),
        Some("Turkey")
    );
    assert_eq!(
        g.admin1_named("Rif Dimashq Governorate", None)[0].code,
        "SY.08"
    );
    // The ASCII name of admin1CodesASCII is an alias.
    assert_eq!(
        g.admin1_named("Sanliurfa Province", None)[0].name,
        "Şanlıurfa"
    );
    assert_eq!(g.admin1("LB.09").and_then(|a| a.id), Some(6201373));
}

#[test]
fn all_countries_file_and_name_column() {
    let g = load("geonames_all");
    assert_eq!(g.n_places(), 6);
    // Without an alternateNames file the geoname table's column is used,
    // less the names no caption has (`alrqt`, `DUM`, Arabic script).
    assert_eq!(top(&g, "Rakka"), Some(172955));
    assert_eq!(top(&g, "Tell Tamer"), Some(163345));
    assert!(g.places_named("alrqt").is_empty());
    assert!(g.places_named("DUM").is_empty());
    assert!(g.places_named("دوما").is_empty());
    // Compact round trip of a dump-loaded gazetteer keeps admin1 aliases.
    let back = Gazetteer::from_compact(&g.to_compact()).expect("round trip");
    assert_eq!(back.admin1_named("Sanliurfa", None)[0].code, "TR.63");
}

#[test]
fn bad_line_names_file_and_line() {
    let err = Gazetteer::from_geonames_dir(&data("geonames_bad"))
        .err()
        .expect("an error");
    let message = err.to_string();
    match err {
        Error::BadLine { path, line, what } => {
            assert!(path.ends_with("geonames_bad/SY.txt"), "{}", path.display());
            assert_eq!(line, 3);
            assert!(what.contains("latitude"), "{what}");
        }
        other => panic!("expected BadLine, got {other}"),
    }
    assert!(
        message.contains("SY.txt:3: expected a latitude in column 5"),
        "{message}"
    );
}

#[test]
fn missing_files_are_named() {
    let err = Gazetteer::from_geonames_dir(&data("geonames_missing"))
        .err()
        .expect("an error");
    assert!(matches!(err, Error::MissingFile { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("allCountries.txt or a country file"),
        "{err}"
    );
    let err = Gazetteer::from_geonames_dir(&data("no_such_dir"))
        .err()
        .expect("an error");
    assert!(
        matches!(err, Error::Io { .. } | Error::MissingFile { .. }),
        "{err}"
    );
}
