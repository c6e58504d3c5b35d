//! Date finding on invented captions, and round trips of every wire style.

use proptest::prelude::*;

use super::*;

fn all(text: &str) -> DatesFound {
    find_dates(text, Span::new(0, text.len()))
}

/// `date_created` as ISO text.
fn created(text: &str) -> Option<String> {
    all(text).created.map(|d| d.to_string())
}

/// Every mention as (ISO date, role, words).
fn mentions(text: &str) -> Vec<(String, DateRole, String)> {
    all(text)
        .mentions
        .into_iter()
        .map(|m| (m.date.to_string(), m.role, m.text))
        .collect()
}

#[test]
fn wire_styles_of_the_scene_date() {
    for (text, iso) in [
        (
            "Men fish off the pier in Lowtown, Freedonia October 7, 2016.",
            "2016-10-07",
        ),
        (
            "Men fish off the pier in Lowtown, Oct. 7, 2016.",
            "2016-10-07",
        ),
        ("Men fish off the pier in Lowtown Oct 7 2016.", "2016-10-07"),
        (
            "Men fish off the pier in Lowtown, Sept. 3, 2015.",
            "2015-09-03",
        ),
        (
            "Men fish off the pier in Lowtown on 7 October 2016.",
            "2016-10-07",
        ),
        (
            "Men fish off the pier in Lowtown, 05 August 2020, at dusk.",
            "2020-08-05",
        ),
        (
            "Men fish off the pier in Lowtown on the 7th of October 2016.",
            "2016-10-07",
        ),
        (
            "Men fish off the pier in Lowtown on October 7th, 2016.",
            "2016-10-07",
        ),
        (
            "Men fish off the pier in Lowtown, Friday, Oct. 7, 2016.",
            "2016-10-07",
        ),
        (
            "Men fish off the pier in Lowtown on 2016-10-07.",
            "2016-10-07",
        ),
        ("Men fish off the pier in Lowtown, October 2016.", "2016-10"),
        (
            "Men fish off the pier in Lowtown in mid-March 2021.",
            "2021-03",
        ),
        (
            "Men fish off the pier in Lowtown, Dec. 12-13, 2016.",
            "2016-12-12",
        ),
    ] {
        assert_eq!(created(text).as_deref(), Some(iso), "{text}");
    }
}

#[test]
fn release_dates_are_published_not_created() {
    let text = "This photo released Sunday, Sept. 3, 2017, by the Freedonian state news agency shows a parade in Lowtown.";
    assert_eq!(created(text), None);
    assert_eq!(
        mentions(text),
        vec![(
            "2017-09-03".into(),
            DateRole::Published,
            "Sunday, Sept. 3, 2017".into()
        )]
    );
    let text = "A bridge in Lowtown in a handout picture provided by the Freedonian Transport Ministry on March 27, 2016.";
    assert_eq!(all(text).mentions[0].role, DateRole::Published);
    let text = "Soldiers march in this still image from amateur video uploaded on April 16, 2011.";
    assert_eq!(created(text), None);
    let text = "Jets taxi in this image taken from video released by Freedonia's Defence Ministry on November 19, 2015.";
    assert_eq!(all(text).mentions[0].role, DateRole::Published);
}

#[test]
fn release_verbs_release_only_the_image() {
    // The aid was distributed, not the picture: the date is the scene's.
    let text = "Women queue for flour distributed by a charity in Karsa, Freedonia, July 10, 2016.";
    assert_eq!(created(text).as_deref(), Some("2016-07-10"));
    let text =
        "Men rest in Karsa in this handout picture distributed by the army on July 10, 2016.";
    assert_eq!(created(text), None);
}

#[test]
fn background_dates_are_other() {
    let text = "A girl sits in a tent in Lowtown, Freedonia May 2, 2016. Fighting has raged since September 30, 2015.";
    assert_eq!(created(text).as_deref(), Some("2016-05-02"));
    assert_eq!(all(text).mentions[1].role, DateRole::Other);
    let text = "Rescuers search the rubble in Porto Lume, February 20, 2023, two weeks after the February 6 quake.";
    let found = mentions(text);
    assert_eq!(
        found[1],
        ("2023-02-06".into(), DateRole::Other, "February 6".into())
    );
    assert_eq!(created(text).as_deref(), Some("2023-02-20"));
    // The only date of the scene keeps its role despite a weak cue.
    assert_eq!(
        created("Children play after school in Lowtown on May 2, 2016.").as_deref(),
        Some("2016-05-02")
    );
}

