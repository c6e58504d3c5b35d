//! Word lexicons for name phrases: which class(es) a lowercased word belongs to.
//!
//! Every list here is general knowledge (titles, kinship and role nouns,
//! demonyms, country names, months, place and organization head words), not
//! names taken from any caption. A word may sit in several classes.

use std::sync::LazyLock;

use crate::place::DEMONYMS;
use crate::word_table::{Key, WordTable, MAX_WORD};

/// A set of word classes, one bit each.
pub(crate) type Class = u32;

/// A title or office before a name: `President`, `Gen.`, `leader`, `captain`.
pub(crate) const TITLE: Class = 1;
/// A word that modifies a title (`Vice`, `Prime`, `Foreign`, `former`):
/// part of the title, but no title on its own.
pub(crate) const TITLE_MOD: Class = 1 << 23;
/// A kinship noun: `sister`, `son`, `wife`.
pub(crate) const KIN: Class = 1 << 1;
/// A noun for a person: `refugee`, `fighter`, `girl`, `nurse`.
pub(crate) const ROLE: Class = 1 << 2;
/// An adjective that may stand between an age and a name: `young`, `injured`.
pub(crate) const PERSON_ADJ: Class = 1 << 3;
/// A nationality, ethnic or religious adjective: `Syrian`, `Kurdish`, `Sunni`.
pub(crate) const DEMONYM: Class = 1 << 4;
/// A one-word country (or US state) name: `Syria`, `Jamaica`, `Texas`.
pub(crate) const COUNTRY: Class = 1 << 5;
/// A month name or abbreviation.
pub(crate) const MONTH: Class = 1 << 6;
/// A weekday name or abbreviation.
pub(crate) const WEEKDAY: Class = 1 << 7;
/// A function word: `the`, `in`, `this`, `and`.
pub(crate) const FUNCTION: Class = 1 << 8;
/// A common word that starts captions capitalized: `Rescuers`, `Smoke`, `Displaced`.
pub(crate) const COMMON: Class = 1 << 9;
/// A place or facility noun: `village`, `Street`, `Hospital`, `camp`.
pub(crate) const PLACE: Class = 1 << 10;
/// A word that begins place names: `Mount`, `Khan`, `Tel`, `Deir`.
pub(crate) const PLACE_PREFIX: Class = 1 << 11;
/// A storm word: `Hurricane`, `Storm`, `Typhoon`.
pub(crate) const STORM: Class = 1 << 12;
/// An event, holiday or competition word: `Cup`, `Olympics`, `Eid`.
pub(crate) const EVENT: Class = 1 << 13;
/// The head word of an organization name: `Army`, `Forces`, `Ministry`.
pub(crate) const ORG_HEAD: Class = 1 << 14;
/// A word that begins Arabic armed-group names: `Jaish`, `Ahrar`, `Liwa`.
pub(crate) const ORG_PREFIX: Class = 1 << 15;
/// A lowercase noun that names a group next to its name: `group`, `brigade`.
pub(crate) const ORG_NOUN: Class = 1 << 16;
/// A lowercase name particle: `al`, `bin`, `de`, `van`.
pub(crate) const PARTICLE: Class = 1 << 17;
/// A preposition that introduces places: `in`, `near`, `from`.
pub(crate) const PLACE_PREP: Class = 1 << 18;
/// A noun after which `of X` is a place: `town`, `outskirts`, `east`.
pub(crate) const OF_PLACE: Class = 1 << 19;
/// A third-person pronoun that points back at a person: `she`, `his`.
pub(crate) const PRONOUN: Class = 1 << 20;
/// A verb of saying: `said`, `told`.
pub(crate) const SAY: Class = 1 << 21;
/// A word that forms a place with what follows it as an appositive head: `capital`.
pub(crate) const PLACE_APPOSITIVE: Class = 1 << 22;

/// Internal: the word takes its trailing period (`Gen.`); not a class callers see.
const ABBREVIATION: Class = 1 << 31;

/// Classes that a plural (`-s`) form inherits from its singular.
const PLURAL_CLASSES: Class = DEMONYM | ROLE | KIN | COMMON;

#[rustfmt::skip]
const TITLES: &[&str] = &[
    "president", "minister", "premier", "chancellor", "secretary", "secretary-general", "general",
    "gen", "lt", "lieutenant", "col", "colonel", "maj", "capt", "captain", "cmdr", "commander",
    "sgt", "sergeant", "cpl", "corporal", "pvt", "adm", "admiral", "brig", "brigadier", "marshal",
    "dr", "mr", "mrs", "ms", "sir", "dame", "lord", "lady", "king", "queen", "prince", "princess",
    "emir", "sheikh", "sheik", "sultan", "ayatollah", "pope", "cardinal", "archbishop", "bishop",
    "patriarch", "imam", "rabbi", "mullah", "mufti", "reverend", "rev", "pastor", "governor", "gov",
    "mayor", "senator", "sen", "rep", "representative", "congressman", "congresswoman", "speaker",
    "ambassador", "envoy", "spokesman", "spokeswoman", "spokesperson", "leader", "chief", "head",
    "director", "chairman", "chairwoman", "coach", "manager", "skipper", "officer", "commissioner",
    "judge", "justice", "prosecutor", "inspector", "emperor", "empress", "president-elect",
    "striker", "goalkeeper", "midfielder", "defender", "winger", "forward", "quarterback",
    "pitcher", "batsman", "bowler", "jockey", "founder", "ceo", "mawlawi", "maulana", "prophet",
    "saint", "minister-president", "commander-in-chief", "warlord", "strongman", "dictator",
    "sayyed", "sayyid", "cleric", "preacher", "scholar", "laureate", "monarch", "ruler",
    "chairperson", "guard", "star",
];

#[rustfmt::skip]
const TITLE_MODS: &[&str] = &[
    "vice", "prime", "crown", "grand", "supreme", "deputy", "assistant", "acting", "interim",
    "former", "late", "foreign", "defence", "defense", "interior", "health", "finance", "state",
    "home", "energy", "economy", "trade", "agriculture", "information", "transport", "education",
    "labor", "labour", "culture", "executive", "opposition", "veteran",
];

#[rustfmt::skip]
const KINS: &[&str] = &[
    "sister", "brother", "son", "daughter", "mother", "father", "wife", "husband", "grandson",
    "granddaughter", "grandmother", "grandfather", "grandma", "grandpa", "cousin", "uncle", "aunt",
    "nephew", "niece", "fiancee", "fiance", "fiancée", "fiancé", "girlfriend", "boyfriend",
    "friend", "neighbour", "neighbor", "sibling", "twin", "stepfather", "stepmother", "stepson",
    "stepdaughter", "mom", "mum", "dad", "baby", "infant", "newborn", "widow", "widower",
    "relative", "colleague", "partner", "companion", "comrade", "granddad", "grandchild", "child",
    "kid", "brother-in-law", "sister-in-law", "son-in-law", "daughter-in-law", "mother-in-law",
    "father-in-law",
];

