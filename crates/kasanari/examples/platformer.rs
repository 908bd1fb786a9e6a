//! A capsule character running and jumping across a level made of level
//! shapes: a `TileMap` (ground with two gaps and a step) followed by a
//! `Polyline` chain (a straight run of 40 segments, a slope, a flat top),
//! with `World::move_and_slide` at a fixed 60 Hz step.
//!
//! The character runs right the whole time and jumps over the gaps and onto
//! the step (the level, the controller and the checks are in
//! `platformer/game.rs`). The example checks that it never catches on a
//! seam (on flat ground its horizontal speed stays the running speed at
//! every step, tile seams and chain vertices included) and that it ends
//! past the end of the level; it prints a short summary, writes a picture
//! of the path (`--svg FILE`, default `target/platformer.svg`) and exits
//! with status 1 and the failures otherwise.
//!
//! Run: `cargo run --release --example platformer [-- --svg FILE] [--seconds S]`.

#[path = "platformer/game.rs"]
mod game;

use std::process::ExitCode;

use game::{Level, R};

fn main() -> ExitCode {
    let mut svg = "target/platformer.svg".to_string();
    let mut seconds: R = 15.0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        match (a.as_str(), value) {
            ("--svg", Some(v)) => svg = v,
            ("--seconds", Some(v)) => match v.parse::<R>() {
                Ok(s) if (0.0..=600.0).contains(&s) => seconds = s,
                _ => {
                    eprintln!("platformer: --seconds {v:?} is not a number in [0, 600]");
                    return ExitCode::from(2);
                }
            },
            (other, _) => {
                eprintln!(
                    "platformer: unknown or incomplete argument {other:?} \
                     (--svg FILE, --seconds S)"
                );
                return ExitCode::from(2);
            }
        }
    }
    match go(&svg, seconds) {
        Ok(failures) if failures.is_empty() => {
            println!("PASS");
            ExitCode::SUCCESS
        }
        Ok(failures) => {
            for f in failures {
                eprintln!("FAIL: {f}");
            }
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("platformer: {e}");
            ExitCode::FAILURE
        }
    }
}

fn go(svg: &str, seconds: R) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let level = Level::new()?;
    let t0 = std::time::Instant::now();
    let run = game::run(&level, seconds)?;
    let wall = t0.elapsed().as_secs_f64();
    let [x, y] = run.end();
    let (lo, hi) = run.flat_speeds();
    let last = run.steps.last().map_or(0.0, |s| s.t);
    println!(
        "level: a {}-column tile map and a {}-point chain; the end at x = {}",
        level.rows[0].len(),
        level.chain.len(),
        level.end
    );
    println!(
        "ran {} steps ({last:.2} s simulated, {:.1} µs per step), {} jumps, ended at ({x:.3}, {y:.3})",
        run.steps.len(),
        wall * 1e6 / run.steps.len().max(1) as f64,
        run.jumps().len()
    );
    println!(
        "flat ground: {} steps checked, {} of them at a seam; horizontal speed {lo:.9}..{hi:.9} m/s (running speed {})",
        run.steps.iter().filter(|s| s.on_flat).count(),
        run.seam_steps(),
        game::RUN_SPEED
    );
    if let Some(dir) = std::path::Path::new(svg).parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    std::fs::write(svg, game::svg(&level, &run))?;
    println!("wrote {svg}");
    Ok(game::check(&level, &run))
}
