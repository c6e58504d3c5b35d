//! Captions run together in one paragraph, each closed by its wire credit
//! in capitals: `... in Corinth, Greece. EPA-EFE/JANE DOE epa01234567
//! Residents walk ...`. Pages that paste a wire feed into one block of text
//! keep no line break between the pictures; the credit in capitals after a
//! sentence end, followed by a new sentence or a wire picture id, is where
//! one caption ends and the next begins.

use super::{agency, is_sentence_start, is_shouted};

/// The shortest text after a credit that can be a caption of its own; a
/// shorter rest (`JANE DOE/File Photo`) belongs to the credit.
const MIN_REST_BYTES: usize = 32;

/// The most words a credit in capitals runs to after its slash (names,
/// `HANDOUT`, `EDITORIAL USE ONLY/NO SALES`, a doubled credit).
const MAX_CREDIT_WORDS: usize = 16;

/// Where a new caption starts inside `text`, after a credit in capitals
/// that closes the one before it, in order. Empty for almost every text:
/// the scan looks only at slashes, and at those only after an agency in
/// capitals that follows a sentence end.
pub(crate) fn run_on_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    for slash in memchr::memchr_iter(b'/', bytes) {
        if starts.last().is_some_and(|&last| last > slash) {
            continue; // inside the credit that made the last cut
        }
        // The agency is the word before the slash, after a space: a credit
        // that opens the text closes no caption before it.
        let Some(space) = memchr::memrchr(b' ', &bytes[..slash]) else {
            continue;
        };
        let agency_start = space + 1;
        let agency = &text[agency_start..slash];
        if agency.len() < 2
            || !is_shouted(agency)
            || !is_sentence_start(text, agency_start)
            || agency::lookup(agency).is_none()
        {
            continue;
        }
        if let Some(start) = next_caption_start(text, slash + 1) {
            if text.len() - start >= MIN_REST_BYTES {
                starts.push(start);
            }
        }
    }
    let after_brackets = bracketed_credit_starts(text);
    if !after_brackets.is_empty() {
        starts.extend(after_brackets);
        starts.sort_unstable();
        starts.dedup();
    }
    starts
}

/// The longest bracketed credit looked at (`(AP Photo/Firstname Lastname)`).
const MAX_BRACKETED_CREDIT_BYTES: usize = 80;

/// Where a caption starts right after a bracketed credit that closes the
/// one before it: `... May 2, 2016. (AP Photo/Jane Doe)Residents walk ...`,
/// with or without a space after the bracket. The bracket must follow a
/// sentence end and hold a credit's shape (a slash, or `Photo`/`Foto`
/// first); what follows must open a sentence (a capitalized word with
/// lower-case letters, or `A`), so a label in capitals glued to the credit
/// (`(AP Photo/Jane Doe)ASSOCIATED PRESS`) is no cut.
fn bracketed_credit_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    for close in memchr::memchr_iter(b')', bytes) {
        let Some(open) = memchr::memrchr(b'(', &bytes[..close]) else {
            continue;
        };
        let inside = &text[open + 1..close];
        if inside.len() > MAX_BRACKETED_CREDIT_BYTES
            || !(inside.contains('/') || inside.starts_with("Photo") || inside.starts_with("Foto"))
        {
            continue;
        }
        let before = text[..open].trim_end_matches(' ');
        if !before.ends_with(['.', '!', '?']) {
            continue;
        }
        let rest = &text[close + 1..];
        let start = close + 1 + (rest.len() - rest.trim_start_matches(' ').len());
        let first_word = text[start..].split(' ').next().unwrap_or("");
        if (starts_capitalized(first_word) || first_word == "A")
            && text.len() - start >= MIN_REST_BYTES
        {
            starts.push(start);
        }
    }
    starts
}

/// After the slash at `from - 1`: the credit's words in capitals, then the
/// start of the next caption, a wire picture id (`epa01234567`) or a
/// capitalized word with lower-case letters (`Residents`, or `A` before
/// `man`). `None` when the words in capitals reach the end, or what follows
/// them does not open a sentence.
fn next_caption_start(text: &str, from: usize) -> Option<usize> {
    let mut words = text[from..].split(' ').scan(from, |at, word| {
        let start = *at;
        *at += word.len() + 1;
        Some((start, word))
    });
    let (_, first) = words.next()?;
    // The name right after the slash is in capitals too (`EPA/JANE`).
    if first.len() < 2 || !is_shouted(first) {
        return None;
    }
    let mut previous: Option<(usize, &str)> = None;
    for (start, word) in words.take(MAX_CREDIT_WORDS) {
        if word.is_empty() || is_shouted(word) || !word.chars().any(char::is_alphabetic) {
            previous = Some((start, word));
            continue;
        }
        if is_wire_id(word) || starts_capitalized(word) {
            return Some(start);
        }
        // `... JANE DOE A man walks`: the article in capitals opens it.
        return previous
            .filter(|(_, w)| matches!(*w, "A" | "An" | "The"))
            .map(|(start, _)| start);
    }
    None
}

