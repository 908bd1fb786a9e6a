//! A driver for counting instructions per composite-shape query with
//! callgrind: one case of `benches/composites.rs` (the same inputs, from
//! `benches/common/composites.rs`), one query, one library, one precision;
//! the batch of 1024 queries is run a number of times inside `timed_loop`
//! (the only function measured).
//!
//! ```text
//! cargo build --release -p kasanari-benches --example composite_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/composite_calls ball_polyline100 contact kasanari f32
//! ```
//!
//! Cases and their queries: `compound_compound` (bool, contact),
//! `ball_polyline100` (bool, contact, distance), `box_polyline1000`
//! (contact, manifold), `polyline1000` (ray), `ball_tilemap64` (bool,
//! contact), `box_tilemap64` (bool, contact, manifold). Libraries:
//! `kasanari`, `parry` (parry2d, or parry2d-f64 for f64; manifolds kept from
//! pass to pass, one warm-up pass before the loop). The program prints the
//! number of queries; callgrind's total divided by it is the instructions
//! per query.

#[path = "../common/composites.rs"]
mod composites;

use composites::{BATCH, CASES, Ours, Parry32, Parry64, Query, Theirs};
use kasanari::prelude::*;

const ROUNDS: usize = 4;

#[inline(never)]
fn timed_loop(mut pass: impl FnMut()) {
    for _ in 0..ROUNDS {
        pass();
    }
}

fn ours<T: Real>(scene: &composites::Scene, q: Query) {
    let ours = Ours::<T>::new(scene);
    ours.pass(q); // warm caches as parry's run does
    timed_loop(|| ours.pass(q));
}

fn theirs<P: Theirs>(scene: &composites::Scene, q: Query) {
    let mut theirs = P::new(scene);
    theirs.pass(q); // builds parry's persistent manifold state
    timed_loop(|| theirs.pass(q));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &'static str| args.get(i).map_or(default, String::as_str);
    let (name, query, lib, prec) = (
        arg(1, "ball_polyline100"),
        arg(2, "contact"),
        arg(3, "kasanari"),
        arg(4, "f32"),
    );
    let Some((_, queries)) = CASES.iter().find(|(n, _)| *n == name) else {
        eprintln!("unknown case {name:?}; cases: {:?}", CASES.map(|(n, _)| n));
        std::process::exit(2);
    };
    let Some(q) = Query::parse(query).filter(|q| queries.contains(q)) else {
        eprintln!("{name} has no query {query:?}; its queries: {queries:?}");
        std::process::exit(2);
    };
    let scene = composites::scene(name).expect("a known case");
    match (lib, prec) {
        ("kasanari", "f32") => ours::<f32>(&scene, q),
        ("kasanari", "f64") => ours::<f64>(&scene, q),
        ("parry", "f32") => theirs::<Parry32>(&scene, q),
        ("parry", "f64") => theirs::<Parry64>(&scene, q),
        _ => {
            eprintln!("library kasanari or parry, precision f32 or f64");
            std::process::exit(2);
        }
    }
    println!("{} queries", ROUNDS * BATCH);
}
