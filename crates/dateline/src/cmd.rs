//! Subcommands: each turns its arguments into library calls and formats
//! what comes back.
//!
//! Exit codes: 0 success; 1 an input was refused or unreadable (the others
//! were still processed) or the command failed; 2 bad usage (from clap).

mod explain;
mod export;
mod ingest;
mod maintain;
mod parse;
mod reparse;
mod search;
mod serve;
mod show;
mod tag;

use std::process::ExitCode;

/// Exit code when the command failed or an input was refused.
pub const EXIT_FAILURE: ExitCode = ExitCode::FAILURE;

/// The subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Split text into captions and print one JSON record per caption.
    Parse(parse::ParseArgs),
    /// Write the fields a JPEG's caption gives into its IPTC-IIM and XMP.
    Tag(tag::TagArgs),
    /// Add documents (files, folders, `-` for stdin) to the archive, once each.
    Ingest(ingest::IngestArgs),
    /// Search the archive: full text, filters, facets.
    Search(search::SearchArgs),
    /// Print an archived record with its variants and occurrences.
    Show(show::ShowArgs),
    /// Write the selected records as JSON Lines, CSV or GeoJSON.
    Export(export::ExportArgs),
    /// Verify the archive: store integrity, index agreeing with the store.
    Check(maintain::CheckArgs),
    /// Rebuild the archive's index from its store.
    Reindex(maintain::ReindexArgs),
    /// Parse every stored caption again with this engine; corrections stay.
    Reparse(reparse::ReparseArgs),
    /// Serve the archive as a web page and JSON API on a local port.
    Serve(serve::ServeArgs),
}

/// Runs one subcommand.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Parse(args) => parse::run(args),
        Command::Tag(args) => tag::run(args),
        Command::Ingest(args) => ingest::run(args),
        Command::Search(args) => search::run(args),
        Command::Show(args) => show::run(args),
        Command::Export(args) => export::run(args),
        Command::Check(args) => maintain::check(args),
        Command::Reindex(args) => maintain::reindex(args),
        Command::Reparse(args) => reparse::run(args),
        Command::Serve(args) => serve::run(args),
    }
}

/// Whether the error chain ends in a closed output pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<std::io::Error>())
        .any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
