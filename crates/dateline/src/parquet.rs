//! `--format parquet --out FILE` of `parse` and `export`: records streamed
//! into a GeoParquet file (`columnar`), written under a temporary name and
//! renamed into place when complete, so a killed run never leaves a
//! truncated file under the name asked for.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::Context;
use caption::CaptionRecord;
use columnar::{ArchiveInfo, GeoParquetWriter};

/// A GeoParquet file being written.
pub struct ParquetOut {
    writer: GeoParquetWriter<BufWriter<File>>,
    path: PathBuf,
    partial: PathBuf,
}

/// Starts `path` for `dateline parse` (the record columns).
pub fn create(path: &Path) -> anyhow::Result<ParquetOut> {
    create_with(path, false)
}

/// Starts `path`; `archive` adds the archive's columns (`dateline export`).
pub fn create_with(path: &Path, archive: bool) -> anyhow::Result<ParquetOut> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    let partial = path.with_file_name(name);
    let file = File::create(&partial).with_context(|| format!("creating {}", partial.display()))?;
    let writer = GeoParquetWriter::new(BufWriter::with_capacity(1 << 20, file), archive)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(ParquetOut {
        writer,
        path: path.to_path_buf(),
        partial,
    })
}

impl ParquetOut {
    /// Adds a record.
    pub fn write(
        &mut self,
        record: &CaptionRecord,
        archive: Option<&ArchiveInfo>,
    ) -> anyhow::Result<()> {
        self.writer
            .write(record, archive)
            .with_context(|| format!("writing {}", self.path.display()))
    }

    /// Writes the footer, syncs and renames the file into place.
    pub fn finish(self) -> anyhow::Result<()> {
        let context = || format!("writing {}", self.path.display());
        let file = self
            .writer
            .finish()
            .with_context(context)?
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(context)?;
        file.sync_all().with_context(context)?;
        std::fs::rename(&self.partial, &self.path).with_context(context)
    }
}
