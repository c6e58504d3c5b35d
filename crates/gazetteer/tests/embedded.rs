//! The embedded gazetteer: transliteration variants, false matches, countries
//! and admin1 names, on the real data.

use gazetteer::{translit_key, CountryCode, Gazetteer, MatchKind};

fn g() -> &'static Gazetteer {
    match Gazetteer::try_embedded() {
        Ok(g) => g,
        Err(e) => panic!("embedded data: {e}"),
    }
}

fn cc(code: &str) -> CountryCode {
    CountryCode::new(code).unwrap_or_else(|| panic!("bad code {code}"))
}

/// Every spelling's best candidate is the expected GeoNames entry.
fn assert_resolves(id: u32, spellings: &[&str]) {
    for name in spellings {
        let found = g().places_named(name);
        let best = found.first().map(|m| (m.place.id, &*m.place.name, m.kind));
        assert_eq!(best.map(|b| b.0), Some(id), "{name:?} resolved to {best:?}");
    }
}

#[test]
fn data_is_complete() {
    let g = g();
    assert_eq!(g.n_places(), 234_908);
    assert_eq!(g.countries().len(), 252);
    assert!(g.all_admin1().len() > 3700, "{}", g.all_admin1().len());
    let syria: Vec<&str> = g
        .admin1_of(cc("SY"))
        .iter()
        .map(|a| a.code.as_str())
        .collect();
    assert_eq!(syria.len(), 14, "{syria:?}");
    // Every Syrian place's admin1 has a name.
    for place in g.places().iter().filter(|p| p.country == cc("SY")) {
        let code = place.admin1_code.as_deref().unwrap_or("none");
        assert!(
            g.admin1(code).is_some(),
            "{} has unnamed admin1 {code}",
            place.name
        );
    }
    let damascus = g.place(170654).expect("Damascus");
    assert_eq!(
        (&*damascus.name, damascus.admin1_code.as_deref()),
        ("Damascus", Some("SY.13"))
    );
    assert!(
        (damascus.latitude - 33.5102).abs() < 1e-9 && (damascus.longitude - 36.29128).abs() < 1e-9
    );
}

#[test]
fn transliteration_variants_meet() {
    assert_resolves(172955, &["Raqa", "Raqqa", "Ar Raqqah"]);
    assert_resolves(
        170794,
        &[
            "Deir al-Zor",
            "Deir ez-Zor",
            "Dayr az Zawr",
            "Deir Ezzor",
            "Deir el-Zour",
        ],
    );
    assert_resolves(
        167611,
        &[
            "Maaret al-Numan",
            "Ma'arrat al-Nu'man",
            "Maarat an-Numan",
            "Maarat Al-Nouman",
        ],
    );
    assert_resolves(169897, &["Haresta", "Harasta"]);
    assert_resolves(170905, &["Deraa", "Daraa", "Dar'a"]);
    assert_resolves(169023, &["Jisr al-Shughour", "Jisr ash-Shughur"]);
    assert_resolves(706483, &["Kharkiv", "Kharkov"]);
    assert_resolves(703448, &["Kyiv", "Kiev"]);
    // Other Doumas exist (Lebanon, the West Bank); Syria's is the largest.
    assert_resolves(170592, &["Douma", "Duma", "Dūmā"]);
    assert_resolves(168325, &["Khan Sheikhoun"]);
    assert_resolves(8419677, &["Hajar al-Aswad"]);
    assert_resolves(174018, &["al-Bab"]);
    assert_resolves(168061, &["Qabasin"]);
    assert_resolves(164816, &["Saraqeb"]);
    assert_resolves(273675, &["Arsal"]);
    assert_resolves(707292, &["Izium"]);
    // Khuza'a, by Khan Younis: a village cities500 has.
    assert_resolves(281119, &["Khuzaa", "Khuza'a"]);
}

#[test]
fn air_base_spellings_share_a_key_and_match_nothing() {
    let keys: Vec<String> = ["Hemeimeem", "Hmeymim", "Khmeimim"]
        .iter()
        .map(|n| translit_key(n))
        .collect();
    assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
    for name in ["Hemeimeem", "Hmeymim", "Khmeimim"] {
        let found: Vec<_> = g()
            .places_named(name)
            .iter()
            .map(|m| (m.place.id, m.place.name.clone()))
            .collect();
        assert!(found.is_empty(), "{name} matched {found:?}");
    }
}

#[test]
fn unknown_places_do_not_match_falsely() {
    // Villages and districts that cities500 lacks: no candidate at all…
    for name in ["Sarmada", "Maarshureen", "Tel Tawil", "Naweran", "Koufroun"] {
        let found: Vec<_> = g()
            .places_named(name)
            .iter()
            .map(|m| (m.place.name.clone(), m.place.country))
            .collect();
        assert!(found.is_empty(), "{name} matched {found:?}");
    }
    // …or none in the country the caption is about.
    for (name, country) in [
        ("Jobar", "SY"),
        ("Hamouriyeh", "SY"),
        ("Besnia", "SY"),
        ("Mrah", "SY"),
    ] {
        let found = g().places_named(name);
        assert!(
            found.iter().all(|m| m.place.country != cc(country)),
            "{name} matched in {country}"
        );
    }
    assert!(!g().might_be_place("Sarmada"));
    assert!(g().might_be_place("Haresta"));
}