#[rustfmt::skip]
const ROLES: &[&str] = &[
    "man", "woman", "boy", "girl", "toddler", "teenager", "teen", "youth", "youngster", "student",
    "pupil", "refugee", "migrant", "resident", "villager", "farmer", "fisherman", "shepherd",
    "worker", "volunteer", "nurse", "doctor", "medic", "paramedic", "surgeon", "physician",
    "teacher", "fighter", "rebel", "soldier", "militant", "activist", "journalist", "photographer",
    "reporter", "cameraman", "survivor", "victim", "patient", "protester", "protestor",
    "demonstrator", "mourner", "civilian", "shopkeeper", "vendor", "seller", "merchant", "trader",
    "driver", "owner", "evacuee", "pilgrim", "worshipper", "athlete", "player", "runner", "swimmer",
    "gymnast", "sprinter", "boxer", "wrestler", "cyclist", "champion", "medalist", "medallist",
    "footballer", "skier", "skater", "singer", "actor", "actress", "artist", "musician", "author",
    "writer", "poet", "filmmaker", "member", "official", "policeman", "policewoman", "sniper",
    "engineer", "baker", "butcher", "tailor", "barber", "carpenter", "electrician", "firefighter",
    "rescuer", "lawyer", "politician", "lawmaker", "candidate", "voter", "priest", "monk", "nun",
    "employee", "miner", "labourer", "laborer", "cleaner", "cook", "chef", "amputee", "orphan",
    "prisoner", "detainee", "hostage", "captive", "defector", "conscript", "recruit", "sailor",
    "pilot", "diver", "climber", "herder", "nomad", "porter", "smuggler", "boatman", "hairdresser",
    "craftsman", "artisan", "potter", "weaver", "seamstress", "housewife", "fan", "supporter",
    "spectator", "citizen", "local", "mechanic", "guide", "tourist", "visitor", "pensioner",
    "retiree", "dancer", "painter", "designer", "scientist", "researcher", "economist", "analyst",
    "diplomat", "negotiator", "delegate", "entrepreneur", "businessman", "businesswoman",
    "resident", "inhabitant", "householder", "homeowner", "tenant", "landlord", "shopper",
    "customer", "passenger", "traveller", "traveler", "bride", "groom", "pianist", "guitarist",
    "drummer", "rapper", "comedian", "model", "chemist", "pharmacist", "dentist", "veterinarian",
    "midwife", "caregiver", "carer", "gunman", "jihadist", "insurgent", "militiaman", "paratrooper",
    "marine", "serviceman", "servicewoman", "trooper", "cadet", "policeman", "ranger", "hunter",
    "rider", "horseman", "jockey", "racer", "golfer", "batter", "wicketkeeper", "keeper",
    "olympian", "paralympian", "fencer", "rower", "sailor", "surfer", "archer", "lifter",
    "weightlifter", "judoka", "hurdler", "jumper", "thrower", "marathoner", "people", "men",
    "women", "children", "kids", "folks", "person",
];

#[rustfmt::skip]
const PERSON_ADJS: &[&str] = &[
    "young", "little", "old", "elderly", "injured", "wounded", "displaced", "female", "male",
    "local", "former", "late", "fellow", "retired", "disabled", "blind", "deaf", "orphaned",
    "homeless", "pregnant", "teenage", "teenaged", "baby", "newborn", "sick", "ailing", "grieving",
    "bereaved", "missing", "slain", "dead", "deceased", "beloved", "premature", "malnourished",
    "severely", "seriously", "critically", "badly", "lightly", "paralysed", "paralyzed",
    "exhausted", "frightened", "unaccompanied", "orphan", "twin", "eldest", "youngest", "oldest",
    "elder", "younger", "older", "only", "first", "second", "third", "new", "rebel", "opposition",
    "pro-government", "anti-government",
];

/// Demonym-like words that name no one country: peoples, faiths,
/// regions, blocs (`Kurdish`, `Sunni`, `Western`). The nationalities,
/// with their countries, are the place finder's [`DEMONYMS`]: one
/// table for both.
#[rustfmt::skip]
const GROUP_ADJECTIVES: &[&str] = &[
    "european", "tibetan", "african", "asian", "arab", "arabian", "latin", "western", "eastern",
    "northern", "southern", "central", "kurd", "yazidi", "yezidi", "rohingya", "uighur", "uyghur",
    "uygur", "tatar", "chechen", "circassian", "druze", "druse", "alawite", "alawi", "sunni",
    "shiite", "shia", "shi'ite", "christian", "muslim", "jewish", "jew", "catholic", "orthodox",
    "protestant", "evangelical", "coptic", "copt", "assyrian", "chaldean", "hindu", "sikh",
    "buddhist", "islamic", "islamist", "salafist", "bedouin", "berber", "amazigh", "tuareg",
    "hazara", "pashtun", "baloch", "sindhi", "punjabi", "bengali", "tamil", "sinhalese", "hutu",
    "tutsi", "maasai", "zulu", "roma", "romani", "soviet", "ottoman", "persian", "nordic",
    "balkan", "hispanic", "latino", "latina", "aboriginal", "inuit", "muscovite", "kurdistani",
    "iraqi-kurdish", "syrian-kurdish", "afro", "pan-arab", "levantine", "gulf", "sahrawi",
    "darfuri", "nuer", "dinka", "masalit", "fur", "amhara", "tigrayan", "oromo", "turkoman", "u.s",
    "us", "uk", "usa", "un-backed", "olympic", "paralympic", "democratic", "republican", "white",
    "black",
];

