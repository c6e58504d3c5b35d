//! `cargo xtask corpus`: a synthetic corpus of varied, realistic captions for
//! benchmarks and scale tests (invented people, real places, every credit and
//! date convention dateline reads, about 10 % near-duplicates).
//!
//! The output is deterministic for a given seed, so figures are comparable
//! between runs.

use std::io::Write;

/// (settlement as written, region phrase, country as written)
const PLACES: &[(&str, &str, &str)] = &[
    ("Aleppo", "northern Syria", "Syria"),
    ("Damascus", "", "Syria"),
    ("Douma", "eastern Ghouta", "Syria"),
    ("Raqqa", "northern Syria", "Syria"),
    ("Raqa", "", "Syria"),
    ("Deir ez-Zor", "eastern Syria", "Syria"),
    ("Deir al-Zor", "", "Syria"),
    ("Idlib", "Idlib province", "Syria"),
    ("Maarat al-Numan", "Idlib province", "Syria"),
    ("Homs", "", "Syria"),
    ("Hama", "", "Syria"),
    ("Daraa", "southern Syria", "Syria"),
    ("Deraa", "", "Syria"),
    ("Azaz", "", "Syria"),
    ("Latakia", "", "Syria"),
    ("Tartus", "", "Syria"),
    ("Beirut", "", "Lebanon"),
    ("Tripoli", "northern Lebanon", "Lebanon"),
    ("Arsal", "", "Lebanon"),
    ("Mafraq", "", "Jordan"),
    ("Amman", "", "Jordan"),
    ("Mosul", "", "Iraq"),
    ("Erbil", "", "Iraq"),
    ("Baghdad", "", "Iraq"),
    ("Gaza City", "", "Gaza Strip"),
    ("Khan Younis", "southern Gaza Strip", ""),
    ("Rafah", "", "Gaza Strip"),
    ("Kyiv", "", "Ukraine"),
    ("Kiev", "", "Ukraine"),
    ("Kharkiv", "eastern Ukraine", "Ukraine"),
    ("Kharkov", "", "Ukraine"),
    ("Odesa", "southern Ukraine", "Ukraine"),
    ("Lviv", "western Ukraine", "Ukraine"),
    ("Antakya", "southern Turkey", "Turkey"),
    ("Gaziantep", "", "Turkey"),
    ("Suruc", "Sanliurfa province", "Turkey"),
    ("Kabul", "", "Afghanistan"),
    ("Kathmandu", "", "Nepal"),
    ("Cox's Bazar", "", "Bangladesh"),
    ("Khartoum", "", "Sudan"),
    ("Derna", "", "Libya"),
    ("Tripoli", "", "Libya"),
    ("Athens", "", "Greece"),
    ("New Orleans", "", "La."),
    ("Tampa", "", "Fla."),
    ("Paris", "", "France"),
];

const SUBLOCATIONS: &[&str] = &[
    "the Old City market",
    "a makeshift camp",
    "the main square",
    "a field hospital",
    "the central bus station",
    "a damaged school",
    "the Grand Mosque",
    "a bakery",
];

