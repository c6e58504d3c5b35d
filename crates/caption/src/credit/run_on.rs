//! Captions run together in one paragraph, each closed by its wire credit
//! in capitals: `... in Corinth, Greece. EPA-EFE/JANE DOE epa01234567
//! Residents walk ...`. Pages that paste a wire feed into one block of text
//! keep no line break between the pictures; the credit in capitals after a
//! sentence end, followed by a new sentence or a wire picture id, is where
//! one caption ends and the next begins.

use super::{agency, body, is_sentence_start, is_shouted};

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

/// The most words a labelled credit's name runs to before its slash.
const MAX_LABELLED_NAME_WORDS: usize = 8;

/// The most words an agency after a slash runs to (`Red Bull Media House`).
const MAX_AGENCY_WORDS: usize = 4;

/// Where labelled credits end inside `text`, in order, when more text
/// follows them: a page flattened into one paragraph (a reader view, a
/// copy of the whole page) runs each caption's `Photograph: Jane
/// Doe/Agency` into the next caption, with nothing but the share buttons
/// between. The credit is the label, capitalized names, and the agency
/// after the last slash, as long as the agency list knows it. Whether what
/// follows is a caption is [`opens_caption`]'s to say.
pub(crate) fn labelled_credit_ends(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut ends = Vec::new();
    for colon in memchr::memchr_iter(b':', bytes) {
        // The label is the word before the colon, after a space: a label
        // that opens the text closes no caption before it.
        let Some(space) = memchr::memrchr(b' ', &bytes[..colon]) else {
            continue;
        };
        let label_start = space + 1;
        let Some(label_len) = body::lead_in_len(&text[label_start..]) else {
            continue;
        };
        let credit_start = label_start + label_len;
        if credit_start <= colon {
            continue; // the lead-in is not this colon's label
        }
        if let Some(end) = labelled_credit_end(text, credit_start) {
            if !text[end..].trim().is_empty() {
                ends.push(end);
            }
        }
    }
    ends
}

/// Whether `rest`, after a credit inside a line, can be a caption of its
/// own: long enough, and opening with a capital.
pub(crate) fn opens_caption(rest: &str) -> bool {
    let rest = rest.trim_start();
    rest.len() >= MIN_REST_BYTES && rest.starts_with(char::is_uppercase)
}

/// After a credit label at `from`: where `Jane Doe/Agency` ends, the
/// agency being the longest run of words after the last slash that the
/// agency list knows.
fn labelled_credit_end(text: &str, from: usize) -> Option<usize> {
    let words = word_spans(text, from);
    // The last word holding a slash among the leading capitalized words.
    let capitalized = words
        .iter()
        .take(MAX_LABELLED_NAME_WORDS)
        .take_while(|&&(start, _)| text[start..].starts_with(char::is_uppercase))
        .count();
    let slash_word = words[..capitalized]
        .iter()
        .rposition(|&(start, end)| text[start..end].contains('/'))?;
    let (start, end) = words[slash_word];
    let agency_start = start + text[start..end].rfind('/')? + 1;
    (0..MAX_AGENCY_WORDS)
        .rev()
        .filter_map(|extra| words.get(slash_word + extra).map(|&(_, end)| end))
        .find(|&agency_end| agency::lookup(&text[agency_start..agency_end]).is_some())
}

