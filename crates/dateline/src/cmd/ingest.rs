//! `dateline ingest`: documents into the archive, once each.
//!
//! Each document is read through the input seam (`crate::input`), parsed by
//! `--threads` workers and stored in one archive transaction, in document
//! order; the index catches up every few seconds and at the end. A document
//! whose content is already in the archive is skipped, and said so.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use archive::{Archive, IngestSummary, Mode, NewOccurrence, PreparedOccurrence};
use gazetteer::Gazetteer;

use crate::input::{self, Piece};

/// Pieces handed to a parsing worker at a time.
const BATCH_BYTES: usize = 256 * 1024;

/// How often the index is committed during a long ingest.
const INDEX_EVERY: Duration = Duration::from_secs(10);

/// Arguments of `dateline ingest`.
#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    /// Files, folders (read recursively) and `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    archive: ArchiveArg,
    /// Parsing threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<std::num::NonZeroUsize>,
    /// Load GeoNames dump files from DIR instead of the embedded gazetteer.
    #[arg(long, value_name = "DIR")]
    gazetteer: Option<PathBuf>,
}

/// The `--archive` option every archive command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct ArchiveArg {
    /// Archive directory (default: $DATELINE_ARCHIVE, else the user's data
    /// directory, e.g. ~/.local/share/dateline).
    #[arg(long = "archive", value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl ArchiveArg {
    /// The archive directory: `--archive`, `DATELINE_ARCHIVE`, or the XDG
    /// data directory's `dateline`.
    pub fn dir(&self) -> anyhow::Result<PathBuf> {
        if let Some(dir) = &self.dir {
            return Ok(dir.clone());
        }
        if let Some(dir) = std::env::var_os("DATELINE_ARCHIVE").filter(|d| !d.is_empty()) {
            return Ok(PathBuf::from(dir));
        }
        directories::ProjectDirs::from("", "", "dateline")
            .map(|d| d.data_dir().to_path_buf())
            .context("no home directory to keep the archive in; pass --archive DIR")
    }

    /// Opens the archive, printing notices (a rebuilt index) to stderr.
    pub fn open(&self, mode: Mode) -> anyhow::Result<Archive> {
        let dir = self.dir()?;
        let mut archive = Archive::open(&dir, mode)
            .with_context(|| format!("opening the archive {}", dir.display()))?;
        for notice in archive.take_notices() {
            eprintln!("dateline: {notice}");
        }
        Ok(archive)
    }
}

/// One input: a file, or stdin.
struct Input {
    path: Option<PathBuf>,
    name: String,
    size: u64,
}