/// Scenes are built from a subject, an action and a setting detail, so a
/// million captions hold tens of thousands of distinct scenes, as a real
/// archive does: with only a dozen fixed scenes, unrelated photos of one
/// place and month look like near-duplicates and clusters grow without end.
const SUBJECTS: &[&str] = &[
    "Men",
    "Women",
    "Children",
    "A boy",
    "A girl",
    "An elderly man",
    "An elderly woman",
    "Rescue workers",
    "Volunteers",
    "Displaced families",
    "Fighters",
    "Soldiers",
    "Medics",
    "Firefighters",
    "Mourners",
    "Protesters",
    "Students",
    "Farmers",
    "Fishermen",
    "Shoppers",
    "Residents",
    "Refugees",
    "Police officers",
    "Aid workers",
    "Journalists",
    "Shepherds",
    "Teachers",
    "Nurses",
    "Labourers",
    "Street vendors",
];
const ACTIONS: &[&str] = &[
    "clear rubble from",
    "carry water containers past",
    "search for survivors near",
    "queue for bread outside",
    "play football beside",
    "sell vegetables outside",
    "gather around",
    "unload boxes of aid near",
    "take cover behind",
    "walk past",
    "sit in front of",
    "repair the roof of",
    "wait for buses outside",
    "pray inside",
    "shelter from the rain under",
    "clean the windows of",
    "paint a mural on",
    "fetch firewood behind",
    "push a cart past",
    "hang laundry beside",
    "stand guard at",
    "inspect the damage to",
    "carry a wounded man out of",
    "celebrate outside",
    "hand out blankets at",
];
const OBJECTS: &[&str] = &[
    "a collapsed building",
    "damaged shops",
    "a mosque",
    "a church",
    "tents",
    "a school",
    "a hospital",
    "a checkpoint",
    "a bakery",
    "a water tower",
    "a burned-out bus",
    "a petrol station",
    "a police station",
    "a football pitch",
    "a bridge",
    "a warehouse",
    "a cemetery",
    "a market stall",
    "an apartment block",
    "a fuel depot",
];

const FIRST: &[&str] = &[
    "Layla", "Omar", "Samir", "Nadia", "Karim", "Yusuf", "Hana", "Rami", "Maria", "Olena", "Tomas",
    "Ahmet", "Farid", "Selin", "Ivan", "Lucia", "Daniel", "Amira", "Bilal", "Zeynep",
];
const LAST: &[&str] = &[
    "Haddad",
    "Nassar",
    "Khoury",
    "Saleh",
    "al-Hamwi",
    "Dakkak",
    "Bondar",
    "Kovalenko",
    "Yilmaz",
    "Demir",
    "Rahimi",
    "Mensah",
    "Ortega",
    "Petrov",
    "Halabi",
    "Sabbagh",
    "Aziz",
    "Mourad",
    "Farouk",
    "Lindqvist",
];

const MONTHS: &[(&str, &str)] = &[
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
const WEEKDAYS: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

const BACKGROUND: &[&str] = &[
    "The town has been shelled almost daily since the offensive began.",
    "Aid agencies say thousands of families have fled the area.",
    "The United Nations has called for a ceasefire to allow aid convoys in.",
    "Residents say power and water have been cut for weeks.",
    "Local officials said the market had reopened only days earlier.",
    "More than 300,000 people have been displaced by the fighting, according to the World Health Organization.",
    "The clinic, run by volunteers, treats dozens of patients a day despite shortages of medicine and fuel.",
    "Government forces and rebel fighters have traded accusations over who was responsible for the attack.",
    "Prices of bread and fuel have tripled since the start of the year, traders said.",
    "The school reopened last month after being closed for more than two years.",
    "Rescue teams worked through the night, using their bare hands where heavy machinery could not reach.",
    "Families returning to the area found their homes looted and fields planted with mines.",
];

/// How many background sentences follow the scene: real wire captions
/// carry none to three (the shared seeds average about 315 bytes).
fn background_sentences(rng: &mut fastrand::Rng) -> usize {
    match rng.u8(..10) {
        0..=1 => 0,
        2..=4 => 1,
        5..=7 => 2,
        _ => 3,
    }
}

/// Writes about `megabytes` MB of blank-line separated captions to `out`.
pub fn write_corpus(out: &mut dyn Write, megabytes: usize, seed: u64) -> std::io::Result<usize> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let target = megabytes * 1_000_000;
    let mut written = 0;
    let mut n_captions = 0;
    let mut previous = String::new();
    while written < target {
        let caption = if !previous.is_empty() && rng.u8(..100) < 10 {
            near_duplicate(&mut rng, &previous)
        } else {
            caption(&mut rng)
        };
        out.write_all(caption.as_bytes())?;
        out.write_all(b"\n\n")?;
        written += caption.len() + 2;
        n_captions += 1;
        previous = caption;
    }
    Ok(n_captions)
}

