//! Credit words into creators, agencies, a source and role flags, or no credit.

use super::agency;
use super::name::{self, PartKind};

/// Where the credit text stands, which decides how much evidence it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Setting {
    /// Inside brackets at the end: `(...)`, `[...]`.
    Bracketed,
    /// Bare, after the description.
    Trailing,
    /// Bare and in capitals, right after a description in mixed case with
    /// no full stop between (`... in Cork JANE DOE`): a person's name is
    /// enough, since capitals are how such pages set the credit apart.
    ShoutedTail,
    /// After a credit label the page set apart (`Image copyright Jane
    /// Doe`, with the label cut off as chrome): the label is the evidence,
    /// so a name alone is enough.
    Labelled,
}

/// The lead-in words of a credit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    /// `Photo by`, `Photo:`, `Credit:`, `©`: what follows is credited.
    Plain,
    /// `Courtesy of`: what follows supplied the image.
    Courtesy,
}

/// Lead-ins, lower case, longest first where one is a prefix of another.
const MARKERS: [(&str, Marker); 61] = [
    ("photo credit should read", Marker::Plain),
    ("pool photo by", Marker::Plain),
    ("credit should read", Marker::Plain),
    ("credit image:", Marker::Plain),
    ("mandatory credit:", Marker::Plain),
    ("mandatory credit", Marker::Plain),
    ("photo credit:", Marker::Plain),
    ("photo credit", Marker::Plain),
    ("photo courtesy of", Marker::Courtesy),
    ("photos courtesy of", Marker::Courtesy),
    ("picture courtesy of", Marker::Courtesy),
    ("image courtesy of", Marker::Courtesy),
    ("photo courtesy", Marker::Courtesy),
    ("photos courtesy", Marker::Courtesy),
    ("courtesy of", Marker::Courtesy),
    ("courtesy:", Marker::Courtesy),
    ("courtesy", Marker::Courtesy),
    ("photographs by", Marker::Plain),
    ("photograph by", Marker::Plain),
    ("photography by", Marker::Plain),
    ("photos by", Marker::Plain),
    ("photo by", Marker::Plain),
    ("pictures by", Marker::Plain),
    ("picture by", Marker::Plain),
    ("images by", Marker::Plain),
    ("image credit:", Marker::Plain),
    ("image credit", Marker::Plain),
    ("image source,", Marker::Plain),
    ("image source:", Marker::Plain),
    ("image source", Marker::Plain),
    ("image copyright", Marker::Plain),
    ("photoby", Marker::Plain),
    ("image by", Marker::Plain),
    ("photographer:", Marker::Plain),
    // The same lead-ins in the languages of European wire pages (German,
    // Dutch, Scandinavian, Spanish, Italian, Portuguese).
    ("fotografie:", Marker::Plain),
    ("fotografía:", Marker::Plain),
    ("fotograf:", Marker::Plain),
    ("fotos:", Marker::Plain),
    ("foto:", Marker::Plain),
    ("bild:", Marker::Plain),
    ("photographs:", Marker::Plain),
    ("photograph:", Marker::Plain),
    ("photos:", Marker::Plain),
    ("photo:", Marker::Plain),
    // A typed-in label with a space before its colon (`PHOTO : REUTERS`).
    ("photo :", Marker::Plain),
    ("picture :", Marker::Plain),
    ("pictures:", Marker::Plain),
    ("picture:", Marker::Plain),
    ("pic:", Marker::Plain),
    ("images:", Marker::Plain),
    ("image:", Marker::Plain),
    ("credits:", Marker::Plain),
    ("credit:", Marker::Plain),
    ("credit…", Marker::Plain),
    ("credit...", Marker::Plain),
    ("satellite image", Marker::Plain),
    ("copyright ©", Marker::Plain),
    ("copyright", Marker::Plain),
    ("(c)", Marker::Plain),
    ("©", Marker::Plain),
    ("by", Marker::Plain),
];

/// What a role word says about the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Handed out by a third party.
    Handout,
    /// An archive picture.
    File,
    /// Stringer, staff, pool: no person, no flag.
    Other,
}

/// A credit line, parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Parsed {
    /// People credited, title-cased, each once.
    pub creators: Vec<String>,
    /// Agencies credited, canonical names or as written, each once.
    pub agencies: Vec<String>,
    /// The named organisation that supplied the image.
    named_source: Option<String>,
    /// How many agencies came before the named source: its place among
    /// them should it turn out to be an outlet.
    named_source_rank: usize,
    /// An anonymous channel that supplied it (`Social Media Website`).
    generic_source: Option<String>,
    /// The credit says Handout.
    pub handout: bool,
    /// The credit says File.
    pub file: bool,
    /// It opened with a lead-in (`Photo by`).
    marker: bool,
    /// Role words seen.
    roles: usize,
    /// `/` separators seen.
    slashes: usize,
    /// The segment just added was a photo agency's lead (`AP Photo`), whose
    /// next slot names the photographer even when it is one word
    /// (`(AP Photo/LIBKOS)`).
    after_photo_lead: bool,
}

impl Parsed {
    /// The source: a named organisation wins over an anonymous channel.
    pub(super) fn source(&self) -> Option<&str> {
        self.named_source
            .as_deref()
            .or(self.generic_source.as_deref())
    }