#[test]
fn ambiguous_and_exact_names() {
    let tripoli: Vec<u32> = g()
        .places_named("Tripoli")
        .iter()
        .map(|m| m.place.id)
        .collect();
    assert!(
        tripoli.contains(&2210247) && tripoli.contains(&266826),
        "{tripoli:?}"
    );
    let homs = g().places_named("Homs");
    assert_eq!(
        (homs[0].place.id, homs[0].kind),
        (169577, MatchKind::Folded)
    );
    let stephenville = g().places_named("Stephenville");
    assert!(!stephenville.is_empty());
    assert!(stephenville
        .iter()
        .all(|m| m.place.admin1_code.as_deref() != Some("US.LA")));
    // Ranking: kinds in order, then population.
    for pair in g().places_named("Douma").windows(2) {
        assert!(
            pair[0].kind < pair[1].kind
                || (pair[0].kind == pair[1].kind
                    && pair[0].place.population >= pair[1].place.population)
        );
    }
}

/// The cities of the dev gold set, found in the country (or admin1) the
/// caption names.
#[test]
fn gold_cities_resolve_in_their_country() {
    let cases: &[(&str, &str, u32)] = &[
        ("Damascus", "SY", 170654),
        ("Aleppo", "SY", 170063),
        ("Beirut", "LB", 276781),
        ("Azaz", "SY", 172082),
        ("Cox's Bazar", "BD", 1336134),
        ("Suruc", "TR", 300075),
        ("Rio de Janeiro", "BR", 3451190),
        ("Mosul", "IQ", 99072),
        ("Mafraq", "JO", 250582),
        ("Madaya", "SY", 167558),
        ("Kathmandu", "NP", 1283240),
        ("Kabul", "AF", 1138958),
        ("Derna", "LY", 87205),
        ("Antakya", "TR", 323779),
        ("Washington", "US", 4140963),
        ("Vyshneve", "UA", 689487),
        ("Teknaf", "BD", 1185095),
        ("Tampa", "US", 4174757),
        ("Sofia", "BG", 727011),
        ("Sievierodonetsk", "UA", 691999),
        ("Rafah", "PS", 281102),
        ("Qayyarah", "IQ", 99003),
        ("Paris", "FR", 2988507),
        ("Palmyra", "SY", 163808),
        ("New Orleans", "US", 4335045),
        ("Moscow", "RU", 524901),
        ("Morgan City", "US", 4333811),
        ("Mexico Beach", "US", 4164131),
        ("Medyka", "PL", 765028),
        ("Latakia", "SY", 173576),
        ("Khartoum", "SD", 379252),
        ("Khan Yunis", "PS", 281124),
        ("Khan Younis", "PS", 281124),
        ("Irpin", "UA", 707565),
        ("Idlib", "SY", 169389),
        ("Harvey", "US.LA", 4327047),
        ("Guayama", "PR", 4565105),
        ("Goz Beida", "TD", 243787),
        ("Gaza City", "PS", 281133),
        ("Elbistan", "TR", 315795),
        ("Diyarbakir", "TR", 316541),
        ("Bucha", "UA", 711350),
        ("Borodianka", "UA", 711635),
        ("Bhaktapur", "NP", 1283617),
        ("Beit Lahiya", "PS", 281145),
        ("Bartella", "IQ", 97890),
        ("Athens", "GR", 264371),
        ("Arkhanhelske", "UA", 713208),
    ];
    for &(name, country, id) in cases {
        let found = g().places_named(name);
        let in_region = |m: &&gazetteer::PlaceMatch<'_>| match country.len() {
            2 => m.place.country == cc(country),
            _ => m.place.admin1_code.as_deref() == Some(country),
        };
        let best = found.iter().find(in_region).map(|m| m.place.id);
        assert_eq!(best, Some(id), "{name}, {country}");
    }
}

