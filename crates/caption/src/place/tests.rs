use gazetteer::{Gazetteer, PlaceEntry};

use super::lexicon::{
    demonym_country, is_demonym, is_one_of, lists_of, DEMONYMS, DEMONYM_BIT, DIRECTIONS,
    FACILITY_HEADS, WORD_LISTS,
};
use super::*;
use crate::span::Span;

#[test]
fn word_lists_are_lower_case_and_each_has_its_own_bit() {
    let demonyms = DEMONYMS.iter().map(|(word, _)| word);
    for word in WORD_LISTS
        .iter()
        .flat_map(|list| list.words)
        .chain(demonyms)
    {
        assert_eq!(word.to_ascii_lowercase(), *word);
        // Building the table on first use panics on a word too long for it.
        assert_ne!(lists_of(&word.to_ascii_uppercase()), 0, "{word}");
    }
    let all_bits = WORD_LISTS.iter().fold(DEMONYM_BIT, |bits, list| {
        assert_eq!(list.bit.count_ones(), 1);
        assert_eq!(bits & list.bit, 0, "two lists share a bit");
        bits | list.bit
    });
    assert_eq!(all_bits.count_ones() as usize, WORD_LISTS.len() + 1);
    assert!(is_one_of("Square", FACILITY_HEADS) && !is_one_of("square", DIRECTIONS));
    assert!(is_demonym("SYRIAN") && !is_demonym("syria"));
    assert_eq!(demonym_country("Jamaican"), Some("JM"));
    assert_eq!(demonym_country("Kurdish"), None);
    for (word, code) in DEMONYMS {
        assert!(
            code.is_empty() || gazetteer::CountryCode::new(code).is_some(),
            "{word}"
        );
    }
}

fn gazetteer() -> Gazetteer {
    let mut b = Gazetteer::builder();
    b.country("SY", "Syria", 163843)
        .country("LB", "Lebanon", 272103)
        .country("LY", "Libya", 2215636);
    b.country("US", "United States", 6252001)
        .country("DE", "Germany", 2921044);
    b.admin1("SY.13", "Dimashq", None)
        .admin1("SY.12", "Idlib", None)
        .admin1("SY.08", "Rif-dimashq", None);
    b.admin1("LB.09", "Liban-Nord", None)
        .admin1("LY.77", "Tripoli", None)
        .admin1("US.LA", "Louisiana", None);
    b.admin1("US.IL", "Illinois", None);
    let mut place = |id, name: &str, lat, lon, cc: &str, a1: &str, pop, alts: &[&str]| {
        b.place(PlaceEntry {
            id,
            name: name.into(),
            latitude: lat,
            longitude: lon,
            country: cc.into(),
            admin1: Some(a1.into()),
            population: pop,
            alternate_names: alts.iter().map(|s| s.to_string()).collect(),
        });
    };
    place(1, "Damascus", 33.5, 36.3, "SY", "13", 1_569_394, &[]);
    place(2, "Idlib", 35.9, 36.6, "SY", "12", 128_840, &[]);
    place(3, "Tripoli", 32.9, 13.2, "LY", "77", 1_150_989, &[]);
    place(4, "Tripoli", 34.4, 35.8, "LB", "09", 229_398, &[]);
    place(5, "Harvey", 41.6, -87.6, "US", "IL", 25_000, &[]);
    place(6, "Harvey", 29.9, -90.1, "US", "LA", 20_000, &[]);
    place(7, "Jübar", 52.7, 10.9, "DE", "14", 690, &[]);
    b.build()
}

fn locate(caption: &str) -> LocationFound {
    find_location(caption, Span::new(0, caption.len()), None, &gazetteer())
}

fn summary(
    found: &LocationFound,
) -> (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
) {
    let l = found.location.clone().unwrap_or_default();
    (l.sublocation, l.city, l.province_code, l.country_code)
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

#[test]
fn city_and_country_with_sublocation() {
    let found = locate("A vendor sells bread at Marjeh Square in Damascus, Syria June 3, 2019.");
    assert_eq!(
        summary(&found),
        (s("Marjeh Square"), s("Damascus"), s("SY.13"), s("SY"))
    );
    let location = found.location.expect("located");
    assert_eq!(
        location.text.as_deref(),
        Some("Marjeh Square in Damascus, Syria")
    );
    assert_eq!(location.geonames_id, Some(1));
    assert!(!found.unresolved);
}

#[test]
fn country_context_disambiguates() {
    let found = locate("Boys play football in Tripoli, northern Lebanon, May 2, 2013.");
    assert_eq!(summary(&found).1, s("Tripoli"));
    assert_eq!(summary(&found).3, s("LB"));
    let found = locate("Cars queue for fuel in Harvey, La., on Monday.");
    assert_eq!(found.location.and_then(|l| l.geonames_id), Some(6));
}

#[test]
fn province_alone_is_not_a_city() {
    let found = locate("Farmers harvest olives in Idlib province, Syria November 2, 2018.");
    assert_eq!(summary(&found), (None, None, s("SY.12"), s("SY")));
    assert!(!found.unresolved);
}

#[test]
fn unresolved_village_borrows_its_reference() {
    let found =
        locate("Women bake bread in Kfar Zeit, a village 12 km north of Damascus, July 1, 2014.");
    let location = found.location.expect("located");
    assert_eq!(location.city.as_deref(), Some("Kfar Zeit"));
    assert_eq!(location.geonames_id, Some(1));
    assert_eq!(location.province_code.as_deref(), Some("SY.13"));
    assert!(!found.unresolved);
}

#[test]
fn district_of_a_city() {
    let found = locate("A boy rides a bicycle in the Qaboun district of Damascus, Syria.");
    assert_eq!(
        summary(&found),
        (s("Qaboun"), s("Damascus"), s("SY.13"), s("SY"))
    );
    let found = locate("Protesters march in Jubar, Damascus, on Friday.");
    assert_eq!(
        summary(&found),
        (s("Jubar"), s("Damascus"), s("SY.13"), s("SY"))
    );
}

#[test]
fn unknown_places_are_flagged() {
    let found = locate("Children play at Sandpiper air base in Syria, March 2, 2016.");
    assert_eq!(
        summary(&found),
        (s("Sandpiper air base"), None, None, s("SY"))
    );
    assert!(found.unresolved);
    let found = locate("Men rest in Foxburrow, La., on Monday.");
    assert_eq!(summary(&found), (None, s("Foxburrow"), s("US.LA"), s("US")));
    assert!(found.unresolved);
}

#[test]
fn later_scene_wins_over_background_and_people_are_not_places() {
    let found = locate("A woman who fled the fighting in Idlib hangs laundry in Tripoli, Lebanon.");
    assert_eq!(summary(&found).1, s("Tripoli"));
    assert_eq!(
        locate("Kenya's Amos Kiprop runs the marathon.").location,
        None
    );
}
