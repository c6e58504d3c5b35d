//! The segmenter on pages written for these tests, one layout each.

use super::*;

fn texts(input: &str) -> Vec<String> {
    segment(input)
        .iter()
        .map(|c| crate::text::normalize_whitespace(&c.text(input)))
        .collect()
}

#[test]
fn the_fitted_weights_belong_to_these_features() {
    assert_eq!(
        weights::FEATURES
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        features::feature_names(),
        "features changed: run `cargo xtask fit-segment`"
    );
    assert_eq!(weights::EMIT.len(), features::N_FEATURES);
}

#[test]
fn paragraphs_are_captions() {
    let input = "A boy walks past a mural in Lowtown, Freedonia, May 2, 2016. REUTERS/Jane Doe\n\nGirls play football on a dusty pitch in Karsa, June 3, 2019. (AP Photo/Ana Ruiz)\n";
    assert_eq!(texts(input).len(), 2);
}

#[test]
fn chrome_is_dropped_and_credit_lines_join() {
    let input = "Edition:\nUnited States\n\nPictures | Tue Mar 15, 2016 | 12:02am IST\n\nLowtown's long winter\n\nShare\nTweet\n\n\
                 Agency / Monday, May 2, 2016\nMen clear snow from a roof in Lowtown, Freedonia, May 2, 2016.\nJane Doe/AP Photo\nClose\n1 / 23\n\n\
                 3 of16 Women queue for bread in Karsa, Freedonia, March 3, 2016.\nShow More Show Less\n";
    assert_eq!(
        texts(input),
        [
            "Men clear snow from a roof in Lowtown, Freedonia, May 2, 2016. Jane Doe/AP Photo",
            "Women queue for bread in Karsa, Freedonia, March 3, 2016."
        ]
    );
}

#[test]
fn wrapped_lines_and_tags() {
    let input = "<p>A car burns outside a building in Karsa February 10, 2012,\nin this handout picture released by a ministry. REUTERS/Handout</p>\nClose\n";
    assert_eq!(
        texts(input),
        ["A car burns outside a building in Karsa February 10, 2012, in this handout picture released by a ministry. REUTERS/Handout"]
    );
}

#[test]
fn truncated_copies_are_marked() {
    let input = "Next\nNeighbours form a human chain to pass bricks away from a collapsed block in Karsa, February 6,…\n";
    let found = segment(input);
    assert_eq!(found.len(), 1);
    assert!(found[0].truncated);
}

#[test]
fn one_caption_per_line_without_blank_lines() {
    let input = "Pictures\nThe long road\nFamilies wait at the border crossing near Karsa, Freedonia, May 2, 2016. REUTERS/Jane Doe\n\
                 A boy sleeps on a bench at the station in Lowtown, Freedonia, May 3, 2016. REUTERS/Ana Ruiz\n2 / 9\n\
                 Volunteers hand out bread at the camp outside Karsa, May 4, 2016. REUTERS/Jane Doe\n";
    assert_eq!(texts(input).len(), 3);
}

#[test]
fn a_credit_after_a_blank_line_joins_its_caption() {
    let input = "Photo 1 of 3\n\nVoters queue outside a school in Karsa, Freedonia, 2 May 2016.\n\nEFE/EPA/Ana Ruiz\n\nPhoto 2 of 3\n\nA man casts his ballot in Lowtown, Freedonia, 2 May 2016.\n\nEPA/JANE DOE\n";
    assert_eq!(
        texts(input),
        [
            "Voters queue outside a school in Karsa, Freedonia, 2 May 2016. EFE/EPA/Ana Ruiz",
            "A man casts his ballot in Lowtown, Freedonia, 2 May 2016. EPA/JANE DOE"
        ]
    );
}

#[test]
fn a_link_glued_to_a_credit_after_a_blank_line_is_left_out() {
    let input = "\u{2022} Mar 2, 2021 10:15\n\nLanterns drift on the river at the festival in Lowtown.\n\n(Ana Ruiz/Lowtown Herald)read more\n\
                 \u{2022} Mar 1, 2021 09:02\n\nA ferry leaves the harbour at Karsa at dawn as the first snow falls on the hills.\n\n(REUTERS)Read More\n";
    assert_eq!(
        texts(input),
        [
            "Lanterns drift on the river at the festival in Lowtown. (Ana Ruiz/Lowtown Herald)",
            "A ferry leaves the harbour at Karsa at dawn as the first snow falls on the hills. (REUTERS)"
        ]
    );
}