#[rustfmt::skip]
const COUNTRIES: &[&str] = &[
    "afghanistan", "albania", "algeria", "andorra", "angola", "argentina", "armenia", "australia",
    "austria", "azerbaijan", "bahamas", "bahrain", "bangladesh", "barbados", "belarus", "belgium",
    "belize", "benin", "bhutan", "bolivia", "bosnia", "botswana", "brazil", "brunei", "bulgaria",
    "burundi", "cambodia", "cameroon", "canada", "chad", "chile", "china", "colombia", "comoros",
    "congo", "croatia", "cuba", "cyprus", "czechia", "denmark", "djibouti", "dominica", "ecuador",
    "egypt", "eritrea", "estonia", "eswatini", "ethiopia", "fiji", "finland", "france", "gabon",
    "gambia", "georgia", "germany", "ghana", "greece", "grenada", "guatemala", "guinea", "guyana",
    "haiti", "honduras", "hungary", "iceland", "india", "indonesia", "iran", "iraq", "ireland",
    "israel", "italy", "jamaica", "japan", "jordan", "kazakhstan", "kenya", "kiribati", "kosovo",
    "kuwait", "kyrgyzstan", "laos", "latvia", "lebanon", "lesotho", "liberia", "libya",
    "liechtenstein", "lithuania", "luxembourg", "madagascar", "malawi", "malaysia", "maldives",
    "mali", "malta", "mauritania", "mauritius", "mexico", "micronesia", "moldova", "monaco",
    "mongolia", "montenegro", "morocco", "mozambique", "myanmar", "burma", "namibia", "nauru",
    "nepal", "netherlands", "nicaragua", "niger", "nigeria", "norway", "oman", "pakistan", "palau",
    "palestine", "panama", "paraguay", "peru", "philippines", "poland", "portugal", "qatar",
    "romania", "russia", "rwanda", "samoa", "senegal", "serbia", "seychelles", "singapore",
    "slovakia", "slovenia", "somalia", "spain", "sudan", "suriname", "sweden", "switzerland",
    "syria", "taiwan", "tajikistan", "tanzania", "thailand", "togo", "tonga", "tunisia", "turkey",
    "türkiye", "turkiye", "turkmenistan", "tuvalu", "uganda", "ukraine", "uruguay", "uzbekistan",
    "vanuatu", "vatican", "venezuela", "vietnam", "yemen", "zambia", "zimbabwe", "england",
    "scotland", "wales", "britain", "america", "europe", "africa", "asia", "kurdistan", "gaza",
    "crimea", "donbas", "donbass", "chechnya", "darfur", "tigray", "kashmir", "tibet", "xinjiang",
    "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware",
    "florida", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky", "louisiana",
    "maine", "maryland", "massachusetts", "michigan", "minnesota", "mississippi", "missouri",
    "montana", "nebraska", "nevada", "ohio", "oklahoma", "oregon", "pennsylvania", "tennessee",
    "texas", "utah", "vermont", "virginia", "washington", "wisconsin", "wyoming", "fla", "la", "ga",
    "calif", "tex", "ariz", "ala", "ark", "colo", "conn", "del", "ill", "ind", "kan", "ky", "md",
    "mass", "mich", "minn", "miss", "mo", "mont", "neb", "nev", "okla", "ore", "pa", "tenn", "va",
    "vt", "wash", "wis", "wyo", "n.y", "n.j", "n.m", "n.c", "n.d", "n.h", "s.c", "s.d", "r.i",
    "w.va", "d.c", "u.s", "u.k", "us", "uk", "usa", "uae", "drc",
];

#[rustfmt::skip]
const MONTHS: &[&str] = &[
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
];

#[rustfmt::skip]
const WEEKDAYS: &[&str] = &[
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue",
    "tues", "wed", "thu", "thur", "thurs", "fri", "sat",
];

#[rustfmt::skip]
const FUNCTIONS: &[&str] = &[
    "a", "an", "the", "this", "that", "these", "those", "in", "at", "on", "of", "for", "from",
    "with", "by", "near", "after", "before", "during", "as", "while", "when", "where", "but", "and",
    "or", "then", "there", "here", "it", "its", "they", "he", "she", "we", "i", "you", "his", "her",
    "their", "our", "my", "some", "many", "most", "more", "several", "few", "all", "both", "each",
    "every", "other", "another", "no", "not", "only", "also", "even", "still", "than", "nearly",
    "about", "around", "almost", "over", "under", "up", "down", "inside", "outside", "above",
    "below", "behind", "beside", "between", "beyond", "across", "along", "through", "toward",
    "towards", "into", "onto", "upon", "amid", "amidst", "among", "against", "despite", "since",
    "until", "till", "because", "although", "though", "if", "so", "yet", "however", "meanwhile",
    "later", "earlier", "today", "yesterday", "tomorrow", "tonight", "now", "once", "again", "just",
    "what", "which", "who", "whom", "whose", "how", "why", "such", "same", "own", "following",
    "according", "per", "via", "like", "unlike", "within", "without", "throughout", "beneath",
    "underneath", "off", "out", "to", "is", "are", "was", "were", "be", "been", "has", "have",
    "had", "will", "would", "can", "could", "may", "might", "must", "shall", "should", "do", "does",
    "did", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thousands", "hundreds", "dozens", "millions", "tens", "scores", "half", "dozen",
    "hundred", "thousand", "million", "billion", "here's", "there's", "it's", "let", "please",
    "yes", "ok", "okay", "oh", "top", "bottom", "left", "right", "above", "caption",
];