#[test]
fn the_dateline_date_wins_over_an_earlier_event() {
    let text = "Boys play in a school hit on March 3, 2016, in Lowtown, Freedonia, May 2, 2016.";
    assert_eq!(created(text).as_deref(), Some("2016-05-02"));
    let text = "A man walks on May 2, 2016 past a shop shut on March 5, 2015.";
    assert_eq!(created(text).as_deref(), Some("2016-05-02"));
}

#[test]
fn taken_phrases_win_and_work_in_any_sentence() {
    let text = "Boys climb a wall in Lowtown. Residents left the town in 2014. Picture taken November 26, 2014.";
    assert_eq!(created(text).as_deref(), Some("2014-11-26"));
    let text = "FILE - In this Aug. 26, 2013, file photo, inspectors leave Lowtown. On Tuesday, May 27, 2014, the board met.";
    assert_eq!(created(text).as_deref(), Some("2013-08-26"));
    assert_eq!(
        created("In this Tuesday, July 29, 2014, photo, a boy poses in Lowtown.").as_deref(),
        Some("2014-07-29")
    );
    assert_eq!(
        created("(FILES) This file picture taken in 2010 shows a market in Lowtown.").as_deref(),
        Some("2010")
    );
    assert_eq!(
        created("A man who left in 2012 sits in a tent in Lowtown."),
        None
    );
    assert_eq!(
        created("A 2012 photo shows a tent in Lowtown.").as_deref(),
        Some("2012")
    );
}

#[test]
fn yearless_dates_borrow_only_from_the_caption() {
    assert_eq!(
        created("Snow falls on a camp in Lowtown. Picture taken February 13."),
        None
    );
    assert!(
        all("Snow falls on a camp in Lowtown. Picture taken February 13.")
            .mentions
            .is_empty()
    );
    let text = "LOWTOWN, FREEDONIA - DECEMBER 15: Buses leave the city on December 15, 2016 in Lowtown, Freedonia.";
    let found = mentions(text);
    assert_eq!(
        found[0],
        ("2016-12-15".into(), DateRole::Created, "DECEMBER 15".into())
    );
    assert_eq!(created(text).as_deref(), Some("2016-12-15"));
}

#[test]
fn invalid_dates_and_weekdays() {
    assert_eq!(
        created("A man walks in Lowtown on February 30, 2016."),
        None
    );
    // 7 October 2016 was a Friday.
    let found = all("A man walks in Lowtown, Wednesday, Oct. 7, 2016.");
    assert!(found.weekday_mismatch);
    assert_eq!(
        found.created.map(|d| d.to_string()).as_deref(),
        Some("2016-10-07")
    );
    assert!(!all("A man walks in Lowtown, Friday, Oct. 7, 2016.").weekday_mismatch);
}

#[test]
fn words_and_numbers_that_are_not_dates() {
    for text in [
        "A march in Lowtown drew 2016 people.",
        "They may 5 times a day pray.",
        "The clinic opened in the 1990s and has 2,016 beds.",
        "The 2015-16 season ended in Lowtown.",
        "Trucks carry 5 tonnes of aid on road 7.",
        "Open 24/7 since March.",
    ] {
        assert!(
            all(text).mentions.is_empty(),
            "{text}: {:?}",
            mentions(text)
        );
    }
}

#[test]
fn only_the_description_is_scanned() {
    let text = "A man walks in Lowtown, May 2, 2016. Reuters / Monday, April 25, 2011";
    let found = find_dates(text, Span::new(0, 36));
    assert_eq!(found.mentions.len(), 1);
}

/// Months as the wire writes them: full, AP abbreviation.
const MONTHS: [(&str, &str); 12] = [
    ("January", "Jan."),
    ("February", "Feb."),
    ("March", "March"),
    ("April", "April"),
    ("May", "May"),
    ("June", "June"),
    ("July", "July"),
    ("August", "Aug."),
    ("September", "Sept."),
    ("October", "Oct."),
    ("November", "Nov."),
    ("December", "Dec."),
];

/// A valid date and a wire style to print it in.
fn date_and_style() -> impl Strategy<Value = (i16, u8, u8, usize)> {
    (1900i16..2100, 1u8..=12, 1u8..=31, 0usize..9)
        .prop_filter("on the calendar", |&(y, m, d, _)| {
            jiff::civil::Date::new(y, m as i8, d as i8).is_ok()
        })
}

/// Prints a date in wire style number `style`.
fn print(year: i16, month: u8, day: u8, style: usize) -> String {
    let (full, ap) = MONTHS[usize::from(month - 1)];
    let weekday = jiff::civil::Date::new(year, month as i8, day as i8)
        .map(|d| format!("{:?}", d.weekday()))
        .unwrap_or_default();
    match style {
        0 => format!("{full} {day}, {year}"),
        1 => format!("{ap} {day}, {year}"),
        2 => format!("{} {day} {year}", &full[..3]),
        3 => format!("{day} {full} {year}"),
        4 => format!("{day:02} {full} {year}"),
        5 => format!("{full} {day}th, {year}"),
        6 => format!("{weekday}, {ap} {day}, {year}"),
        7 => format!("{year}-{month:02}-{day:02}"),
        _ => format!("{} {day}, {year}", full.to_uppercase()),
    }
}