    /// Folds a second reading of the same credit (`(Photo credit should read
    /// ...)`) into this one.
    pub(super) fn merge(&mut self, other: Parsed) {
        for creator in other.creators {
            self.add_creator(creator);
        }
        for agency in other.agencies {
            self.add_agency(&agency);
        }
        self.named_source = self.named_source.take().or(other.named_source);
        self.generic_source = self.generic_source.take().or(other.generic_source);
        self.handout |= other.handout;
        self.file |= other.file;
    }

    /// Moves creator `index` to the source: the caption says it supplied
    /// the image (`a photograph released by Lowtown Parks`).
    pub(super) fn creator_to_source(&mut self, index: usize) {
        let creator = self.creators.remove(index);
        if self.named_source.is_none() {
            self.named_source = Some(creator);
        }
    }

    fn add_creator(&mut self, creator: String) {
        if !self
            .creators
            .iter()
            .any(|c| c.eq_ignore_ascii_case(&creator))
        {
            self.creators.push(creator);
        }
    }

    fn add_agency(&mut self, agency: &str) {
        if !self.agencies.iter().any(|a| a.eq_ignore_ascii_case(agency)) {
            self.agencies.push(agency.to_string());
        }
    }

    fn add_role(&mut self, role: Role) {
        self.roles += 1;
        match role {
            Role::Handout => self.handout = true,
            Role::File => self.file = true,
            Role::Other => {}
        }
    }

    fn add_source(&mut self, source: &str, generic: bool) {
        let source = strip_article(source);
        let slot = if generic {
            &mut self.generic_source
        } else {
            &mut self.named_source
        };
        if slot.is_none() {
            *slot = Some(source.to_string());
            if !generic {
                self.named_source_rank = self.agencies.len();
            }
        }
    }

    /// Adds one segment (between separators). `None` when it is no part of a
    /// credit, which rejects the whole text.
    fn add_segment(&mut self, segment: &str, courtesy: bool) -> Option<()> {
        let segment = trim_segment(segment);
        if segment.is_empty() {
            return Some(());
        }
        if let Some(role) = role(segment) {
            self.add_role(role);
            return Some(());
        }
        // `POOL MAXPPP OUT`, `FRANCE OUT`: a distribution restriction (not
        // for the named market), no party; it marks a credit as a role does.
        if let Some(head) = without_restriction(segment) {
            self.roles += 1;
            return self.add_segment(head, courtesy);
        }
        // `Jane Doe / X90029`: the wire's picture id, no party; it marks a
        // credit as a role word does.
        if is_picture_id(segment) {
            self.roles += 1;
            return Some(());
        }
        let after_photo_lead = std::mem::take(&mut self.after_photo_lead);
        if let Some(agency) = agency::lookup(segment) {
            self.add_agency(agency.name());
            self.after_photo_lead = segment.eq_ignore_ascii_case("AP Photo");
            return Some(());
        }
        // `REUTERSJane Doe`: a slash lost between an agency in capitals and
        // the name after it.
        if let Some(split) = glued_agency(segment) {
            let (head, tail) = segment.split_at(split);
            if let Some(agency) = agency::lookup(head) {
                self.add_agency(agency.name());
                return self.add_segment(tail, courtesy);
            }
        }
        // `Jane Doe-USA TODAY Sports`: a name hyphened to a multi-word agency.
        if let Some((head, tail)) = crate::text::rsplit_once_ascii(segment, b'-') {
            if tail.contains(' ') {
                if let Some(agency) = agency::lookup(tail) {
                    self.add_agency(agency.name());
                    return self.add_segment(head, courtesy);
                }
            }
        }
        // `SANA HANDOUT`, `Jane Doe Pool`: a role word glued to a name.
        if let Some((head, last)) = crate::text::rsplit_once_ascii(segment, b' ') {
            if let Some(role) = role(last) {
                self.add_role(role);
                return self.add_segment(head, courtesy);
            }
            // `EPA-EFE/JANE DOE EPA-EFE/JANE DOE`: a doubled credit in
            // capitals, the second one's agency after the first one's name.
            if super::is_shouted(last) {
                if let Some(agency) = agency::lookup(last) {
                    self.add_agency(agency.name());
                    return self.add_segment(head, courtesy);
                }
            }
        }
        // `Jane Doe/AP Photo Jane Doe/AP Photo`: a doubled credit, the
        // second one's name after the first one's agency.
        if let Some((agency, name)) = leading_agency(segment) {
            self.add_agency(agency);
            return self.add_segment(name, courtesy);
        }
        // `Jane Doe/For The Washington Post`, `Jane Doe, Special to The
        // Denver Post`: the outlet after its own slash or comma.
        if let Some(outlet) = ["For ", "for ", "Special to ", "special to "]
            .iter()
            .find_map(|lead| segment.strip_prefix(lead))
        {
            return self.add_outlet(outlet);
        }
        // `Jane Doe, The Denver Post`: the paper after its photographer.
        if !self.creators.is_empty() && agency::is_newspaper(segment) {
            match agency::lookup(segment) {
                Some(agency) => self.add_agency(agency.name()),
                None => self.add_agency(segment),
            }
            return Some(());
        }
        // Every joiner below is a word after a space: a segment without a
        // space before one of their first letters holds none of them.
        if may_hold_joiner(segment) {
            // `Jane Doe for The New York Times` and `Jane Doe for Acme Radio`
            // credit the outlet; `Getty Images for Acme` names a client, which
            // is no part of the credit.
            if let Some((left, right)) =
                split_word(segment, " for ").or_else(|| split_word(segment, " FOR "))
            {
                let right_agency = agency::lookup(right);
                if let Some(agency) = agency::lookup(left) {
                    self.add_agency(agency.name());
                    if let Some(agency) = right_agency {
                        self.add_agency(agency.name());
                    }
                    return Some(());
                }
                if right_agency.is_some() || name::classify(left) == PartKind::Person {
                    self.add_segment(left, courtesy)?;
                    return self.add_outlet(right);
                }
            }
            // `Lowtown Navy photo by Sgt. Jane Doe`: the service that supplied
            // it, then its photographer.
            for joiner in [" photo by ", " photos by ", " Photo by ", " Photos by "] {
                if let Some((left, right)) = split_word(segment, joiner) {
                    if name::classify(right) == PartKind::Person {
                        match agency::lookup(left) {
                            Some(agency) => self.add_agency(agency.name()),
                            None => self.add_segment(left, true)?,
                        }
                        self.marker = true;
                        return self.add_segment(right, courtesy);
                    }
                }
            }
            // `Acme Open contributor Jane Doe`, `(Acme contributor jdoe42)`: a
            // reader's picture on a platform; the contributor is the creator,
            // even by a user name, and the platform credits no agency.
            if let Some((left, right)) = split_word(segment, " contributor ") {
                if let Some(agency) = agency::lookup(left) {
                    self.add_agency(agency.name());
                }
                self.marker = true;
                if name::is_handle(right) {
                    self.add_creator(right.to_string());
                    return Some(());
                }
                return self.add_segment(right, courtesy);
            }
            // `Jane Doe and John Roe`: two photographers.
            for joiner in [" and ", " & "] {
                if let Some((left, right)) = split_word(segment, joiner) {
                    if name::classify(left) == PartKind::Person
                        && name::classify(right) == PartKind::Person
                    {
                        self.add_segment(left, courtesy)?;
                        return self.add_segment(right, courtesy);
                    }
                }
            }
        }
        match name::classify(segment) {
            PartKind::Person if !courtesy => self.add_creator(name::title_case(segment)),
            PartKind::Source { generic: false } if after_photo_lead && !segment.contains(' ') => {
                self.add_creator(name::title_case(segment))
            }
            PartKind::Person => self.add_source(segment, false),
            PartKind::Source { generic } => self.add_source(segment, generic),
            PartKind::Junk => return None,
        }
        Some(())
    }

