//! The tantivy index, derived from the store: its schema, how a record
//! becomes an index document, and the watermark kept in commit payloads.

use serde_json::Value;
use tantivy::schema::{
    FacetOptions, Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED,
    STORED, STRING,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    TextAnalyzer,
};
use tantivy::{Index, TantivyDocument, Term};

/// Tokenizer of names and places: case and accents folded, no stemming.
pub const FOLDED: &str = "dateline_folded";
/// Tokenizer of descriptions: folded and stemmed (English).
pub const FOLDED_EN: &str = "dateline_folded_en";

/// The index fields.
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    /// Store key of the record (`records.key`): the delete term and the tie-break.
    pub key: Field,
    /// Store change number the document was built from.
    pub seq: Field,
    /// Description (stored, for snippets).
    pub description: Field,
    /// Persons shown.
    pub persons: Field,
    /// Organizations named.
    pub orgs: Field,
    /// Credited creators.
    pub creators: Field,
    /// Credited agencies.
    pub agencies: Field,
    /// Place words: as written, and the gazetteer's names.
    pub places: Field,
    /// Country code, upper case.
    pub country_code: Field,
    /// Folded country name.
    pub country_key: Field,
    /// Folded city name.
    pub city_key: Field,
    /// Admin1 code `CC.NN`.
    pub province_code: Field,
    /// Folded province name.
    pub province_key: Field,
    /// GeoNames id of the place.
    pub geonames_id: Field,
    /// Flags, snake case.
    pub flag: Field,
    /// First day the date taken may be, `YYYYMMDD`.
    pub date_from: Field,
    /// Last day the date taken may be, `YYYYMMDD`.
    pub date_to: Field,
    /// Latitude.
    pub lat: Field,
    /// Longitude.
    pub lon: Field,
    /// Facets: agency, creator, country, city, year, flag.
    pub facet_agency: Field,
    /// Creator facet.
    pub facet_creator: Field,
    /// Country facet.
    pub facet_country: Field,
    /// City facet.
    pub facet_city: Field,
    /// Year facet.
    pub facet_year: Field,
    /// Flag facet.
    pub facet_flag: Field,
    /// Province (first-level division) name facet.
    pub facet_province: Field,
    /// Credited source facet.
    pub facet_source: Field,
    /// Person shown facet.
    pub facet_person: Field,
    /// Organization named facet.
    pub facet_org: Field,
    /// Country code facet (the map's countries).
    pub facet_country_code: Field,
    /// Admin1 code facet, `CC.NN` (the map's first-level divisions).
    pub facet_admin1: Field,
}

/// The facet dimensions, in output order, with their field names.
pub const FACETS: &[&str] = &[
    "agency",
    "creator",
    "country",
    "city",
    "year",
    "flag",
    "province",
    "source",
    "person",
    "org",
    "country_code",
    "admin1",
];

/// Builds the schema and its field handles.
pub fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = |tokenizer: &str| {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(tokenizer)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        )
    };
    let facet = FacetOptions::default();
    let fields = Fields {
        key: b.add_u64_field("key", INDEXED | FAST | STORED),
        seq: b.add_u64_field("seq", FAST),
        description: b.add_text_field("description", text(FOLDED_EN).set_stored()),
        persons: b.add_text_field("persons", text(FOLDED)),
        orgs: b.add_text_field("orgs", text(FOLDED)),
        creators: b.add_text_field("creators", text(FOLDED)),
        agencies: b.add_text_field("agencies", text(FOLDED)),
        places: b.add_text_field("places", text(FOLDED)),
        country_code: b.add_text_field("country_code", STRING),
        country_key: b.add_text_field("country_key", STRING),
        city_key: b.add_text_field("city_key", STRING),
        province_code: b.add_text_field("province_code", STRING),
        province_key: b.add_text_field("province_key", STRING),
        geonames_id: b.add_u64_field("geonames_id", INDEXED),
        flag: b.add_text_field("flag", STRING),
        date_from: b.add_i64_field("date_from", INDEXED | FAST),
        date_to: b.add_i64_field("date_to", INDEXED | FAST),
        lat: b.add_f64_field("lat", INDEXED | FAST),
        lon: b.add_f64_field("lon", INDEXED | FAST),
        facet_agency: b.add_facet_field("facet_agency", facet.clone()),
        facet_creator: b.add_facet_field("facet_creator", facet.clone()),
        facet_country: b.add_facet_field("facet_country", facet.clone()),
        facet_city: b.add_facet_field("facet_city", facet.clone()),
        facet_year: b.add_facet_field("facet_year", facet.clone()),
        facet_flag: b.add_facet_field("facet_flag", facet.clone()),
        facet_province: b.add_facet_field("facet_province", facet.clone()),
        facet_source: b.add_facet_field("facet_source", facet.clone()),
        facet_person: b.add_facet_field("facet_person", facet.clone()),
        facet_org: b.add_facet_field("facet_org", facet.clone()),
        facet_country_code: b.add_facet_field("facet_country_code", facet.clone()),
        facet_admin1: b.add_facet_field("facet_admin1", facet),
    };
    (b.build(), fields)
}

/// Registers the tokenizers the schema names (tantivy does not persist them).
pub fn register_tokenizers(index: &Index) {
    let folded = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build();
    let folded_en = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(Stemmer::new(Language::English))
        .build();
    index.tokenizers().register(FOLDED, folded);
    index.tokenizers().register(FOLDED_EN, folded_en);
}