proptest! {
    #[test]
    fn every_wire_style_scans_back((year, month, day, style) in date_and_style()) {
        let written = print(year, month, day, style);
        let text = format!("Boats rest in the harbour of Porto Lume, Freedonia {written}. REUTERS/Lena Ortiz");
        let found = find_dates(&text, Span::new(0, text.find(". REUTERS").unwrap_or(text.len()) + 1));
        let expected = PartialDate { year, month: Some(month), day: Some(day) };
        prop_assert_eq!(found.created, Some(expected));
        prop_assert_eq!(&found.mentions[0].text, &written);
        prop_assert!(!found.weekday_mismatch);
    }

    #[test]
    fn month_precision_scans_back(year in 1900i16..2100, month in 1u8..=12) {
        let text = format!("Boats rest in the harbour of Porto Lume, {} {year}.", MONTHS[usize::from(month - 1)].0);
        prop_assert_eq!(all(&text).created, Some(PartialDate { year, month: Some(month), day: None }));
    }

    #[test]
    fn never_panics_and_spans_are_sound(text in "\\PC{0,300}", a in 0usize..400, b in 0usize..400) {
        let found = find_dates(&text, Span::new(a.min(b), a.max(b)));
        for mention in &found.mentions {
            prop_assert!(mention.span.start <= mention.span.end && mention.span.end <= text.len());
            prop_assert!(text.is_char_boundary(mention.span.start) && text.is_char_boundary(mention.span.end));
            prop_assert_eq!(mention.span.of(&text), mention.text.as_str());
        }
    }

    #[test]
    fn date_shaped_noise_never_panics(text in "((Mon|Friday|May|Sept|Oct\\.|of|in|taken|since|[0-9]{1,4}|[-,./: ]) ?){0,30}") {
        let _ = all(&text);
    }
}

/// `date_created` of `text`, `-` for none.
fn check(text: &str, expected: &str) {
    assert_eq!(
        created(text).as_deref().unwrap_or("-"),
        expected,
        "{text:?}"
    );
}

#[test]
fn release_phrases_with_names_and_places_between() {
    check("Troops patrol Karsa in this photograph distributed by Freedonia's national news agency FNA on April 4, 2014.", "-");
    check(
        "Smoke rises in Karsa in a picture obtained by Reuters outside Freedonia on May 3, 2021.",
        "-",
    );
    check("Gunmen board a ship in a still from a video filmed during the raid and released by the Karsa Media Office on June 5, 2022.", "-");
    // Aid handed out on a day is the scene, not a release of the picture.
    check(
        "Men queue for flour distributed by the council in Karsa, June 5, 2022.",
        "2022-06-05",
    );
}

#[test]
fn bare_year_closing_the_dateline() {
    check(
        "FILE - A man walks past the old mosque in Karsa, Freedonia, in 2013.",
        "2013",
    );
    check("A man who lost his home in 2013 walks in Karsa.", "-");
    check(
        "A man walks in Karsa, Freedonia, in 2013. The mosque was rebuilt in 2019.",
        "2013",
    );
}

#[test]
fn a_date_that_is_a_sentence_of_its_own_stamps_the_scene() {
    check(
        "Ministers meet at the council building in Karsa, Freedonia. July 19, 2020",
        "2020-07-19",
    );
    check(
        "Fire burns near Karsa, Freedonia. July 22, 2020. The blaze began a week earlier.",
        "2020-07-22",
    );
    // The scene's own date comes first; a bare month and year is no stamp.
    check(
        "Men walk in Karsa on May 2, 2016. June 3, 2016. Archive picture.",
        "2016-05-02",
    );
    check("Men walk in Karsa, Freedonia. June 2016.", "-");
}

#[test]
fn datelines_of_other_wire_styles() {
    check(
        "Voters queue at a school in Porto Lume, Freedonia, 23 July 2023.",
        "2023-07-23",
    );
    check("PORTO LUME, FREEDONIA - MARCH 3: Voters queue at a school on March 3, 2024 in Porto Lume, Freedonia.", "2024-03-03");
    check(
        "PORTO LUME, FREEDONIA - MARCH 3: Voters queue at a school in Porto Lume in 2024.",
        "2024-03-03",
    );
    check(
        "Voters queue at a school in Porto Lume on Feb. 2, 2024.",
        "2024-02-02",
    );
}
