//! Credit finding on whole captions written for these tests.

use proptest::prelude::*;

use super::*;

/// The credit of `text` as (creators, agencies, source).
fn who(text: &str) -> (Vec<String>, Vec<String>, Option<String>) {
    let found = find_credit(text).unwrap_or_else(|| panic!("no credit in {text:?}"));
    (
        found.credit.creators,
        found.credit.agencies,
        found.credit.source,
    )
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn photo_by_in_brackets() {
    let text = "Children play in a flooded street in Lowtown, Freedonia June 3, 2019. (Photo by Lena Ortiz/Reuters)";
    let found = find_credit(text).expect("credit");
    assert_eq!(
        found.credit.raw.as_deref(),
        Some("Photo by Lena Ortiz/Reuters")
    );
    assert_eq!(found.span.of(text), "(Photo by Lena Ortiz/Reuters)");
    assert_eq!(found.credit.creators, strings(&["Lena Ortiz"]));
    assert_eq!(found.credit.agencies, strings(&["Reuters"]));
    assert!(!found.handout && !found.file);
}

#[test]
fn agency_led_bare_credits() {
    assert_eq!(
        who("A ferry docks at Port Vela, May 2, 2016. REUTERS/Tomas Berg"),
        (strings(&["Tomas Berg"]), strings(&["Reuters"]), None)
    );
    assert_eq!(
        who("A ferry docks at Port Vela. EPA-EFE/TOMAS BERG"),
        (strings(&["Tomas Berg"]), strings(&["EPA"]), None)
    );
    // No sentence end before the credit: the anchor word still opens it.
    assert_eq!(
        who("A ferry docks at Port Vela May 2, 2016 REUTERS/Tomas Berg"),
        (strings(&["Tomas Berg"]), strings(&["Reuters"]), None)
    );
    assert_eq!(
        who("Fishermen mend nets in Porto Lume on May 4, 2020. / AFP PHOTO / ANNA DE LA ROSA"),
        (strings(&["Anna de la Rosa"]), strings(&["AFP"]), None)
    );
}

#[test]
fn name_led_credit_on_its_own_line() {
    let text = "Vendors sell melons in Karsa, Aug. 11, 2013. Petra J. Novak/AFP/Getty Images";
    let found = find_credit(text).expect("credit");
    assert_eq!(found.credit.creators, strings(&["Petra J. Novak"]));
    assert_eq!(found.credit.agencies, strings(&["AFP", "Getty Images"]));
    assert_eq!(found.span.of(text), "Petra J. Novak/AFP/Getty Images");
    assert_eq!(
        who("Vendors sell melons in Karsa. Oskar Lind, AP"),
        (strings(&["Oskar Lind"]), strings(&["AP"]), None)
    );
}

#[test]
fn ap_credits_with_roles() {
    let found = find_credit(
        "Workers repair a bridge in Dunmore, Monday, May 2, 2016. (AP Photo/Oskar Lind, File)",
    )
    .expect("credit");
    assert_eq!(found.credit.creators, strings(&["Oskar Lind"]));
    assert!(found.file && !found.handout);
    let found =
        find_credit("Workers repair a bridge in Dunmore. (AP Photo, File)").expect("credit");
    assert!(found.credit.creators.is_empty() && found.file);
    let found = find_credit("Workers repair a bridge in Dunmore. (Qamishli Media Hub via AP)")
        .expect("credit");
    assert_eq!(found.credit.source.as_deref(), Some("Qamishli Media Hub"));
    assert!(found.handout);
}

#[test]
fn handouts_and_suppliers() {
    let found = find_credit("Tanks roll past in a still from video. Ministry of Transport of Freedonia/Handout via REUTERS").expect("credit");
    assert_eq!(
        found.credit.source.as_deref(),
        Some("Ministry of Transport of Freedonia")
    );
    assert_eq!(found.credit.agencies, strings(&["Reuters"]));
    assert!(found.handout);
    let found =
        find_credit("Smoke rises. REUTERS/Social Media Website via Reuters TV").expect("credit");
    assert_eq!(found.credit.source.as_deref(), Some("Social Media Website"));
    assert_eq!(found.credit.agencies, strings(&["Reuters"]));
    let found = find_credit("A gull flies. KCNA via REUTERS").expect("credit");
    assert_eq!(found.credit.source.as_deref(), Some("KCNA"));
}

#[test]
fn restated_credit_is_merged() {
    let text = "Boats at dawn in Porto Lume. / AFP PHOTO / IVAN PETROV (Photo credit should read IVAN PETROV/AFP/Getty Images)";
    let found = find_credit(text).expect("credit");
    assert_eq!(found.credit.creators, strings(&["Ivan Petrov"]));
    assert_eq!(found.credit.agencies, strings(&["AFP", "Getty Images"]));
    assert!(found.span.of(text).starts_with("/ AFP PHOTO"));
    assert!(found
        .credit
        .raw
        .as_deref()
        .is_some_and(|raw| raw.starts_with("AFP PHOTO") && raw.ends_with("Images)")));
}

#[test]
fn doubled_credit_in_mixed_case_is_one_party() {
    for (text, agencies) in [
        (
            "Fire burns near Karsa. Jane Doe/AP Photo Jane Doe/AP Photo",
            vec!["AP"],
        ),
        (
            "Boats in Porto Lume. Ivan Petrov/Reuters Ivan Petrov/Reuters",
            vec!["Reuters"],
        ),
    ] {
        let found = find_credit(text).expect("credit");
        assert_eq!(found.credit.agencies, strings(&agencies), "{text}");
        assert_eq!(
            found.credit.creators.len(),
            1,
            "{text}: {:?}",
            found.credit.creators
        );
    }
}

#[test]
fn reuters_trailers_stay_out_of_raw() {
    let text = "A crane lifts a boat in Port Vela. REUTERS/Tomas Berg TPX IMAGES OF THE DAY";
    let found = find_credit(text).expect("credit");
    assert_eq!(found.credit.raw.as_deref(), Some("REUTERS/Tomas Berg"));
    assert_eq!(found.span.end, text.len());
    let text =
        "A crane lifts a boat in Port Vela. REUTERS/Tomas Berg (FREEDONIA - Tags: TRANSPORT)";
    let found = find_credit(text).expect("credit");
    assert_eq!(found.credit.creators, strings(&["Tomas Berg"]));
    assert_eq!(found.span.end, text.len());
}

#[test]
fn getty_and_partner_agencies() {
    assert_eq!(
        who("Fans cheer in Lowtown. (Photo by Ana Ruiz/NurPhoto via Getty Images)"),
        (
            strings(&["Ana Ruiz"]),
            strings(&["NurPhoto", "Getty Images"]),
            None
        )
    );
    assert_eq!(
        who("Fans cheer in Lowtown. (Ana Ruiz/SOPA Images/Sipa USA via AP)"),
        (
            strings(&["Ana Ruiz"]),
            strings(&["SOPA Images", "Sipa", "AP"]),
            None
        )
    );
    assert_eq!(
        who("Fans cheer in Lowtown. (Photo by ANA RUIZ / AFP)"),
        (strings(&["Ana Ruiz"]), strings(&["AFP"]), None)
    );
    assert_eq!(
        who("Fans cheer in Lowtown. Photo: AP"),
        (vec![], strings(&["AP"]), None)
    );
    assert_eq!(
        who("Fans cheer in Lowtown. (Reuters)"),
        (vec![], strings(&["Reuters"]), None)
    );
    assert_eq!(
        who("Fans cheer in Lowtown. © Ana Ruiz / Magnum Photos"),
        (strings(&["Ana Ruiz"]), strings(&["Magnum Photos"]), None)
    );
}

#[test]
fn credit_glued_to_a_closing_date() {
    // A credit line after a description without a closing full stop.
    assert_eq!(
        who("A ferry docks at Port Vela, May 2, 2016 Oskar Lind/AP"),
        (strings(&["Oskar Lind"]), strings(&["AP"]), None)
    );
}

#[test]
fn satellite_and_sports_conventions() {
    let text = "Craters near Karsa in this satellite image taken May 2, 2016. Satellite image ©2016 Orbital Views Technologies/Handout via REUTERS";
    let found = find_credit(text).expect("credit");
    assert_eq!(
        found.credit.source.as_deref(),
        Some("Orbital Views Technologies")
    );
    assert!(found.credit.creators.is_empty());
    assert!(found.span.of(text).starts_with("Satellite image"));
    assert_eq!(
        who("Lowtown's keeper makes a save. Mandatory Credit: Oskar Lind-USA TODAY Sports"),
        (
            strings(&["Oskar Lind"]),
            strings(&["USA TODAY Sports"]),
            None
        )
    );
    assert_eq!(
        who("Delegates vote in Lowtown. UN Photo/Oskar Lind"),
        (strings(&["Oskar Lind"]), strings(&["UN Photo"]), None)
    );
}

#[test]
fn outlets_a_photographer_worked_for() {
    assert_eq!(
        who("A ferry docks at Port Vela. (Oskar Lind/For The Washington Post)"),
        (
            strings(&["Oskar Lind"]),
            strings(&["The Washington Post"]),
            None
        )
    );
    assert_eq!(
        who("A ferry docks at Port Vela. Oskar Lind for Lowtown Radio"),
        (strings(&["Oskar Lind"]), strings(&["Lowtown Radio"]), None)
    );
    assert_eq!(
        who("A ferry docks at Port Vela. Oskar Lind — Getty Images/iStockphoto"),
        (
            strings(&["Oskar Lind"]),
            strings(&["Getty Images", "iStockphoto"]),
            None
        )
    );
}

#[test]
fn lower_case_agencies_and_chained_lead_ins() {
    assert_eq!(
        who("A ferry docks at Port Vela. Oskar Lind/AP/dpa"),
        (strings(&["Oskar Lind"]), strings(&["AP", "DPA"]), None)
    );
    let found =
        find_credit("A ferry docks at Port Vela. Photo: Courtesy of Oskar Lind").expect("credit");
    assert_eq!(found.credit.source.as_deref(), Some("Oskar Lind"));
    assert!(found.credit.creators.is_empty() && found.handout);
}

#[test]
fn prose_endings_are_not_credits() {
    for text in [
        "The clinic in Lowtown stays open 24/7.",
        "Residents can walk and/or cycle to the market.",
        "A ferry docks at Port Vela, May 2, 2016.",
        "The road has a range of three kilometers (1.86 miles).",
        "Reuters could not verify the footage.",
        "A man walks past a poster of Ana Ruiz.",
        "",
        "(",
        ")",
    ] {
        assert_eq!(find_credit(text), None, "{text:?}");
    }
}

proptest! {
    #[test]
    fn never_panics_and_spans_are_sound(text in ".{0,400}") {
        let text = crate::text::normalize_whitespace(&text);
        if let Some(found) = find_credit(&text) {
            prop_assert!(found.span.end <= text.len() && found.span.start <= found.span.end);
            prop_assert!(text.is_char_boundary(found.span.start) && text.is_char_boundary(found.span.end));
            prop_assert_eq!(found.credit.span, Some(found.span));
        }
    }

    #[test]
    fn credit_shaped_noise_never_panics(text in "[A-Za-z /(),.\\[\\]©-]{0,120}(REUTERS|AFP PHOTO|AP Photo|Photo by)?[A-Za-z /(),.-]{0,60}") {
        let _ = find_credit(&text);
    }

    #[test]
    fn title_case_is_idempotent(name in "\\PC{0,40}") {
        let once = name::title_case(&name);
        prop_assert_eq!(name::title_case(&once), once);
    }
}

#[test]
fn one_word_photographer_after_ap_photo() {
    let text = "Soldiers fire a mortar near Karsa, Freedonia, Dec. 2, 2022. (AP Photo/VOLKOV)";
    assert_eq!(who(text), (strings(&["Volkov"]), strings(&["AP"]), None));
    let text = "Soldiers rest near Karsa, Freedonia, Dec. 2, 2022. (Photo by Volkov/Getty Images)";
    assert_eq!(
        who(text),
        (strings(&["Volkov"]), strings(&["Getty Images"]), None)
    );
    // Elsewhere a lone word is still a supplier, not a person.
    let text = "Soldiers parade in Karsa, Freedonia. KCNA via REUTERS";
    assert_eq!(
        who(text),
        (vec![], strings(&["Reuters"]), Some("KCNA".to_string()))
    );
}

/// Checks the credit of `text` against `expected`, written `creators;
/// agencies; source` with names comma-separated and `-` for no source
/// (`"Oskar Lind; Reuters; -"`), or `none` for no credit at all.
fn check(text: &str, expected: &str) {
    let got = match find_credit(text) {
        None => "none".to_string(),
        Some(found) => format!(
            "{}; {}; {}",
            found.credit.creators.join(", "),
            found.credit.agencies.join(", "),
            found.credit.source.as_deref().unwrap_or("-")
        ),
    };
    assert_eq!(got, expected, "{text:?}");
}

#[test]
fn lead_in_forms() {
    check(
        "Boats at dawn in Porto Lume. Photograph: Oskar Lind/AP",
        "Oskar Lind; AP; -",
    );
    check(
        "Boats at dawn in Porto Lume. Photographer: Oskar Lind/Reuters",
        "Oskar Lind; Reuters; -",
    );
    check(
        "Boats at dawn in Porto Lume. Picture: Oskar Lind/EPA",
        "Oskar Lind; EPA; -",
    );
    check(
        "Boats at dawn in Porto Lume. Credit: Oskar Lind/AFP",
        "Oskar Lind; AFP; -",
    );
    check(
        "Boats at dawn in Porto Lume. (Image credit: Oskar Lind / AFP via Getty Images)",
        "Oskar Lind; AFP, Getty Images; -",
    );
    check(
        "Boats at dawn in Porto Lume. Image source, Oskar Lind/EPA",
        "Oskar Lind; EPA; -",
    );
    check(
        "Boats at dawn in Porto Lume. Image copyright Oskar Lind/Reuters",
        "Oskar Lind; Reuters; -",
    );
    check(
        "Boats at dawn in Porto Lume. Photoby Oskar Lind/Sipa USA",
        "Oskar Lind; Sipa; -",
    );
    check(
        "Boats at dawn in Porto Lume. PhotobyOskar Lind/Sipa USA",
        "Oskar Lind; Sipa; -",
    );
    check(
        "Boats at dawn in Porto Lume. Pool photo by Oskar Lind",
        "Oskar Lind; ; -",
    );
}

#[test]
fn agency_only_credits() {
    check(
        "Boats at dawn in Porto Lume. (Image credit: Getty Images)",
        "; Getty Images; -",
    );
    check("Boats at dawn in Porto Lume. (Photo by DPPI)", "; DPPI; -");
    check("Boats at dawn in Porto Lume. (Photo by FNMC)", "; ; FNMC");
    check(
        "A rocket stands on its pad in Lowtown. (Image credit: Orbitco)",
        "; ; Orbitco",
    );
}

#[test]
fn slash_orders() {
    check(
        "Voters queue in Porto Lume, 9 May 2021. EFE/EPA/Irene Sola",
        "Irene Sola; EFE, EPA; -",
    );
    check("Voters queue in Porto Lume. EFE/EPA/POOL", "; EFE, EPA; -");
    check(
        "Voters queue in Porto Lume. (Photo by Irene Sola - Pool/Getty Images)",
        "Irene Sola; Getty Images; -",
    );
    check(
        "Voters queue in Porto Lume. Irene Sola/SOPA Images",
        "Irene Sola; SOPA Images; -",
    );
}

#[test]
fn one_name_photographers_before_an_agency() {
    check(
        "Smoke over the hills near Karsa, in May 2023. Volkov/AP",
        "Volkov; AP; -",
    );
    check(
        "Divers leap in Porto Lume. Credit: Mirela/Getty Images",
        "Mirela; Getty Images; -",
    );
    check(
        "Divers leap in Porto Lume. Mirela/AFP via Getty Images",
        "Mirela; AFP, Getty Images; -",
    );
    // Acronyms and organisation words stay suppliers.
    check("Divers leap in Porto Lume. KCNA/Reuters", "; Reuters; KCNA");
    check(
        "Divers leap in Porto Lume. Kremlin/Reuters",
        "; Reuters; Kremlin",
    );
}

#[test]
fn glued_credits() {
    check(
        "Troops raise a flag over the town hall in Karsa after the siege ended.REUTERS/Tomas Berg",
        "Tomas Berg; Reuters; -",
    );
    check(
        "Troops raise a flag over the town hall in Karsa, May 2, 2016.AFP/Tomas Berg",
        "Tomas Berg; AFP; -",
    );
    check(
        "Troops raise a flag over the town hall in Karsa. REUTERSTomas Berg",
        "Tomas Berg; Reuters; -",
    );
    // An initial's full stop glued to a name is no sentence end.
    check("The square was named for J.REUTERS in Karsa.", "none");
}

#[test]
fn doubled_credits_merge() {
    let text = "Delegates cheer in Lowtown. (Photo by Irene Sola / AFP) (Photo by Irene Sola/AFP via Getty Images)";
    check(text, "Irene Sola; AFP, Getty Images; -");
    let found = find_credit(text).expect("credit");
    assert!(found
        .span
        .of(text)
        .starts_with("(Photo by Irene Sola / AFP)"));
}

#[test]
fn credits_that_open_or_interrupt_the_caption() {
    let text = "Photo: Irene Sola/dpa - Travellers wait for a ferry in Porto Lume, Freedonia, March 1, 2022.";
    check(text, "Irene Sola; DPA; -");
    let found = find_credit(text).expect("credit");
    assert_eq!(found.span.of(text), "Photo: Irene Sola/dpa -");
    let text =
        "Image copyright Irene Sola/AFP Image caption Children play in a fountain in Lowtown.";
    check(text, "Irene Sola; AFP; -");
    assert_eq!(
        crate::text::description_text(text, find_credit(text).map(|c| c.span)),
        "Children play in a fountain in Lowtown."
    );
    let text = "Rebels cross a bridge in Karsa on May 2, 2016. Photo: Irene Sola/dpa. The town fell within days.";
    check(text, "Irene Sola; DPA; -");
    // A lead-in word opening prose is no credit.
    check(
        "Photo booths line the pier in Porto Lume - a summer tradition.",
        "none",
    );
}

#[test]
fn roles_and_channels_are_never_creators() {
    check(
        "Flames rise over Karsa. Amateur Video/Handout via REUTERS",
        "; Reuters; Amateur Video",
    );
    check(
        "Flames rise over Karsa. Social Media/Handout via REUTERS",
        "; Reuters; Social Media",
    );
    check("Flames rise over Karsa. REUTERS/Handout", "; Reuters; -");
}

#[test]
fn supplier_named_in_the_description() {
    check(
        "A lynx crosses a road in a photograph released by Lowtown Parks. Lowtown Parks/Reuters",
        "; Reuters; Lowtown Parks",
    );
    check(
        "A lynx crosses a road in Lowtown. Irene Sola/Reuters",
        "Irene Sola; Reuters; -",
    );
}

#[test]
fn capitals_keep_acronyms_and_ranks() {
    check(
        "Rangers guide hikers in Lowtown. (NPS Photo/Irene Sola)",
        "Irene Sola; NPS Photo; -",
    );
}

#[test]
fn services_and_ranks() {
    check(
        "Sailors load a ship in Lowtown. NPS photo by Irene Sola",
        "Irene Sola; ; NPS",
    );
    check(
        "Sailors load a ship in Lowtown. Freedonian Navy photo by SSG IRENE SOLA",
        "SSG Irene Sola; ; Freedonian Navy",
    );
    check(
        "Sailors load a ship in Lowtown. (Freedonian Navy photo by MC2 IRENE SOLA)",
        "MC2 Irene Sola; ; Freedonian Navy",
    );
    check(
        "Sailors load a ship in Lowtown. Photo by Sgt. Irene Sola/Freedonian Army",
        "Sgt. Irene Sola; ; Freedonian Army",
    );
}

#[test]
fn agencies_off_the_list_are_never_sources() {
    check(
        "Rescuers dig in Karsa. Irene Sola/Ukrinform",
        "Irene Sola; Ukrinform; -",
    );
    check(
        "Rescuers dig in Karsa. (Photo by Irene Sola/Europa Press via Getty Images)",
        "Irene Sola; Europa Press, Getty Images; -",
    );
    let found = find_credit("Rescuers dig in Karsa. Irene Sola/Ukrinform").expect("credit");
    assert!(!found.handout);
}

#[test]
fn copyright_notices_inside_text_are_not_credits() {
    check(
        "Lowtown Daily is part of a media group. © 2024 Lowtown Daily. All rights reserved.",
        "none",
    );
}

#[test]
fn a_credited_supplier_is_no_person() {
    let gazetteer = gazetteer::Gazetteer::builder().build();
    let text = "A lynx crosses a road in a photograph released by Parks Freedonia. Parks Freedonia/Reuters";
    let record = crate::parse(text, &gazetteer);
    assert_eq!(record.credit.source.as_deref(), Some("Parks Freedonia"));
    assert!(record.credit.creators.is_empty());
    assert!(record.persons.is_empty(), "{:?}", record.persons);
}

#[test]
fn an_agency_before_a_colon_credits_what_follows() {
    for (credit, agency) in [
        ("REUTERS: Tomas Berg", "Reuters"),
        ("AP Photo: Tomas Berg", "AP"),
        ("Getty Images: Tomas Berg", "Getty Images"),
    ] {
        let text = format!("A ferry docks at Port Vela, May 2, 2016. {credit}");
        assert_eq!(
            who(&text),
            (strings(&["Tomas Berg"]), strings(&[agency]), None),
            "{credit}"
        );
    }
    // A colon after anything else is prose.
    for text in [
        "A ferry docks at Port Vela. Note: Tomas Berg",
        "Crowds gather as the mayor told AFP: we will rebuild the harbour",
    ] {
        assert!(find_credit(text).is_none(), "{text}");
    }
}

#[test]
fn a_credit_in_capitals_after_a_sentence_without_its_stop() {
    assert_eq!(
        who("Floodwater runs through the old town of Lowtown, southeast Freedonia TOMAS BERG/AFP/GETTY IMAGES"),
        (strings(&["Tomas Berg"]), strings(&["AFP", "Getty Images"]), None)
    );
    assert_eq!(
        who("A hawk flies over Victory Square IRENE SOLA/EPA"),
        (strings(&["Irene Sola"]), strings(&["EPA"]), None)
    );
    // Capitals that are not a credit stay in the description.
    assert!(find_credit("Delegates arrive for the summit of NATO").is_none());
}

#[test]
fn a_photographer_and_the_paper_after_a_comma() {
    for credit in [
        "Tomas Berg, The Lowtown Post",
        "Tomas Berg, Special to The Lowtown Post",
    ] {
        let text = format!("A snowplough clears the road near Lowtown on Sunday. {credit}");
        assert_eq!(
            who(&text),
            (
                strings(&["Tomas Berg"]),
                strings(&["The Lowtown Post"]),
                None
            ),
            "{credit}"
        );
    }
    // A paper's name alone is a masthead as often as a credit.
    assert!(find_credit("The week in pictures. The Lowtown Post").is_none());
}

#[test]
fn lead_ins_of_european_wire_pages() {
    for (text, creators, agencies) in [
        (
            "Die Sonne geht über dem Hafen von Kiel unter. Foto: Jana Berg/dpa",
            vec!["Jana Berg"],
            vec!["DPA"],
        ),
        (
            "Ein Mann geht durch ein trockenes Flussbett. Foto: Lukas Ehrlich",
            vec!["Lukas Ehrlich"],
            vec![],
        ),
        (
            "Pescadores reparan sus redes en el puerto. Fotografía: Ana Ruiz/EFE",
            vec!["Ana Ruiz"],
            vec!["EFE"],
        ),
    ] {
        let (got_creators, got_agencies, _) = who(text);
        assert_eq!(got_creators, strings(&creators), "{text}");
        assert_eq!(got_agencies, strings(&agencies), "{text}");
    }
}

#[test]
fn a_name_glued_to_the_closing_year() {
    let text = "Ministers meet at the council building in Karsa, Freedonia. July 19, 2020Ana Ruiz/AP Photo";
    let found = find_credit(text).expect("credit");
    assert_eq!(found.credit.creators, strings(&["Ana Ruiz"]));
    assert_eq!(found.credit.agencies, strings(&["AP"]));
    assert_eq!(found.span.of(text), "Ana Ruiz/AP Photo");
    // A number glued to a word that is no credit stays the caption's.
    assert_eq!(
        find_credit("Fans cheer the 2020Olympics torch in Karsa on Monday morning.")
            .map(|f| f.span),
        None
    );
}

#[test]
fn a_lead_in_glued_to_the_last_word() {
    let text =
        "Rescuers search for survivors under the rubblePhotograph: Mira Sokol/AFP/Getty Images";
    let found = find_credit(text).expect("credit");
    assert_eq!(found.credit.creators, strings(&["Mira Sokol"]));
    assert_eq!(found.credit.agencies, strings(&["AFP", "Getty Images"]));
    assert_eq!(
        found.span.of(text),
        "Photograph: Mira Sokol/AFP/Getty Images"
    );
    // An inner capital with no lead-in is no credit start (`McDonald`).
    assert_eq!(
        find_credit("Diners queue outside a McDonald: the first in town.").map(|f| f.span),
        None
    );
}

#[test]
fn a_credit_set_off_by_a_lone_separator() {
    for text in [
        "A choir rehearses at the opera house in Lowtown, Freedonia. # Mira Sokol / AP",
        "A choir rehearses at the opera house in Lowtown, Freedonia | Mira Sokol / AP",
    ] {
        let found = find_credit(text).unwrap_or_else(|| panic!("no credit in {text:?}"));
        assert_eq!(found.credit.creators, strings(&["Mira Sokol"]), "{text}");
        assert_eq!(found.credit.agencies, strings(&["AP"]), "{text}");
    }
}

#[test]
fn an_agency_named_for_its_image_service_is_no_person() {
    let (creators, agencies, source) =
        who("Riders pass a burnt hillside near Lowtown. Dana Kerr/AAP Image/via REUTERS");
    assert_eq!(creators, strings(&["Dana Kerr"]));
    assert_eq!(agencies, strings(&["AAP Image", "Reuters"]));
    assert_eq!(source, None);
}

#[test]
fn outlets_off_the_list_are_agencies_unless_they_supply() {
    // A one-word outlet beside its photographer, or beside an agency.
    assert_eq!(
        who("Sled dogs rest at a checkpoint on the trail, March 3, 2022. Ana Ruiz/LDN/Pool via REUTERS"),
        (strings(&["Ana Ruiz"]), strings(&["LDN", "Reuters"]), None)
    );
    assert_eq!(
        who("A horse wins by a length at the course TOMAS BERG/PHOTOWIRE"),
        (strings(&["Tomas Berg"]), strings(&["PHOTOWIRE"]), None)
    );
    // Passed on `via` an agency, handed out, or alone: a supplier.
    assert_eq!(
        who("Aid arrives at the camp. Lena Ortiz/UNHCR via AP")
            .2
            .as_deref(),
        Some("UNHCR")
    );
    assert_eq!(
        who("A ship at sea, in a picture released on May 2. LNDF/Handout via REUTERS")
            .2
            .as_deref(),
        Some("LNDF")
    );
    assert_eq!(
        who("A rocket stands on its pad. Image credit: Rocketco")
            .2
            .as_deref(),
        Some("Rocketco")
    );
    // A supplier in another language's words is an organisation too.
    assert_eq!(
        who("Workers march in the capital. REUTERS/Lena Ortiz/Agencia Lowtown/Handout via Reuters"),
        (
            strings(&["Lena Ortiz"]),
            strings(&["Reuters"]),
            Some("Agencia Lowtown".to_string())
        )
    );
    assert_eq!(
        who("The hosts talk in the garden. Bluebird Productions/Tomas Berg"),
        (
            strings(&["Tomas Berg"]),
            vec![],
            Some("Bluebird Productions".to_string())
        )
    );
}

#[test]
fn credits_in_capitals_for_an_outlet_and_picture_ids() {
    assert_eq!(
        who("A heron lifts off the lake at dawn in Kerry TOMAS BERG FOR THE LOWTOWN HERALD"),
        (
            strings(&["Tomas Berg"]),
            strings(&["THE LOWTOWN HERALD"]),
            None
        )
    );
    // A wire's picture id after the name is no party and no prose.
    assert_eq!(
        who("Fairground rides turn at dusk in Lowtown. Tomas Berg / X40917"),
        (strings(&["Tomas Berg"]), vec![], None)
    );
}

#[test]
fn platform_contributors() {
    assert_eq!(
        who("Storm clouds roll over the bay at sunset. (Lowtown Open contributor Ana Ruiz)"),
        (strings(&["Ana Ruiz"]), vec![], None)
    );
    assert_eq!(
        who("A lorikeet feeds on a gum tree. (Lowtown Open contributor birdwatcher_77)"),
        (strings(&["birdwatcher_77"]), vec![], None)
    );
}

#[test]
fn an_agency_label_after_a_bracketed_credit_restates_it() {
    for text in [
        "Men mend nets in Volos, Greece, Monday, Sept. 23, 2024. (AP Photo/Jane Roe)ASSOCIATED PRESS",
        "Men mend nets in Volos, Greece, Monday, Sept. 23, 2024. (AP Photo/Jane Roe) ASSOCIATED PRESS",
    ] {
        let found = find_credit(text).expect("credit");
        assert_eq!(found.credit.raw.as_deref(), Some("AP Photo/Jane Roe"), "{text}");
        assert_eq!(
            (found.credit.creators, found.credit.agencies),
            (strings(&["Jane Roe"]), strings(&["AP"]))
        );
    }
    // A name in capitals after the bracket is no agency label.
    let text = "Men mend nets in Volos, Greece. (AP Photo/Jane Roe) JOHN SMITH";
    assert_ne!(
        find_credit(text).map(|f| f.credit.raw),
        Some(Some("AP Photo/Jane Roe".into()))
    );
}

#[test]
fn escaped_non_breaking_spaces_after_a_credit_are_white_space() {
    assert_eq!(
        who("Smoke rises over the hills near Karsa, Freedonia. REUTERS/Jane Roe &nbsp; &nbsp;"),
        (strings(&["Jane Roe"]), strings(&["Reuters"]), None)
    );
}

#[test]
fn a_name_alone_in_capitals_after_the_description_is_its_credit() {
    assert_eq!(
        who("Hurlers contest the ball during the league final at Nowlan Park SEAMUS RYAN"),
        (strings(&["Seamus Ryan"]), strings(&[]), None)
    );
    assert_eq!(
        who("Floodwater surges through a mountain village, southeast France VALERY HACHE"),
        (strings(&["Valery Hache"]), strings(&[]), None)
    );
    // Capitals that are the sentence's own words are no credit.
    for text in [
        "Delegates gather outside the UN HQ",
        "Crowds watch the game in Boston NBA FINALS",
        "Leaders meet in Paris PRIME MINISTER",
        "A crowd waits at the gate in Karsa ON MONDAY",
    ] {
        assert!(find_credit(text).is_none(), "{text}");
    }
}

#[test]
fn spaces_backwards_are_memrchr_s() {
    for text in [
        "",
        " ",
        "a",
        "a b",
        "  ab  c ",
        "REUTERS/Jane Doe TPX IMAGES OF THE DAY",
    ] {
        let fast: Vec<usize> = super::spaces_backwards(text.as_bytes()).collect();
        let slow: Vec<usize> = memchr::memrchr_iter(b' ', text.as_bytes()).collect();
        assert_eq!(fast, slow, "{text:?}");
    }
}

proptest! {
    #[test]
    fn spaces_backwards_match_memrchr_on_any_text(text in "[a \u{e9}]{0,40}") {
        let fast: Vec<usize> = super::spaces_backwards(text.as_bytes()).collect();
        let slow: Vec<usize> = memchr::memrchr_iter(b' ', text.as_bytes()).collect();
        prop_assert_eq!(fast, slow);
    }
}

/// An agency named inside a sentence's noun phrase is what the sentence
/// speaks of, not its credit; credit words alone leading to it from a
/// sentence start or a comma make it one.
#[test]
fn an_agency_after_a_noun_lead_is_a_credit_only_after_credit_words() {
    for prose in [
        "A selection of the best press photos from Xinhua.",
        "Men wait in the rain outside the offices of Reuters.",
    ] {
        assert!(find_credit(prose).is_none(), "{prose}");
    }
    for (credited, agency) in [
        (
            "A girl flies a kite in Lowtown, Freedonia, May 3, 2019. Photo from Xinhua",
            "Xinhua",
        ),
        (
            "A girl flies a kite in Lowtown, Freedonia, May 3, 2019, courtesy of Reuters",
            "Reuters",
        ),
        (
            "A girl flies a kite in Lowtown, Freedonia, May 3, 2019. Courtesy of AFP",
            "AFP",
        ),
    ] {
        assert_eq!(who(credited).1, strings(&[agency]), "{credited}");
    }
}

proptest! {
    /// The one-plain-word shortcut of `is_prose` reads as the split does.
    #[test]
    fn prose_shortcut_matches_the_split(region in "[a-zA-Z0-9 /.,:©()-]{0,10}|(via|photo|rain|2022|X9|Doe|getty|walks|afp){1,2}") {
        prop_assert_eq!(is_prose(&region), prose_words(&region).any(is_prose_word));
    }
}

proptest! {
    /// The byte reading of an ASCII word is the char reading.
    #[test]
    fn shouted_by_bytes_matches_chars(word in "[a-zA-Z0-9/.É-]{0,8}") {
        prop_assert_eq!(is_shouted(&word), is_shouted_by_chars(&word));
    }
}

/// Credit forms met on real pages: a backslash typed for the slash, a
/// distribution restriction after a pool role, a surname in capitals after
/// a hyphen, an agency's spelled-out name, and a credit in capitals after a
/// country the sentence names.
#[test]
fn credit_forms_from_real_pages() {
    assert_eq!(
        who("Dancers perform in Karsa on June 12, 2022. Mila Orlova\\TASS via Getty Images"),
        (
            strings(&["Mila Orlova"]),
            strings(&["TASS", "Getty Images"]),
            None
        )
    );
    assert_eq!(
        who("A minister speaks in Lowtown, 12 June 2023. EPA-EFE/Paul Vidal / POOL MAXPPP OUT"),
        (strings(&["Paul Vidal"]), strings(&["EPA"]), None)
    );
    assert_eq!(
        who("A vendor sells bread in Karsa on March 3, 2021. Samir Al-HADDAD / AFP"),
        (strings(&["Samir Al-Haddad"]), strings(&["AFP"]), None)
    );
    assert_eq!(
        who("A nurse holds a baby in Karsa, May 4, 2020. European Pressphoto Agency"),
        (strings(&[]), strings(&["EPA"]), None)
    );
    assert_eq!(
        who("Guards march by the palace in Lowtown, part of the UK EPA-EFE/TOM HALE"),
        (strings(&["Tom Hale"]), strings(&["EPA"]), None)
    );
}

#[test]
fn a_name_after_a_cut_off_credit_label_is_a_credit() {
    let text = "Sunbathers rest in a park in Karsa. Lena Ortiz";
    let start = text.find("Lena").expect("name");
    assert_eq!(find_credit(text), None);
    let found = super::find_labelled_credit(text, start).expect("credit");
    assert_eq!(found.credit.creators, strings(&["Lena Ortiz"]));
    assert_eq!(found.span, crate::span::Span::new(start, text.len()));
    // The label vouches for a credit, not for prose.
    let text = "Sunbathers rest in a park in Karsa. the heat goes on";
    assert_eq!(
        super::find_labelled_credit(text, text.find("the").expect("the")),
        None
    );
}

#[test]
fn a_label_after_a_sentence_end_opens_the_credit() {
    // The sentence before the label reads like a credit (capitals, a
    // date), but the label says where the credit starts.
    assert_eq!(
        who("Worshippers light candles at St. Mary's Church in Lowtown May 2, 2019. PHOTO : REUTERS"),
        (vec![], strings(&["Reuters"]), None)
    );
    assert_eq!(
        who("A bakery opens in Lowtown. Ana and Li. Photo: Courtesy Acme Events"),
        (vec![], vec![], Some("Acme Events".to_string()))
    );
}

#[test]
fn a_bracket_never_closed_is_no_part_of_the_credit() {
    // A caption cut inside its credit.
    assert_eq!(
        who("Horses pull a cart through the park. (AP Photo/Jane Doe"),
        (strings(&["Jane Doe"]), strings(&["AP"]), None)
    );
}

#[test]
fn getty_images_for_a_client_credits_getty_images() {
    assert_eq!(
        who("Guests arrive at a gala in Lowtown. (Photo by Jane Doe/Getty Images for Acme Festival)"),
        (strings(&["Jane Doe"]), strings(&["Getty Images"]), None)
    );
}

#[test]
fn an_outlet_named_with_the_keeps_it() {
    assert_eq!(
        who("A candidate speaks in Lowtown. Picture: Jane Doe/The Herald"),
        (strings(&["Jane Doe"]), strings(&["The Herald"]), None)
    );
}

#[test]
fn a_credit_set_off_by_a_glued_dash() {
    // A page laid out in a table, each caption closed by `—CREDIT`.
    assert_eq!(
        who("Pilgrims view relics at the cathedral in Lowtown. The show runs until July 2. —JANE DOE"),
        (strings(&["Jane Doe"]), vec![], None)
    );
    assert_eq!(
        who("Cadets march at a base in Karsa on Monday, July 3, 2023. The drill ends today. —NIÑO ANA RUIZ"),
        (strings(&["Niño Ana Ruiz"]), vec![], None)
    );
    assert_eq!(
        who("Leaders shake hands in Karsa. —AFP"),
        (vec![], strings(&["AFP"]), None)
    );
    assert_eq!(
        who("Jets fly over the base at dawn.\u{2014}JANE DOE"),
        (strings(&["Jane Doe"]), vec![], None)
    );
    assert!(find_credit("The team wins again \u{2014}Coach says").is_none());
}