    /// The outlet a photographer worked for (`for The New York Times`, `for
    /// Acme Radio`): an agency, canonical when on the list.
    fn add_outlet(&mut self, outlet: &str) -> Option<()> {
        let outlet = trim_segment(outlet);
        if let Some(agency) = agency::lookup(outlet) {
            self.add_agency(agency.name());
        } else if matches!(name::classify(outlet), PartKind::Source { .. }) {
            self.add_agency(outlet);
        }
        Some(())
    }

    /// `Jane Doe/ADN/Pool`, `JANE DOE/XPOSURE`: a one-word organisation
    /// that is no institution (no [`name`] org word), in a credit that names
    /// a photographer, says no Handout and does not pass the picture on
    /// (`via` an agency, `photo by`), is the photographer's outlet: an agency
    /// off the list, kept as written (RECORD.md). `Jane Doe/WFP via AP`,
    /// `NZDF/Handout`, `Courtesy of MSF`, `KCNA/Reuters` and a lone `Image
    /// credit: Acme` stay suppliers.
    fn outlet_is_no_supplier(&mut self, body: &str) {
        let Some(source) = self.named_source.as_deref() else {
            return;
        };
        // And an outlet is some photographer's: `KCNA/Reuters` is a state
        // agency's picture passed on by Reuters.
        let bare = source
            .strip_prefix("The ")
            .or_else(|| source.strip_prefix("THE "))
            .unwrap_or(source);
        if self.creators.is_empty()
            || self.handout
            || bare.contains(' ')
            || name::has_org_word(bare)
        {
            return;
        }
        let passed_on = crate::text::match_starts(body, source).any(|at| {
            let after = body[at + source.len()..].trim_start_matches([' ', '/']);
            // `Jane Doe/WFP via AP`, `NPS photo by Jane Doe`.
            ["via ", "photo by ", "photos by "].iter().any(|lead| {
                after
                    .get(..lead.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(lead))
            })
        });
        if !passed_on {
            let outlet = self.named_source.take().unwrap_or_default();
            if !self
                .agencies
                .iter()
                .any(|a| a.eq_ignore_ascii_case(&outlet))
            {
                let rank = self.named_source_rank.min(self.agencies.len());
                self.agencies.insert(rank, outlet);
            }
        }
    }

    /// Whether what was found is evidence enough for a credit in `setting`.
    fn is_credit(&self, setting: Setting) -> bool {
        let named = !self.creators.is_empty() || self.source().is_some();
        let two_parties = !self.creators.is_empty() && self.source().is_some();
        !self.agencies.is_empty()
            || (self.marker && (named || self.roles > 0))
            || (self.slashes > 0 && (two_parties || (self.roles > 0 && named)))
            || (setting == Setting::Bracketed && self.roles > 0 && named)
            || (setting == Setting::ShoutedTail && !self.creators.is_empty())
            || (setting == Setting::Labelled && named)
    }
}

