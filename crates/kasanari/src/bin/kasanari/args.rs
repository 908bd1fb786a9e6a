//! Command-line parsing with `clap` (derive): generated help, `--version`,
//! did-you-mean suggestions for misspelt commands and flags. A usage error
//! exits with status 2 (clap's own code for usage errors, the same as every
//! other bad input of the command); `--help` and `--version` exit with 0.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Float precision of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Precision {
    F32,
    F64,
}

/// Exact 2D/3D collision detection for games: the arena, scene, pairs, rays
/// and casts files, and an interactive testbed in the browser.
///
/// With no command: the arena (20,000 mixed shapes moving for 600 frames).
/// Bad input (flags, files, shapes) gives a message on stderr and exit
/// status 2, never a panic.
#[derive(Debug, Parser)]
#[command(
    name = "kasanari",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Exit status: 0 on success, 2 on bad input (flags, files, shapes). \
                  The file formats: docs/scene-format.md."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    arena: ArenaArgs,
}

#[derive(Debug, Subcommand)]
enum Sub {
    /// Mixed shapes moving for some frames (the default command): prints
    /// statistics and frame times, draws the last frame to arena.svg (2D).
    Arena(ArenaArgs),
    /// Every colliding pair of a scene file; --svg draws the shapes, the
    /// colliding ones filled, the contact normals.
    Scene(SceneArgs),
    /// Each pair of a pairs file: contact, distance, closest points,
    /// manifold; --svg draws each pair.
    Pairs(FileArgs),
    /// The first hit of each ray of a rays file over its shapes (shape, time
    /// of impact, point, normal); --svg draws the rays and their hits.
    Rays(FileArgs),
    /// The first contact of each pair of moving shapes of a casts file (time
    /// of impact, normal, a point on each shape); --svg draws each cast.
    Casts(FileArgs),
    /// An interactive testbed in the browser: a local server (127.0.0.1
    /// only) for one page that draws a scene or the arena and edits it.
    View(ViewArgs),
}

#[derive(Debug, Clone, Args)]
struct ArenaArgs {
    /// Number of shapes (at most 10,000,000).
    #[arg(long, default_value_t = 20_000, value_parser = count)]
    n: usize,
    /// Number of frames (at 60 per second).
    #[arg(long, default_value_t = 600)]
    frames: usize,
    /// Seed of the random scene.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Float precision.
    #[arg(long, value_enum, default_value_t = Precision::F32)]
    precision: Precision,
    /// Where to draw the last frame (2D).
    #[arg(long, value_name = "PATH", default_value = "arena.svg")]
    svg: PathBuf,
    /// The grid's cell size (chosen from the shapes' sizes when omitted).
    #[arg(long, value_name = "S", value_parser = cell_size)]
    cell_size: Option<f64>,
    /// 2D or 3D.
    #[arg(long, default_value = "2", value_parser = ["2", "3"])]
    dim: String,
}

#[derive(Debug, Clone, Args)]
struct FileArgs {
    /// The file (docs/scene-format.md).
    #[arg(value_name = "FILE.json")]
    file: PathBuf,
    /// Print the answers as JSON.
    #[arg(long)]
    json: bool,
    /// Draw the answers to an SVG picture.
    #[arg(long, value_name = "PATH")]
    svg: Option<PathBuf>,
    /// Float precision.
    #[arg(long, value_enum, default_value_t = Precision::F64)]
    precision: Precision,
}

#[derive(Debug, Clone, Args)]
struct SceneArgs {
    #[command(flatten)]
    file: FileArgs,
    /// The grid's cell size (chosen from the shapes' sizes when omitted).
    #[arg(long, value_name = "S", value_parser = cell_size)]
    cell_size: Option<f64>,
}

