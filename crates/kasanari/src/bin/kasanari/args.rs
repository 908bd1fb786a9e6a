//! Command-line parsing (by hand: a dozen flags do not need a dependency).

use std::path::PathBuf;

pub const USAGE: &str = "\
usage:
  kasanari [arena] [--n N] [--frames F] [--seed S] [--precision f32|f64]
                   [--svg PATH] [--cell-size S] [--dim 2|3]
  kasanari scene FILE.json [--json] [--svg PATH] [--precision f32|f64] [--cell-size S]
  kasanari pairs FILE.json [--json] [--svg PATH] [--precision f32|f64]
  kasanari rays FILE.json [--json] [--svg PATH] [--precision f32|f64]
  kasanari casts FILE.json [--json] [--svg PATH] [--precision f32|f64]
  kasanari --help | --version

arena   20,000 mixed shapes moving for 600 frames (defaults); prints statistics
        and frame times, draws the last frame to arena.svg (2D)
scene   prints every colliding pair of a scene file (docs/scene-format.md);
        --svg draws the shapes, the colliding ones filled, the contact normals
pairs   answers each pair of a pairs file: contact, distance, closest points;
        --svg draws each pair, its contact normal or its closest points
rays    casts each ray of a rays file into its shapes: the first hit (shape,
        time of impact, point, normal); --svg draws the rays and their hits
casts   sweeps each pair of moving shapes of a casts file: the first contact
        (time of impact, normal, a point on each shape); --svg draws each cast";

/// Float precision of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    F32,
    F64,
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
pub enum Command {
    Help,
    Version,
    Arena(ArenaOptions),
    Scene(FileOptions),
    Pairs(FileOptions),
    Rays(FileOptions),
    Casts(FileOptions),
}

fn value<'a>(flag: &str, it: &mut impl Iterator<Item = &'a String>) -> Result<&'a str, String> {
    it.next()
        .map(String::as_str)
        .ok_or_else(|| format!("{flag} needs a value"))
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: `{v}` is not a valid number"))
}

fn precision(v: &str) -> Result<Precision, String> {
    match v {
        "f32" => Ok(Precision::F32),
        "f64" => Ok(Precision::F64),
        _ => Err(format!("--precision: expected f32 or f64, got `{v}`")),
    }
}

fn cell_size(v: &str) -> Result<f64, String> {
    let s: f64 = number("--cell-size", v)?;
    if s.is_finite() && s > 0.0 {
        Ok(s)
    } else {
        Err(format!("--cell-size must be a positive number, got `{v}`"))
    }
}

pub fn parse(argv: &[String]) -> Result<Command, String> {
    let mut it = argv.iter().peekable();
    let sub = match it.peek().map(|s| s.as_str()) {
        Some("-h" | "--help" | "help") => return Ok(Command::Help),
        Some("-V" | "--version") => return Ok(Command::Version),
        Some("scene" | "pairs" | "rays" | "casts" | "arena") => it.next().map(String::as_str),
        Some(s) if !s.starts_with("--") => return Err(format!("unknown command `{s}`")),
        _ => None,
    };
    match sub {
        None | Some("arena") => {
            let mut o = ArenaOptions {
                n: 20_000,
                frames: 600,
                seed: 1,
                precision: Precision::F32,
                svg: Some(PathBuf::from("arena.svg")),
                cell_size: None,
                dim: 2,
            };
            while let Some(flag) = it.next() {
                match flag.as_str() {
                    "--n" => o.n = number("--n", value(flag, &mut it)?)?,
                    "--frames" => o.frames = number("--frames", value(flag, &mut it)?)?,
                    "--seed" => o.seed = number("--seed", value(flag, &mut it)?)?,
                    "--precision" => o.precision = precision(value(flag, &mut it)?)?,
                    "--svg" => o.svg = Some(PathBuf::from(value(flag, &mut it)?)),
                    "--cell-size" => o.cell_size = Some(cell_size(value(flag, &mut it)?)?),
                    "--dim" => {
                        o.dim = match value(flag, &mut it)? {
                            "2" => 2,
                            "3" => 3,
                            v => return Err(format!("--dim: expected 2 or 3, got `{v}`")),
                        }
                    }
                    f => return Err(format!("unknown flag `{f}` for arena")),
                }
            }
            if o.n > 10_000_000 {
                return Err(format!(
                    "--n {} is more than this demo allows (10,000,000)",
                    o.n
                ));
            }
            Ok(Command::Arena(o))
        }
        Some(name) => {
            let mut file = None;
            let mut o = FileOptions {
                file: PathBuf::new(),
                json: false,
                svg: None,
                precision: Precision::F64,
                cell_size: None,
            };
            while let Some(arg) = it.next() {
                match arg.as_str() {
                    "--json" => o.json = true,
                    "--svg" => o.svg = Some(PathBuf::from(value(arg, &mut it)?)),
                    "--precision" => o.precision = precision(value(arg, &mut it)?)?,
                    "--cell-size" if name == "scene" => {
                        o.cell_size = Some(cell_size(value(arg, &mut it)?)?)
                    }
                    f if f.starts_with("--") => {
                        return Err(format!("unknown flag `{f}` for {name}"));
                    }
                    f if file.is_none() => file = Some(PathBuf::from(f)),
                    f => return Err(format!("unexpected argument `{f}`")),
                }
            }
            o.file = file.ok_or_else(|| format!("{name} needs a FILE.json"))?;
            Ok(match name {
                "scene" => Command::Scene(o),
                "pairs" => Command::Pairs(o),
                "casts" => Command::Casts(o),
                _ => Command::Rays(o),
            })
        }
    }
}