/// Parses the words of a credit (without brackets). `None` when they are
/// not a credit: a part is prose, or there is too little evidence for
/// `setting` (a bare `Jane Doe` after a sentence is not a credit, `Jane
/// Doe/AP` is).
pub(super) fn parse(body: &str, setting: Setting) -> Option<Parsed> {
    let body = trim_body(body);
    if body.is_empty() {
        return None;
    }
    let (marker, rest) = strip_marker(body);
    // `Satellite image ©2022 Acme`: lead-ins may chain, and a copyright
    // notice may carry its year.
    let (marker, rest) = match strip_marker(rest) {
        // `Photo: Courtesy of ...`: courtesy decides what follows.
        (Some(second), rest) if second == Marker::Courtesy => (Some(second), rest),
        (Some(second), rest) => (marker.or(Some(second)), rest),
        (None, rest) => (marker, rest),
    };
    let rest = strip_copyright_year(rest);
    let agency_colon = marker
        .is_none()
        .then(|| agency_colon_as_slash(rest))
        .flatten();
    let rest = agency_colon.as_deref().unwrap_or(rest);
    // `Jane Doe\TASS`: a backslash typed for the slash.
    let backslashed = rest.contains('\\').then(|| rest.replace('\\', "/"));
    let rest = backslashed.as_deref().unwrap_or(rest);
    // `(Photo by LIBKOS/Getty Images)`: the first slot after `Photo by` is
    // the photographer, even as one word.
    // A lone word in capitals (`(Photo by DPPI)`) is an acronym, though.
    let photo_by = body
        .get(..8)
        .is_some_and(|head| head.eq_ignore_ascii_case("photo by"))
        && (rest.contains('/') || rest.chars().any(char::is_lowercase));
    let mut parsed = Parsed {
        marker: marker.is_some(),
        after_photo_lead: photo_by,
        ..Parsed::default()
    };
    let courtesy = marker == Some(Marker::Courtesy);
    // `|` separates parts too (`Jane Doe | AFP`), but only a slash pairs a
    // name with a supplier: `Terms of Use | Privacy` is a page footer.
    let mut pieces = crate::text::split_ascii(rest, b'/').peekable();
    let mut first = true;
    while let Some(piece) = pieces.next() {
        if !std::mem::take(&mut first) {
            parsed.slashes += 1;
        }
        // `Volkov/AP`, `Mirela/Getty Images`: a photographer known by one
        // name stands alone right before the agency's slash.
        if pieces.peek().is_some_and(|next| opens_with_agency(next))
            && name::is_one_word_name(trim_segment(piece))
        {
            parsed.after_photo_lead = true;
        }
        for bar_piece in crate::text::split_ascii(piece, b'|') {
            for_each_segment(bar_piece, |segment| parsed.add_segment(segment, courtesy))?;
        }
    }
    // Decided before the outlet moves to the agencies: a lone word
    // (`Close`) is no credit for being read as an outlet.
    if !parsed.is_credit(setting) {
        return None;
    }
    if !courtesy {
        parsed.outlet_is_no_supplier(rest);
    }
    Some(parsed)
}

/// `REUTERS: Jane Doe`, `Getty Images: Jane Doe`, `AP Photo: Jane Doe`:
/// an agency before a colon credits what follows, as its slash would
/// (`REUTERS/Jane Doe`); the credit with the colon read as that slash.
/// Only an agency opens this form: `Note: ...` and `Update: ...` are prose.
fn agency_colon_as_slash(body: &str) -> Option<String> {
    let (head, tail) = body.split_once(':')?;
    let (head, tail) = (head.trim(), tail.trim());
    if tail.is_empty() || head.contains('/') {
        return None;
    }
    let agency = ["Photo", "PHOTO", "Photos", "Images"]
        .iter()
        .find_map(|word| head.strip_suffix(word).map(str::trim_end))
        .filter(|stem| agency::lookup(stem).is_some())
        .unwrap_or(head);
    agency::lookup(agency)?;
    Some(format!("{head}/{tail}"))
}

/// Whether a `/`-piece opens with an agency (`AFP via Getty Images`,
/// `Reuters`), up to its first comma or `via`.
fn opens_with_agency(piece: &str) -> bool {
    let head = piece.split([',', ';']).next().unwrap_or("");
    let head = split_word(head, "via ").map_or(head, |(left, _)| left);
    agency::lookup(trim_segment(head)).is_some()
}

/// The credit words without separators around them and a closing full stop
/// (kept after an initial: `Jane Q.`).
pub(super) fn trim_body(body: &str) -> &str {
    let (start, end) = trim_range(body);
    &body[start..end]
}

/// Byte range of [`trim_body`] within `body`.
pub(super) fn trim_range(body: &str) -> (usize, usize) {
    let head = body.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '/' | '|' | '-' | '–' | ':' | ',')
    });
    let start = body.len() - head.len();
    let mut kept = head.trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | ':' | '/' | '|' | '-')
    });
    if let Some(stem) = kept.strip_suffix('.') {
        let last_word = stem.rsplit(' ').next().unwrap_or("");
        if last_word.chars().count() > 1 {
            kept = stem.trim_end();
        }
    }
    (start, start + kept.len())
}

