//! The record schema and a builder that turns records into Arrow record
//! batches, one column per record field.

use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, Date32Builder, Float64Builder, Int64Builder, ListBuilder, StringBuilder,
    UInt16Builder, UInt32Builder,
};
use arrow_array::{ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use caption::{CaptionRecord, PartialDate, Span};

use crate::Error;

/// Which optional columns a batch carries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The archive's columns: `variant_id`, `variants`, `occurrences`,
    /// `corrected_fields` (for `dateline export`).
    pub archive: bool,
    /// A `geometry` column: the location as a WKB point (longitude,
    /// latitude), for GeoParquet.
    pub geometry: bool,
}

/// What the archive knows of a record beyond the record itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArchiveInfo {
    /// The id of the variant the record was first seen as, when it differs.
    pub variant_id: Option<String>,
    /// Distinct texts the record was seen with.
    pub variants: i64,
    /// Times it was seen, in all documents.
    pub occurrences: i64,
    /// Fields a reviewer corrected (empty when none were).
    pub corrected_fields: Vec<String>,
}

impl ArchiveInfo {
    /// Reads the `archive` object the archive adds to an exported record
    /// (`{"variant", "variants", "occurrences"}`, and `corrections` when a
    /// reviewer corrected fields: a list of `{"field": ...}` or of names).
    pub fn of_export(record: &serde_json::Value) -> ArchiveInfo {
        let archive = &record["archive"];
        let corrected_fields = ["corrected_fields", "corrections"]
            .iter()
            .filter_map(|key| archive[key].as_array().or_else(|| record[key].as_array()))
            .flatten()
            .filter_map(|c| c.as_str().or_else(|| c["field"].as_str()))
            .map(str::to_string)
            .collect();
        ArchiveInfo {
            variant_id: archive["variant"].as_str().map(str::to_string),
            variants: archive["variants"].as_i64().unwrap_or(0),
            occurrences: archive["occurrences"].as_i64().unwrap_or(0),
            corrected_fields,
        }
    }
}

/// The list type of this crate: nullable items named `item`, as Arrow's
/// list builders make them.
fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, true)))
}

/// `[start, end)` byte offsets into `text`.
fn span_type() -> DataType {
    list_of(DataType::UInt32)
}

fn credit_fields() -> Fields {
    Fields::from(vec![
        Field::new("raw", DataType::Utf8, true),
        Field::new("creators", list_of(DataType::Utf8), true),
        Field::new("agencies", list_of(DataType::Utf8), true),
        Field::new("source", DataType::Utf8, true),
        Field::new("span", span_type(), true),
    ])
}

fn date_fields() -> Fields {
    Fields::from(vec![
        Field::new("date", DataType::Date32, true),
        Field::new("precision", DataType::Utf8, true),
        Field::new("role", DataType::Utf8, true),
        Field::new("text", DataType::Utf8, true),
        Field::new("span", span_type(), true),
    ])
}

fn location_fields() -> Fields {
    let text = |name| Field::new(name, DataType::Utf8, true);
    Fields::from(vec![
        text("sublocation"),
        text("city"),
        text("province"),
        text("province_code"),
        text("country"),
        text("country_code"),
        Field::new("geonames_id", DataType::UInt32, true),
        Field::new("latitude", DataType::Float64, true),
        Field::new("longitude", DataType::Float64, true),
        text("text"),
        Field::new("span", span_type(), true),
    ])
}

fn person_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, true),
        Field::new("age", DataType::UInt16, true),
        Field::new("span", span_type(), true),
    ])
}

/// The text members of `stated`, in the record's order (`creators` comes
/// before them, `latitude` and `longitude` after).
const STATED_TEXT: [&str; 8] = [
    "credit_line",
    "source",
    "date_created",
    "sublocation",
    "city",
    "province",
    "country",
    "country_code",
];

/// `stated` as the input wrote it: `date_created` stays the stated ISO
/// string (it is a statement, not a parsed date), and the JSON's
/// `coordinates: [lat, lon]` are two floats.
fn stated_fields() -> Fields {
    let mut fields = vec![Field::new("creators", list_of(DataType::Utf8), true)];
    fields.extend(STATED_TEXT.map(|name| Field::new(name, DataType::Utf8, true)));
    fields.extend([
        Field::new("latitude", DataType::Float64, true),
        Field::new("longitude", DataType::Float64, true),
    ]);
    Fields::from(fields)
}