fn pick<T: Copy>(rng: &mut fastrand::Rng, items: &[T]) -> T {
    items[rng.usize(..items.len())]
}

/// Family-name endings: with the roots in `LAST` they give 200 surnames,
/// so two photographers rarely share one by chance (dedup compares them).
const LAST_ENDINGS: &[&str] = &["", "i", "ov", "ian", "son", "ez", "ani", "oglu", "ek", "is"];

fn person(rng: &mut fastrand::Rng) -> String {
    format!(
        "{} {}{}",
        pick(rng, FIRST),
        pick(rng, LAST),
        pick(rng, LAST_ENDINGS)
    )
}

fn scene(rng: &mut fastrand::Rng) -> String {
    format!(
        "{} {} {}",
        pick(rng, SUBJECTS),
        pick(rng, ACTIONS),
        pick(rng, OBJECTS)
    )
}

fn caption(rng: &mut fastrand::Rng) -> String {
    let (city, region, country) = pick(rng, PLACES);
    let mut place = String::new();
    if rng.bool() {
        place.push_str(&format!("at {} in ", pick(rng, SUBLOCATIONS)));
    } else {
        place.push_str("in ");
    }
    place.push_str(city);
    if !region.is_empty() && rng.bool() {
        place.push_str(", ");
        place.push_str(region);
    }
    if !country.is_empty() {
        place.push_str(", ");
        place.push_str(country);
    }
    let year = 2011 + rng.i32(0..14);
    let month = rng.usize(..12);
    let day = 1 + rng.u8(..28);
    let (long, short) = MONTHS[month];
    let date = match rng.u8(..5) {
        0 => format!("{long} {day}, {year}"),
        1 => format!("{}, {short} {day}, {year}", pick(rng, WEEKDAYS)),
        2 => format!("{day} {long} {year}"),
        3 => format!("{long} {year}"),
        _ => format!("on {long} {day}, {year}"),
    };
    let mut text = format!("{} {place} {date}.", scene(rng));
    match rng.u8(..6) {
        0 => text.push_str(&format!(
            " {}, {}, looks on.",
            pick(rng, FIRST),
            5 + rng.u8(..70)
        )),
        1 => text = format!("In this photo taken {date}, {}", lower_first(&text)),
        2 => text.push_str(" The image could not be independently verified."),
        _ => {}
    }
    for _ in 0..background_sentences(rng) {
        text.push(' ');
        text.push_str(pick(rng, BACKGROUND));
    }
    let photographer = person(rng);
    let credit = match rng.u8(..9) {
        0 => format!("REUTERS/{photographer}"),
        1 => format!("(AP Photo/{photographer})"),
        2 => format!("(Photo by {photographer}/AFP via Getty Images)"),
        3 => format!("AFP PHOTO / {}", photographer.to_uppercase()),
        4 => format!("EPA-EFE/{}", photographer.to_uppercase()),
        5 => format!("(Photo by {photographer}/Anadolu Agency)"),
        6 => format!("{photographer}/AP Photo"),
        7 => "REUTERS/Stringer".to_string(),
        _ => "Handout via REUTERS".to_string(),
    };
    format!("{text} {credit}")
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The same photo seen again: a corrected date, an added sentence, or
/// another credit format.
fn near_duplicate(rng: &mut fastrand::Rng, original: &str) -> String {
    match rng.u8(..3) {
        0 => {
            // A copy cut short the way gallery pages do.
            let cut = original[..original.len() * 2 / 3]
                .rfind(' ')
                .unwrap_or(original.len());
            format!("{}...more", &original[..cut])
        }
        1 => original.replacen(". ", &format!(". {} ", pick(rng, BACKGROUND)), 1),
        _ => original
            .replace("REUTERS/", "Reuters/")
            .replace("(AP Photo/", "(AP Photo / "),
    }
}