/// Length of the lead-in that opens `text` (`Photo: `, `Image source, `),
/// if any. A bare `by` is too common in prose to count, and a copyright
/// notice (`© 2024 Acme. All rights reserved.`) is page chrome as often as
/// a credit.
pub(super) fn lead_in_len(text: &str) -> Option<usize> {
    let (marker, rest) = strip_marker(text);
    marker?;
    let len = text.len() - rest.len();
    let lead = text[..len].trim_end();
    let weak = ["by", "©", "(c)", "copyright", "copyright ©"]
        .iter()
        .any(|weak| lead.eq_ignore_ascii_case(weak));
    (!weak).then_some(len)
}

/// The first bytes of [`MARKERS`] in either ASCII case, derived from the
/// list so that a new lead-in can never be ruled out by a stale filter.
const MARKER_LEAD_BYTES: [bool; 256] = {
    let mut lead = [false; 256];
    let mut i = 0;
    while i < MARKERS.len() {
        let byte = MARKERS[i].0.as_bytes()[0];
        lead[byte as usize] = true;
        lead[byte.to_ascii_uppercase() as usize] = true;
        i += 1;
    }
    lead
};

/// The indices of [`MARKERS`] by their first byte, each list in list order
/// (the first lead-in that matches wins), with each lead-in's first eight
/// bytes as an integer and the mask of the bytes it has there: a body's
/// opening, lowercased eight bytes at a time, rules most lead-ins out with
/// one comparison before a byte-by-byte one (many start `photo`).
static MARKERS_BY_LEAD: std::sync::LazyLock<Vec<Vec<(usize, u64, u64)>>> =
    std::sync::LazyLock::new(|| {
        let mut by_lead = vec![Vec::new(); 256];
        for (index, (marker, _)) in MARKERS.iter().enumerate() {
            let bytes = marker.as_bytes();
            let head = &bytes[..bytes.len().min(8)];
            let mask = crate::swar::low_bytes(head.len());
            let opening = crate::swar::little_endian(head);
            by_lead[usize::from(bytes[0])].push((index, opening, mask));
        }
        by_lead
    });

/// Splits a lead-in off the credit words.
fn strip_marker(body: &str) -> (Option<Marker>, &str) {
    // Most credits start with a byte no lead-in starts with.
    let Some(&lead) = body.as_bytes().first() else {
        return (None, body);
    };
    if !MARKER_LEAD_BYTES[usize::from(lead)] {
        return (None, body);
    }
    let first = lead.to_ascii_lowercase();
    // Only the lead-ins that start with this byte, in list order (every
    // lead-in is lower case, and `©` is not ASCII, so its lead byte is
    // looked up as is).
    let opening = crate::swar::ascii_lowercase(crate::swar::eight_at(body.as_bytes(), 0));
    for &(index, marker_opening, mask) in &MARKERS_BY_LEAD[usize::from(first)] {
        if opening & mask != marker_opening {
            continue;
        }
        let (marker, kind) = MARKERS[index];
        let Some(head) = body.get(..marker.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(marker) {
            continue;
        }
        let rest = &body[marker.len()..];
        // A word marker must end at a word boundary (`Courtesy` not `Courtesyx`).
        // `PhotobyJane Doe`: a lead-in glued to the name, lower case then a
        // capital (not `CREDITS`, whose capitals run on).
        let glued = head.ends_with(|c: char| c.is_ascii_lowercase())
            && rest.starts_with(|c: char| c.is_uppercase());
        let ends_word = glued
            || marker.ends_with([':', '.', '…', '©', ')', ','])
            || rest.starts_with([' ', ':', '.', '…']);
        if ends_word {
            let rest = rest.trim_start_matches(|c: char| {
                c.is_whitespace() || matches!(c, ':' | '.' | '…' | '-')
            });
            return (Some(kind), rest);
        }
    }
    (None, body)
}

/// The credit after a copyright year (`©2022 Acme` → `Acme`).
fn strip_copyright_year(rest: &str) -> &str {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 4 && rest[digits..].starts_with(' ') {
        rest[digits..].trim_start()
    } else {
        rest
    }
}

/// Calls `f` on each segment of a `/`-piece, split at commas, semicolons,
/// spaced dashes and `via`. Stops early when `f` rejects a segment.
fn for_each_segment(piece: &str, mut f: impl FnMut(&str) -> Option<()>) -> Option<()> {
    let bytes = piece.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let separator_len = match bytes[i] {
            b',' | b';' => 1,
            b' ' => {
                let rest = &piece[i..];
                if rest.starts_with(" - ") {
                    3
                } else if rest.starts_with(" – ")
                    || rest.starts_with(" — ")
                    || rest
                        .get(..5)
                        .is_some_and(|head| head.eq_ignore_ascii_case(" via "))
                {
                    5
                } else {
                    0
                }
            }
            _ => 0,
        };
        if separator_len > 0 {
            f(strip_via(&piece[start..i]))?;
            // Keep the space after a separator word so `via` may follow.
            start = i + separator_len;
            i = start;
        } else {
            i += 1;
        }
    }
    f(strip_via(&piece[start..]))
}

