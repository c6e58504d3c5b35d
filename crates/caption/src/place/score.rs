//! The place scoring model: every gazetteer candidate for a mention is
//! scored by one linear function of a few explicit features, and the best
//! score wins among the candidates that fit the caption's stated countries.
//!
//! The features (see [`Features`]):
//! - **match tier**: how the mention's spelling met the candidate's name —
//!   folded (case and accents: `Suruc` = `Suruç`), transliterated (strict
//!   transliteration keys: `Deir Ezzor` = `Deir ez-Zor`) or skeleton
//!   (consonants, a couple of edits apart: `Haresta` = `Ḩarastā`); folded
//!   is the reference (weight 0), the others are scored against it;
//! - **population prior**: `log10(population + 1)`, and apart from it
//!   whether GeoNames gives no population at all (0 there means unknown,
//!   not empty: many villages and towns in conflict zones have none);
//! - **weak country hint**: the candidate's country is hinted at in the
//!   caption's own words (a demonym, a country named elsewhere) — never by
//!   the credit, whose agency says nothing of where the picture is;
//! - **named province**: the candidate lies in a first-level division the
//!   caption names;
//! - **own name**: the mention spells the candidate's GeoNames main name
//!   (equal after case and accent folding), not only one of its alternate
//!   names or a transliteration: `New Delhi` is the main name of the
//!   capital and an alternate name of Delhi, the larger city around it,
//!   and means the capital;
//! - **capital**: the candidate is its country's capital (GeoNames'
//!   country table): news is made in capitals far more often than their
//!   population alone says.
//!
//! Strong context (an apposition, `City, Country`, `City, State`) is not a
//! weight: it filters the candidates before scoring. A skeleton match is
//! kept only in a country the caption names or hints at.
//!
//! The weights live in `weights.rs`, written by `cargo xtask fit-place`
//! (softmax ranking on the gold GeoNames ids of the shared caption sets and
//! of captions generated from the gazetteer), which also keeps the one rule
//! the data must not overturn: a weak hint never beats a namesake 50 times
//! more populous, so the hint weight stays below `log10(50)` population
//! weights.

use gazetteer::MatchKind;

/// The stored weights (generated; see the module docs).
pub(super) use super::weights::WEIGHTS;

/// The features of one candidate, as the resolver saw them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features {
    /// How the name met the candidate.
    pub tier: MatchKind,
    /// `log10(population + 1)`.
    pub log_population: f64,
    /// GeoNames states no population (0).
    pub population_unknown: bool,
    /// The caption hints at the candidate's country.
    pub weak_hint: bool,
    /// The candidate lies in a division the caption names.
    pub named_province: bool,
    /// The mention spells the candidate's main name, not only an
    /// alternate name.
    pub own_name: bool,
    /// The candidate is its country's capital.
    pub capital: bool,
}

/// The weights of [`Features`] (one per feature; folded tier is 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Transliterated tier, against folded.
    pub transliterated: f64,
    /// Skeleton tier, against folded.
    pub skeleton: f64,
    /// Per decade of population.
    pub log_population: f64,
    /// No population stated.
    pub population_unknown: f64,
    /// A weak country hint.
    pub weak_hint: f64,
    /// In a division the caption names.
    pub named_province: f64,
    /// Spelled as the main name.
    pub own_name: f64,
    /// A national capital.
    pub capital: f64,
}

/// How many features the model has.
pub const FEATURES: usize = 8;

/// The names of [`Features::vector`]'s entries, in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "transliterated",
    "skeleton",
    "log_population",
    "population_unknown",
    "weak_hint",
    "named_province",
    "own_name",
    "capital",
];

// Population must count for more, whatever the fit writes.
const _: () = assert!(WEIGHTS.log_population > 0.0);

/// The largest population ratio a weak hint may overturn.
pub const HINT_MAX_POPULATION_RATIO: f64 = 50.0;

impl Features {
    /// The features as numbers, in [`FEATURE_NAMES`] order.
    pub fn vector(&self) -> [f64; FEATURES] {
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        [
            flag(self.tier == MatchKind::Transliterated),
            flag(self.tier == MatchKind::Skeleton),
            self.log_population,
            flag(self.population_unknown),
            flag(self.weak_hint),
            flag(self.named_province),
            flag(self.own_name),
            flag(self.capital),
        ]
    }

    /// The candidate's score under `weights`.
    pub fn score(&self, weights: &Weights) -> f64 {
        self.contributions(weights).iter().sum()
    }

    /// Each feature's share of the score, in [`FEATURE_NAMES`] order.
    pub fn contributions(&self, weights: &Weights) -> [f64; FEATURES] {
        let w = weights.vector();
        let mut out = self.vector();
        for (x, w) in out.iter_mut().zip(w) {
            *x *= w;
        }
        out
    }
}

impl Weights {
    /// The weights as numbers, in [`FEATURE_NAMES`] order.
    pub fn vector(&self) -> [f64; FEATURES] {
        [
            self.transliterated,
            self.skeleton,
            self.log_population,
            self.population_unknown,
            self.weak_hint,
            self.named_province,
            self.own_name,
            self.capital,
        ]
    }

    /// Weights from numbers in [`FEATURE_NAMES`] order.
    pub fn from_vector(v: [f64; FEATURES]) -> Weights {
        Weights {
            transliterated: v[0],
            skeleton: v[1],
            log_population: v[2],
            population_unknown: v[3],
            weak_hint: v[4],
            named_province: v[5],
            own_name: v[6],
            capital: v[7],
        }
    }

    /// Whether a weak hint stays below a population ratio of
    /// [`HINT_MAX_POPULATION_RATIO`].
    pub fn hint_is_bounded(&self) -> bool {
        self.weak_hint < HINT_MAX_POPULATION_RATIO.log10() * self.log_population
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_weights_keep_a_hint_below_a_fifty_fold_population() {
        assert!(WEIGHTS.hint_is_bounded(), "{WEIGHTS:?}");
        // A hinted town of 1,000 loses to an unhinted namesake of 50,000.
        let hinted = Features {
            tier: MatchKind::Folded,
            log_population: 1_001f64.log10(),
            population_unknown: false,
            weak_hint: true,
            named_province: false,
            own_name: true,
            capital: false,
        };
        let bigger = Features {
            log_population: 50_001f64.log10(),
            weak_hint: false,
            ..hinted
        };
        assert!(bigger.score(&WEIGHTS) > hinted.score(&WEIGHTS));
    }

    #[test]
    fn contributions_add_up_to_the_score() {
        let f = Features {
            tier: MatchKind::Skeleton,
            log_population: 4.2,
            population_unknown: false,
            weak_hint: true,
            named_province: true,
            own_name: false,
            capital: true,
        };
        let sum: f64 = f.contributions(&WEIGHTS).iter().sum();
        assert!((sum - f.score(&WEIGHTS)).abs() < 1e-12);
    }
}