/// The key's delete term.
pub fn key_term(fields: &Fields, key: u64) -> Term {
    Term::from_field_u64(fields.key, key)
}

/// A facet value as one path segment (a `/` would start a new level).
fn facet(value: &str) -> tantivy::schema::Facet {
    tantivy::schema::Facet::from_path([value.replace('/', " ")])
}

/// The index document of a record (its JSON form, the contract's fields).
pub fn document(fields: &Fields, key: u64, seq: u64, record: &Value) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_u64(fields.key, key);
    doc.add_u64(fields.seq, seq);
    let str_of = |v: &Value| v.as_str().map(str::to_string);
    if let Some(description) = record["description"].as_str() {
        doc.add_text(fields.description, description);
    }
    for person in record["persons"].as_array().into_iter().flatten() {
        if let Some(name) = person["name"].as_str() {
            doc.add_text(fields.persons, name);
            doc.add_facet(fields.facet_person, facet(name));
        }
    }
    for org in record["organizations"].as_array().into_iter().flatten() {
        if let Some(org) = org.as_str() {
            doc.add_text(fields.orgs, org);
            doc.add_facet(fields.facet_org, facet(org));
        }
    }
    let credit = &record["credit"];
    for creator in credit["creators"].as_array().into_iter().flatten() {
        if let Some(creator) = creator.as_str() {
            doc.add_text(fields.creators, creator);
            doc.add_facet(fields.facet_creator, facet(creator));
        }
    }
    for agency in credit["agencies"].as_array().into_iter().flatten() {
        if let Some(agency) = agency.as_str() {
            doc.add_text(fields.agencies, agency);
            doc.add_facet(fields.facet_agency, facet(agency));
        }
    }
    if let Some(source) = credit["source"].as_str() {
        doc.add_facet(fields.facet_source, facet(source));
    }
    let location = &record["location"];
    for part in ["text", "sublocation", "city", "province", "country"] {
        if let Some(value) = location[part].as_str() {
            doc.add_text(fields.places, value);
        }
    }
    if let Some(code) = str_of(&location["country_code"]) {
        doc.add_text(fields.country_code, code.to_ascii_uppercase());
        doc.add_facet(fields.facet_country_code, facet(&code.to_ascii_uppercase()));
    }
    if let Some(country) = location["country"].as_str() {
        doc.add_text(fields.country_key, gazetteer::fold(country));
        doc.add_facet(fields.facet_country, facet(country));
    }
    if let Some(city) = location["city"].as_str() {
        doc.add_text(fields.city_key, gazetteer::fold(city));
        doc.add_facet(fields.facet_city, facet(city));
    }
    if let Some(code) = location["province_code"].as_str() {
        doc.add_text(fields.province_code, code.to_ascii_uppercase());
        doc.add_facet(fields.facet_admin1, facet(&code.to_ascii_uppercase()));
    }
    if let Some(province) = location["province"].as_str() {
        doc.add_text(fields.province_key, gazetteer::fold(province));
        doc.add_facet(fields.facet_province, facet(province));
    }
    if let Some(id) = location["geonames_id"].as_u64() {
        doc.add_u64(fields.geonames_id, id);
    }
    if let (Some(lat), Some(lon)) = (
        location["latitude"].as_f64(),
        location["longitude"].as_f64(),
    ) {
        doc.add_f64(fields.lat, lat);
        doc.add_f64(fields.lon, lon);
    }
    for flag in record["flags"].as_array().into_iter().flatten() {
        if let Some(flag) = flag.as_str() {
            doc.add_text(fields.flag, flag);
            doc.add_facet(fields.facet_flag, facet(flag));
        }
    }
    if let Some((from, to)) = record["date_created"].as_str().and_then(date_range) {
        doc.add_i64(fields.date_from, from);
        doc.add_i64(fields.date_to, to);
        doc.add_facet(fields.facet_year, facet(&(from / 10000).to_string()));
    }
    doc
}

/// The days a partial date `YYYY[-MM[-DD]]` spans, as `YYYYMMDD` numbers.
pub fn date_range(date: &str) -> Option<(i64, i64)> {
    let mut parts = date.split('-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: Option<i64> = parts.next().map(str::parse).transpose().ok()?;
    let day: Option<i64> = parts.next().map(str::parse).transpose().ok()?;
    if parts.next().is_some() || !(1..=9999).contains(&year) {
        return None;
    }
    let base = year * 10000;
    Some(match (month, day) {
        (None, _) => (base + 101, base + 1231),
        (Some(m), None) if (1..=12).contains(&m) => (base + m * 100 + 1, base + m * 100 + 31),
        (Some(m), Some(d)) if (1..=12).contains(&m) && (1..=31).contains(&d) => {
            (base + m * 100 + d, base + m * 100 + d)
        }
        _ => return None,
    })
}

/// The watermark a committed index carries in its payload (0 when none).
pub fn watermark(index: &Index) -> tantivy::Result<i64> {
    Ok(index
        .load_metas()?
        .payload
        .and_then(|p| p.parse().ok())
        .unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::date_range;

    #[test]
    fn partial_dates_span_their_days() {
        assert_eq!(date_range("2016"), Some((20160101, 20161231)));
        assert_eq!(date_range("2016-10"), Some((20161001, 20161031)));
        assert_eq!(date_range("2016-10-07"), Some((20161007, 20161007)));
        assert_eq!(date_range("2016-13"), None);
        assert_eq!(date_range("May"), None);
    }
}
