//! The columns hold what the record holds.

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type, UInt16Type};
use arrow_array::Array;

use super::*;

fn record(caption: &str) -> CaptionRecord {
    caption::parse(caption, gazetteer::Gazetteer::embedded())
}

#[test]
fn a_located_dated_caption_fills_its_columns() {
    let r = record(
        "Boys aged 12 play football near the old port in Tartus, Syria, June 4, 2019. \
         Hamid Kaddour, 10, watches. REUTERS/Lina Farah",
    );
    let mut columns = RecordColumns::new(Options {
        archive: false,
        geometry: true,
    });
    columns.push(&r, None);
    let batch = columns.finish().expect("a batch");
    assert_eq!(batch.num_rows(), 1);
    assert!(columns.is_empty());

    let days = batch["date_created"].as_primitive::<Date32Type>().value(0);
    // 2019-06-04 is 18051 days after 1970-01-01.
    assert_eq!(days, 18051);
    assert_eq!(
        batch["date_created_precision"].as_string::<i32>().value(0),
        "day"
    );

    let location = batch["location"].as_struct();
    let lat = location["latitude"].as_primitive::<Float64Type>().value(0);
    let lon = location["longitude"].as_primitive::<Float64Type>().value(0);
    let expected = r.location.as_ref().expect("a location");
    assert_eq!(
        (Some(lat), Some(lon)),
        (expected.latitude, expected.longitude)
    );
    let point = batch["geometry"].as_binary::<i32>().value(0);
    assert_eq!(point, wkb_point(lon, lat));

    let creators = batch["credit"].as_struct()["creators"]
        .as_list::<i32>()
        .value(0);
    assert_eq!(creators.as_string::<i32>().value(0), "Lina Farah");
    let persons = batch["persons"].as_list::<i32>().value(0);
    assert_eq!(persons.len(), r.persons.len());
    let ages = persons.as_struct()["age"]
        .as_primitive::<UInt16Type>()
        .clone();
    let expected_ages: Vec<Option<u16>> = r.persons.iter().map(|p| p.age).collect();
    assert_eq!(ages.iter().collect::<Vec<_>>(), expected_ages);
}

#[test]
fn missing_values_are_nulls_and_empty_lists() {
    let r = record("An empty street at dawn.");
    assert!(r.location.is_none() && r.date_created.is_none());
    let mut columns = RecordColumns::new(Options {
        archive: true,
        geometry: true,
    });
    columns.push(&r, None);
    let batch = columns.finish().expect("a batch");
    assert!(batch["location"].is_null(0));
    assert!(batch["date_created"].is_null(0));
    assert!(batch["geometry"].is_null(0));
    assert_eq!(batch["dates"].as_list::<i32>().value(0).len(), 0);
    let flags = batch["flags"].as_list::<i32>().value(0);
    let flags: Vec<&str> = flags.as_string::<i32>().iter().flatten().collect();
    let expected: Vec<String> = r.flags.iter().map(|f| json_name(*f)).collect();
    assert_eq!(flags, expected);
    assert!(flags.contains(&"no_credit"));
    assert_eq!(
        batch["occurrences"]
            .as_primitive::<arrow_array::types::Int64Type>()
            .value(0),
        0
    );
}

#[test]
fn partial_dates_are_their_first_day_with_a_precision() {
    let month = PartialDate {
        year: 2016,
        month: Some(5),
        day: None,
    };
    assert_eq!(date32(&month), Some((16922, "month")));
    let year = PartialDate {
        year: 1970,
        month: None,
        day: None,
    };
    assert_eq!(date32(&year), Some((0, "year")));
    let impossible = PartialDate {
        year: 2015,
        month: Some(2),
        day: Some(30),
    };
    assert_eq!(date32(&impossible), None);
}

#[test]
fn archive_info_reads_an_exported_record() {
    let exported = serde_json::json!({
        "archive": {"variant": "abc", "variants": 2, "occurrences": 5,
                    "corrections": [{"field": "date_created"}]},
    });
    let info = ArchiveInfo::of_export(&exported);
    assert_eq!(info.variant_id.as_deref(), Some("abc"));
    assert_eq!((info.variants, info.occurrences), (2, 5));
    assert_eq!(info.corrected_fields, ["date_created"]);
}

#[test]
fn a_file_streams_in_row_groups_with_geo_metadata() {
    use parquet::file::reader::{FileReader, SerializedFileReader};

    let r = record("Fishermen mend nets in Jableh, Syria, April 2, 2018. REUTERS/Omar Sanadiki");
    let mut writer = crate::GeoParquetWriter::new(Vec::new(), false).expect("a writer");
    let rows = crate::ROW_GROUP_ROWS + 10;
    for _ in 0..rows {
        writer.write(&r, None).expect("written");
    }
    let bytes = writer.finish().expect("finished");
    let reader = SerializedFileReader::new(bytes::Bytes::from(bytes)).expect("a Parquet file");
    let meta = reader.metadata();
    assert_eq!(meta.num_row_groups(), 2);
    assert_eq!(meta.file_metadata().num_rows() as usize, rows);
    let geo = meta
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|kv| kv.key == "geo"))
        .and_then(|kv| kv.value.clone())
        .expect("a geo key");
    let geo: serde_json::Value = serde_json::from_str(&geo).expect("JSON");
    assert_eq!(geo["version"], "1.1.0");
    assert_eq!(geo["columns"]["geometry"]["encoding"], "WKB");
    let column = meta.row_group(0).column(0);
    assert!(matches!(
        column.compression(),
        parquet::basic::Compression::ZSTD(_)
    ));
}

#[test]
fn stated_fields_are_kept_as_the_input_wrote_them() {
    let plain =
        record("Fishermen mend nets in Jableh, Syria, April 2, 2018. REUTERS/Omar Sanadiki");
    let mut stated = plain.clone();
    stated.stated = Some(caption::Stated {
        creators: vec!["OMAR SANADIKI".into()],
        city: Some("Jablah".into()),
        date_created: Some("2018-04".into()),
        coordinates: Some((35.36, 35.92)),
        ..Default::default()
    });
    let mut columns = RecordColumns::new(Options::default());
    columns.push(&stated, None);
    columns.push(&plain, None);
    columns.push_null();
    let batch = columns.finish().expect("a batch");
    let column = batch["stated"].as_struct();
    assert!(column.is_valid(0) && column.is_null(1) && column.is_null(2));
    assert_eq!(column["city"].as_string::<i32>().value(0), "Jablah");
    assert_eq!(
        column["date_created"].as_string::<i32>().value(0),
        "2018-04"
    );
    assert!(column["source"].is_null(0) && column["country"].is_null(0));
    let creators = column["creators"].as_list::<i32>().value(0);
    assert_eq!(creators.as_string::<i32>().value(0), "OMAR SANADIKI");
    let latitude = column["latitude"].as_primitive::<Float64Type>();
    let longitude = column["longitude"].as_primitive::<Float64Type>();
    assert_eq!((latitude.value(0), longitude.value(0)), (35.36, 35.92));
    assert!(latitude.is_null(1));
}
