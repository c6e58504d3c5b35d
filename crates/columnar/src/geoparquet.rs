//! Records to a GeoParquet 1.1 file: the record columns plus a WKB point
//! `geometry`, zstd-compressed, written in row groups as records arrive so
//! memory stays flat however many there are.

use std::io::Write;

use caption::CaptionRecord;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use crate::columns::{ArchiveInfo, Options, RecordColumns};
use crate::Error;

/// Rows per row group: large enough for good compression and fast scans,
/// small enough that a row group's pages in memory stay near 100 MB.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// Records gathered into one Arrow batch before it goes to the writer.
const BATCH_ROWS: usize = 8192;

/// zstd's level 3: its default, most of the ratio of higher levels at a
/// fraction of their time.
const ZSTD_LEVEL: i32 = 3;

/// Streams records into a GeoParquet file.
pub struct GeoParquetWriter<W: Write + Send> {
    writer: ArrowWriter<W>,
    /// The record schema with the `geo` key.
    schema: arrow_schema::SchemaRef,
    columns: RecordColumns,
}

impl<W: Write + Send> GeoParquetWriter<W> {
    /// A writer into `out`; `archive` adds the archive's columns
    /// (`dateline export`).
    pub fn new(out: W, archive: bool) -> Result<GeoParquetWriter<W>, Error> {
        let columns = RecordColumns::new(Options {
            archive,
            geometry: true,
        });
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?))
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("dateline {}", env!("CARGO_PKG_VERSION")))
            // GeoParquet puts `geo` in the file's key-value metadata, where
            // GDAL and DuckDB look; the Arrow writer copies schema metadata
            // only into `ARROW:schema`, so it is set here as well.
            .set_key_value_metadata(Some(vec![KeyValue::new("geo".to_string(), geo_metadata())]))
            .build();
        // The same key in the Arrow schema's metadata, stored inside
        // `ARROW:schema` (where pyarrow and GeoPandas look). It is written
        // before any row, so it has no `bbox` (an optional member).
        let schema = columns.schema();
        let mut metadata = schema.metadata().clone();
        metadata.insert("geo".to_string(), geo_metadata());
        let schema = std::sync::Arc::new(schema.as_ref().clone().with_metadata(metadata));
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(properties))?;
        Ok(GeoParquetWriter {
            writer,
            schema,
            columns,
        })
    }

    /// Adds a record (with what the archive knows of it, for an export).
    pub fn write(
        &mut self,
        record: &CaptionRecord,
        archive: Option<&ArchiveInfo>,
    ) -> Result<(), Error> {
        self.columns.push(record, archive);
        if self.columns.len() >= BATCH_ROWS {
            self.flush_batch()?;
        }
        Ok(())
    }

    fn flush_batch(&mut self) -> Result<(), Error> {
        if !self.columns.is_empty() {
            let batch = self.columns.finish()?;
            let batch = batch.with_schema(self.schema.clone())?;
            self.writer.write(&batch)?;
        }
        Ok(())
    }

    /// Writes the last row group and the footer; hands back the output.
    pub fn finish(mut self) -> Result<W, Error> {
        self.flush_batch()?;
        Ok(self.writer.into_inner()?)
    }
}

/// GeoParquet 1.1's file metadata: one WKB point column in longitude,
/// latitude order. No `crs` key means OGC:CRS84 (WGS 84, longitude first),
/// which is what GeoNames coordinates are.
fn geo_metadata() -> String {
    let column = serde_json::json!({
        "encoding": "WKB",
        "geometry_types": ["Point"],
    });
    serde_json::json!({
        "version": "1.1.0",
        "primary_column": "geometry",
        "columns": {"geometry": column},
    })
    .to_string()
}