/// Runs `dateline ingest`.
pub fn run(args: IngestArgs) -> anyhow::Result<ExitCode> {
    let mut failures = 0;
    let inputs = collect_inputs(&args.paths, &mut failures);
    let mut archive = args.archive.open(Mode::Write)?;
    let threads = args
        .threads
        .map_or_else(super::parse::default_threads, |n| n.get());
    let total_bytes: u64 = inputs.iter().map(|i| i.size).sum();
    let progress = if io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(total_bytes);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {binary_bytes}/{binary_total_bytes} ({binary_bytes_per_sec}, {eta}) {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut gazetteer: Option<&'static Gazetteer> = None;
    let mut totals = IngestSummary::default();
    let (mut added, mut present) = (0u64, 0u64);
    let mut last_index = Instant::now();
    for input in &inputs {
        let outcome = ingest_one(
            &mut archive,
            input,
            threads,
            &mut gazetteer,
            args.gazetteer.as_deref(),
            &progress,
        );
        progress.inc(input.size);
        match outcome {
            Ok(Some(summary)) => {
                added += 1;
                totals.occurrences += summary.occurrences;
                totals.new_records += summary.new_records;
                totals.new_variants_merged += summary.new_variants_merged;
                totals.repeats += summary.repeats;
            }
            Ok(None) => present += 1,
            Err(err) => {
                progress.suspend(|| eprintln!("dateline: error: {err:#}"));
                failures += 1;
            }
        }
        if last_index.elapsed() >= INDEX_EVERY {
            progress.set_message("indexing");
            archive.sync_index().context("updating the index")?;
            progress.set_message("");
            last_index = Instant::now();
        }
    }
    progress.set_message("indexing");
    archive.sync_index().context("updating the index")?;
    progress.finish_and_clear();
    let stats = archive.stats()?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "ingested {added} document(s), {present} already in the archive: {} occurrence(s), {} new record(s), {} merged as variants, {} repeat(s)",
        totals.occurrences, totals.new_records, totals.new_variants_merged, totals.repeats
    )?;
    writeln!(
        out,
        "the archive {} holds {} record(s), {} variant(s), {} occurrence(s) from {} document(s)",
        archive.dir().display(),
        stats.records,
        stats.variants,
        stats.occurrences,
        stats.documents
    )?;
    Ok(if failures > 0 {
        crate::cmd::EXIT_FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Files in the order given, folders walked recursively (sorted, so runs
/// are repeatable), `-` as stdin. Paths that cannot be read are reported.
fn collect_inputs(paths: &[PathBuf], failures: &mut usize) -> Vec<Input> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            out.push(Input {
                path: None,
                name: "<stdin>".into(),
                size: 0,
            });
            continue;
        }
        if let Err(err) = walk(path, &mut out) {
            eprintln!("dateline: error: {err:#}");
            *failures += 1;
        }
    }
    out
}

fn walk(path: &Path, out: &mut Vec<Input>) -> anyhow::Result<()> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if meta.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("reading the folder {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for entry in entries {
            // Hidden files and folders (.git, editor backups) are not inputs.
            let hidden = entry
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            let symlinked_dir = entry.is_symlink() && entry.is_dir();
            if !hidden && !symlinked_dir {
                if let Err(err) = walk(&entry, out) {
                    eprintln!("dateline: error: {err:#}");
                }
            }
        }
    } else {
        out.push(Input {
            path: Some(path.to_path_buf()),
            name: path.display().to_string(),
            size: meta.len(),
        });
    }
    Ok(())
}

