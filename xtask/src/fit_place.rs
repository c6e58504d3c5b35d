//! `cargo xtask fit-place`: fits the place scoring model's weights
//! (`crates/caption/src/place/score.rs`) and writes
//! `crates/caption/src/place/weights.rs`.
//!
//! Training examples come from the shared caption sets and from the
//! captions generated from the gazetteer (`gazetteer::generated`, the ones
//! `tests/generated_places.rs` measures): for every caption with a known
//! GeoNames id, each candidate list the resolver scored that holds that
//! place among two or more candidates is one ranking example (the features
//! of every candidate, and which one is right). The two sources weigh the
//! same in the loss: the generated captions are many more, but the gold
//! sets are real wire text, and neither should drown the other.
//! The weights minimise the softmax ranking loss (the negative log of the
//! right candidate's share) plus a small L2 pull towards zero, by plain
//! gradient descent from a fixed start, so the fit is deterministic. One
//! rule is kept as a constraint, not left to the data: a weak country hint
//! never outweighs a namesake 50 times more populous
//! (`weak_hint < log10(50) * log_population`), and population counts for
//! more, not less.
//!
//! The candidate lists depend a little on the weights (a second pass
//! re-resolves names in the country of the first pass's anchor), so the
//! fit runs to a fixed point: the lists are read again with the new
//! weights until the weights stop changing.

use std::path::Path;

use anyhow::Context;

use crate::fit_args::FitArgs;
use caption::{PlaceWeights, PLACE_FEATURES, PLACE_FEATURE_NAMES};
use gazetteer::Gazetteer;

/// Gradient steps per fit.
const STEPS: usize = 20_000;
/// Step size.
const LEARNING_RATE: f64 = 0.2;
/// Weight of the L2 penalty.
const L2: f64 = 0.002;
/// Decimals kept in the written weights.
const DECIMALS: i32 = 2;

/// The features of every candidate, the right one, and the example's
/// weight in the loss.
type Example = (Vec<[f64; PLACE_FEATURES]>, usize, f64);

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let args = FitArgs::parse(args, "crates/caption/src/place/weights.rs")?;
    let shared = &args.shared;
    let gazetteer = Gazetteer::embedded();
    let mut captions = Vec::new();
    for set in ["dev", "dev-world", "dev-pages"] {
        captions.extend(gold_places(&shared.join(format!("eval/{set}.jsonl")))?);
    }
    // The lists are read with the stored weights; `weights.rs` is what the
    // fit gives on them.
    let stored = caption::place_weights();
    let generated: Vec<(String, u64)> = gazetteer::generated::generated_captions(gazetteer)
        .into_iter()
        .map(|c| (c.caption, u64::from(c.expected)))
        .collect();
    let mut examples = examples(&captions, gazetteer);
    let n_gold = examples.len();
    examples.extend(self::examples(&generated, gazetteer));
    println!(
        "{} captions with a gold GeoNames id, {} generated; {n_gold} + {} ranking examples",
        captions.len(),
        generated.len(),
        examples.len() - n_gold
    );
    let fitted = round(fit(&examples));
    for (name, weights) in [("stored", stored), ("fitted", fitted)] {
        println!(
            "  {name}: top-1 {:.3}, loss {:.4}, {weights:?}",
            top1(&examples, &weights),
            loss(&examples, &weights.vector())
        );
    }
    anyhow::ensure!(
        fitted.hint_is_bounded(),
        "the fit broke the hint bound: {fitted:?}"
    );
    let source = to_source(&fitted);
    args.write_or_check(&source, "cargo xtask fit-place")?;
    Ok(())
}

/// (caption text, gold GeoNames id) of every gold caption that has one.
fn gold_places(path: &Path) -> anyhow::Result<Vec<(String, u64)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let value: serde_json::Value = serde_json::from_str(line)?;
        let id = value["gold"]["location"]["geonames_id"].as_u64();
        if let (Some(caption), Some(id)) = (value["text"].as_str(), id) {
            out.push((caption.to_string(), id));
        }
    }
    Ok(out)
}

fn examples(captions: &[(String, u64)], gazetteer: &Gazetteer) -> Vec<Example> {
    let mut out = Vec::new();
    for (text, gold) in captions {
        for list in caption::place_candidates(text, gazetteer) {
            if list.candidates.len() < 2 {
                continue;
            }
            let Some(right) = list
                .candidates
                .iter()
                .position(|c| u64::from(c.id) == *gold)
            else {
                continue;
            };
            let features = list
                .candidates
                .iter()
                .map(|c| c.features.vector())
                .collect();
            out.push((features, right, 1.0));
        }
    }
    // Each source weighs 1 in all.
    let weight = 1.0 / out.len().max(1) as f64;
    for example in &mut out {
        example.2 = weight;
    }
    out
}