/// The byte spans of the words of `text` from `from`, split at spaces.
fn word_spans(text: &str, from: usize) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut at = from;
    for word in text[from..].split(' ') {
        if !word.is_empty() {
            spans.push((at, at + word.len()));
        }
        at += word.len() + 1;
        if spans.len() > MAX_LABELLED_NAME_WORDS + MAX_AGENCY_WORDS {
            break;
        }
    }
    spans
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
    let mut words = words_from(text, from);
    let (_, first) = words.next()?;
    // The name right after the slash is in capitals too (`EPA/JANE`), or
    // it is written as a name and closed by a party in capitals.
    if first.len() < 2 || !is_shouted(first) {
        return after_name_and_party(text, from);
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

/// The most words of a name written as a name (`Kiyoshi Ota`) in a
/// credit closed by a party in capitals.
const MAX_NAME_WORDS: usize = 4;

/// After the slash at `from - 1`, a name written as a name, a slash and a
/// party in capitals (`EPA-EFE/Jane Doe / POOL`, `.../Jane Doe / SPUTNIK /
/// KREMLIN POOL`): where the capitalized word after the party starts. The
/// party in capitals is what closes the credit; without it a name in
/// title case runs on into the next words and no cut is sure.
fn after_name_and_party(text: &str, from: usize) -> Option<usize> {
    let mut words = words_from(text, from);
    let mut name_words = 0;
    let mut next = words.next();
    while let Some((_, word)) = next.filter(|(_, w)| starts_capitalized(w)) {
        name_words += 1;
        if name_words > MAX_NAME_WORDS || word.ends_with([',', '.']) {
            return None;
        }
        next = words.next();
    }
    if name_words == 0 || next.map(|(_, w)| w) != Some("/") {
        return None;
    }
    let mut party_words = 0;
    for (start, word) in words.take(MAX_CREDIT_WORDS) {
        if word == "/" {
            continue;
        }
        if word.len() >= 2 && is_shouted(word) {
            party_words += 1;
            continue;
        }
        return (party_words > 0 && (starts_capitalized(word) || is_wire_id(word)))
            .then_some(start);
    }
    None
}

/// The words of `text` from `from` split at single spaces (empty words
/// between double spaces included), each with its start.
fn words_from(text: &str, from: usize) -> impl Iterator<Item = (usize, &str)> {
    text[from..].split(' ').scan(from, |at, word| {
        let start = *at;
        *at += word.len() + 1;
        Some((start, word))
    })
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
    use super::{labelled_credit_ends, opens_caption, run_on_starts};

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
    fn a_name_in_title_case_closed_by_a_pool_in_capitals_ends_the_caption() {
        let text = "A minister arrives for talks in Karsa, Lowland, 6 May 2021. \
                    EPA-EFE/Ana Ruiz / POOL Maria Lind, a trade envoy, speaks to reporters \
                    in Karsa, Lowland, 6 May 2021. EPA-EFE/Tom Berg / SPUTNIK / KREMLIN POOL \
                    Delegates pose for a photograph in Karsa, Lowland, 7 May 2021. EPA-EFE/Tom Berg";
        let cut = pieces(text);
        assert_eq!(cut.len(), 3, "{cut:?}");
        assert!(cut[0].ends_with("EPA-EFE/Ana Ruiz / POOL"));
        assert!(cut[1].ends_with("SPUTNIK / KREMLIN POOL"));
        assert!(cut[2].starts_with("Delegates pose"));
        // Without a party in capitals a name in title case runs on: no cut.
        let text = "A minister arrives for talks in Karsa, Lowland, 6 May 2021. \
                    EPA-EFE/Ana Ruiz Maria Lind speaks to reporters in Karsa, Lowland.";
        assert_eq!(pieces(text).len(), 1);
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
    fn a_flattened_page_is_cut_after_each_labelled_credit() {
        let text = "Potential buyers watch sheep in the ring at the autumn sale in Lairg. \
                    Photograph: Jane Doe/Getty Images Share Tweet Pickers harvest apples \
                    at a plantation near Freinsheim, Germany. Photograph: Ana Ruiz/EPA Share \
                    Tweet A ferry leaves Kyle of Lochalsh at dawn. Photograph: Li Wei/Red \
                    Sky Media/PA";
        let ends: Vec<usize> = labelled_credit_ends(text)
            .into_iter()
            .filter(|&end| opens_caption(&text[end..]))
            .collect();
        let pieces: Vec<&str> = ends
            .iter()
            .map(|&end| &text[..end])
            .map(|head| head.rsplit("Photograph: ").next().unwrap_or(""))
            .collect();
        assert_eq!(pieces, ["Jane Doe/Getty Images", "Ana Ruiz/EPA"]);
        // A label inside prose, a credit at the end, a short rest: no cut.
        for text in [
            "Men walk in Lairg. Photograph: Jane Doe/Getty Images",
            "The sale opened at nine. Note: prices rose again in the afternoon at the ring.",
        ] {
            assert_eq!(labelled_credit_ends(text), Vec::<usize>::new(), "{text}");
        }
        let short_rest = "Men walk in Lairg. Photograph: Jane Doe/Getty Images File Photo";
        let ends = labelled_credit_ends(short_rest);
        assert!(ends.iter().all(|&end| !opens_caption(&short_rest[end..])));
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
