//! `cargo xtask map`: the country outlines of the offline map, from the
//! Natural Earth TopoJSON in the npm `world-atlas` package (ISC; the data
//! is public domain), written as `crates/server/assets/world.json`: per
//! country its ISO code, name and rings of rounded `[lon, lat]` points.
//! The package is fetched with `npm pack` into a temporary directory and
//! never kept in the repository; only the generated file is.

use anyhow::{bail, Context};
use serde_json::{json, Value};

use crate::source_args::{npm_pack, write_json, SourceArgs};

/// The package and version read.
const PACKAGE: &str = "world-atlas@2.0.2";
/// Its 1:50m countries (1:110m drops small states; 1:10m is 3.6 MB).
const TOPOLOGY: &str = "countries-50m.json";
/// Points closer than this (degrees) to the last one kept are dropped.
const MIN_STEP: f64 = 0.12;

/// Natural Earth's short names the gazetteer does not know, with ISO codes.
const NAMES: &[(&str, &str)] = &[
    ("Bosnia and Herz.", "BA"),
    ("Central African Rep.", "CF"),
    ("Dem. Rep. Congo", "CD"),
    ("Congo", "CG"),
    ("Dominican Rep.", "DO"),
    ("Eq. Guinea", "GQ"),
    ("eSwatini", "SZ"),
    ("S. Sudan", "SS"),
    ("Solomon Is.", "SB"),
    ("Falkland Is.", "FK"),
    ("Fr. S. Antarctic Lands", "TF"),
    ("W. Sahara", "EH"),
    ("Côte d'Ivoire", "CI"),
    ("Timor-Leste", "TL"),
    ("Macedonia", "MK"),
    ("North Macedonia", "MK"),
    ("Czechia", "CZ"),
    ("United States of America", "US"),
    ("Palestine", "PS"),
    ("Kosovo", "XK"),
    ("Myanmar", "MM"),
    ("Laos", "LA"),
    ("Vietnam", "VN"),
    ("Russia", "RU"),
    ("Syria", "SY"),
    ("Iran", "IR"),
    ("South Korea", "KR"),
    ("North Korea", "KP"),
    ("Moldova", "MD"),
    ("Tanzania", "TZ"),
    ("Bolivia", "BO"),
    ("Venezuela", "VE"),
    ("Brunei", "BN"),
    ("Taiwan", "TW"),
    ("Cabo Verde", "CV"),
    ("Cayman Is.", "KY"),
    ("Dominica", "DM"),
    ("Faeroe Is.", "FO"),
    ("Turks and Caicos Is.", "TC"),
    ("U.S. Virgin Is.", "VI"),
    ("British Virgin Is.", "VG"),
    ("N. Mariana Is.", "MP"),
    ("Marshall Is.", "MH"),
    ("Cook Is.", "CK"),
    ("Fr. Polynesia", "PF"),
    ("Wallis and Futuna Is.", "WF"),
    ("St. Kitts and Nevis", "KN"),
    ("St. Vin. and Gren.", "VC"),
    ("St. Pierre and Miquelon", "PM"),
    ("Antigua and Barb.", "AG"),
    ("São Tomé and Principe", "ST"),
    ("Heard I. and McDonald Is.", "HM"),
    ("S. Geo. and the Is.", "GS"),
    ("Br. Indian Ocean Ter.", "IO"),
    ("Micronesia", "FM"),
    ("Vatican", "VA"),
    ("Åland", "AX"),
    ("Saint Helena", "SH"),
    ("St-Barthélemy", "BL"),
    ("St-Martin", "MF"),
    ("Sint Maarten", "SX"),
    ("Curaçao", "CW"),
    ("Pitcairn Is.", "PN"),
    ("Norfolk Island", "NF"),
    ("Ashmore and Cartier Is.", "AU"),
    ("Indian Ocean Ter.", "AU"),
    ("Siachen Glacier", "IN"),
];

/// Runs the step: `[--from DIR] [--out FILE]`.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let SourceArgs { from, out } = SourceArgs::parse(
        args,
        "crates/server/assets/world.json",
        "map takes --from DIR, --out FILE",
    )?;
    let temp;
    let package = match from {
        Some(dir) => dir,
        None => {
            temp =
                std::env::temp_dir().join(format!("dateline-world-atlas-{}", std::process::id()));
            npm_pack(PACKAGE, &temp, None)?;
            temp.join("package")
        }
    };
    let text = std::fs::read_to_string(package.join(TOPOLOGY))
        .with_context(|| format!("reading {}", package.join(TOPOLOGY).display()))?;
    let topology: Value = serde_json::from_str(&text).context("parsing the TopoJSON")?;
    let (countries, unnamed) = countries(&topology, gazetteer::Gazetteer::embedded())?;
    let doc = json!({
        "source": format!("Natural Earth 1:50m country outlines (public domain), from the npm package {PACKAGE}, simplified by cargo xtask map"),
        "countries": countries,
    });
    let written = write_json(&out, &doc)?;
    eprintln!(
        "wrote {} ({} countries, {} KB); left out, no ISO code: {}",
        out.display(),
        doc["countries"].as_array().map_or(0, Vec::len),
        written / 1024,
        if unnamed.is_empty() {
            "none".to_string()
        } else {
            unnamed.join(", ")
        }
    );
    Ok(())
}