#[test]
fn a_labelled_source_before_its_caption_goes_after_it() {
    let input = "Week in pictures\n\nImage source, Ana Ruiz/Reuters\nImage caption, Fishermen haul their boats up the beach at Karsa as a storm nears.\n\n\
                 Image copyright Jane Doe/AFP Image caption Children fly kites over the dunes outside Lowtown on Sunday.\n";
    assert_eq!(
        texts(input),
        [
            "Fishermen haul their boats up the beach at Karsa as a storm nears. Ana Ruiz/Reuters",
            "Children fly kites over the dunes outside Lowtown on Sunday. Jane Doe/AFP"
        ]
    );
}

#[test]
fn headlines_and_lists_are_not_captions() {
    let input = "The world in pictures: scenes from a turbulent decade\n\nA selection of images from the photographers.\n\n1. Storm warning issued for the coast\n2. City council approves budget\n\nTerms of Use | Privacy Notice | Your Privacy Choices\n";
    assert!(texts(input).is_empty());
}

#[test]
fn explain_gives_every_line_a_kind_and_a_reason() {
    let input = "Share\n\nMen clear snow from a roof in Lowtown, Freedonia, May 2, 2016. REUTERS/Jane Doe\n";
    let report = explain(input);
    assert_eq!(report.len(), 2);
    assert_eq!(report[0].kind, LineKind::Chrome);
    assert_eq!(report[1].kind, LineKind::CaptionStart);
    assert!(report.iter().all(|r| !r.reasons.is_empty()));
}

/// `parse_span` reuses the credit the segmenter read off a one-line
/// caption; the record must be the one `parse` gives for the same text,
/// except where a credit label was cut off before it (`Image copyright
/// Jane Doe`): there the segmenter knows the words are a credit, which the
/// text alone does not say, so the record always has one.
#[test]
fn parse_span_gives_the_record_parse_gives() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let pages =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dateline/tests/data/pages");
    let mut inputs: Vec<String> = std::fs::read_dir(&pages)
        .expect("the dateline crate's page fixtures")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "txt").then(|| std::fs::read_to_string(path).ok())?
        })
        .collect();
    inputs.push(
        "Men  rest in\tKarsa, May 2, 2016.\u{a0}REUTERS/Jane Doe\n\nShare\n\nA boy runs in Lowtown. Jane Doe/AFP via Getty Images\nAFP\n".to_string(),
    );
    let mut n_reused = 0;
    for input in &inputs {
        for found in segment(input) {
            n_reused += usize::from(found.credit_read.is_some());
            if found.labelled_credit {
                let record = crate::parse_span(input, found.clone(), gazetteer);
                assert!(record.credit.raw.is_some(), "{:?}", found.text(input));
                continue;
            }
            assert_eq!(
                crate::parse_span(input, found.clone(), gazetteer),
                crate::parse(&found.text(input), gazetteer),
                "{:?}",
                found.text(input)
            );
        }
    }
    assert!(
        n_reused > 10,
        "the segmenter's credits are reused: {n_reused}"
    );
}

#[test]
fn a_place_heading_joins_the_caption_below() {
    let input = "The day in pictures\n-\nKigali, Rwanda\nCyclists climb a cobbled hill during the opening stage of the national tour.Photograph: Jane Roe/Reuters\n-\nA headline of the day\nFarmers carry crates of grapes between the vines in Mendoza.Photograph: Ana Ruiz/AP\n";
    assert_eq!(
        texts(input),
        [
            "Kigali, Rwanda Cyclists climb a cobbled hill during the opening stage of the national tour.Photograph: Jane Roe/Reuters",
            "Farmers carry crates of grapes between the vines in Mendoza.Photograph: Ana Ruiz/AP",
        ]
    );
}