#[rustfmt::skip]
const COMMONS: &[&str] = &[
    "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest", "upper",
    "lower", "resident", "rescuer", "girl", "boy", "shopper", "displaced", "evacuee", "neighbour",
    "neighbor", "villager", "relative", "demonstrator", "protester", "mourner", "survivor",
    "firefighter", "passenger", "civilian", "farmer", "customer", "worker", "soldier", "driver",
    "truck", "car", "smoke", "flame", "fire", "debris", "rubble", "dust", "water", "floodwater",
    "snow", "rain", "ice", "mud", "sand", "traffic", "aid", "food", "bread", "life", "crowd",
    "family", "member", "security", "troop", "force", "rebel", "militant", "fighter", "insurgent",
    "gunman", "jihadist", "opposition", "government", "regime", "pro-government", "supporter",
    "fan", "spectator", "athlete", "player", "participant", "pilgrim", "worshipper", "student",
    "pupil", "teacher", "doctor", "medic", "nurse", "volunteer", "journalist", "photographer",
    "official", "lawmaker", "leader", "delegate", "visitor", "tourist", "migrant", "refugee",
    "local", "inhabitant", "citizen", "voter", "wreckage", "destruction", "damage", "ruin",
    "remains", "body", "coffin", "grave", "tent", "building", "house", "home", "street", "road",
    "city", "town", "village", "vehicle", "bus", "tank", "helicopter", "plane", "aircraft", "jet",
    "warplane", "ship", "boat", "explosion", "blast", "shelling", "airstrike", "strike", "clash",
    "fighting", "war", "violence", "protest", "demonstration", "rally", "funeral", "ceremony",
    "celebration", "view", "picture", "photo", "image", "file", "still", "video", "footage",
    "screenshot", "handout", "aerial", "young", "old", "elderly", "little", "small", "big", "large",
    "huge", "heavy", "black", "white", "red", "green", "blue", "yellow", "grey", "gray", "orange",
    "brown", "dark", "light", "bright", "burning", "burned", "burnt", "damaged", "destroyed",
    "collapsed", "wrecked", "injured", "wounded", "dead", "killed", "flooded", "broken", "empty",
    "abandoned", "crowded", "deserted", "armed", "masked", "unidentified", "unknown", "last",
    "next", "first", "second", "third", "final", "front", "back", "main", "man", "woman", "men",
    "women", "child", "children", "people", "kid", "baby", "infant", "toddler", "teenager", "youth",
    "youngster", "member", "resident", "rescue", "emergency", "medical", "relief", "humanitarian",
    "civil", "local", "stranded", "exhausted", "detained", "frightened", "trapped", "grieving",
    "weeping", "smiling", "newly", "recently", "freshly", "heavily", "partially", "completely",
    "badly", "severely", "dozens", "thousands", "hundreds", "scores", "several", "many", "most",
    "some", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "cars",
    "flooding", "floods", "flood", "earthquake", "quake", "storm", "workers", "laundry", "goods",
    "supplies", "trash", "garbage", "waste", "cattle", "sheep", "livestock", "animals", "dogs",
    "cats", "birds", "horses", "camels", "donkeys", "sunlight", "sunset", "sunrise", "darkness",
    "night", "day", "morning", "evening", "afternoon", "dusk", "clouds", "cloud", "sky", "wind",
    "winds", "waves", "wave", "sea", "seawater", "rainwater", "mourners", "mourning", "prayers",
    "prayer", "friends", "relatives", "neighbors", "neighbours", "palestinians", "israelis",
    "syrians", "iraqis", "afghans", "migrants", "rohingya", "ukrainians", "russians", "soldiers",
    "policemen", "police", "officers", "paramedics", "medics", "doctors", "nurses", "engineers",
    "experts", "inspectors", "investigators", "monitors", "observers", "journalists", "reporters",
    "photographers", "cameramen", "activists", "opponents", "loyalists", "allies", "troops",
    "forces", "gunmen", "militants", "insurgents", "rebels", "fighters", "jihadists", "extremists",
    "terrorists", "attackers", "assailants", "suspects", "prisoners", "detainees", "hostages",
    "captives", "defectors", "deserters", "volunteers", "rescuers", "firefighters", "farmers",
    "shepherds", "fishermen", "traders", "vendors", "shopkeepers", "merchants", "customers",
    "shoppers", "buyers", "sellers", "drivers", "passengers", "commuters", "pedestrians",
    "onlookers", "bystanders", "spectators", "fans", "supporters", "athletes", "players",
    "competitors", "runners", "swimmers", "cyclists", "riders", "participants", "contestants",
    "winners", "losers", "pilgrims", "worshippers", "believers", "devotees", "monks", "nuns",
    "priests", "clerics", "students", "pupils", "schoolchildren", "schoolgirls", "schoolboys",
    "teachers", "parents", "mothers", "fathers", "sons", "daughters", "brothers", "sisters",
    "families", "couples", "couple", "wives", "husbands", "widows", "orphans", "babies", "infants",
    "toddlers", "teenagers", "youths", "girls", "boys", "kids", "elders", "civilians", "residents",
    "villagers", "inhabitants", "citizens", "voters", "evacuees", "refugees", "survivors",
    "victims", "casualties", "patients", "wounded", "injured", "dead", "displaced", "homeless",
    "hungry", "poor", "locals", "tourists", "visitors", "guests", "delegates", "officials",
    "lawmakers", "ministers", "diplomats", "leaders", "members", "staff", "employees", "labourers",
    "laborers", "builders", "cleaners", "crews", "crew", "teams", "team", "rescue", "ambulances",
    "ambulance", "vehicles", "trucks", "lorries", "buses", "tanks", "helicopters", "planes", "jets",
    "warplanes", "drones", "drone", "boats", "ships", "vessels", "trains", "train", "bicycles",
    "motorcycles", "carts", "cart", "tents", "shelters", "houses", "homes", "buildings",
    "apartments", "blocks", "streets", "roads", "ruins", "remains", "bodies", "coffins", "graves",
    "flags", "flag", "banners", "placards", "posters", "portraits", "pictures", "photos",
    "photographs", "images", "candles", "flowers", "wreaths", "balloons", "fireworks", "lights",
    "lanterns", "decorations", "smoke", "flames", "fires", "ashes", "debris", "rubble", "dust",
    "sandbags", "barricades", "checkpoints", "weapons", "guns", "rifles", "shells", "rockets",
    "missiles", "bombs", "mines", "ammunition", "explosives", "grenades", "protesters",
    "demonstrators", "marchers", "crowds", "mobs", "groups", "dozens", "scores", "hundreds",
    "thousands", "millions", "security", "riot", "border", "military", "naval", "army", "air",
    "coast", "special", "elite", "national", "government", "state", "official", "interim",
    "transitional", "federal", "regional", "provincial", "municipal", "city", "local", "public",
    "private", "foreign", "international", "global", "world", "united", "joint", "combined",
    "allied", "coalition", "opposition", "rebel", "islamist", "pro", "anti", "rescued", "evacuated",
    "freed", "released", "arrested", "captured", "seized", "confiscated", "recovered", "found",
    "discovered", "abandoned", "overturned", "charred", "gutted", "shattered", "scorched",
    "twisted", "bloodied", "bloodstained", "bandaged", "blindfolded", "handcuffed", "shirtless",
    "barefoot", "veiled", "uniformed", "hooded", "bearded", "ultra-orthodox", "pro-russian",
    "pro-assad", "pro-kurdish", "pro-palestinian", "pro-israel", "pro-israeli", "anti-government",
    "newborn", "premature", "surviving", "fleeing", "waiting", "queuing", "standing", "sitting",
    "walking", "running", "playing", "working", "living", "carrying", "holding", "watching",
    "looking", "hoping", "trying", "using", "taking", "making", "wearing", "riding", "driving",
    "flying", "sailing", "swimming", "cooking", "eating", "drinking", "sleeping", "resting",
    "praying", "mourning", "celebrating", "dancing", "singing", "chanting", "shouting", "crying",
    "weeping", "greeting", "hugging", "kissing", "embracing", "comforting", "helping", "rescuing",
    "searching", "digging", "clearing", "cleaning", "repairing", "rebuilding", "inspecting",
    "checking", "preparing", "loading", "unloading", "distributing", "receiving", "collecting",
    "gathering", "visiting", "leaving", "arriving", "returning", "crossing", "entering", "passing",
    "climbing", "patrolling", "guarding", "marching", "parading", "training", "shooting", "firing",
    "aiming", "wreckage", "scene", "site", "area", "view", "close", "detail", "interior",
    "exterior", "inside", "outside", "overview", "panorama", "silhouette", "portrait", "aerial",
    "drone", "satellite", "handout", "undated", "unverified", "purportedly", "allegedly",
    "reportedly", "apparently", "possibly", "probably", "likely", "presumably", "thought",
    "believed", "claimed", "described", "identified", "named", "pictured", "shown", "seen",
    "photographed", "filmed", "taken", "provided", "released", "published", "posted", "uploaded",
    "obtained", "distributed", "supplied", "courtesy", "credit", "credits", "source", "sources",
    "editor", "editors", "note", "notes", "warning", "graphic", "content", "disturbing", "viewer",
    "discretion", "advised", "update", "updated", "correction", "corrects", "corrected", "adds",
    "added", "repeats", "refiles", "refiled", "stories", "package", "slideshow", "gallery",
    "related", "see", "search", "more", "top", "kill", "mandatory", "restricted", "restriction",
    "restrictions", "archive", "archives", "pool", "stringer", "staff", "exclusive", "embargoed",
    "embargo", "tpx", "rescue", "aid", "relief", "help", "water", "food", "medicine", "fuel",
    "electricity", "power", "internet", "money", "cash", "prices", "price", "market", "markets",
    "business", "businesses", "shops", "shop", "stores", "store", "factories", "factory", "schools",
    "school", "hospitals", "hospital", "clinics", "clinic", "mosques", "mosque", "churches",
    "church", "camps", "camp", "villages", "towns", "cities", "neighbourhoods", "neighborhoods",
    "districts", "areas", "regions", "provinces", "countries", "country", "nations", "nation",
    "people", "peoples", "population", "humanity", "everyone", "everybody", "someone", "somebody",
    "nobody", "none", "anyone", "anybody", "nothing", "something", "anything", "everything",
    "little", "much", "less", "least", "fewer", "enough", "plenty", "lots", "lot", "part", "parts",
    "rest", "others", "former", "latter", "fresh", "freshly", "new", "old", "ancient", "historic",
    "historical", "traditional", "modern", "colourful", "colorful", "bright", "dark", "heavy",
    "thick", "thin", "long", "short", "tall", "high", "low", "deep", "wide", "narrow", "huge",
    "giant", "massive", "tiny", "vast", "entire", "whole", "full", "empty", "packed", "crowded",
    "quiet", "silent", "calm", "tense", "busy", "rare", "rarely", "frequent", "constant",
    "continuous", "daily", "weekly", "monthly", "annual", "yearly", "early", "late", "recent",
    "current", "previous", "earlier", "later", "future", "past", "present", "ongoing", "continuing",
    "lingering", "remaining", "surviving", "existing", "missing", "lost", "hidden", "visible",
    "invisible", "thousands", "floodwaters", "wildfire", "wildfires", "landslide", "landslides",
    "mudslide", "avalanche", "drought", "famine", "hunger", "poverty", "disease", "cholera",
    "coronavirus", "covid-19", "covid", "pandemic", "epidemic", "outbreak", "vaccination",
    "vaccine", "vaccines", "tear", "teargas", "gas", "chlorine", "sarin", "chemical", "nuclear",
    "radioactive", "toxic", "deadly", "fatal", "lethal", "dangerous", "risky", "safe", "unsafe",
    "volcano", "lava", "ash", "ashfall", "eruption", "tsunami", "aftershock", "aftershocks",
    "tremor", "collapse", "rise", "rises", "rising", "falling", "heat", "heatwave", "cold", "frost",
    "hail", "thunder", "lightning", "rainbow", "fog", "mist", "haze", "pollution", "smog",
    "shadows", "shadow", "reflections", "reflection", "silhouettes", "graffiti", "mural", "murals",
    "billboard", "billboards", "sign", "signs", "poster", "banner", "placard", "slogan", "slogans",
    "writing", "inscription", "message", "messages", "letter", "letters", "words", "word", "names",
    "name", "number", "numbers", "figures", "statistics", "data", "records", "record", "reports",
    "report", "documents", "document", "papers", "paper", "newspapers", "newspaper", "books",
    "book", "keys", "key", "toys", "toy", "clothes", "clothing", "shoes", "blankets", "mattresses",
    "furniture", "belongings", "possessions", "luggage", "suitcases", "bags", "bag", "boxes", "box",
    "sacks", "sack", "containers", "container", "jerrycans", "buckets", "bottles", "cups", "plates",
    "pots", "pans", "wood", "firewood", "charcoal", "coal", "oil", "petrol", "gasoline", "diesel",
    "kerosene", "steel", "iron", "metal", "glass", "concrete", "stone", "stones", "bricks", "brick",
    "rocks", "rock", "earth", "soil", "dirt", "grass", "trees", "tree", "plants", "flowers",
    "fields", "field", "crops", "harvest", "wheat", "rice", "corn", "olives", "olive", "fruit",
    "fruits", "vegetables", "meat", "fish", "milk", "eggs", "sugar", "salt", "tea", "coffee",
    "meals", "meal", "breakfast", "lunch", "dinner", "iftar", "suhoor", "feast", "soup", "porridge",
    "rations", "parcels", "packages", "deliveries", "convoy", "convoys", "column", "columns",
    "queue", "queues", "line", "lines", "row", "rows", "pile", "piles", "heap", "heaps", "stack",
    "stacks", "mound", "mounds", "hole", "holes", "crater", "craters", "trench", "trenches",
    "tunnel", "tunnels", "bunker", "bunkers", "shelter", "basement", "basements", "cave", "caves",
    "rooftop", "rooftops", "roof", "roofs", "wall", "walls", "window", "windows", "door", "doors",
    "doorway", "gate", "gates", "fence", "fences", "balcony", "balconies", "stairs", "staircase",
    "courtyard", "yard", "garden", "gardens", "playground", "pitch", "track", "pool", "beach",
    "shore", "coastline", "riverbank", "dam", "dams", "wells", "pipe", "pipes", "cable", "cables",
    "wires", "wire", "poles", "pole", "power", "generator", "generators", "panels", "solar", "lamp",
    "lamps", "candle", "torch", "torches", "flashlight", "flashlights", "phone", "phones", "mobile",
    "smartphone", "smartphones", "computer", "computers", "screen", "screens", "television", "tv",
    "radio", "camera", "cameras", "microphone", "microphones", "speaker", "speakers", "loudspeaker",
    "loudspeakers", "music", "song", "songs", "dance", "dances", "game", "games", "match", "race",
    "races", "contest", "competition", "tournament", "event", "events", "show", "shows",
    "performance", "performances", "exhibition", "display", "parade", "march", "procession",
    "vigil", "sit-in", "strike", "strikes", "boycott", "siege", "blockade", "curfew", "lockdown",
    "ceasefire", "truce", "deal", "agreement", "talks", "negotiations", "elections", "election",
    "vote", "votes", "ballot", "ballots", "referendum", "campaign", "campaigns", "operation",
    "operations", "offensive", "offensives", "assault", "attack", "attacks", "raid", "raids",
    "bombing", "bombings", "shelling", "gunfire", "fire", "crossfire", "battle", "battles",
    "combat", "conflict", "crisis", "disaster", "tragedy", "catastrophe", "emergency", "aftermath",
    "destruction", "devastation", "damage", "loss", "losses", "death", "deaths", "toll",
    "casualties", "injuries", "wounds", "blood", "tears", "grief", "sorrow", "pain", "fear",
    "anger", "joy", "happiness", "despair", "relief", "victory", "defeat", "surrender", "retreat",
    "withdrawal", "invasion", "occupation", "liberation", "independence", "freedom", "peace",
    "justice", "unity", "solidarity", "support", "opposition", "resistance", "revolution",
    "uprising", "revolt", "rebellion", "insurgency", "war", "wars", "warfare", "violence", "terror",
    "terrorism", "extremism", "radicalism", "fundamentalism", "sectarianism", "nationalism",
    "religion", "faith", "worship", "prayer", "prayers", "fasting", "ritual", "rituals",
    "tradition", "traditions", "culture", "heritage", "history", "memory", "memories", "memorial",
    "monument", "statue", "statues", "tomb", "tombs", "grave", "graves", "cemetery", "cemeteries",
    "shrine", "shrines", "dome", "domes", "minaret", "minarets", "tower", "towers", "skyline",
    "landscape", "scenery", "panorama", "horizon", "sky", "planet", "space", "earth", "world",
    "nature", "environment", "climate", "weather", "season", "seasons", "year", "years", "months",
    "month", "weeks", "week", "days", "hours", "hour", "minutes", "minute", "seconds", "moment",
    "moments", "time", "times", "period", "era", "age", "ages", "generation", "generations",
    "century", "centuries", "decade", "decades", "millennium", "anniversary", "birthday", "wedding",
    "weddings", "bride", "groom", "party", "parties", "gathering", "gatherings", "meeting",
    "meetings", "conference", "summit", "session", "sessions", "hearing", "hearings", "trial",
    "trials", "verdict", "sentence", "sentences", "execution", "executions", "hanging", "prison",
    "prisons", "jail", "jails", "cell", "cells", "detention", "custody", "arrest", "arrests",
    "release", "exchange", "swap", "evacuation", "evacuations", "rescue", "rescues", "recovery",
    "reconstruction", "rebuilding", "repairs", "repair", "renovation", "restoration",
    "construction", "demolition", "demolitions", "bulldozer", "bulldozers", "excavator",
    "excavators", "crane", "cranes", "machinery", "equipment", "tools", "tool", "volunteers",
    "rescuers", "mourners", "onlookers", "worshippers", "farmers", "labourers", "clashes",
    "airstrikes", "explosions", "blasts", "victims", "women", "men", "children", "kids", "cousins",
    "chefs", "cooks", "lifeguards", "coastguards", "divers", "pilots", "sailors", "marines",
    "paratroopers", "commandos", "snipers", "guards", "bodyguards", "officers", "cadets",
    "recruits", "conscripts", "veterans", "invalids", "amputees", "disabled", "celebrants",
    "revellers", "revelers", "partygoers", "dancers", "singers", "musicians", "artists",
    "performers", "actors", "models", "designers", "architects", "engineers", "scientists",
    "researchers", "experts", "specialists", "technicians", "mechanics", "electricians", "plumbers",
    "carpenters", "builders", "painters", "workmen", "handymen", "dockworkers", "miners", "loggers",
    "herders", "nomads", "bedouins", "gypsies", "roma", "wreckers", "looters", "thieves",
    "smugglers", "traffickers", "dealers", "brokers", "bankers", "investors", "traders",
    "economists", "analysts", "officials", "bureaucrats", "clerks", "secretaries", "assistants",
    "aides", "advisers", "advisors", "consultants", "lawyers", "judges", "prosecutors",
    "defendants", "witnesses", "jurors", "police", "policemen", "policewomen", "sheriffs",
    "deputies", "agents", "spies", "informants", "collaborators", "traitors", "heroes", "martyrs",
    "saints", "gods", "angels", "demons", "ghosts", "spirits", "aerial", "close-up", "file",
    "files", "undated", "screen", "grab", "frame", "still", "stills", "satellite", "smoke",
    "burnt-out", "bombed-out", "war-torn", "war-ravaged", "quake-hit", "quake-stricken",
    "flood-hit", "storm-hit", "fire-damaged", "shell-damaged", "rebel-held", "government-held",
    "regime-held", "opposition-held", "kurdish-held", "russian-held", "ukrainian-held",
    "israeli-occupied", "hamas-run", "smoke-filled", "rubble-strewn", "debris-strewn",
    "bullet-riddled", "shrapnel-scarred", "green", "local", "nearby",
];

