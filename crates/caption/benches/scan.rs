//! Throughput of the credit and date scanners, against a plain byte scan,
//! of the place resolver on real place names, and of the segmenter on a
//! gallery page.
//!
//! `find_credit`, `find_dates` and `find_place` are crate-private;
//! `caption::bench_api` exposes them (hidden from the docs) for this bench.

use caption::bench_api::{find_credit, find_dates, find_place};
use caption::Span;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};

/// Captions in the wire conventions the scanners handle, written for this bench.
const CAPTIONS: [&str; 12] = [
    "A boy rides a bicycle past shuttered shops in the old quarter of Lowtown, Freedonia October 7, 2016. (Photo by Lena Ortiz/Reuters)",
    "Fishermen mend their nets at dawn in the harbour of Porto Lume, on March 25, 2015. Fishing has declined since 2013, traders said. (Photo by KARIM HADDAD / AFP)",
    "Volunteers fill sandbags outside a town hall in Karsa, western Freedonia, Friday, Nov. 25, 2021. (AP Photo/Oskar Lind, File)",
    "A ferry docks at Port Vela, some 40 km (25 miles) north of Lowtown, August 15, 2012. REUTERS/Tomas Berg",
    "Trucks of an aid convoy wait at a checkpoint in Dunmore in this handout picture provided by the Freedonian Transport Ministry on March 27, 2016. Ministry of Transport of Freedonia/Handout via REUTERS",
    "In this Tuesday, July 29, 2014, photo, a girl poses for a picture at a camp near Karsa. More than a million children cannot attend school, the agency said. (Ana Ruiz/SOPA Images/Sipa USA via AP)",
    "Vendors sell melons at a market in Karsa, Aug. 11, 2013. Petra J. Novak/AFP/Getty Images",
    "Men shovel snow from a roof in Dunmore, Freedonia. Picture taken February 13, 2019. REUTERS/Ivan Petrov TPX IMAGES OF THE DAY",
    "FILE - In this Aug. 26, 2013, file photo, inspectors leave their hotel in Lowtown. On Tuesday, May 27, 2014, the board said the team was safe. (AP Photo, File)",
    "Boats rest in the harbour of Porto Lume on 05 August 2020, a day after a storm swept the coast. EPA-EFE/ANNA DE LA ROSA",
    "Rescuers search the rubble of a school in Porto Lume, southern Freedonia, two weeks after the February 6 quake. / AFP PHOTO / IVAN PETROV (Photo credit should read IVAN PETROV/AFP/Getty Images)",
    "Children play football on a dusty pitch at a camp for displaced families outside Lowtown, as the sun sets behind the hills.",
];

/// `credit/find_credit`, `date/find_dates` and `scan/memchr_baseline`
/// (counting spaces with memchr, the floor for any pass over the bytes).
fn scan(c: &mut Criterion) {
    let bytes: usize = CAPTIONS.iter().map(|c| c.len()).sum();
    let descriptions: Vec<Span> = CAPTIONS
        .iter()
        .map(|text| {
            find_credit(text).map_or(Span::new(0, text.len()), |span| Span::new(0, span.start))
        })
        .collect();
    let mut group = c.benchmark_group("scan");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(BenchmarkId::new("credit", "find_credit"), |b| {
        b.iter(|| {
            let found = CAPTIONS
                .iter()
                .filter(|text| find_credit(std::hint::black_box(text)).is_some())
                .count();
            assert_eq!(found, 11);
        })
    });
    group.bench_function(BenchmarkId::new("date", "find_dates"), |b| {
        b.iter(|| {
            let created = CAPTIONS
                .iter()
                .zip(&descriptions)
                .filter(|(text, span)| find_dates(std::hint::black_box(text), **span).is_some())
                .count();
            assert_eq!(created, 9);
        })
    });
    memchr_floor(&mut group, &CAPTIONS);
    group.finish();
}

/// `baseline/memchr`: counting spaces with memchr over `texts`, the floor
/// for any pass over the same bytes.
fn memchr_floor(group: &mut BenchmarkGroup<'_, WallTime>, texts: &[&str]) {
    group.bench_function(BenchmarkId::new("baseline", "memchr"), |b| {
        b.iter(|| {
            let spaces: usize = texts
                .iter()
                .map(|text| {
                    memchr::memchr_iter(b' ', std::hint::black_box(text).as_bytes()).count()
                })
                .sum();
            assert!(spaces > 0);
        })
    });
}

/// Descriptions naming real places in the forms the resolver scores:
/// `City, Country`, `City, State`, a possessive with a facility, a
/// namesake held by its country, a transliteration, a reference place with
/// its distance, a division after its city. Written for this bench.
const PLACE_DESCRIPTIONS: [&str; 8] = [
    "Shoppers walk through the main market in Aleppo, Syria, on a cold morning.",
    "A crowd gathers outside a casino on the Strip in Las Vegas, Nevada, after the show.",
    "Traders wait for customers in Kabul's main market as prices rise.",
    "Commuters cross a bridge over the Thames in London, Britain, during a rail strike.",
    "Russian jets stand on the apron at the Hemeimeem air base near Latakia.",
    "Rescuers dig through rubble in a village some 60 km south of Mosul, Iraq.",
    "Farmers harvest rice in a field outside Pune, Maharashtra, India.",
    "Fans celebrate in a square of Porto Alegre, Rio Grande do Sul state, Brazil.",
];

/// `place/find_place`: the whole resolver (mention finding, candidate
/// scoring, scene choice) on descriptions with real places; the memchr
/// space count over the same bytes is the floor beside it.
fn place(c: &mut Criterion) {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let bytes: usize = PLACE_DESCRIPTIONS.iter().map(|d| d.len()).sum();
    let mut group = c.benchmark_group("place");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(BenchmarkId::new("place", "find_place"), |b| {
        b.iter(|| {
            let resolved = PLACE_DESCRIPTIONS
                .iter()
                .filter(|text| {
                    let text = std::hint::black_box(**text);
                    find_place(text, Span::new(0, text.len()), gazetteer).is_some()
                })
                .count();
            assert_eq!(
                resolved,
                PLACE_DESCRIPTIONS.len(),
                "a bench place went unresolved"
            );
        })
    });
    memchr_floor(&mut group, &PLACE_DESCRIPTIONS);
    group.finish();
}

/// A gallery page as a flattened web page gives it: under each picture its
/// caption, the credit on a line of its own and the same share buttons.
/// Written for this bench.
fn gallery_page() -> String {
    let mut page = String::from("The week in pictures\n\n");
    for (i, caption) in CAPTIONS.iter().enumerate() {
        page.push_str(&format!("{} of {}\n", i + 1, CAPTIONS.len()));
        page.push_str(caption);
        page.push_str("\nGetty Images\nSave\nEmbed\nDownload\nClose\n\n");
    }
    page
}

/// `segment/gallery_page`: the segmenter's line reading and properties
/// (each line's credit among them) on a page that repeats its chrome.
fn segment(c: &mut Criterion) {
    let page = gallery_page();
    let mut group = c.benchmark_group("segment");
    group.throughput(Throughput::Bytes(page.len() as u64));
    group.bench_function(BenchmarkId::new("segment", "gallery_page"), |b| {
        b.iter(|| {
            let captions = caption::segment(std::hint::black_box(&page));
            assert!(captions.len() >= CAPTIONS.len() - 1);
        })
    });
    group.finish();
}

/// Runs the groups; `cargo bench -p caption --bench scan`.
fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    scan(&mut criterion);
    place(&mut criterion);
    segment(&mut criterion);
    criterion.final_summary();
}
