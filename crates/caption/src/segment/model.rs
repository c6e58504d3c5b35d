//! The line-kind model: a linear score per line and kind from the line's
//! features, a score per pair of neighbouring kinds (with or without a
//! blank line between), and the best sequence of kinds over the page found
//! by Viterbi decoding. The weights are fitted by an averaged structured
//! perceptron (`fit`) and stored in `weights.rs`.

use std::borrow::Cow;

use super::features::N_FEATURES;

/// What a line of input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// Page chrome: navigation, counters, headings, intros, prose, ids.
    Chrome,
    /// The first line of a caption.
    CaptionStart,
    /// A further line of the caption above.
    CaptionContinuation,
    /// The credit of the caption above, on a line of its own.
    CreditAfter,
    /// The credit of the caption below, on a line of its own (a page that
    /// labels the image source before the caption).
    CreditBefore,
}

/// How many kinds a line can have.
pub(crate) const N_KINDS: usize = 5;

impl LineKind {
    /// Every kind, in index order.
    pub const ALL: [LineKind; N_KINDS] = [
        LineKind::Chrome,
        LineKind::CaptionStart,
        LineKind::CaptionContinuation,
        LineKind::CreditAfter,
        LineKind::CreditBefore,
    ];

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The kind's name, as `--explain` prints it.
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Chrome => "chrome",
            LineKind::CaptionStart => "caption",
            LineKind::CaptionContinuation => "caption (continued)",
            LineKind::CreditAfter => "credit (of the caption above)",
            LineKind::CreditBefore => "credit (of the caption below)",
        }
    }

    /// Whether the line belongs to a caption (its text or its credit).
    pub fn is_caption(self) -> bool {
        self != LineKind::Chrome
    }
}

/// Per feature, a weight for each kind.
pub(crate) type EmitRow = [f32; N_KINDS];

/// Pair weights: `[previous kind, or N_KINDS at the first line][kind][blank line between]`.
pub(crate) type Transitions = [[[f32; 2]; N_KINDS]; N_KINDS + 1];

/// The model's weights.
#[derive(Debug, Clone)]
pub(crate) struct Weights {
    pub emit: Cow<'static, [EmitRow]>,
    pub trans: Transitions,
}

impl Weights {
    pub fn zero() -> Weights {
        Weights {
            emit: Cow::Owned(vec![[0.0; N_KINDS]; N_FEATURES]),
            trans: [[[0.0; 2]; N_KINDS]; N_KINDS + 1],
        }
    }

    /// The score of each kind for a line with these features.
    pub fn emission(&self, active: &[u16]) -> [f32; N_KINDS] {
        let mut score = [0.0; N_KINDS];
        for &f in active {
            let row = &self.emit[f as usize];
            for k in 0..N_KINDS {
                score[k] += row[k];
            }
        }
        score
    }
}

/// The kinds a line may have at all, one bit per kind index: a line with
/// no words is chrome, and only a line that reads as a credit (a credit
/// alone, or after a credit label) can be a caption's credit line. An
/// unlabelled credit line also gets [`SIDED`].
pub(crate) fn possible_kinds(empty: bool, credit_like: bool, labelled: bool) -> u8 {
    use LineKind::*;
    let bit = |k: LineKind| 1u8 << k.index();
    if empty {
        bit(Chrome)
    } else if credit_like && labelled {
        0b1_1111
    } else if credit_like {
        0b1_1111 | SIDED
    } else {
        bit(Chrome) | bit(CaptionStart) | bit(CaptionContinuation)
    }
}

/// A bit beside the kinds in a line's possible set: the line is a credit
/// with no label, so which caption it belongs to, the one above or the one
/// below, is the page's habit. A page puts its bare credits on one side of
/// their captions (a desk's template does not change halfway), and only
/// the page as a whole shows which: at its ends, where a credit has a
/// caption on one side only. Labelled credits (`Image source,`) say their
/// side themselves.
const SIDED: u8 = 1 << 7;