#[rustfmt::skip]
const PLACES: &[&str] = &[
    "street", "st", "road", "rd", "avenue", "ave", "boulevard", "blvd", "highway", "motorway",
    "expressway", "freeway", "square", "district", "neighbourhood", "neighborhood", "quarter",
    "area", "zone", "region", "province", "governorate", "county", "municipality", "oblast",
    "prefecture", "city", "town", "village", "hamlet", "suburb", "suburbs", "outskirts",
    "countryside", "camp", "base", "airbase", "port", "harbour", "harbor", "bay", "beach", "coast",
    "island", "islands", "river", "valley", "mountain", "mountains", "mount", "hill", "hills",
    "heights", "lake", "sea", "ocean", "gulf", "desert", "plain", "plains", "peninsula", "strip",
    "border", "crossing", "checkpoint", "frontier", "frontline", "market", "bazaar", "souk", "souq",
    "mosque", "church", "cathedral", "temple", "shrine", "synagogue", "monastery", "convent",
    "hospital", "clinic", "school", "university", "college", "academy", "stadium", "arena",
    "airport", "airfield", "station", "terminal", "bridge", "dam", "park", "garden", "gardens",
    "palace", "castle", "citadel", "fort", "fortress", "tower", "towers", "building", "compound",
    "complex", "prison", "jail", "hotel", "museum", "mall", "plaza", "gate", "wall", "canal",
    "circuit", "hall", "theatre", "theater", "library", "embassy", "consulate", "forest", "falls",
    "springs", "zoo", "pier", "refinery", "plant", "factory", "cemetery", "graveyard", "field",
    "fields", "oilfield", "farm", "residence", "house", "mansion", "villa", "apartment",
    "apartments", "estate", "centre", "center", "court", "courthouse", "pool", "racecourse",
    "velodrome", "dome", "basin", "delta", "lagoon", "reservoir", "glacier", "volcano", "crater",
    "cave", "caves", "canyon", "gorge", "pass", "plateau", "steppe", "mall", "hospice", "orphanage",
    "shelter", "headquarters", "barracks", "outpost", "enclave", "settlement", "kibbutz", "moshav",
    "encampment", "tents", "capital", "state", "territory", "territories", "republic", "kingdom",
    "emirate", "lane", "alley", "corniche", "promenade", "waterfront", "marina", "wharf", "dock",
    "docks", "quay", "shipyard", "depot", "warehouse", "silo", "silos", "mine", "quarry",
    "observatory", "planetarium", "aquarium", "tunnel", "crossroads", "roundabout", "pipeline",
    "railway", "railroad", "interchange", "junction", "intersection", "metro", "subway",
    "underground", "old", "airstrip", "heliport", "seaport", "harbourfront", "riverside",
    "riverbank", "seafront", "seashore", "shore", "shoreline", "coastline", "countryside",
    "hinterland", "wilderness", "woods", "jungle", "swamp", "marsh", "marshes", "wetlands", "oasis",
    "dunes",
];

