//! The `kasanari` command.
//!
//! - `kasanari` (or `kasanari arena`): 20,000 mixed shapes moving for 600 frames
//!   in a world; statistics, frame times, and `arena.svg`.
//! - `kasanari scene FILE.json`: every colliding pair of a scene file.
//! - `kasanari pairs FILE.json`: batch pair queries.
//! - `kasanari rays FILE.json`: the first hit of each ray over a file's shapes.
//! - `kasanari casts FILE.json`: the first contact of each pair of moving shapes.
//! - `kasanari view [FILE.json] [--arena]`: an interactive testbed in the
//!   browser, served on 127.0.0.1.
//!
//! Bad input (flags, files, shapes) gives a message on stderr and exit status 2,
//! never a panic.

/// Prints a line to standard output; a closed pipe (`kasanari ... | head`)
/// ends the program quietly instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::emit(format_args!($($arg)*))?
    };
}

mod arena;
mod args;
mod casts;
mod files;
mod rays;
mod svg;
mod view;

use std::process::ExitCode;

/// Writes one line to standard output.
///
/// # Errors
/// A message for any write error but a closed pipe, which exits at once with
/// success (the reader has seen all it wanted).
pub(crate) fn emit(args: std::fmt::Arguments<'_>) -> Result<(), String> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

fn main() -> ExitCode {
    use clap::Parser as _;
    // Usage errors exit with status 2 and a message (with a suggestion for
    // a misspelt command or flag); --help and --version with 0.
    let command = args::Cli::parse().into_command();
    let result = match command {
        args::Command::View(o) => view::run(&o),
        args::Command::Arena(o) => arena::run(&o),
        args::Command::Scene(o) => files::scene(&o),
        args::Command::Pairs(o) => files::pairs(&o),
        args::Command::Rays(o) => rays::run(&o),
        args::Command::Casts(o) => casts::run(&o),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("kasanari: {msg}");
            ExitCode::from(2)
        }
    }
}
