//! kasanari against parry on random pairs of the kinds both have
//! (`common/peer.rs`): intersection, distance, contact, ray casts and
//! linear shape casts must agree within parry's tolerances, or the reference
//! (the brute-force depth; in f32, kasanari's f64 answer) must side with
//! kasanari. Moderate runs here (debug build); the long runs are
//! `examples/peer_check.rs` (docs/testing.md, "Differential check against
//! parry").

#[path = "../common/peer.rs"]
mod peer;

use peer::{Mode, Report};

/// Cases per mode and precision (`KASANARI_PEER_CASES` overrides).
fn cases() -> usize {
    std::env::var("KASANARI_PEER_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

fn check(name: &str, report: &Report, cases: usize) {
    for line in report.lines.iter().filter(|l| l.contains("NOT SETTLED")) {
        eprintln!("{line}");
    }
    assert_eq!(
        report.unexplained(),
        0,
        "{name}: disagreements with parry that the reference does not settle for kasanari"
    );
    // Every query was asked often enough for the run to mean something.
    // (In `QUERIES` order: intersects, distance, contact, ray, cast,
    // closest points, cast witnesses.)
    let least: [usize; peer::QUERIES.len()] = [
        cases * 9 / 10,
        cases * 9 / 10,
        cases / 20,
        cases * 9 / 10,
        cases / 4,
        cases / 4,
        cases / 50,
    ];
    for (q, (&checked, &min)) in report.checked.iter().zip(&least).enumerate() {
        assert!(
            checked >= min,
            "{name}: {} compared {checked} times, expected at least {min}",
            peer::QUERIES[q]
        );
    }
}

fn run_modes(precision: &str, run: fn(usize, u64, Mode, usize) -> Report) {
    let n = cases();
    for (i, mode) in ["plain", "far", "ratio"].into_iter().enumerate() {
        let report = run(n, 0xC0FFEE + i as u64, Mode::named(mode).unwrap(), 0);
        check(&format!("{precision} {mode}"), &report, n);
    }
}

#[test]
fn agrees_with_parry_f64() {
    run_modes("f64", peer::f64_run::run);
}

#[test]
fn agrees_with_parry_f32() {
    run_modes("f32", peer::f32_run::run);
}