#[rustfmt::skip]
const PLACE_PREFIXES: &[&str] = &[
    "mount", "mt", "lake", "cape", "port", "fort", "ft", "tel", "tal", "tell", "jabal", "jebel",
    "jabel", "wadi", "deir", "dayr", "khan", "beit", "bayt", "kafr", "kfar", "ain", "ein", "ayn",
    "bab", "ras", "maarat", "maaret", "marat", "maarrat", "ma'arrat", "bir", "qasr", "souq", "souk",
    "new", "san", "santa", "los", "las", "el", "saint", "st", "sainte", "sao", "são",
    "port-au-prince", "sidi", "wadi", "bandar", "nahr", "jisr", "hay", "harat", "qalaat", "qalat",
    "tall", "mazraat", "madinat", "nueva", "nuevo", "puerto", "porto", "rio", "fort", "isla", "lac",
    "bahr", "jazirat",
];

#[rustfmt::skip]
const STORMS: &[&str] = &[
    "hurricane", "storm", "typhoon", "cyclone", "tropical", "superstorm", "tornado", "blizzard",
    "windstorm", "depression",
];

#[rustfmt::skip]
const EVENTS: &[&str] = &[
    "cup", "games", "olympics", "paralympics", "championship", "championships", "league", "bowl",
    "prix", "open", "marathon", "festival", "expo", "fair", "summit", "conference", "tour", "derby",
    "final", "finals", "semifinal", "semifinals", "series", "trophy", "classic", "day", "eve",
    "week", "war", "revolution", "spring", "intifada", "nakba", "uprising", "offensive",
    "operation", "crisis", "holocaust", "christmas", "easter", "ramadan", "eid", "hajj", "ashura",
    "nowruz", "diwali", "thanksgiving", "halloween", "hanukkah", "passover", "yom", "kippur",
    "rosh", "hashanah", "mawlid", "arbaeen", "lent", "fitr", "adha", "iftar", "carnival",
    "biennale", "olympiad", "grand", "masters", "prize", "award", "memorial", "funeral", "vigil",
    "commemoration", "anniversary", "cop26", "cop27", "cop28", "g20", "g7", "awards", "oscars",
    "grammys", "emmys", "show",
];