#[test]
fn alt_text_before_a_credit_label_opens_the_caption() {
    let input = "Week in pictures\nBoats at dawn in Karsa harbour Image copyright EPA\nImage caption Fishermen push their boats into the surf at first light in Karsa, Freedonia, on Monday.\nMan with cart Image copyright Reuters\nImage caption A vendor hauls his cart of chestnuts through the snow in Lowtown.\n";
    assert_eq!(
        texts(input),
        [
            "Boats at dawn in Karsa harbour Fishermen push their boats into the surf at first light in Karsa, Freedonia, on Monday. EPA",
            "Man with cart A vendor hauls his cart of chestnuts through the snow in Lowtown. Reuters",
        ]
    );
}

#[test]
fn a_credit_between_alt_text_and_a_labelled_caption_is_the_caption_below() {
    let input = "Boys fish from a jetty in Lowtown, Freedonia, 3 May 2018 Image copyright EPA\n\
                 Image caption On Thursday, boys cast their lines off the old jetty in Lowtown.\n";
    let lines = line::read_lines(input);
    assert_eq!(lines.len(), 3, "alt text, credit and caption");
    // However the model read the credit, the labels make it the caption's below.
    let read = [
        LineKind::CaptionStart,
        LineKind::CreditAfter,
        LineKind::CaptionStart,
    ];
    let credits = vec![None; lines.len()];
    let captions = assemble(input, &lines, credits, &[false; 3], &read);
    let texts: Vec<String> = captions
        .iter()
        .map(|c| c.text(input).into_owned())
        .collect();
    assert_eq!(
        texts,
        ["Boys fish from a jetty in Lowtown, Freedonia, 3 May 2018 On Thursday, boys cast their \
          lines off the old jetty in Lowtown. EPA"]
    );
    // Without a caption label after it, the model's side stands.
    let unlabelled =
        "Boys fish from a jetty in Lowtown, Freedonia, 3 May 2018 Image copyright EPA\n\
                      On Thursday, boys cast their lines off the old jetty in Lowtown.\n";
    let lines = line::read_lines(unlabelled);
    let kinds = credits_between_alt_and_caption(unlabelled, &lines, &read);
    assert_eq!(kinds.as_ref(), read);
}

#[test]
fn a_slide_counter_may_stand_between_a_credit_and_its_caption() {
    let input = "Week in photos\n\nREUTERS: Jane Doe\n1 of 3 Full screen\n\nHarbour lights\n\n\
                 Boats return to the harbour in Gdansk, Poland, at dusk on Tuesday as the season opens.\n\n\
                 AP Photo: Ana Ruiz\n2 of 3 Full screen\n\nSalt pans\n\n\
                 Workers rake salt into heaps at the pans in Trapani, Italy, on Wednesday morning.\n\n\
                 AFP: Li Wei\n3 of 3 Full screen\n\nFirst frost\n\n\
                 A grower lights candles between rows of vines in Mendoza, Argentina, on Thursday night.\n";
    let found = texts(input);
    // Each credit goes with the caption below it, never the one above.
    assert!(found.len() >= 2, "{found:?}");
    for caption in &found {
        assert!(
            caption.ends_with("opens. REUTERS: Jane Doe")
                || caption.ends_with("morning. AP Photo: Ana Ruiz")
                || caption.ends_with("night. AFP: Li Wei"),
            "{found:?}"
        );
    }
}

#[test]
fn a_credit_with_the_next_slide_counter_glued_on_stays_a_credit() {
    // A slideshow that prints each credit with the counter of the slide
    // after it on one line (`Credit:NAME 2/ 3`).
    let input = "Photos of the week\n1/ 3\n\
                 Ferry passengers wave from the top deck as the boat leaves Lowtown harbour.\n\
                 Credit:Ana Ruiz 2/ 3\n\
                 A baker lays out loaves on the market stalls of Hilltop before dawn.\n\
                 Credit:Li Wei 3/ 3\n";
    let found = texts(input);
    assert_eq!(
        found,
        [
            "Ferry passengers wave from the top deck as the boat leaves Lowtown harbour. \
             Credit:Ana Ruiz",
            "A baker lays out loaves on the market stalls of Hilltop before dawn. Credit:Li Wei",
        ]
    );
}