fn conflict_fields() -> Fields {
    Fields::from(vec![
        Field::new("field", DataType::Utf8, true),
        Field::new("stated", DataType::Utf8, true),
        Field::new("parsed", DataType::Utf8, true),
    ])
}

/// The schema of a batch with `options`' columns.
pub fn schema(options: Options) -> SchemaRef {
    let mut fields = vec![
        Field::new("id", DataType::Utf8, true),
        Field::new("text", DataType::Utf8, true),
        Field::new("description", DataType::Utf8, true),
        Field::new("credit", DataType::Struct(credit_fields()), true),
        Field::new("date_created", DataType::Date32, true),
        Field::new("date_created_precision", DataType::Utf8, true),
        Field::new("dates", list_of(DataType::Struct(date_fields())), true),
        Field::new("location", DataType::Struct(location_fields()), true),
        Field::new("persons", list_of(DataType::Struct(person_fields())), true),
        Field::new("organizations", list_of(DataType::Utf8), true),
        Field::new("flags", list_of(DataType::Utf8), true),
        Field::new("image_url", DataType::Utf8, true),
        Field::new(
            "conflicts",
            list_of(DataType::Struct(conflict_fields())),
            true,
        ),
        Field::new("stated", DataType::Struct(stated_fields()), true),
    ];
    if options.archive {
        fields.extend([
            Field::new("variant_id", DataType::Utf8, true),
            Field::new("variants", DataType::Int64, true),
            Field::new("occurrences", DataType::Int64, true),
            Field::new("corrected_fields", list_of(DataType::Utf8), true),
        ]);
    }
    if options.geometry {
        fields.push(Field::new("geometry", DataType::Binary, true));
    }
    Arc::new(Schema::new(fields))
}

/// Days since 1970-01-01 of the first day a partial date names, and its
/// precision; `None` for a date the calendar does not have.
fn date32(date: &PartialDate) -> Option<(i32, &'static str)> {
    let (month, precision) = match (date.month, date.day) {
        (Some(_), Some(_)) => (date.month, "day"),
        (Some(_), None) => (date.month, "month"),
        _ => (None, "year"),
    };
    let day = date.day.filter(|_| month.is_some()).unwrap_or(1);
    let civil = jiff::civil::Date::new(date.year, month.unwrap_or(1) as i8, day as i8).ok()?;
    let days = civil.since(jiff::civil::Date::constant(1970, 1, 1)).ok()?;
    Some((days.get_days(), precision))
}

/// A WKB point (little-endian, type 1): x = longitude, y = latitude.
fn wkb_point(longitude: f64, latitude: f64) -> [u8; 21] {
    let mut out = [0u8; 21];
    out[0] = 1;
    out[1..5].copy_from_slice(&1u32.to_le_bytes());
    out[5..13].copy_from_slice(&longitude.to_le_bytes());
    out[13..21].copy_from_slice(&latitude.to_le_bytes());
    out
}

type Spans = ListBuilder<UInt32Builder>;
type Strings = ListBuilder<StringBuilder>;

fn push_span(spans: &mut Spans, span: Option<Span>) {
    match span {
        Some(span) => {
            // Captions are cut below 4 GiB long before parsing (256 KiB).
            let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            spans.values().append_value(clamp(span.start));
            spans.values().append_value(clamp(span.end));
            spans.append(true);
        }
        None => spans.append(false),
    }
}

fn push_strings<'a>(list: &mut Strings, items: impl IntoIterator<Item = &'a String>) {
    for item in items {
        list.values().append_value(item);
    }
    list.append(true);
}

/// A list of structs: offsets per row over one struct child.
struct StructList {
    offsets: Vec<i32>,
    valid: NullBufferBuilder,
}

impl StructList {
    fn new() -> StructList {
        StructList {
            offsets: vec![0],
            valid: NullBufferBuilder::new(0),
        }
    }

    /// Ends a row holding `items` more structs.
    fn end_row(&mut self, items: usize) {
        let last = self.offsets.last().copied().unwrap_or(0);
        self.offsets
            .push(last + i32::try_from(items).unwrap_or(i32::MAX));
        self.valid.append_non_null();
    }

    /// A null row.
    fn null_row(&mut self) {
        let last = self.offsets.last().copied().unwrap_or(0);
        self.offsets.push(last);
        self.valid.append_null();
    }

