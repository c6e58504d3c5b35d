//! `dateline parse`: text in, one JSON record per caption out, in input order.
//!
//! Reading, parsing and writing form a pipeline: one reader hands out
//! numbered batches of captions, `--threads` workers parse and render them,
//! and the writer puts them back in input order. Channels are bounded, so
//! memory stays flat however large the input.

use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;

use anyhow::Context;
use gazetteer::Gazetteer;

use crate::input::{self, Piece};
use crate::photo::SidecarDir;

/// Captions handed to a worker at a time; large enough to amortize channel
/// traffic, small enough to keep all threads busy on modest inputs.
const BATCH_BYTES: usize = 256 * 1024;

/// Batches in flight per worker: bounds memory while keeping workers fed.
const BATCHES_IN_FLIGHT_PER_WORKER: usize = 4;

/// Arguments of `dateline parse`.
#[derive(Debug, clap::Args)]
pub struct ParseArgs {
    /// Text files of captions (blank-line separated); stdin when none.
    files: Vec<PathBuf>,
    /// One record per distinct caption: exact repeats merge.
    #[arg(long)]
    unique: bool,
    /// Parsing threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<std::num::NonZeroUsize>,
    /// Load GeoNames dump files from DIR instead of the embedded gazetteer.
    #[arg(long, value_name = "DIR")]
    gazetteer: Option<PathBuf>,
    /// `json`: one JSON record per line on stdout. `xmp`: one XMP sidecar
    /// per record, written into `--out DIR`. `parquet`: one GeoParquet
    /// file, `--out FILE`.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// Directory for the sidecars of `--format xmp`; the file of
    /// `--format parquet`.
    #[arg(long, value_name = "DIR|FILE", required_if_eq_any([("format", "xmp"), ("format", "parquet")]))]
    out: Option<PathBuf>,
    /// Instead of records, say for each input line what it was taken for
    /// and why, and for each record how its credit, date and place were read.
    #[arg(long, conflicts_with_all = ["unique", "format", "out"])]
    explain: bool,
}

/// What `dateline parse` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// JSON Lines on stdout, RECORD.md's records.
    Json,
    /// XMP sidecars: `IMAGE.xmp` for a JPEG's caption, `ID.xmp` otherwise.
    Xmp,
    /// One GeoParquet file of typed columns (`columnar`'s schema).
    Parquet,
}

/// One batch of pieces from one input, numbered in reading order.
struct Batch {
    seq: u64,
    pieces: Vec<Piece>,
}

/// A batch's records, rendered one after another into one buffer: one
/// allocation and, for plain JSON Lines, one write per batch.
struct RenderedBatch {
    bytes: Vec<u8>,
    records: Vec<Rendered>,
}

/// A parsed caption, rendered in the output format.
struct Rendered {
    id: String,
    /// Where its JSON line, or its sidecar, stands in the batch's bytes.
    range: std::ops::Range<usize>,
    /// The record's image, naming its sidecar under `--format xmp`.
    image_url: Option<String>,
    /// The record's normalized text, for matching cut-short copies.
    text: String,
    /// The caption ends in a truncation mark.
    truncated: bool,
    /// The caption has a credit line.
    credited: bool,
    /// The record itself, for `--format parquet` (its columns are built
    /// on the writer's side, in output order).
    record: Option<caption::CaptionRecord>,
}