/// A bit beside the kinds in a line's possible set: the line is a slide
/// counter (`3 of 29`) or a headline, which a slideshow may put between a
/// picture's credit and its caption (`NAME / AGENCY`, then the picture's
/// title, then its caption).
pub(crate) const SLIDE_HEADER: u8 = 1 << 6;

/// Whether `kind` may follow `previous` (`None`: the first line) on a line
/// that may have `possible` kinds; the rest is the weights' business.
pub(crate) fn allowed(previous: Option<LineKind>, kind: LineKind, possible: u8) -> bool {
    use LineKind::*;
    if possible & (1 << kind.index()) == 0 {
        return false;
    }
    match (previous, kind) {
        // A slide counter or headline may stand between a credit and the
        // caption below it, and more headings after it: the credit waits
        // for its caption.
        (Some(CreditBefore), k) => {
            k == CaptionStart || (k == Chrome && possible & SLIDE_HEADER != 0)
        }
        (Some(CaptionStart | CaptionContinuation), CaptionContinuation | CreditAfter) => true,
        (_, CaptionContinuation | CreditAfter) => false,
        _ => true,
    }
}

/// The best sequence of kinds for lines with these features; `gaps[i]`
/// says a blank line stands before line `i`, `possible[i]` which kinds
/// line `i` may have ([`possible_kinds`]). The page's bare credits all go
/// one way ([`SIDED`]): the page is decoded with them after their
/// captions and with them before, and the side that gives more credits a
/// caption wins (the better score where both give as many).
pub(crate) fn decode(
    weights: &Weights,
    features: &[Vec<u16>],
    gaps: &[bool],
    possible: &[u8],
) -> Vec<LineKind> {
    let emissions: Vec<[f32; N_KINDS]> = features.iter().map(|f| weights.emission(f)).collect();
    if !possible.iter().any(|p| p & SIDED != 0) {
        return viterbi(weights, &emissions, gaps, possible).1;
    }
    let one_side = |other_side: LineKind| -> Vec<u8> {
        possible
            .iter()
            .map(|&p| {
                if p & SIDED != 0 {
                    p & !(1 << other_side.index())
                } else {
                    p
                }
            })
            .collect()
    };
    let after = viterbi(weights, &emissions, gaps, &one_side(LineKind::CreditBefore));
    let before = viterbi(weights, &emissions, gaps, &one_side(LineKind::CreditAfter));
    // The side that leaves fewer credits with no caption is the page's;
    // the scores decide only between sides that leave as many.
    let by_credits = credits_placed(&before.1).cmp(&credits_placed(&after.1));
    if by_credits.then(before.0.total_cmp(&after.0)).is_gt() {
        before.1
    } else {
        after.1
    }
}

/// How many credit lines in `kinds` belong to a caption: every credit of
/// the caption above does (it can only follow one), a credit of the
/// caption below only when a caption starts before the next credit line.
fn credits_placed(kinds: &[LineKind]) -> usize {
    let mut placed = 0;
    let mut waiting = false;
    for kind in kinds {
        match kind {
            LineKind::CreditAfter => {
                placed += 1;
                waiting = false;
            }
            LineKind::CreditBefore => waiting = true,
            LineKind::CaptionStart if waiting => {
                placed += 1;
                waiting = false;
            }
            _ => {}
        }
    }
    placed
}