    fn finish(&mut self, fields: Fields, children: Vec<ArrayRef>) -> Result<ArrayRef, Error> {
        let items = StructArray::try_new(fields.clone(), children, None)?;
        let offsets = OffsetBuffer::new(std::mem::replace(&mut self.offsets, vec![0]).into());
        let field = Arc::new(Field::new("item", DataType::Struct(fields), true));
        Ok(Arc::new(ListArray::try_new(
            field,
            offsets,
            Arc::new(items),
            self.valid.finish(),
        )?))
    }
}

/// Records, column by column, until [`RecordColumns::finish`] hands them
/// out as one batch.
pub struct RecordColumns {
    options: Options,
    schema: SchemaRef,
    rows: usize,
    id: StringBuilder,
    text: StringBuilder,
    description: StringBuilder,
    credit_valid: NullBufferBuilder,
    credit_raw: StringBuilder,
    credit_creators: Strings,
    credit_agencies: Strings,
    credit_source: StringBuilder,
    credit_span: Spans,
    date_created: Date32Builder,
    date_created_precision: StringBuilder,
    dates: StructList,
    dates_date: Date32Builder,
    dates_precision: StringBuilder,
    dates_role: StringBuilder,
    dates_text: StringBuilder,
    dates_span: Spans,
    location_valid: NullBufferBuilder,
    location_text: [StringBuilder; 6],
    location_geonames_id: UInt32Builder,
    location_latitude: Float64Builder,
    location_longitude: Float64Builder,
    location_words: StringBuilder,
    location_span: Spans,
    persons: StructList,
    persons_name: StringBuilder,
    persons_age: UInt16Builder,
    persons_span: Spans,
    organizations: Strings,
    flags: Strings,
    image_url: StringBuilder,
    conflicts: StructList,
    conflicts_text: [StringBuilder; 3],
    stated_valid: NullBufferBuilder,
    stated_creators: Strings,
    stated_text: [StringBuilder; STATED_TEXT.len()],
    stated_latitude: Float64Builder,
    stated_longitude: Float64Builder,
    variant_id: StringBuilder,
    variants: Int64Builder,
    occurrences: Int64Builder,
    corrected_fields: Strings,
    geometry: BinaryBuilder,
}

impl RecordColumns {
    /// An empty builder for batches with `options`' columns.
    pub fn new(options: Options) -> RecordColumns {
        RecordColumns {
            options,
            schema: schema(options),
            rows: 0,
            id: StringBuilder::new(),
            text: StringBuilder::new(),
            description: StringBuilder::new(),
            credit_valid: NullBufferBuilder::new(0),
            credit_raw: StringBuilder::new(),
            credit_creators: Strings::new(StringBuilder::new()),
            credit_agencies: Strings::new(StringBuilder::new()),
            credit_source: StringBuilder::new(),
            credit_span: Spans::new(UInt32Builder::new()),
            date_created: Date32Builder::new(),
            date_created_precision: StringBuilder::new(),
            dates: StructList::new(),
            dates_date: Date32Builder::new(),
            dates_precision: StringBuilder::new(),
            dates_role: StringBuilder::new(),
            dates_text: StringBuilder::new(),
            dates_span: Spans::new(UInt32Builder::new()),
            location_valid: NullBufferBuilder::new(0),
            location_text: std::array::from_fn(|_| StringBuilder::new()),
            location_geonames_id: UInt32Builder::new(),
            location_latitude: Float64Builder::new(),
            location_longitude: Float64Builder::new(),
            location_words: StringBuilder::new(),
            location_span: Spans::new(UInt32Builder::new()),
            persons: StructList::new(),
            persons_name: StringBuilder::new(),
            persons_age: UInt16Builder::new(),
            persons_span: Spans::new(UInt32Builder::new()),
            organizations: Strings::new(StringBuilder::new()),
            flags: Strings::new(StringBuilder::new()),
            image_url: StringBuilder::new(),
            conflicts: StructList::new(),
            conflicts_text: std::array::from_fn(|_| StringBuilder::new()),
            stated_valid: NullBufferBuilder::new(0),
            stated_creators: Strings::new(StringBuilder::new()),
            stated_text: std::array::from_fn(|_| StringBuilder::new()),
            stated_latitude: Float64Builder::new(),
            stated_longitude: Float64Builder::new(),
            variant_id: StringBuilder::new(),
            variants: Int64Builder::new(),
            occurrences: Int64Builder::new(),
            corrected_fields: Strings::new(StringBuilder::new()),
            geometry: BinaryBuilder::new(),
        }
    }