/// Ingests one input; `None` when its content is already in the archive.
fn ingest_one(
    archive: &mut Archive,
    input: &Input,
    threads: usize,
    gazetteer: &mut Option<&'static Gazetteer>,
    gazetteer_dir: Option<&Path>,
    progress: &indicatif::ProgressBar,
) -> anyhow::Result<Option<IngestSummary>> {
    // Stdin is read once: kept in a temporary file beside the archive, so
    // it is hashed and parsed like any file.
    let spooled = match &input.path {
        Some(_) => None,
        None => Some(Spooled::stdin(archive.dir())?),
    };
    let path = spooled
        .as_ref()
        .map_or_else(|| input.path.clone(), |s| Some(s.path.clone()));
    let path = path.context("an input with no path")?;
    let (hashes, size) = hash_file(&path).with_context(|| format!("reading {}", input.name))?;
    if let Some(doc) = archive.document_by_hash(&hashes.content_hash)? {
        // The same bytes as first ingested (same XXH3): a document from
        // before schema 3 gets its SHA-256 now.
        let hashed = doc.sha256.is_none() && archive.record_sha256(doc.id, &hashes.sha256)?;
        progress.suspend(|| {
            eprintln!(
                "dateline: {}: already in the archive (ingested {} from {}), nothing added{}",
                input.name,
                doc.ingested_at,
                doc.path,
                if hashed {
                    " but its SHA-256, recorded now"
                } else {
                    ""
                }
            )
        });
        return Ok(None);
    }
    let gazetteer = match gazetteer {
        Some(g) => *g,
        None => *gazetteer.insert(super::parse::load_gazetteer(gazetteer_dir)?),
    };
    let stored_path = match &input.path {
        Some(p) => std::fs::canonicalize(p)
            .unwrap_or_else(|_| p.clone())
            .display()
            .to_string(),
        None => "<stdin>".to_string(),
    };
    let Some(mut doc) = archive.begin_document(&stored_path, size, &hashes)? else {
        return Ok(None);
    };
    let name = input.name.as_str();
    let (piece_tx, piece_rx) = mpsc::sync_channel::<(u64, Vec<Piece>)>(threads * 4);
    let piece_rx = std::sync::Mutex::new(piece_rx);
    let (done_tx, done_rx) = mpsc::sync_channel::<(u64, Vec<PreparedOccurrence>)>(threads * 4);
    let result = std::thread::scope(|scope| -> anyhow::Result<()> {
        let path = &path;
        let reader = scope.spawn(move || {
            let mut seq = 0;
            input::read_document(
                input::open(Some(path), name)?,
                Some(path),
                name,
                BATCH_BYTES,
                &mut |pieces| {
                    piece_tx
                        .send((seq, pieces))
                        .map_err(|_| anyhow::anyhow!("ingest stopped"))?;
                    seq += 1;
                    Ok(())
                },
                &mut |warning| progress.suspend(|| eprintln!("dateline: warning: {warning}")),
            )
            .map(|_| ())
        });
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let piece_rx = &piece_rx;
            scope.spawn(move || loop {
                let next = piece_rx
                    .lock()
                    .map_err(|_| ())
                    .and_then(|rx| rx.recv().map_err(|_| ()));
                let Ok((seq, pieces)) = next else { return };
                if done_tx
                    .send((seq, occurrences(&pieces, gazetteer)))
                    .is_err()
                {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut pending = BTreeMap::new();
        let mut next_seq = 0;
        let mut stored: anyhow::Result<()> = Ok(());
        for (seq, batch) in done_rx.iter() {
            pending.insert(seq, batch);
            while let Some(batch) = pending.remove(&next_seq) {
                next_seq += 1;
                for occurrence in batch {
                    if stored.is_ok() {
                        stored = doc.add_prepared(occurrence).context("storing a caption");
                    }
                }
            }
            if stored.is_err() {
                break;
            }
        }
        // Dropping the receiver stops the workers, then the reader.
        drop(done_rx);
        let read = reader
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the reader panicked")));
        stored.and(read)
    });
    // On an error the document transaction rolls back as `doc` drops: the
    // archive holds all of a document or none of it.
    result?;
    let summary = doc
        .commit()
        .with_context(|| format!("storing {}", input.name))?;
    progress.suspend(|| {
        eprintln!(
            "dateline: {}: {} caption(s), {} new record(s), {} merged as variants",
            input.name, summary.occurrences, summary.new_records, summary.new_variants_merged
        )
    });
    Ok(Some(summary))
}

/// The occurrences of a batch of pieces: the document offset and exact text
/// of each caption beside its record, prepared for the archive here (JSON,
/// dedup fingerprint and keys) so the single writer only stores them.
fn occurrences(pieces: &[Piece], gazetteer: &Gazetteer) -> Vec<PreparedOccurrence> {
    pieces
        .iter()
        .flat_map(|piece| {
            input::records_of(piece, gazetteer)
                .into_iter()
                .map(|found| {
                    NewOccurrence {
                        offset: piece.offset + found.span.start as u64,
                        exact_text: found.span.of(&piece.text).to_string(),
                        record: found.record,
                    }
                    .prepare()
                })
        })
        .collect()
}

/// The hashes and size of a file, read once in large blocks.
fn hash_file(path: &Path) -> io::Result<(archive::DocumentHashes, u64)> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = archive::ContentHasher::default();
    let mut buffer = vec![0u8; 1 << 20];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok((hasher.finish(), size));
        }
        hasher.update(&buffer[..n]);
        size += n as u64;
    }
}

/// Stdin kept in a file for the duration of one ingest.
struct Spooled {
    path: PathBuf,
}

impl Spooled {
    fn stdin(dir: &Path) -> anyhow::Result<Spooled> {
        let path = dir.join(format!(".stdin-{}.tmp", std::process::id()));
        let spooled = Spooled { path };
        let mut file = std::fs::File::create(&spooled.path)
            .with_context(|| format!("creating {}", spooled.path.display()))?;
        io::copy(&mut io::stdin().lock(), &mut file).context("reading <stdin>")?;
        Ok(spooled)
    }
}

impl Drop for Spooled {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