#[rustfmt::skip]
const ORG_HEADS: &[&str] = &[
    "army", "forces", "force", "front", "guard", "guards", "units", "unit", "brigade", "brigades",
    "battalion", "battalions", "regiment", "division", "corps", "legion", "militia", "militias",
    "council", "ministry", "organization", "organisation", "agency", "commission", "parliament",
    "congress", "senate", "assembly", "committee", "party", "movement", "union", "court",
    "tribunal", "police", "gendarmerie", "navy", "coalition", "alliance", "federation",
    "association", "observatory", "fund", "programme", "program", "bank", "institute", "authority",
    "foundation", "society", "network", "department", "office", "service", "services",
    "directorate", "bureau", "secretariat", "cabinet", "administration", "mission", "command",
    "group", "helmets", "center", "centre", "crescent", "cross", "agency", "watch", "international",
    "commissariat", "inspectorate", "ministries", "board", "syndicate", "confederation", "caucus",
    "junta", "politburo", "presidency", "mujahideen", "fedayeen", "shabiha", "government",
    "brotherhood", "patrol", "fleet", "news",
];

#[rustfmt::skip]
const ORG_PREFIXES: &[&str] = &[
    "jabhat", "harakat", "liwa", "jaish", "jaysh", "failaq", "faylaq", "ahrar", "hayat", "hay'at",
    "hayaat", "kataib", "kata'ib", "katibat", "saraya", "ansar", "jund", "asaib", "hashd", "tahrir",
    "hizb", "jamaat", "jama'at", "jamaa", "tanzim", "firqat", "alwiya", "quwat", "majlis",
];

#[rustfmt::skip]
const ORG_NOUNS: &[&str] = &[
    "group", "brigade", "brigades", "battalion", "militia", "faction", "movement", "organisation",
    "organization", "agency", "coalition", "alliance", "charity", "party", "network", "outfit",
    "militias", "factions", "groups", "ngo", "organisations", "organizations", "charities",
];

#[rustfmt::skip]
const PARTICLES: &[&str] = &[
    "al", "el", "bin", "ibn", "bint", "abu", "de", "da", "di", "du", "del", "della", "der", "den",
    "van", "von", "la", "le", "ul", "ad", "ar", "ash", "az", "dos", "das", "ben", "bou", "ould",
    "wal", "ag",
];

#[rustfmt::skip]
const PLACE_PREPS: &[&str] = &[
    "in", "at", "near", "from", "to", "into", "toward", "towards", "outside", "inside", "across",
    "through", "around", "over", "between", "within", "throughout", "along", "off", "via", "onto",
    "beyond", "beneath", "above", "behind", "below", "on", "nearby", "past",
];

#[rustfmt::skip]
const OF_PLACES: &[&str] = &[
    "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest",
    "north-east", "north-west", "south-east", "south-west", "northern", "southern", "eastern",
    "western", "outskirts", "edge", "edges", "part", "parts", "centre", "center", "heart",
    "streets", "suburb", "suburbs", "countryside", "vicinity", "environs", "capital", "city",
    "town", "village", "district", "neighbourhood", "neighborhood", "area", "province", "region",
    "governorate", "state", "county", "border", "coast", "shore", "shores", "banks", "side",
    "residents", "people", "citizens", "inhabitants", "mayor", "governor", "ruins", "skies", "sky",
    "outskirt", "entrance", "gates", "hills", "port", "islands", "island", "republic", "kingdom",
    "municipality", "oblast", "camp", "north-eastern", "north-western", "south-eastern",
    "south-western", "northeastern", "northwestern", "southeastern", "southwestern", "downtown",
    "old", "centre", "frontline", "countries", "cities", "towns", "villages", "areas", "parts",
    "regions", "provinces", "rest", "liberation", "siege", "battle", "bombing",
    "shelling", "recapture",
];

#[rustfmt::skip]
const PRONOUNS: &[&str] = &[
    "he", "she", "his", "her", "him", "himself", "herself", "hers",
];

#[rustfmt::skip]
const SAYS: &[&str] = &[
    "said", "says", "told", "tells", "added", "explained", "recalled", "recounted", "recounts",
    "remembered", "remembers", "wrote", "writes", "asked", "asks", "answered", "replied", "stated",
];