    /// The schema of the batches this builder makes.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Records pushed since the last batch.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no record was pushed since the last batch.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Adds a record; `archive` fills the archive's columns (zeros and
    /// nulls when `None`, ignored without [`Options::archive`]).
    pub fn push(&mut self, record: &CaptionRecord, archive: Option<&ArchiveInfo>) {
        self.rows += 1;
        self.id.append_value(&record.id);
        self.text.append_value(&record.text);
        self.description.append_value(&record.description);

        let credit = &record.credit;
        self.credit_valid.append_non_null();
        self.credit_raw.append_option(credit.raw.as_deref());
        push_strings(&mut self.credit_creators, &credit.creators);
        push_strings(&mut self.credit_agencies, &credit.agencies);
        self.credit_source.append_option(credit.source.as_deref());
        push_span(&mut self.credit_span, credit.span);

        let created = record.date_created.as_ref().and_then(date32);
        self.date_created.append_option(created.map(|(d, _)| d));
        self.date_created_precision
            .append_option(created.map(|(_, p)| p));
        for mention in &record.dates {
            let date = date32(&mention.date);
            self.dates_date.append_option(date.map(|(d, _)| d));
            self.dates_precision.append_option(date.map(|(_, p)| p));
            self.dates_role.append_value(json_name(mention.role));
            self.dates_text.append_value(&mention.text);
            push_span(&mut self.dates_span, Some(mention.span));
        }
        self.dates.end_row(record.dates.len());

        self.push_location(record.location.as_ref());

        for person in &record.persons {
            self.persons_name.append_value(&person.name);
            self.persons_age.append_option(person.age);
            push_span(&mut self.persons_span, Some(person.span));
        }
        self.persons.end_row(record.persons.len());
        push_strings(&mut self.organizations, &record.organizations);
        for flag in &record.flags {
            self.flags.values().append_value(json_name(flag));
        }
        self.flags.append(true);
        self.image_url.append_option(record.image_url.as_deref());
        for conflict in &record.conflicts {
            let [field, stated, parsed] = &mut self.conflicts_text;
            field.append_value(&conflict.field);
            stated.append_value(&conflict.stated);
            parsed.append_value(&conflict.parsed);
        }
        self.conflicts.end_row(record.conflicts.len());
        self.push_stated(record.stated.as_ref());

        if self.options.archive {
            let none = ArchiveInfo::default();
            let archive = archive.unwrap_or(&none);
            self.variant_id.append_option(archive.variant_id.as_deref());
            self.variants.append_value(archive.variants);
            self.occurrences.append_value(archive.occurrences);
            push_strings(&mut self.corrected_fields, &archive.corrected_fields);
        }
        if self.options.geometry {
            let point = record
                .location
                .as_ref()
                .and_then(|l| Some(wkb_point(l.longitude?, l.latitude?)));
            self.geometry.append_option(point);
        }
    }

    /// Adds a row of nulls: no caption (a null input value).
    pub fn push_null(&mut self) {
        self.rows += 1;
        self.id.append_null();
        self.text.append_null();
        self.description.append_null();
        self.credit_valid.append_null();
        self.credit_raw.append_null();
        self.credit_creators.append(false);
        self.credit_agencies.append(false);
        self.credit_source.append_null();
        self.credit_span.append(false);
        self.date_created.append_null();
        self.date_created_precision.append_null();
        self.dates.null_row();
        self.push_location(None);
        self.persons.null_row();
        self.organizations.append(false);
        self.flags.append(false);
        self.image_url.append_null();
        self.conflicts.null_row();
        self.push_stated(None);
        if self.options.archive {
            self.variant_id.append_null();
            self.variants.append_null();
            self.occurrences.append_null();
            self.corrected_fields.append(false);
        }
        if self.options.geometry {
            self.geometry.append_null();
        }
    }

    fn push_location(&mut self, location: Option<&caption::Location>) {
        self.location_valid.append(location.is_some());
        let get =
            |f: fn(&caption::Location) -> &Option<String>| location.and_then(|l| f(l).as_deref());
        let texts = [
            get(|l| &l.sublocation),
            get(|l| &l.city),
            get(|l| &l.province),
            get(|l| &l.province_code),
            get(|l| &l.country),
            get(|l| &l.country_code),
        ];
        for (builder, value) in self.location_text.iter_mut().zip(texts) {
            builder.append_option(value);
        }
        self.location_geonames_id
            .append_option(location.and_then(|l| l.geonames_id));
        self.location_latitude
            .append_option(location.and_then(|l| l.latitude));
        self.location_longitude
            .append_option(location.and_then(|l| l.longitude));
        self.location_words
            .append_option(location.and_then(|l| l.text.as_deref()));
        match location {
            Some(l) => push_span(&mut self.location_span, l.span),
            None => self.location_span.append(false),
        }
    }