/// Every country of the topology with an ISO code; the names left out.
fn countries(
    topology: &Value,
    gazetteer: &gazetteer::Gazetteer,
) -> anyhow::Result<(Vec<Value>, Vec<String>)> {
    let arcs = decode_arcs(topology)?;
    let geometries = topology["objects"]["countries"]["geometries"]
        .as_array()
        .context("no countries object")?;
    let mut out = Vec::new();
    let mut unnamed = Vec::new();
    for g in geometries {
        let name = g["properties"]["name"].as_str().unwrap_or("");
        let code = NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c.to_string())
            .or_else(|| {
                gazetteer
                    .country_named(name)
                    .map(|c| c.code.as_str().to_string())
            });
        let Some(code) = code else {
            unnamed.push(name.to_string());
            continue;
        };
        let polygons: Vec<&Value> = match g["type"].as_str() {
            Some("Polygon") => vec![&g["arcs"]],
            Some("MultiPolygon") => g["arcs"].as_array().into_iter().flatten().collect(),
            _ => continue,
        };
        let mut rings = Vec::new();
        for polygon in polygons {
            for ring in polygon.as_array().into_iter().flatten() {
                let points = ring_points(ring, &arcs)?;
                if points.len() >= 4 {
                    rings.push(Value::Array(
                        points
                            .into_iter()
                            .map(|(x, y)| json!([round(x), round(y)]))
                            .collect(),
                    ));
                }
            }
        }
        out.push(json!({"code": code, "name": name, "rings": rings}));
    }
    Ok((out, unnamed))
}

/// The arcs in degrees: TopoJSON quantizes and delta-encodes them.
fn decode_arcs(topology: &Value) -> anyhow::Result<Vec<Vec<(f64, f64)>>> {
    let t = &topology["transform"];
    let (sx, sy) = (t["scale"][0].as_f64(), t["scale"][1].as_f64());
    let (tx, ty) = (t["translate"][0].as_f64(), t["translate"][1].as_f64());
    let (Some(sx), Some(sy), Some(tx), Some(ty)) = (sx, sy, tx, ty) else {
        bail!("the topology has no quantization transform");
    };
    let mut out = Vec::new();
    for arc in topology["arcs"].as_array().context("no arcs")? {
        let (mut x, mut y) = (0i64, 0i64);
        let mut points = Vec::new();
        for p in arc.as_array().context("an arc is not a list")? {
            x += p[0].as_i64().context("a bad arc point")?;
            y += p[1].as_i64().context("a bad arc point")?;
            points.push((x as f64 * sx + tx, y as f64 * sy + ty));
        }
        out.push(points);
    }
    Ok(out)
}

/// A ring's points from its arc indices (a negative index `!i` is arc `i`
/// reversed), thinned: shared arc ends once, near points dropped.
fn ring_points(ring: &Value, arcs: &[Vec<(f64, f64)>]) -> anyhow::Result<Vec<(f64, f64)>> {
    let mut points: Vec<(f64, f64)> = Vec::new();
    for index in ring.as_array().context("a ring is not a list")? {
        let i = index.as_i64().context("a bad arc index")?;
        let (arc, reversed) = if i >= 0 {
            (i as usize, false)
        } else {
            ((!i) as usize, true)
        };
        let arc = arcs.get(arc).context("an arc index out of range")?;
        let mut piece: Vec<(f64, f64)> = arc.clone();
        if reversed {
            piece.reverse();
        }
        let skip = usize::from(!points.is_empty());
        points.extend(piece.into_iter().skip(skip));
    }
    let mut thinned: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        let last = i + 1 == points.len();
        let far = thinned
            .last()
            .is_none_or(|&(x, y)| (p.0 - x).abs() + (p.1 - y).abs() >= MIN_STEP);
        if far || last {
            thinned.push(p);
        }
    }
    Ok(thinned)
}

fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_decode_and_join_into_rings() {
        let topology = json!({
            "transform": {"scale": [1.0, 1.0], "translate": [0.0, 0.0]},
            "arcs": [[[0, 0], [10, 0], [0, 10]], [[10, 10], [-10, 0], [0, -10]]],
        });
        let arcs = decode_arcs(&topology).expect("decoded");
        assert_eq!(arcs[0], vec![(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]);
        let ring = ring_points(&json!([0, 1]), &arcs).expect("ring");
        assert_eq!(
            ring,
            vec![
                (0.0, 0.0),
                (10.0, 0.0),
                (10.0, 10.0),
                (0.0, 10.0),
                (0.0, 0.0)
            ]
        );
        // Arc 0 reversed: ~0 is -1.
        let back = ring_points(&json!([-1]), &arcs).expect("ring");
        assert_eq!(back[0], (10.0, 10.0));
    }
}