/// A wire service's picture id: lower-case letters then digits
/// (`epa01234567`, `afp00123456`).
fn is_wire_id(word: &str) -> bool {
    let letters = word.bytes().take_while(u8::is_ascii_lowercase).count();
    let digits = word.len() - letters;
    (2..=5).contains(&letters) && digits >= 6 && word[letters..].bytes().all(|b| b.is_ascii_digit())
}

/// A word opening with a capital and holding lower-case letters after it.
fn starts_capitalized(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase) && chars.any(char::is_lowercase)
}

#[cfg(test)]
mod tests {
    use super::run_on_starts;

    fn pieces(text: &str) -> Vec<&str> {
        let mut cuts = run_on_starts(text);
        cuts.push(text.len());
        let mut from = 0;
        cuts.into_iter()
            .map(|cut| {
                let piece = text[from..cut].trim();
                from = cut;
                piece
            })
            .collect()
    }

    #[test]
    fn wire_captions_in_one_paragraph_are_cut_after_each_credit() {
        let text = "Fishermen mend nets on the quay in Volos, Greece, 3 March 2021. \
                    EPA-EFE/MARIA KOSTA epa09000001 A boy swims near the old port of Volos, \
                    Greece, 4 March 2021. EPA-EFE/MARIA KOSTA EPA-EFE/MARIA KOSTA View of the \
                    harbour of Volos at dusk, Greece, 4 March 2021. EPA-EFE/STR";
        assert_eq!(
            pieces(text),
            [
                "Fishermen mend nets on the quay in Volos, Greece, 3 March 2021. EPA-EFE/MARIA KOSTA",
                "epa09000001 A boy swims near the old port of Volos, Greece, 4 March 2021. \
                 EPA-EFE/MARIA KOSTA EPA-EFE/MARIA KOSTA",
                "View of the harbour of Volos at dusk, Greece, 4 March 2021. EPA-EFE/STR",
            ]
        );
    }

    #[test]
    fn an_article_in_capitals_opens_the_next_caption() {
        let text = "Smoke rises over the hills near Patras, Greece, 2 May 2021. \
                    EPA-EFE/NIKOS ALEXIOU HANDOUT EDITORIAL USE ONLY/NO SALES A firefighter \
                    rests beside a truck near Patras, Greece, 2 May 2021. EPA-EFE/NIKOS ALEXIOU";
        let cut = pieces(text);
        assert_eq!(cut.len(), 2);
        assert!(cut[1].starts_with("A firefighter rests"));
        assert!(cut[0].ends_with("EDITORIAL USE ONLY/NO SALES"));
    }

    #[test]
    fn captions_glued_after_a_bracketed_credit_are_cut() {
        let text = "Men mend nets in Volos, Greece, Monday, May 2, 2016. (AP Photo/Jane Doe)Boys \
                    swim near the old port of Volos, Greece, Tuesday, May 3, 2016.(AP Photo/Ana Ruiz) \
                    A ferry leaves the harbour of Volos at dusk. (Photo by Li Wei/Xinhua)";
        assert_eq!(
            pieces(text),
            [
                "Men mend nets in Volos, Greece, Monday, May 2, 2016. (AP Photo/Jane Doe)",
                "Boys swim near the old port of Volos, Greece, Tuesday, May 3, 2016.(AP Photo/Ana Ruiz)",
                "A ferry leaves the harbour of Volos at dusk. (Photo by Li Wei/Xinhua)",
            ]
        );
    }

    #[test]
    fn a_credit_that_ends_the_text_or_keeps_its_caption_is_not_a_cut() {
        for text in [
            "Men walk past a market in Aleppo, Syria, May 2, 2016. REUTERS/JANE DOE",
            "Men walk past a market in Aleppo, Syria, May 2, 2016. REUTERS/JANE DOE/File Photo",
            "Men walk past a market in Aleppo, Syria, May 2, 2016. REUTERS/Jane Doe Picture \
             taken with a long exposure on May 2, 2016.",
            "A report by REUTERS/JANE DOE says the market in Aleppo reopened on Monday morning.",
            "Men walk in Aleppo. ANYTHING/JANE DOE Women walk past the market in Aleppo on Monday.",
            "Men walk in Aleppo, Syria, May 2, 2016. REUTERS/JANE DOE and others who walk past.",
            "Men walk in Aleppo, Syria, May 2, 2016. (AP Photo/Jane Doe)ASSOCIATED PRESS",
            "Men walk in Aleppo (pictured/left) as Women walk past the old market on Monday.",
        ] {
            assert_eq!(run_on_starts(text), Vec::<usize>::new(), "{text}");
        }
    }
}