    fn push_stated(&mut self, stated: Option<&caption::Stated>) {
        self.stated_valid.append(stated.is_some());
        match stated {
            Some(s) => push_strings(&mut self.stated_creators, &s.creators),
            None => self.stated_creators.append(false),
        }
        let texts = stated.map(|s| {
            [
                &s.credit_line,
                &s.source,
                &s.date_created,
                &s.sublocation,
                &s.city,
                &s.province,
                &s.country,
                &s.country_code,
            ]
        });
        for (i, builder) in self.stated_text.iter_mut().enumerate() {
            builder.append_option(texts.and_then(|t| t[i].as_deref()));
        }
        let coordinates = stated.and_then(|s| s.coordinates);
        self.stated_latitude
            .append_option(coordinates.map(|(lat, _)| lat));
        self.stated_longitude
            .append_option(coordinates.map(|(_, lon)| lon));
    }

    /// The records pushed since the last batch, as one batch; the builder
    /// starts empty again.
    pub fn finish(&mut self) -> Result<RecordBatch, Error> {
        self.rows = 0;
        let credit = StructArray::try_new(
            credit_fields(),
            vec![
                Arc::new(self.credit_raw.finish()),
                Arc::new(self.credit_creators.finish()),
                Arc::new(self.credit_agencies.finish()),
                Arc::new(self.credit_source.finish()),
                Arc::new(self.credit_span.finish()),
            ],
            self.credit_valid.finish(),
        )?;
        let dates = self.dates.finish(
            date_fields(),
            vec![
                Arc::new(self.dates_date.finish()),
                Arc::new(self.dates_precision.finish()),
                Arc::new(self.dates_role.finish()),
                Arc::new(self.dates_text.finish()),
                Arc::new(self.dates_span.finish()),
            ],
        )?;
        let mut location_children: Vec<ArrayRef> = self
            .location_text
            .iter_mut()
            .map(|b| Arc::new(b.finish()) as ArrayRef)
            .collect();
        location_children.extend([
            Arc::new(self.location_geonames_id.finish()) as ArrayRef,
            Arc::new(self.location_latitude.finish()),
            Arc::new(self.location_longitude.finish()),
            Arc::new(self.location_words.finish()),
            Arc::new(self.location_span.finish()),
        ]);
        let location = StructArray::try_new(
            location_fields(),
            location_children,
            self.location_valid.finish(),
        )?;
        let persons = self.persons.finish(
            person_fields(),
            vec![
                Arc::new(self.persons_name.finish()),
                Arc::new(self.persons_age.finish()),
                Arc::new(self.persons_span.finish()),
            ],
        )?;
        let conflicts = self.conflicts.finish(
            conflict_fields(),
            self.conflicts_text
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef)
                .collect(),
        )?;
        let mut stated_children: Vec<ArrayRef> = vec![Arc::new(self.stated_creators.finish())];
        stated_children.extend(
            self.stated_text
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        stated_children.extend([
            Arc::new(self.stated_latitude.finish()) as ArrayRef,
            Arc::new(self.stated_longitude.finish()),
        ]);
        let stated =
            StructArray::try_new(stated_fields(), stated_children, self.stated_valid.finish())?;
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.id.finish()),
            Arc::new(self.text.finish()),
            Arc::new(self.description.finish()),
            Arc::new(credit),
            Arc::new(self.date_created.finish()),
            Arc::new(self.date_created_precision.finish()),
            dates,
            Arc::new(location),
            persons,
            Arc::new(self.organizations.finish()),
            Arc::new(self.flags.finish()),
            Arc::new(self.image_url.finish()),
            conflicts,
            Arc::new(stated),
        ];
        if self.options.archive {
            columns.extend([
                Arc::new(self.variant_id.finish()) as ArrayRef,
                Arc::new(self.variants.finish()),
                Arc::new(self.occurrences.finish()),
                Arc::new(self.corrected_fields.finish()),
            ]);
        }
        if self.options.geometry {
            columns.push(Arc::new(self.geometry.finish()));
        }
        Ok(RecordBatch::try_new(self.schema.clone(), columns)?)
    }
}

/// The JSON name of a unit enum (a date role, a flag): the record's own
/// serialization, so the columns never spell one differently.
fn json_name<T: serde::Serialize>(value: T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests;