#[test]
fn country_names_and_aliases() {
    let code = |name: &str| g().country_named(name).map(|c| c.code.as_str().to_string());
    for (names, expected) in [
        (&["Syria", "syria", "Syrian Arab Republic"][..], "SY"),
        (&["Türkiye", "Turkey", "Turkiye"], "TR"),
        (
            &["U.S.", "US", "USA", "United States", "America", "U.S.A."],
            "US",
        ),
        (
            &[
                "UK",
                "Britain",
                "Great Britain",
                "United Kingdom",
                "England",
            ],
            "GB",
        ),
        (&["Russia", "Russian Federation"], "RU"),
        (&["Iran"], "IR"),
        (&["South Korea"], "KR"),
        (&["North Korea", "DPRK"], "KP"),
        (
            &[
                "Gaza Strip",
                "Gaza",
                "West Bank",
                "Palestinian Territories",
                "Palestine",
            ],
            "PS",
        ),
        (&["Ivory Coast", "Côte d'Ivoire"], "CI"),
        (&["Czech Republic", "Czechia"], "CZ"),
        (&["Congo", "DRC", "Democratic Republic of the Congo"], "CD"),
        (&["Republic of the Congo"], "CG"),
        (&["Burma", "Myanmar"], "MM"),
        (&["Holland", "Netherlands", "The Netherlands"], "NL"),
        (&["UAE", "United Arab Emirates"], "AE"),
        (&["Lebanon"], "LB"),
        (&["Bangladesh"], "BD"),
    ] {
        for name in names {
            assert_eq!(code(name).as_deref(), Some(expected), "{name}");
        }
    }
    assert_eq!(
        g().country(cc("SY")).map(|c| c.name.as_str()),
        Some("Syria")
    );
    assert_eq!(
        g().country(cc("PS")).map(|c| c.name.as_str()),
        Some("Palestinian Territory")
    );
    for not_a_country in ["IN", "IT", "Damascus", "Korea", ""] {
        assert_eq!(code(not_a_country), None, "{not_a_country}");
    }
}

#[test]
fn admin1_names_with_and_without_generic_words() {
    let code = |name: &str, country: Option<&str>| {
        g().admin1_named(name, country.map(cc))
            .first()
            .map(|a| a.code.clone())
            .unwrap_or_default()
    };
    for name in ["Idlib", "Idlib Governorate", "Idleb", "Edlib Province"] {
        assert_eq!(code(name, Some("SY")), "SY.12", "{name}");
    }
    assert_eq!(code("Homs Governorate", Some("SY")), "SY.11");
    assert_eq!(code("Rif-dimashq", None), "SY.08");
    assert_eq!(code("Rif Dimashq", Some("SY")), "SY.08");
    assert_eq!(code("Rural Damascus", None), "SY.08");
    assert_eq!(code("Damascus Countryside", None), "SY.08");
    assert_eq!(code("Raqqa", Some("SY")), "SY.04");
    assert_eq!(code("Deir ez-Zor Governorate", Some("SY")), "SY.07");
    assert_eq!(code("Kherson Oblast", Some("UA")), "UA.08");
    assert_eq!(code("Kharkivs'ka Oblast'", None), "UA.07");
    assert_eq!(code("Kharkiv region", Some("UA")), "UA.07");
    assert_eq!(code("Kyiv Oblast", Some("UA")), "UA.13");
    assert_eq!(code("Sevastopol", None), "UA.20");
    assert_eq!(code("Şanlıurfa", Some("TR")), code("Sanliurfa", Some("TR")));
    assert_eq!(code("Sanliurfa", Some("TR")), "TR.63");
    assert_eq!(code("Nineveh", Some("IQ")), "IQ.15");
    assert_eq!(code("Bekaa", Some("LB")), "LB.08");
    assert_eq!(code("Louisiana", Some("US")), "US.LA");
    assert_eq!(
        g().admin1("SY.13").map(|a| a.name.as_str()),
        Some("Dimashq")
    );
    assert!(g().admin1_named("Idlib", Some(cc("TR"))).is_empty());
}

#[test]
fn knows_name_is_a_folded_match_of_places_named() {
    for name in [
        "Aleppo",
        "ALEPPO",
        "Suruc",
        "Hoi An",
        "Port of Spain",
        "Deir Ezzor",
        "Haresta",
        "Ministry of Defence",
        "Karsa",
        "Dar es Salaam",
        "",
        "X",
    ] {
        let slow = g()
            .places_named(name)
            .iter()
            .any(|m| m.kind == MatchKind::Folded);
        assert_eq!(g().knows_name(name), slow, "{name}");
    }
}

#[test]
fn chinese_divisions_have_their_english_common_names() {
    // GeoNames' names carry the pinyin designator; English drops it.
    let g = g();
    let common = |name: &str| -> Vec<&str> {
        g.admin1_named(name, gazetteer::CountryCode::new("CN"))
            .iter()
            .map(|a| a.common_name())
            .collect()
    };
    assert_eq!(common("Gansu"), ["Gansu"]);
    assert_eq!(common("Shanghai"), ["Shanghai"]);
    let cn = gazetteer::CountryCode::new("CN").expect("a code");
    let xinjiang = g
        .admin1_of(cn)
        .iter()
        .find(|a| a.name.starts_with("Xinjiang"))
        .expect("Xinjiang");
    assert_eq!(xinjiang.common_name(), "Xinjiang");
    // Elsewhere the name is GeoNames' own.
    let syria = g.admin1("SY.13").expect("Dimashq");
    assert_eq!(syria.common_name(), syria.name);
}

#[test]
fn country_common_names_drop_a_leading_article() {
    let g = g();
    let nl = g.country_named("Holland").expect("the Netherlands");
    assert_eq!(nl.common_name(), "Netherlands");
    let cd = g.country_named("DRC").expect("DR Congo");
    assert_eq!(cd.common_name(), cd.name);
}