/// Runs `dateline parse`.
pub fn run(args: ParseArgs) -> anyhow::Result<ExitCode> {
    let gazetteer = load_gazetteer(args.gazetteer.as_deref())?;
    if args.explain {
        crate::cmd::explain::run(&args.files, gazetteer)?;
        return Ok(ExitCode::SUCCESS);
    }
    let threads = args.threads.map_or_else(default_threads, |n| n.get());
    if args.out.is_some() && args.format == Format::Json {
        anyhow::bail!(
            "--out is for --format xmp (DIR) or parquet (FILE); JSON records go to stdout"
        );
    }
    let out_path = args.out.as_deref();
    let mut out = Output {
        writer: io::BufWriter::with_capacity(256 * 1024, io::stdout()),
        sidecars: out_path
            .filter(|_| args.format == Format::Xmp)
            .map(SidecarDir::create)
            .transpose()?,
        parquet: out_path
            .filter(|_| args.format == Format::Parquet)
            .map(crate::parquet::create)
            .transpose()?,
        unique: args.unique.then(Unique::default),
    };
    let render =
        |batch: &Batch, buffer: Vec<u8>| render_batch(batch, gazetteer, args.format, buffer);
    let failures = if threads == 1 {
        let mut buffer = Vec::new();
        read_inputs(&args.files, &mut |batch| {
            buffer = out.write(render(&batch, std::mem::take(&mut buffer)))?;
            Ok(())
        })?
    } else {
        run_parallel(threads, &render, &args.files, &mut out)?
    };
    out.finish()?;
    Ok(if failures > 0 {
        crate::cmd::EXIT_FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the reader hands each batch.
type SendBatch<'a> = dyn FnMut(Batch) -> anyhow::Result<()> + 'a;

/// Reads every input (stdin when `files` is empty) in order and sends its
/// captions in numbered batches. An input that cannot be read is reported
/// and skipped; returns how many were.
fn read_inputs(files: &[PathBuf], send: &mut SendBatch<'_>) -> anyhow::Result<usize> {
    let mut seq = 0;
    let mut failures = 0;
    for (path, name) in input::named_inputs(files) {
        if let Err(err) = read_input(path, &name, &mut seq, send) {
            if crate::cmd::is_broken_pipe(&err) {
                return Err(err);
            }
            eprintln!("dateline: error: {err:#}");
            failures += 1;
        }
    }
    Ok(failures)
}

/// Reads one input and sends its pieces in numbered batches.
fn read_input(
    path: Option<&Path>,
    name: &str,
    seq: &mut u64,
    send: &mut SendBatch<'_>,
) -> anyhow::Result<()> {
    input::read_document(
        input::open(path, name)?,
        path,
        name,
        BATCH_BYTES,
        &mut |pieces| {
            send(Batch { seq: *seq, pieces })?;
            *seq += 1;
            Ok(())
        },
        &mut |warning| eprintln!("dateline: warning: {warning}"),
    )?;
    Ok(())
}

/// A record's JSON line is about this many times its caption's length.
const JSON_BYTES_PER_TEXT_BYTE: usize = 6;

/// Parses and renders a batch into `bytes`, a buffer an earlier batch used
/// (see [`Output::write`]).
fn render_batch(
    batch: &Batch,
    gazetteer: &Gazetteer,
    format: Format,
    mut bytes: Vec<u8>,
) -> RenderedBatch {
    let text_bytes: usize = batch.pieces.iter().map(|p| p.text.len()).sum();
    bytes.clear();
    bytes.reserve(text_bytes * JSON_BYTES_PER_TEXT_BYTE);
    let mut records = Vec::new();
    for piece in &batch.pieces {
        for found in input::records_of(piece, gazetteer) {
            let start = bytes.len();
            match format {
                Format::Json => {
                    found.record.write_json(&mut bytes);
                    bytes.push(b'\n');
                }
                Format::Xmp => bytes.extend_from_slice(
                    photometa::xmp_sidecar(&crate::photo::metadata_of(&found.record)).as_bytes(),
                ),
                Format::Parquet => {}
            }
            let r = found.record;
            let credited = r.credit.raw.is_some();
            let (id, image_url, text, record) = match format {
                Format::Parquet => (r.id.clone(), r.image_url.clone(), r.text.clone(), Some(r)),
                _ => (r.id, r.image_url, r.text, None),
            };
            records.push(Rendered {
                id,
                range: start..bytes.len(),
                image_url,
                text,
                truncated: found.truncated,
                credited,
                record,
            });
        }
    }
    RenderedBatch { bytes, records }
}

/// Where rendered records go: stdout or sidecar files, minus repeats under
/// `--unique`.
struct Output<W: Write> {
    writer: W,
    /// `--out DIR` of `--format xmp`.
    sidecars: Option<SidecarDir>,
    /// `--out FILE` of `--format parquet`.
    parquet: Option<crate::parquet::ParquetOut>,
    unique: Option<Unique>,
}

/// What `--unique` remembers: the ids written, the full texts (to match
/// copies against), and the records from the first copy still waiting for
/// its full version on, in input order. A full version that comes later
/// takes its copy's place, so records keep the order in which their
/// pictures first appeared. Memory grows with the number of distinct
/// captions, and the wait is bounded by [`MAX_RECORDS_WAITING`].
///
/// Two kinds of copy wait: a cut-short one (`...more`, `…`), whose full
/// version starts with its words, and an uncredited one, a picture's
/// thumbnail text or headline that repeats its caption without the credit
/// (`A giant figure burns in Guatemala City, Guatemala` above
/// `A giant figure burns in Guatemala City, Guatemala (Image credit: ...)`),
/// whose full version is its whole text and then a credit. Such a teaser
/// stands next to its picture's caption, so an uncredited copy waits only
/// [`UNCREDITED_WAIT`] records; a caption without a credit that no credited
/// one repeats is written as it is.
#[derive(Default)]
struct Unique {
    seen: HashSet<String>,
    /// Each text that is not cut short, and whether it is credited.
    full_texts: BTreeMap<String, bool>,
    waiting: std::collections::VecDeque<Waiting>,
    /// Records taken so far: the clock of uncredited copies' waits.
    taken: u64,
}

/// A record held back behind a copy, with its rendered bytes.
struct Waiting {
    record: Rendered,
    bytes: Vec<u8>,
    /// What the record is waiting for, if it is a copy.
    copy: Option<CopyKind>,
}

/// A copy waiting for its full version.
#[derive(Clone, Copy)]
enum CopyKind {
    /// Cut short: a full version starts with its words.
    Cut,
    /// Uncredited: a credited full version is its text and more, until
    /// this many records have been taken.
    Uncredited { until: u64 },
}

/// Records held back behind a cut-short copy before it is written as it
/// is: a cut copy's full version comes within a page or two of it.
const MAX_RECORDS_WAITING: usize = 10_000;

/// Records an uncredited copy waits for its credited version: a teaser
/// stands beside its picture's caption, a few lines away at most.
const UNCREDITED_WAIT: u64 = 8;

/// An uncredited copy shorter than this is no teaser worth merging (a
/// one-word heading the next caption happens to start with).
const MIN_UNCREDITED_COPY: usize = 24;

impl Unique {
    /// Takes a record in input order; returns the records that can be
    /// written now, in order.
    fn take(&mut self, record: Rendered, bytes: &[u8]) -> Vec<Waiting> {
        if !self.seen.insert(record.id.clone()) {
            return Vec::new();
        }
        self.taken += 1;
        let copy = if record.truncated {
            Some(CopyKind::Cut)
        } else if !record.credited && record.text.len() >= MIN_UNCREDITED_COPY {
            Some(CopyKind::Uncredited {
                until: self.taken + UNCREDITED_WAIT,
            })
        } else {
            None
        };
        if copy.is_some_and(|copy| self.completes_earlier(copy, &record.text)) {
            return Vec::new();
        }
        if !record.truncated {
            self.full_texts.insert(record.text.clone(), record.credited);
        }
        let full = Waiting {
            record,
            bytes: bytes.to_vec(),
            copy,
        };
        // The full version takes its first copy's place; its other copies
        // merge into it.
        let merged: Vec<bool> = self.waiting.iter().map(|w| w.completed_by(&full)).collect();
        if merged.contains(&true) {
            let mut full = Some(full);
            let before = std::mem::take(&mut self.waiting);
            for (w, merges) in before.into_iter().zip(merged) {
                if !merges {
                    self.waiting.push_back(w);
                } else if let Some(full) = full.take() {
                    self.waiting.push_back(full);
                }
            }
        } else {
            self.waiting.push_back(full);
        }
        let taken = self.taken;
        for w in &mut self.waiting {
            if matches!(w.copy, Some(CopyKind::Uncredited { until }) if until <= taken) {
                w.copy = None;
            }
        }
        let mut ready = Vec::new();
        while self
            .waiting
            .front()
            .is_some_and(|w| w.copy.is_none() || self.waiting.len() > MAX_RECORDS_WAITING)
        {
            ready.extend(self.waiting.pop_front());
        }
        ready
    }

    /// Whether a full caption already seen completes this copy.
    fn completes_earlier(&self, copy: CopyKind, text: &str) -> bool {
        let prefix = copy_prefix(copy, text);
        self.full_texts
            .range(prefix.to_string()..)
            .take_while(|(full, _)| full.starts_with(prefix))
            .any(|(full, &credited)| {
                (credited || copy_is_cut(copy)) && completes(copy, prefix, full)
            })
    }
}

impl Waiting {
    /// Whether `full`, a later record, is the full version this copy
    /// waits for (a copy itself can be one: a cut copy of a teaser).
    fn completed_by(&self, full: &Waiting) -> bool {
        match self.copy {
            Some(copy) => {
                (full.record.credited || copy_is_cut(copy))
                    && completes(
                        copy,
                        copy_prefix(copy, &self.record.text),
                        &full.record.text,
                    )
            }
            None => false,
        }
    }
}

fn copy_is_cut(copy: CopyKind) -> bool {
    matches!(copy, CopyKind::Cut)
}

/// The words a copy's full version starts with.
fn copy_prefix(copy: CopyKind, text: &str) -> &str {
    match copy {
        CopyKind::Cut => truncated_prefix(text),
        CopyKind::Uncredited { .. } => text,
    }
}

/// Whether `full` completes a copy whose words are `prefix`: a cut copy's
/// words start it; an uncredited copy's whole text does, at a word's end,
/// with more after it.
fn completes(copy: CopyKind, prefix: &str, full: &str) -> bool {
    if !full.starts_with(prefix) {
        return false;
    }
    match copy {
        CopyKind::Cut => true,
        CopyKind::Uncredited { .. } => full[prefix.len()..]
            .chars()
            .next()
            .is_some_and(|c| !c.is_alphanumeric()),
    }
}

impl<W: Write> Output<W> {
    /// Writes a batch and hands back its buffer for the next one: a buffer
    /// of a megabyte or more, freed and allocated again for every batch,
    /// would be returned to the OS and faulted in afresh each time (a tenth
    /// of the run time in the kernel zeroing pages, measured with perf).
    fn write(&mut self, batch: RenderedBatch) -> anyhow::Result<Vec<u8>> {
        let RenderedBatch { bytes, records } = batch;
        self.write_records(&bytes, records)?;
        Ok(bytes)
    }

    fn write_records(&mut self, all: &[u8], records: Vec<Rendered>) -> anyhow::Result<()> {
        if self.unique.is_none() && self.sidecars.is_none() && self.parquet.is_none() {
            // Every record, in order: the batch as it is.
            return self.writer.write_all(all).context("writing records");
        }
        for record in records {
            let bytes = &all[record.range.clone()];
            match &mut self.unique {
                Some(unique) => {
                    for ready in unique.take(record, bytes) {
                        self.emit(&ready.record, &ready.bytes)?;
                    }
                }
                None => self.emit(&record, bytes)?,
            }
        }
        Ok(())
    }

    fn emit(&mut self, record: &Rendered, bytes: &[u8]) -> anyhow::Result<()> {
        if let (Some(parquet), Some(r)) = (&mut self.parquet, &record.record) {
            return parquet.write(r, None);
        }
        match &mut self.sidecars {
            Some(sidecars) => sidecars.write(&record.id, record.image_url.as_deref(), bytes),
            None => self.writer.write_all(bytes).context("writing records"),
        }
    }

    /// Writes the records still waiting (cut-short copies that no full
    /// caption completed stay where they first appeared), then flushes.
    fn finish(&mut self) -> anyhow::Result<()> {
        if let Some(unique) = self.unique.take() {
            for waiting in unique.waiting {
                self.emit(&waiting.record, &waiting.bytes)?;
            }
        }
        self.flush()
    }

    fn flush(&mut self) -> anyhow::Result<()> {
        if let Some(parquet) = self.parquet.take() {
            parquet.finish()?;
        }
        self.writer.flush().context("writing records")
    }
}

/// The words a cut-short caption keeps, without its mark and a cut word.
fn truncated_prefix(text: &str) -> &str {
    let kept = caption::strip_truncation_mark(text).unwrap_or(text);
    // The last word may be cut mid-way ("further nor"): match up to it.
    match kept.rfind(' ') {
        Some(space) if space > kept.len() / 2 => &kept[..space],
        _ => kept,
    }
}

/// Reads on this thread, parses on `threads` workers, writes in input order
/// on a writer thread.
fn run_parallel<W: Write + Send>(
    threads: usize,
    render: &(dyn Fn(&Batch, Vec<u8>) -> RenderedBatch + Sync),
    files: &[PathBuf],
    out: &mut Output<W>,
) -> anyhow::Result<usize> {
    let (batch_tx, batch_rx) = mpsc::sync_channel::<Batch>(threads * BATCHES_IN_FLIGHT_PER_WORKER);
    let batch_rx = std::sync::Mutex::new(batch_rx);
    let (done_tx, done_rx) =
        mpsc::sync_channel::<(u64, RenderedBatch)>(threads * BATCHES_IN_FLIGHT_PER_WORKER);
    // Written batches' buffers go back to the workers (see `Output::write`);
    // a worker finding none allocates one.
    let (spare_tx, spare_rx) = mpsc::channel::<Vec<u8>>();
    let spare_rx = std::sync::Mutex::new(spare_rx);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let batch_rx = &batch_rx;
            let spare_rx = &spare_rx;
            scope.spawn(move || loop {
                let next = batch_rx
                    .lock()
                    .map_err(|_| ())
                    .and_then(|rx| rx.recv().map_err(|_| ()));
                let Ok(batch) = next else { return };
                let buffer = spare_rx
                    .lock()
                    .ok()
                    .and_then(|rx| rx.try_recv().ok())
                    .unwrap_or_default();
                if done_tx.send((batch.seq, render(&batch, buffer))).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        let writer = scope.spawn(move || -> anyhow::Result<()> {
            let mut pending = BTreeMap::new();
            let mut next_seq = 0;
            for (seq, rendered) in done_rx {
                pending.insert(seq, rendered);
                while let Some(rendered) = pending.remove(&next_seq) {
                    // The workers may all have finished: a lost buffer is fine.
                    let _ = spare_tx.send(out.write(rendered)?);
                    next_seq += 1;
                }
            }
            Ok(())
        });
        let read_result = read_inputs(files, &mut |batch| {
            batch_tx
                .send(batch)
                .map_err(|_| anyhow::anyhow!("writer stopped"))
        });
        drop(batch_tx);
        let write_result = writer
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("writer thread panicked")));
        // A write error (a closed pipe) explains a read-side "writer stopped".
        write_result.and(read_result)
    })
}

pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub(crate) fn load_gazetteer(dir: Option<&Path>) -> anyhow::Result<&'static Gazetteer> {
    match dir {
        None => Gazetteer::try_embedded()
            .map_err(|err| anyhow::anyhow!("decoding the embedded gazetteer: {err}")),
        Some(dir) => {
            let loaded = Gazetteer::from_geonames_dir(dir).with_context(|| {
                format!("loading the GeoNames gazetteer from {}", dir.display())
            })?;
            // One gazetteer per process run: leaking it gives workers a plain
            // shared reference without reference counting.
            Ok(Box::leak(Box::new(loaded)))
        }
    }
}