/// An agency on the canonical list, of one or two words, opening `segment`, and the
/// capitalized name after it (`AP Photo Jane Doe` → `AP`, `Jane Doe`).
fn leading_agency(segment: &str) -> Option<(&'static str, &str)> {
    // Only an agency on the canonical list: `News Agency Jane Doe` could be
    // an outlet's name.
    // The spaces by a byte loop: a segment is too short for a SIMD search.
    let mut spaces = segment
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b' ')
        .map(|(at, _)| at);
    let first = spaces.next()?;
    // The longer agency first: `AP Photo Jane` is `AP Photo` and `Jane`.
    for space in [spaces.next().unwrap_or(first), first] {
        let (head, tail) = (&segment[..space], segment.get(space + 1..)?);
        let Some(agency::Agency::Canonical(name)) = agency::lookup(head) else {
            continue;
        };
        // `Getty Images for Acme` is the longer agency and a client, not
        // `Getty` and a name.
        if !tail.starts_with(|c: char| c.is_uppercase()) {
            return None;
        }
        return Some((name, tail));
    }
    None
}

/// Where a capitals-only word glued to a capitalized name splits
/// (`REUTERSJane` → `REUTERS` + `Jane`): the last capital of the leading run
/// starts the name. `None` unless the run has at least three capitals and a
/// lower-case letter follows it.
pub(super) fn glued_agency(segment: &str) -> Option<usize> {
    let bytes = segment.as_bytes();
    let run = bytes.iter().take_while(|b| b.is_ascii_uppercase()).count();
    if run >= 3 && bytes.get(run).is_some_and(u8::is_ascii_lowercase) {
        Some(run - 1)
    } else {
        None
    }
}

/// A segment without the distribution restriction that ends it (`POOL
/// MAXPPP OUT` → `POOL`, `FRANCE OUT` → ``): a word in capitals and `OUT`.
fn without_restriction(segment: &str) -> Option<&str> {
    let rest = segment.strip_suffix(" OUT")?;
    let (head, market) = crate::text::rsplit_once_ascii(rest, b' ').unwrap_or(("", rest));
    super::is_shouted(market).then_some(head)
}

/// A segment without a dangling `via` (`REUTERS TV/via REUTERS`).
fn strip_via(segment: &str) -> &str {
    let segment = segment.trim();
    if segment.eq_ignore_ascii_case("via") {
        return "";
    }
    match segment.get(..4) {
        Some(head) if head.eq_ignore_ascii_case("via ") => &segment[4..],
        _ => segment,
    }
}

/// A segment without spaces, quotes and stray punctuation around it.
fn trim_segment(segment: &str) -> &str {
    segment.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, '"' | '“' | '”' | ',' | ';' | ':' | '*')
    })
}

/// Splits at the first `joiner` (a word between spaces) that has words on
/// both sides.
fn split_word<'s>(segment: &'s str, joiner: &str) -> Option<(&'s str, &'s str)> {
    // Joiners start with a space, so where one is found a word ends.
    let at = crate::text::find_short(segment, joiner)?;
    let (left, right) = (&segment[..at], &segment[at + joiner.len()..]);
    (!left.trim().is_empty() && !right.trim().is_empty()).then(|| (left.trim(), right.trim()))
}

/// The joiner words [`Parsed::add_segment`] splits a segment at.
#[cfg(test)]
const JOINER_WORDS: [&str; 9] = [
    " for ",
    " FOR ",
    " photo by ",
    " photos by ",
    " Photo by ",
    " Photos by ",
    " contributor ",
    " and ",
    " & ",
];

/// Whether `segment` may hold a joiner word ([`JOINER_WORDS`]): a space
/// before one of their first bytes. Most segments (`REUTERS`, `Jane Doe`)
/// have none, and the searches for each joiner are skipped.
fn may_hold_joiner(segment: &str) -> bool {
    segment
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b' ' && matches!(w[1], b'f' | b'F' | b'p' | b'P' | b'c' | b'a' | b'&'))
}

/// A leading `the` in lower case is no part of an organisation's name
/// (`courtesy of the Smith family`); a capital one is, as the outlet
/// writes it (`The Citizen`).
fn strip_article(source: &str) -> &str {
    source
        .strip_prefix("the ")
        .filter(|rest| !rest.is_empty())
        .unwrap_or(source)
}

/// Whether a segment is a picture id (`X90029`, `RTX2F4KQ`): one word of
/// capitals and digits, digits at least four of them. No name or agency
/// looks like that.
pub(super) fn is_picture_id(segment: &str) -> bool {
    let digits = segment.bytes().filter(u8::is_ascii_digit).count();
    digits >= 4
        && digits < segment.len()
        && segment
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
}

