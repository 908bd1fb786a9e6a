//! The differential check against parry (`common/peer.rs`), long runs:
//! prints the first disagreements and a summary; exits with 1 when a
//! disagreement is not settled by the reference in kasanari's favour.
//!
//! ```text
//! cargo run --release -p kasanari-benches --example peer_check -- [cases] [seed] [plain|far|ratio] [f32|f64]
//! ```

#[path = "../common/peer.rs"]
mod peer;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cases: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mode_name = args.get(3).map_or("plain", String::as_str);
    let Some(mode) = peer::Mode::named(mode_name) else {
        eprintln!("unknown mode {mode_name} (plain, far, ratio)");
        std::process::exit(2);
    };
    let report = match args.get(4).map_or("f64", String::as_str) {
        "f32" => peer::f32_run::run(cases, seed, mode, 60),
        _ => peer::f64_run::run(cases, seed, mode, 60),
    };
    for line in &report.lines {
        println!("{line}");
    }
    for (q, name) in peer::QUERIES.iter().enumerate() {
        println!(
            "{name:>10}: {} checked, {} disagreements",
            report.checked[q], report.flagged[q]
        );
    }
    println!(
        "{} of the disagreements settled: kasanari's answer is the reference's",
        report.settled
    );
    if report.unexplained() > 0 {
        std::process::exit(1);
    }
}