#[rustfmt::skip]
const PLACE_APPOSITIVES: &[&str] = &[
    "village", "town", "city", "district", "suburb", "neighbourhood", "neighborhood", "area",
    "region", "province", "governorate", "camp", "capital", "stronghold", "hub", "enclave",
    "bastion", "homeland", "country", "state", "island", "port", "municipality", "settlement",
    "hamlet", "valley", "border", "crossing", "locality", "community", "oasis", "resort", "county",
    "quarter", "outpost", "base", "airbase", "frontline", "front", "site", "mountain", "river",
    "lake",
];

/// Every lexicon, with the class it adds to its words.
const TABLES: &[(&[&str], Class)] = &[
    (TITLES, TITLE),
    (TITLE_MODS, TITLE_MOD),
    (KINS, KIN),
    (ROLES, ROLE),
    (PERSON_ADJS, PERSON_ADJ),
    (GROUP_ADJECTIVES, DEMONYM),
    (COUNTRIES, COUNTRY),
    (MONTHS, MONTH),
    (WEEKDAYS, WEEKDAY),
    (FUNCTIONS, FUNCTION),
    (COMMONS, COMMON),
    (PLACES, PLACE),
    (PLACE_PREFIXES, PLACE_PREFIX),
    (STORMS, STORM),
    (EVENTS, EVENT),
    (ORG_HEADS, ORG_HEAD),
    (ORG_PREFIXES, ORG_PREFIX),
    (ORG_NOUNS, ORG_NOUN),
    (PARTICLES, PARTICLE),
    (PLACE_PREPS, PLACE_PREP),
    (OF_PLACES, OF_PLACE),
    (PRONOUNS, PRONOUN),
    (SAYS, SAY),
    (PLACE_APPOSITIVES, PLACE_APPOSITIVE),
];

/// Lowercased word → its classes, built once. A plural (`-s`) of a person
/// or demonym word is stored too, so that a lookup is one probe.
static WORDS: LazyLock<WordTable<Class>> = LazyLock::new(|| {
    let mut words: Vec<(Vec<u8>, Class)> = Vec::with_capacity(8192);
    let listed = TABLES
        .iter()
        .chain(&[(ABBREVIATIONS, ABBREVIATION)])
        .flat_map(|&(table, class)| table.iter().map(move |word| (*word, class)));
    let demonyms = DEMONYMS.iter().map(|(word, _)| (*word, DEMONYM));
    for (word, class) in listed.chain(demonyms) {
        words.push((word.as_bytes().to_vec(), class));
        if class & PLURAL_CLASSES != 0 && word.len() >= 3 && word.len() < MAX_WORD {
            let plural = [word.as_bytes(), b"s"].concat();
            words.push((plural, class & PLURAL_CLASSES));
        }
    }
    WordTable::new(words.iter().map(|(word, class)| (word.as_slice(), *class)))
});

/// Words written with a trailing period that is part of the word, not the
/// end of a sentence: titles, month and state abbreviations.
#[rustfmt::skip]
const ABBREVIATIONS: &[&str] = &[
    "gen", "col", "lt", "maj", "capt", "cmdr", "sgt", "cpl", "pvt", "adm", "brig", "dr", "mr",
    "mrs", "ms", "rev", "gov", "sen", "rep", "st", "mt", "ft", "jr", "sr", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "tues", "wed",
    "thu", "thur", "thurs", "fri", "sat", "fla", "la", "ga", "calif", "tex", "ariz", "ala", "ark",
    "colo", "conn", "del", "ill", "ind", "kan", "ky", "md", "mass", "mich", "minn", "miss", "mo",
    "mont", "neb", "nev", "okla", "ore", "pa", "tenn", "va", "vt", "wash", "wis", "wyo", "no",
    "nos", "vs", "approx", "est", "govt", "dept", "corp", "inc", "ltd", "co", "bros", "prof",
    "supt", "insp", "det", "cpt", "msgt", "ssgt", "spc", "pfc", "gen", "lieut", "hon", "amb",
    "pres", "sec", "vol",
];

/// The classes of a word, in any ASCII case (other letters must be lowercase).
pub(crate) fn classes(word: &[u8]) -> Class {
    WORDS.get(word).unwrap_or(0) & !ABBREVIATION
}

/// The classes of the word with table key `key`, and whether it takes its
/// trailing period: one probe for both.
// Inlined: it runs for nearly every word, and a call costs a third of it.
#[inline]
pub(crate) fn classes_and_abbreviation(key: &Key) -> (Class, bool) {
    let entry = WORDS.get_key(key).unwrap_or(0);
    (entry & !ABBREVIATION, entry & ABBREVIATION != 0)
}

/// Whether a word takes its trailing period with it (`Gen.`, `Sept.`).
pub(crate) fn is_abbreviation(word: &[u8]) -> bool {
    WORDS
        .get(word)
        .is_some_and(|class| class & ABBREVIATION != 0)
}

/// The value of a number written in words, `one` to `ninety-nine`.
pub(crate) fn number_word(word: &str) -> Option<u16> {
    const UNITS: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 10] = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    let unit = |w: &str| UNITS.iter().position(|u| u.eq_ignore_ascii_case(w));
    let ten = |w: &str| {
        TENS.iter()
            .skip(2)
            .position(|t| t.eq_ignore_ascii_case(w))
            .map(|i| (i + 2) * 10)
    };
    let value = match word.split_once('-') {
        Some((tens, units)) => {
            let tens = ten(tens)?;
            let units = unit(units).filter(|&u| (1..10).contains(&u))?;
            tens + units
        }
        None => unit(word).or_else(|| ten(word))?,
    };
    u16::try_from(value).ok().filter(|&v| v > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_have_their_classes() {
        assert_ne!(classes(b"president") & TITLE, 0);
        assert_ne!(classes(b"syrians") & DEMONYM, 0);
        assert_ne!(classes(b"sister") & KIN, 0);
        assert_eq!(classes(b"bashar"), 0);
        assert!(is_abbreviation(b"sept") && !is_abbreviation(b"september"));
        assert_eq!(classes(b"sept") & ABBREVIATION, 0);
    }

    #[test]
    fn every_lexicon_word_fits_a_key() {
        for (table, _) in TABLES {
            for word in table.iter() {
                assert!(word.len() < MAX_WORD, "{word}");
            }
        }
        for (word, _) in DEMONYMS {
            assert!(word.len() < MAX_WORD, "{word}");
            assert_ne!(classes(word.as_bytes()) & DEMONYM, 0, "{word}");
        }
    }

    #[test]
    fn number_words_read_one_to_ninety_nine() {
        assert_eq!(number_word("one"), Some(1));
        assert_eq!(number_word("Three"), Some(3));
        assert_eq!(number_word("twenty-two"), Some(22));
        assert_eq!(number_word("ninety"), Some(90));
        assert_eq!(number_word("zero"), None);
        assert_eq!(number_word("twenty-ten"), None);
        assert_eq!(number_word("seven-up"), None);
    }
}
