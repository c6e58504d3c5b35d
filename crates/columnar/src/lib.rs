//! Caption records as Arrow columns (one schema for every columnar output:
//! Python's `parse_arrow`, Parquet and GeoParquet files) and a streaming
//! GeoParquet writer.
//!
//! The columns follow the record contract (`shared/spec/RECORD.md`) field
//! for field and nest where the record nests (`credit`, `location` are
//! structs; `dates`, `persons`, `conflicts` lists of structs). Two things
//! are typed rather than copied from JSON: a date is an Arrow `date32` (the
//! first day of the period it names) beside a precision (`day`, `month`,
//! `year`), and a span is a two-element list `[start, end)` of byte offsets
//! into `text`, as in the JSON.

mod columns;
mod geoparquet;

pub use columns::{schema, ArchiveInfo, Options, RecordColumns};
pub use geoparquet::{GeoParquetWriter, ROW_GROUP_ROWS};

/// What went wrong writing columns or files.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Arrow refused to assemble the columns (a bug: the builders and the
    /// schema disagree).
    #[error("assembling Arrow columns: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// Writing the Parquet file failed (usually the disk or the pipe).
    #[error("writing Parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
}