fn dot(a: &[f64; PLACE_FEATURES], b: &[f64; PLACE_FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean negative log-likelihood of the right candidates, plus the penalty.
fn loss(examples: &[Example], w: &[f64; PLACE_FEATURES]) -> f64 {
    let mut total = 0.0;
    for (candidates, right, weight) in examples {
        let scores: Vec<f64> = candidates.iter().map(|f| dot(f, w)).collect();
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let log_sum = max + scores.iter().map(|s| (s - max).exp()).sum::<f64>().ln();
        total += weight * (log_sum - scores[*right]);
    }
    total / total_weight(examples) + L2 * w.iter().map(|x| x * x).sum::<f64>()
}

/// The examples' summed weight (1 when there are none, to divide by).
fn total_weight(examples: &[Example]) -> f64 {
    let total: f64 = examples.iter().map(|e| e.2).sum();
    if total > 0.0 {
        total
    } else {
        1.0
    }
}

fn fit(examples: &[Example]) -> PlaceWeights {
    // A fixed start (population alone), so the fit depends on the
    // examples only.
    let mut w = [0.0; PLACE_FEATURES];
    w[index_of("log_population")] = 1.0;
    let n = total_weight(examples);
    for _ in 0..STEPS {
        let mut grad = [0.0; PLACE_FEATURES];
        for (candidates, right, weight) in examples {
            let scores: Vec<f64> = candidates.iter().map(|f| dot(f, &w)).collect();
            let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let exp: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
            let sum: f64 = exp.iter().sum();
            for (k, f) in candidates.iter().enumerate() {
                let p = exp[k] / sum - if k == *right { 1.0 } else { 0.0 };
                for (g, x) in grad.iter_mut().zip(f) {
                    *g += weight * p * x / n;
                }
            }
        }
        for (x, g) in w.iter_mut().zip(grad) {
            *x -= LEARNING_RATE * (g + 2.0 * L2 * *x);
        }
        project(&mut w);
    }
    PlaceWeights::from_vector(w)
}

/// Holds the constraints: population counts for more (at least 0.5 a
/// decade), and a hint stays below 95 % of a fifty-fold population.
fn project(w: &mut [f64; PLACE_FEATURES]) {
    let pop = index_of("log_population");
    let hint = index_of("weak_hint");
    w[pop] = w[pop].max(0.5);
    let bound = 0.95 * caption::HINT_MAX_POPULATION_RATIO.log10() * w[pop];
    w[hint] = w[hint].min(bound);
}

fn index_of(name: &str) -> usize {
    PLACE_FEATURE_NAMES
        .iter()
        .position(|n| *n == name)
        .expect("a feature of the model")
}

fn round(w: PlaceWeights) -> PlaceWeights {
    let scale = 10f64.powi(DECIMALS);
    let mut v = w.vector();
    for x in &mut v {
        *x = (*x * scale).round() / scale;
    }
    // Rounding must not undo the constraint.
    project(&mut v);
    for x in &mut v {
        *x = (*x * scale).floor() / scale;
    }
    PlaceWeights::from_vector(v)
}

fn top1(examples: &[Example], w: &PlaceWeights) -> f64 {
    let w = w.vector();
    let right = examples
        .iter()
        .filter(|(candidates, right, _)| {
            let best = candidates
                .iter()
                .enumerate()
                .max_by(|a, b| dot(a.1, &w).total_cmp(&dot(b.1, &w)).then(b.0.cmp(&a.0)))
                .map(|(k, _)| k);
            best == Some(*right)
        })
        .count();
    right as f64 / examples.len().max(1) as f64
}

fn to_source(w: &PlaceWeights) -> String {
    let mut out = String::from(
        "// Generated by `cargo xtask fit-place`; do not edit by hand.\n\
         //! The place scoring model's weights (see `score.rs`).\n\n\
         use super::score::Weights;\n\n\
         /// Fitted weights, in `score::FEATURE_NAMES` order.\n\
         pub(crate) const WEIGHTS: Weights = Weights {\n",
    );
    for (name, value) in PLACE_FEATURE_NAMES.iter().zip(w.vector()) {
        out.push_str(&format!("    {name}: {value:?},\n"));
    }
    out.push_str("};\n");
    out
}