/// The role a whole segment states, if it is a role word. Role words are
/// never people (RECORD.md), in any case.
fn role(segment: &str) -> Option<Role> {
    const HANDOUT: [&str; 5] = [
        "handout",
        "ho",
        "handout photo",
        "handout picture",
        "handout image",
    ];
    const FILE: [&str; 5] = ["file", "files", "file photo", "file picture", "file image"];
    const OTHER: [&str; 20] = [
        "stringer",
        "str",
        "staff",
        "staff photographer",
        "staff photo",
        "pool",
        "pool photo",
        "pool picture",
        "pool new",
        "wpa pool",
        "press pool",
        "photo",
        "photos",
        "picture",
        "-",
        "—",
        "undated",
        "illustration",
        "photo illustration",
        "x",
    ];
    // Most segments are names: ruled out by their length or first byte
    // (every role word is at most 18 bytes and starts with one of these,
    // `—` with 0xE2).
    const MAX_ROLE_BYTES: usize = 18;
    let lead = segment.as_bytes().first().map(u8::to_ascii_lowercase);
    if segment.len() > MAX_ROLE_BYTES
        || !matches!(
            lead,
            Some(b'h' | b'f' | b's' | b'p' | b'w' | b'-' | 0xE2 | b'u' | b'i' | b'x')
        )
    {
        return None;
    }
    let is = |list: &[&str]| list.iter().any(|word| word.eq_ignore_ascii_case(segment));
    if is(&HANDOUT) {
        Some(Role::Handout)
    } else if is(&FILE) {
        Some(Role::File)
    } else if is(&OTHER) {
        Some(Role::Other)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (creators, agencies, source, handout, file)
    type Found = (Vec<String>, Vec<String>, Option<String>, bool, bool);

    fn credit(body: &str) -> Option<Found> {
        parse(body, Setting::Trailing).map(|p| {
            let source = p.source().map(str::to_string);
            (p.creators, p.agencies, source, p.handout, p.file)
        })
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn agency_first_and_name_first_credits() {
        let (creators, agencies, source, ..) = credit("REUTERS/Lena Ortiz").expect("credit");
        assert_eq!(
            (creators, agencies, source),
            (strings(&["Lena Ortiz"]), strings(&["Reuters"]), None)
        );
        let (creators, agencies, ..) = credit("Karim Haddad/AFP/Getty Images").expect("credit");
        assert_eq!(
            (creators, agencies),
            (
                strings(&["Karim Haddad"]),
                strings(&["AFP", "Getty Images"])
            )
        );
        let (creators, agencies, ..) = credit("AFP PHOTO / KARIM HADDAD").expect("credit");
        assert_eq!(
            (creators, agencies),
            (strings(&["Karim Haddad"]), strings(&["AFP"]))
        );
        let (creators, agencies, ..) = credit("Karim Haddad, AP").expect("credit");
        assert_eq!(
            (creators, agencies),
            (strings(&["Karim Haddad"]), strings(&["AP"]))
        );
        let (creators, agencies, ..) =
            credit("EPA-EFE/KARIM HADDAD EPA-EFE/KARIM HADDAD").expect("doubled credit");
        assert_eq!(
            (creators, agencies),
            (strings(&["Karim Haddad"]), strings(&["EPA"]))
        );
    }

    #[test]
    fn role_words_are_flags_not_people() {
        let (creators, agencies, _, handout, file) =
            credit("AP Photo/Lena Ortiz, File").expect("credit");
        assert_eq!(
            (creators, agencies, handout, file),
            (strings(&["Lena Ortiz"]), strings(&["AP"]), false, true)
        );
        let (creators, _, _, handout, _) = credit("REUTERS/STRINGER").expect("credit");
        assert!(creators.is_empty() && !handout);
        let (creators, agencies, source, handout, _) =
            credit("REUTERS/NANA/Handout via Reuters").expect("credit");
        assert_eq!(
            (creators, agencies, source, handout),
            (vec![], strings(&["Reuters"]), Some("NANA".into()), true)
        );
    }

    #[test]
    fn sources_and_agencies_off_the_list() {
        let (creators, agencies, source, ..) =
            credit("Sputnik/Oleg Petrov/Kremlin via REUTERS").expect("credit");
        assert_eq!(creators, strings(&["Oleg Petrov"]));
        assert_eq!(agencies, strings(&["Sputnik", "Reuters"]));
        assert_eq!(source.as_deref(), Some("Kremlin"));
        let (_, agencies, ..) = credit("Lena Ortiz/SOPA Images/Sipa USA via AP").expect("credit");
        assert_eq!(agencies, strings(&["SOPA Images", "Sipa", "AP"]));
        let (creators, agencies, source, handout, _) =
            credit("/Handout via Social Media Websites/Qamishli Observatory For Civil Rights")
                .expect("credit");
        assert_eq!((creators, agencies, handout), (vec![], vec![], true));
        assert_eq!(
            source.as_deref(),
            Some("Qamishli Observatory For Civil Rights")
        );
    }

    #[test]
    fn markers_and_newspapers() {
        let (creators, agencies, ..) =
            credit("Credit: Lena Ortiz for The New York Times").expect("credit");
        assert_eq!(
            (creators, agencies),
            (strings(&["Lena Ortiz"]), strings(&["The New York Times"]))
        );
        let (creators, agencies, ..) =
            credit("Photo by Lena Ortiz/Getty Images for Acme Festival").expect("credit");
        assert_eq!(
            (creators, agencies),
            (strings(&["Lena Ortiz"]), strings(&["Getty Images"]))
        );
        let (_, _, source, handout, _) = credit("Courtesy of the Ortiz family").expect("credit");
        assert_eq!(
            (source.as_deref(), handout),
            (Some("Ortiz family"), false),
            "the flag is set by find_credit"
        );
        let (creators, agencies, ..) = credit("Lena Ortiz and Tom Reyes/AP").expect("credit");
        assert_eq!(
            (creators, agencies),
            (strings(&["Lena Ortiz", "Tom Reyes"]), strings(&["AP"]))
        );
    }

    #[test]
    fn the_joiner_prefilter_misses_no_joiner() {
        for segment in [
            "Jane Doe for The New York Times",
            "JANE DOE FOR USA TODAY",
            "Navy photo by Jane Doe",
            "Acme Photos by Jane",
            "Acme contributor jdoe42",
            "Jane Doe and John Roe",
            "Jane & John",
        ] {
            assert!(may_hold_joiner(segment), "{segment}");
        }
        assert!(!may_hold_joiner("Nikos Karathanasis"));
        assert!(!may_hold_joiner("REUTERS"));
    }

    proptest::proptest! {
        #[test]
        fn a_segment_the_prefilter_rules_out_has_no_joiner(
            segment in "([a-zA-Z&]{0,3}|for|FOR|photo|Photos|by|contributor|and| ){0,8}"
        ) {
            if !may_hold_joiner(&segment) {
                for joiner in JOINER_WORDS {
                    proptest::prop_assert!(split_word(&segment, joiner).is_none(), "{segment:?} {joiner:?}");
                }
            }
        }
    }

    /// [`strip_marker`] as a scan of the whole list: the oracle of the
    /// lookup by first byte.
    fn strip_marker_by_scan(body: &str) -> (Option<Marker>, &str) {
        let Some(&lead) = body.as_bytes().first() else {
            return (None, body);
        };
        let first = lead.to_ascii_lowercase();
        for (marker, kind) in MARKERS {
            if marker.as_bytes()[0] != first {
                continue;
            }
            let Some(head) = body.get(..marker.len()) else {
                continue;
            };
            if !head.eq_ignore_ascii_case(marker) {
                continue;
            }
            let rest = &body[marker.len()..];
            let glued = head.ends_with(|c: char| c.is_ascii_lowercase())
                && rest.starts_with(|c: char| c.is_uppercase());
            let ends_word = glued
                || marker.ends_with([':', '.', '…', '©', ')', ','])
                || rest.starts_with([' ', ':', '.', '…']);
            if ends_word {
                let rest = rest.trim_start_matches(|c: char| {
                    c.is_whitespace() || matches!(c, ':' | '.' | '…' | '-')
                });
                return (Some(kind), rest);
            }
        }
        (None, body)
    }

    /// The lookup by first bytes lowercases the body only: every lead-in
    /// must be lower case already.
    #[test]
    fn lead_ins_are_lower_case() {
        for (marker, _) in MARKERS {
            assert_eq!(marker.to_ascii_lowercase(), marker, "{marker}");
        }
    }

    #[test]
    fn markers_by_lead_byte_match_the_list_scan() {
        let mut bodies: Vec<String> = Vec::new();
        for (marker, _) in MARKERS {
            for tail in ["", " Jane Doe/AFP", "Jane", ": REUTERS", "x", "...Acme"] {
                bodies.push(format!("{marker}{tail}"));
                bodies.push(format!("{}{tail}", marker.to_uppercase()));
                let half: String = marker.chars().take(marker.chars().count() / 2).collect();
                bodies.push(format!("{half}{tail}"));
            }
        }
        bodies.extend(
            [
                "",
                "©",
                "© 2024 Acme",
                "Photo by Jane Doe",
                "Courtesy",
                "Byline",
            ]
            .map(String::from),
        );
        for body in &bodies {
            assert_eq!(strip_marker(body), strip_marker_by_scan(body), "{body:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn markers_by_lead_byte_match_the_list_scan_on_any_text(
            body in "(photo|Photo|by|credit|courtesy|of|image|©|:|\\.| |[a-zA-Z]){0,6}"
        ) {
            proptest::prop_assert_eq!(strip_marker(&body), strip_marker_by_scan(&body));
        }
    }

    #[test]
    fn the_role_prefilter_keeps_every_role_word() {
        for word in [
            "handout",
            "ho",
            "handout photo",
            "handout picture",
            "handout image",
            "file",
            "files",
            "file photo",
            "file picture",
            "file image",
            "stringer",
            "str",
            "staff",
            "staff photographer",
            "staff photo",
            "pool",
            "pool photo",
            "pool picture",
            "pool new",
            "wpa pool",
            "press pool",
            "photo",
            "photos",
            "picture",
            "-",
            "—",
            "undated",
            "illustration",
            "photo illustration",
            "x",
        ] {
            assert!(role(word).is_some(), "{word}");
            assert!(role(&word.to_uppercase()).is_some(), "{word}");
        }
        assert_eq!(role("Jane Doe"), None);
    }

    #[test]
    fn prose_is_not_a_credit() {
        assert_eq!(credit("open 24/7"), None);
        assert_eq!(credit("and/or"), None);
        assert_eq!(credit("Lena Ortiz"), None);
        assert_eq!(credit("Damascus, Syria"), None);
        assert_eq!(credit("Reuters could not verify the footage"), None);
        assert_eq!(parse("Lena Ortiz", Setting::Bracketed), None);
        assert_eq!(credit("Terms of Use | Privacy Notice | Your Choices"), None);
    }
}
