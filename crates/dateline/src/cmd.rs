//! Subcommands: each turns its arguments into library calls and formats
//! what comes back.
//!
//! Exit codes: 0 success; 1 an input was refused or unreadable (the others
//! were still processed) or the command failed; 2 bad usage (from clap).

mod parse;
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
}

/// Runs one subcommand.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Parse(args) => parse::run(args),
        Command::Tag(args) => tag::run(args),
    }
}

/// Whether the error chain ends in a closed output pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<std::io::Error>())
        .any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