#[derive(Debug, Clone, Args)]
struct ViewArgs {
    /// A scene file to open (an empty scene when omitted, or the arena).
    #[arg(value_name = "FILE.json", conflicts_with = "arena")]
    file: Option<PathBuf>,
    /// Open the arena's moving shapes (play, pause, step) instead of a file.
    #[arg(long)]
    arena: bool,
    /// Number of shapes of the arena (at most 20,000).
    #[arg(long, default_value_t = 300, value_parser = view_count)]
    n: usize,
    /// Seed of the arena.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Float precision.
    #[arg(long, value_enum, default_value_t = Precision::F64)]
    precision: Precision,
    /// The port to listen on (127.0.0.1 only); 0 picks a free port.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Stop after answering this many requests (for tests and scripts).
    #[arg(long, value_name = "N", hide = true)]
    stop_after: Option<u64>,
}

fn count(v: &str) -> Result<usize, String> {
    let n: usize = v
        .parse()
        .map_err(|_| format!("`{v}` is not a valid number"))?;
    if n > 10_000_000 {
        return Err(format!("{n} is more than this demo allows (10,000,000)"));
    }
    Ok(n)
}

fn view_count(v: &str) -> Result<usize, String> {
    let n: usize = v
        .parse()
        .map_err(|_| format!("`{v}` is not a valid number"))?;
    if n > 20_000 {
        return Err(format!("{n} is more than the testbed draws (20,000)"));
    }
    Ok(n)
}

fn cell_size(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("must be a positive number, got `{v}`")),
    }
}

#[derive(Debug, Clone)]
pub struct ArenaOptions {
    pub n: usize,
    pub frames: usize,
    pub seed: u64,
    pub precision: Precision,
    pub svg: Option<PathBuf>,
    pub cell_size: Option<f64>,
    pub dim: u8,
}

#[derive(Debug, Clone)]
pub struct FileOptions {
    pub file: PathBuf,
    pub json: bool,
    pub svg: Option<PathBuf>,
    pub precision: Precision,
    pub cell_size: Option<f64>,
}

#[derive(Debug, Clone)]
pub struct ViewOptions {
    pub file: Option<PathBuf>,
    pub arena: bool,
    pub n: usize,
    pub seed: u64,
    pub precision: Precision,
    pub port: u16,
    pub stop_after: Option<u64>,
}

#[derive(Debug, Clone)]
pub enum Command {
    Arena(ArenaOptions),
    Scene(FileOptions),
    Pairs(FileOptions),
    Rays(FileOptions),
    Casts(FileOptions),
    View(ViewOptions),
}

impl From<ArenaArgs> for ArenaOptions {
    fn from(a: ArenaArgs) -> Self {
        Self {
            n: a.n,
            frames: a.frames,
            seed: a.seed,
            precision: a.precision,
            svg: Some(a.svg),
            cell_size: a.cell_size,
            dim: if a.dim == "3" { 3 } else { 2 },
        }
    }
}

impl From<FileArgs> for FileOptions {
    fn from(a: FileArgs) -> Self {
        Self {
            file: a.file,
            json: a.json,
            svg: a.svg,
            precision: a.precision,
            cell_size: None,
        }
    }
}

impl Cli {
    /// The command to run.
    pub fn into_command(self) -> Command {
        match self.command {
            None => Command::Arena(self.arena.into()),
            Some(Sub::Arena(a)) => Command::Arena(a.into()),
            Some(Sub::Scene(s)) => Command::Scene(FileOptions {
                cell_size: s.cell_size,
                ..s.file.into()
            }),
            Some(Sub::Pairs(f)) => Command::Pairs(f.into()),
            Some(Sub::Rays(f)) => Command::Rays(f.into()),
            Some(Sub::Casts(f)) => Command::Casts(f.into()),
            Some(Sub::View(v)) => Command::View(ViewOptions {
                file: v.file,
                arena: v.arena,
                n: v.n,
                seed: v.seed,
                precision: v.precision,
                port: v.port,
                stop_after: v.stop_after,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn the_command_is_well_formed() {
        Cli::command().debug_assert();
    }
}
