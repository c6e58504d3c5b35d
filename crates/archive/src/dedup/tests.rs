//! Pairs of invented wire captions that must fall into one cluster, and
//! pairs that must not.

use std::collections::HashSet;

use super::*;

fn features(caption: &str) -> Features {
    let record = caption::parse(caption, gazetteer::Gazetteer::embedded());
    let value = serde_json::to_value(&record).expect("records serialize");
    Features::of_record(&value)
}

fn shares_a_key(a: &Features, b: &Features) -> bool {
    let keys: HashSet<i64> = a.lsh_keys().into_iter().collect();
    b.lsh_keys().iter().any(|k| keys.contains(k))
}

/// Same photo: found as a candidate and confirmed.
fn assert_merge(a: &str, b: &str) {
    let (fa, fb) = (features(a), features(b));
    assert!(shares_a_key(&fa, &fb), "no shared LSH key:\n{a}\n{b}");
    assert!(same_photo(&fa, &fb), "should merge:\n{a}\n{b}");
    assert!(same_photo(&fb, &fa), "should merge (reversed):\n{b}\n{a}");
}

fn assert_apart(a: &str, b: &str) {
    let (fa, fb) = (features(a), features(b));
    assert!(!same_photo(&fa, &fb), "should stay apart:\n{a}\n{b}");
    assert!(
        !same_photo(&fb, &fa),
        "should stay apart (reversed):\n{b}\n{a}"
    );
}

const MARKET: &str = "A vendor arranges oranges at a stall in the old market of Homs, Syria, April 4, 2016. REUTERS/Lina Haddad";

#[test]
fn corrected_date_merges() {
    assert_merge(
        MARKET,
        "A vendor arranges oranges at a stall in the old market of Homs, Syria, April 14, 2016. REUTERS/Lina Haddad",
    );
}

#[test]
fn added_sentence_merges() {
    assert_merge(
        MARKET,
        "A vendor arranges oranges at a stall in the old market of Homs, Syria, April 4, 2016. Prices of fresh fruit have tripled since the siege of the city began. REUTERS/Lina Haddad",
    );
}

#[test]
fn another_credit_format_merges() {
    assert_merge(
        MARKET,
        "A vendor arranges oranges at a stall in the old market of Homs, Syria, April 4, 2016. (Photo by LINA HADDAD/Reuters)",
    );
}

#[test]
fn light_wording_edit_merges() {
    assert_merge(
        "Displaced children queue for bread at a distribution point in the Bab al-Salama camp near Azaz, Syria February 9, 2016. (AP Photo/Karim Mansour)",
        "Displaced Syrian children queue for bread at a food distribution point in the Bab al-Salama camp near Azaz, Syria February 9, 2016. (AP Photo/Karim Mansour)",
    );
}

#[test]
fn truncated_copy_merges_both_ways() {
    let full = "Firefighters spray water on a burning warehouse after shelling in the industrial zone of Hama, Syria, June 2, 2017. The fire spread to two nearby buildings before it was contained. REUTERS/Tarek Aziz";
    let cut = "Firefighters spray water on a burning warehouse after shelling in the industrial zone of Ha...more";
    assert_merge(full, cut);
}

#[test]
fn same_photographer_and_place_different_scene_stays_apart() {
    assert_apart(
        "A boy rides a bicycle past damaged buildings in the rebel-held Douma neighbourhood of Damascus, Syria, May 3, 2016. REUTERS/Nabil Sarraf",
        "A man carries a wounded child past damaged buildings in the rebel-held Douma neighbourhood of Damascus, Syria, May 3, 2016. REUTERS/Nabil Sarraf",
    );
    assert_apart(
        MARKET,
        "Shoppers crowd the narrow lanes of the old market of Homs, Syria, April 4, 2016, ahead of the holiday. REUTERS/Lina Haddad",
    );
}

#[test]
fn shared_background_sentence_stays_apart() {
    let background = "More than 250,000 people have been killed in the five-year conflict, according to monitoring groups.";
    assert_apart(
        &format!("Rescue workers search for survivors under the rubble of a collapsed house in Idlib, Syria, March 8, 2016. {background} REUTERS/Ammar Khalil"),
        &format!("A woman mourns beside the coffin of her son during a funeral in Idlib, Syria, March 8, 2016. {background} REUTERS/Ammar Khalil"),
    );
}

#[test]
fn same_words_other_photographer_or_place_stays_apart() {
    assert_apart(
        MARKET,
        "A vendor arranges oranges at a stall in the old market of Homs, Syria, April 4, 2016. REUTERS/Samir Khoury",
    );
    assert_apart(
        MARKET,
        "A vendor arranges oranges at a stall in the old market of Aleppo, Syria, April 4, 2016. REUTERS/Lina Haddad",
    );
    // Two components of the date differ: another day's photo, not a fix.
    assert_apart(
        MARKET,
        "A vendor arranges oranges at a stall in the old market of Homs, Syria, September 19, 2016. REUTERS/Lina Haddad",
    );
}

#[test]
fn short_cut_copy_does_not_join_anything() {
    assert_apart(MARKET, "A vendor arranges oranges...more");
}

#[test]
fn normal_form_drops_dates_numbers_and_case() {
    let (tokens, scene) =
        normal_form("On Tuesday, May 3, 2016, TWO Men walk. They talk in Ḩarastā.");
    assert_eq!(tokens, ["two", "men", "walk", "they", "talk", "harasta"]);
    assert_eq!(scene, 3);
}

#[test]
fn typed_and_json_features_agree() {
    for caption in [
        MARKET,
        "Firefighters spray water on a burning warehouse after shelling in the industrial zone of Ha...more",
        "On Tuesday, May 3, 2016, TWO Men walk. They talk in Ḩarastā.",
        "Displaced children queue for bread near Azaz, Syria February 9, 2016. (AP Photo/Karim Mansour)",
    ] {
        let record = caption::parse(caption, gazetteer::Gazetteer::embedded());
        let value = serde_json::to_value(&record).expect("records serialize");
        assert_eq!(Features::of_caption(&record), Features::of_record(&value));
    }
}

#[test]
fn interned_fingerprints_compare_as_hashed_ones() {
    let pairs = [
        (MARKET, "A vendor arranges oranges at a stall in the old market of Homs, Syria, April 14, 2016. REUTERS/Lina Haddad"),
        (MARKET, "A vendor arranges oranges at a stall in the old market of Homs, Syria, September 19, 2016. REUTERS/Lina Haddad"),
        (MARKET, "A vendor arranges oranges...more"),
    ];
    let mut interner = Interner::default();
    for (a, b) in pairs {
        let (fa, fb) = (features(a).fingerprint(), features(b).fingerprint());
        let (ia, ib) = (fa.intern(&mut interner), fb.intern(&mut interner));
        assert_eq!(fa.same_photo(&fb), ia.same_photo(&ib), "{a}\n{b}");
    }
}