/// Viterbi decoding: the best-scoring sequence of allowed kinds, and its
/// score.
fn viterbi(
    weights: &Weights,
    emissions: &[[f32; N_KINDS]],
    gaps: &[bool],
    possible: &[u8],
) -> (f32, Vec<LineKind>) {
    let n = emissions.len();
    if n == 0 {
        return (0.0, Vec::new());
    }
    const NEG: f32 = f32::NEG_INFINITY;
    let mut best = vec![[NEG; N_KINDS]; n];
    let mut back = vec![[0u8; N_KINDS]; n];
    for i in 0..n {
        let emission = &emissions[i];
        let gap = usize::from(gaps[i]);
        for kind in LineKind::ALL {
            let k = kind.index();
            if i == 0 {
                if allowed(None, kind, possible[i]) {
                    best[i][k] = emission[k] + weights.trans[N_KINDS][k][gap];
                }
                continue;
            }
            for previous in LineKind::ALL {
                let p = previous.index();
                if best[i - 1][p] == NEG || !allowed(Some(previous), kind, possible[i]) {
                    continue;
                }
                let score = best[i - 1][p] + weights.trans[p][k][gap] + emission[k];
                if score > best[i][k] {
                    best[i][k] = score;
                    back[i][k] = p as u8;
                }
            }
        }
    }
    // A credit of the caption below cannot be the last line.
    let last = LineKind::ALL
        .iter()
        .filter(|k| **k != LineKind::CreditBefore)
        .max_by(|a, b| best[n - 1][a.index()].total_cmp(&best[n - 1][b.index()]))
        .map_or(0, |k| k.index());
    let mut kinds = vec![LineKind::Chrome; n];
    let mut k = last;
    for i in (0..n).rev() {
        kinds[i] = LineKind::ALL[k];
        k = back[i][k] as usize;
    }
    (best[n - 1][last], kinds)
}

/// The features that weigh most for `kind` over `other` on a line: what
/// `--explain` gives as the reason.
pub(crate) fn reasons(
    weights: &Weights,
    active: &[u16],
    kind: LineKind,
    other: LineKind,
) -> Vec<(usize, f32)> {
    let mut margins: Vec<(usize, f32)> = active
        .iter()
        .map(|&f| {
            let row = &weights.emit[f as usize];
            (f as usize, row[kind.index()] - row[other.index()])
        })
        .filter(|&(_, m)| m > 0.0)
        .collect();
    margins.sort_by(|a, b| b.1.total_cmp(&a.1));
    margins.truncate(3);
    margins
}

/// A page ready for fitting: each line's active features, whether a blank
/// line stands before it, its possible kinds, and its gold kind.
pub(crate) type LabelledPage = (Vec<Vec<u16>>, Vec<bool>, Vec<u8>, Vec<LineKind>);

/// Fits weights to labelled pages by the averaged structured perceptron:
/// decode each page with the current weights, move the weights towards
/// the gold kinds where the decoding differs, and average the weights over
/// every step (which keeps rare features from swinging the result). The
/// page order is fixed, so a fit is reproducible.
pub(crate) fn fit(pages: &[LabelledPage], epochs: usize) -> Weights {
    let mut weights = Weights::zero();
    let mut sum = Weights::zero();
    let mut steps = 0f64;
    for _ in 0..epochs {
        for page in pages {
            let (features, gaps, possible, gold) = page;
            let predicted = decode(&weights, features, gaps, possible);
            if predicted != *gold {
                update(&mut weights, features, gaps, gold, 1.0);
                update(&mut weights, features, gaps, &predicted, -1.0);
            }
            add_to(&mut sum, &weights);
            steps += 1.0;
        }
    }
    scale(&mut sum, (1.0 / steps.max(1.0)) as f32);
    sum
}

fn update(
    weights: &mut Weights,
    features: &[Vec<u16>],
    gaps: &[bool],
    kinds: &[LineKind],
    by: f32,
) {
    let mut previous = N_KINDS;
    for (i, kind) in kinds.iter().enumerate() {
        let k = kind.index();
        for &f in &features[i] {
            weights.emit.to_mut()[f as usize][k] += by;
        }
        weights.trans[previous][k][usize::from(gaps[i])] += by;
        previous = k;
    }
}

fn add_to(sum: &mut Weights, weights: &Weights) {
    for (s, w) in sum.emit.to_mut().iter_mut().zip(weights.emit.iter()) {
        for k in 0..N_KINDS {
            s[k] += w[k];
        }
    }
    for (s, w) in sum
        .trans
        .iter_mut()
        .flatten()
        .zip(weights.trans.iter().flatten())
    {
        s[0] += w[0];
        s[1] += w[1];
    }
}

fn scale(weights: &mut Weights, by: f32) {
    for row in weights.emit.to_mut().iter_mut() {
        for w in row.iter_mut() {
            *w *= by;
        }
    }
    for w in weights.trans.iter_mut().flatten().flatten() {
        *w *= by;
    }
}
