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
    columns: RecordColumns,
    /// Extent of the points written: min lon, min lat, max lon, max lat.
    bbox: Option<[f64; 4]>,
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
            .build();
        let writer = ArrowWriter::try_new(out, columns.schema(), Some(properties))?;
        Ok(GeoParquetWriter {
            writer,
            columns,
            bbox: None,
        })
    }

    /// Adds a record (with what the archive knows of it, for an export).
    pub fn write(
        &mut self,
        record: &CaptionRecord,
        archive: Option<&ArchiveInfo>,
    ) -> Result<(), Error> {
        if let Some(l) = &record.location {
            if let (Some(lon), Some(lat)) = (l.longitude, l.latitude) {
                let b = self.bbox.get_or_insert([lon, lat, lon, lat]);
                *b = [b[0].min(lon), b[1].min(lat), b[2].max(lon), b[3].max(lat)];
            }
        }
        self.columns.push(record, archive);
        if self.columns.len() >= BATCH_ROWS {
            self.flush_batch()?;
        }
        Ok(())
    }

    fn flush_batch(&mut self) -> Result<(), Error> {
        if !self.columns.is_empty() {
            let batch = self.columns.finish()?;
            self.writer.write(&batch)?;
        }
        Ok(())
    }

    /// Writes the last row group and the footer with the `geo` metadata;
    /// hands back the output.
    pub fn finish(mut self) -> Result<W, Error> {
        self.flush_batch()?;
        self.writer
            .append_key_value_metadata(KeyValue::new("geo".to_string(), geo_metadata(self.bbox)));
        Ok(self.writer.into_inner()?)
    }
}

/// GeoParquet 1.1's file metadata: one WKB point column in longitude,
/// latitude order. No `crs` key means OGC:CRS84 (WGS 84, longitude first),
/// which is what GeoNames coordinates are.
fn geo_metadata(bbox: Option<[f64; 4]>) -> String {
    let mut column = serde_json::json!({
        "encoding": "WKB",
        "geometry_types": ["Point"],
    });
    if let Some(bbox) = bbox {
        column["bbox"] = serde_json::json!(bbox);
    }
    serde_json::json!({
        "version": "1.1.0",
        "primary_column": "geometry",
        "columns": {"geometry": column},
    })
    .to_string()
}
