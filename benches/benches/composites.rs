//! Composite shapes (compounds, chains, tile maps), per query, over batches
//! of 1024 prebuilt queries, kasanari beside parry2d (f32) and parry2d-f64
//! (f64) in the same run on the same inputs:
//!
//! - groups `composite_<query>_<prec>/<case>`, functions `kasanari` and
//!   `parry`; queries `bool` (kasanari's `DispatchTable::intersects`,
//!   parry's `intersection_test`), `contact` (`DispatchTable::contact`,
//!   parry's `contact` with prediction 0), `distance` (the free
//!   `narrowphase::distance`, parry's `distance`), `manifold`
//!   (`DispatchTable::contact_manifold`, prediction 0, beside parry's
//!   persistent `contact_manifolds`, each pair keeping its manifolds and
//!   workspace from call to call) and `ray` (the free `narrowphase::cast_ray`,
//!   parry's `cast_ray_and_get_normal`, solid, `max_toi = +∞`);
//! - cases (inputs in `benches/common/composites.rs`, shared with the
//!   callgrind driver `examples/composite_calls.rs`): `compound_compound`
//!   (4 to 8 convex parts each, random poses, about half colliding),
//!   `ball_polyline100`, `box_polyline1000` (a box resting on the chain),
//!   `polyline1000` (rays from above), `ball_tilemap64`, `box_tilemap64`
//!   (near the ground of a 64 × 64 map with gaps and platforms; parry's
//!   side is a `Compound` of one `Cuboid` per solid tile).
//!
//! The set-up prints the share of colliding pairs and each query's
//! agreement with parry (booleans, contact depths, distances, ray times)
//! and asserts the booleans and distances agree for at least 99% of the
//! queries.
//!
//! `benches/src/bin/report.rs` reads these names: keep them as they are.
//!
//! Run: `cargo bench -p kasanari-benches --bench composites`.

#[path = "../common/composites.rs"]
mod composites;

use std::time::Duration;

use composites::{CASES, Ours, Parry32, Parry64, Query, Theirs};
use criterion::{Criterion, criterion_group, criterion_main};
use kasanari::prelude::*;

/// The share of `true` in `v`.
fn share(v: &[bool]) -> f64 {
    v.iter().filter(|&&x| x).count() as f64 / v.len() as f64
}

/// The share of positions where `f(a, b)`.
fn agree<A, B>(a: &[A], b: &[B], f: impl Fn(&A, &B) -> bool) -> f64 {
    a.iter().zip(b).filter(|(x, y)| f(x, y)).count() as f64 / a.len() as f64
}

/// Whether two numbers agree to `rel` (relative, with an absolute floor).
fn close(x: f64, y: f64, rel: f64) -> bool {
    (x - y).abs() <= rel * (1.0 + x.abs().max(y.abs()))
}

/// The set-up checks of a case (never timed): printed, and the booleans and
/// distances asserted.
fn check<T: Real, P: Theirs>(
    name: &str,
    prec: &str,
    queries: &[Query],
    ours: &Ours<T>,
    theirs: &mut P,
) {
    let rel = if T::epsilon().as_f64() > 1e-10 {
        1e-3
    } else {
        1e-9
    };
    let mut line = format!("composite {prec} {name:18}");
    for q in queries {
        match q {
            Query::Bool => {
                let (a, b) = (ours.intersects(), theirs.intersects());
                let same = agree(&a, &b, |x, y| x == y);
                line += &format!(
                    " colliding {:5.1}%, bool agree {:6.2}%;",
                    100.0 * share(&a),
                    100.0 * same
                );
                assert!(
                    same >= 0.99,
                    "{name} ({prec}): bool agrees on {:.2}%",
                    100.0 * same
                );
            }
            Query::Contact => {
                let (a, b) = (ours.depths(), theirs.depths());
                let found = agree(&a, &b, |x, y| x.is_some() == y.is_some());
                let depth = agree(&a, &b, |x, y| match (x, y) {
                    (Some(x), Some(y)) => close(*x, *y, rel),
                    _ => x.is_none() && y.is_none(),
                });
                line += &format!(
                    " contact found agree {:6.2}%, same depth {:6.2}%;",
                    100.0 * found,
                    100.0 * depth
                );
                assert!(
                    found >= 0.99,
                    "{name} ({prec}): contacts agree on {:.2}%",
                    100.0 * found
                );
            }
            Query::Distance => {
                let (a, b) = (ours.distances(), theirs.distances());
                let same = agree(&a, &b, |x, y| close(*x, *y, rel));
                line += &format!(" distance agree {:6.2}%;", 100.0 * same);
                assert!(
                    same >= 0.99,
                    "{name} ({prec}): distances agree on {:.2}%",
                    100.0 * same
                );
            }
            Query::Manifold => {
                let (a, b) = (ours.manifold_points(), theirs.manifold_points());
                let two =
                    |v: &[usize]| v.iter().filter(|&&n| n >= 2).count() as f64 / v.len() as f64;
                let some =
                    |v: &[usize]| v.iter().filter(|&&n| n >= 1).count() as f64 / v.len() as f64;
                line += &format!(
                    " manifolds: kasanari some {:5.1}% 2 points {:5.1}%, parry some {:5.1}% 2+ points {:5.1}%;",
                    100.0 * some(&a),
                    100.0 * two(&a),
                    100.0 * some(&b),
                    100.0 * two(&b)
                );
            }
            Query::Ray => {
                let (a, b) = (ours.tois(), theirs.tois());
                let hits = a.iter().filter(|h| h.is_some()).count();
                let same = agree(&a, &b, |x, y| match (x, y) {
                    (Some(x), Some(y)) => close(*x, *y, rel),
                    _ => x.is_none() && y.is_none(),
                });
                line += &format!(" rays hit {hits}/{}, agree {:6.2}%;", a.len(), 100.0 * same);
                assert!(
                    same >= 0.99,
                    "{name} ({prec}): rays agree on {:.2}%",
                    100.0 * same
                );
            }
        }
    }
    eprintln!("{line}");
}

fn composite<T: Real, P: Theirs>(c: &mut Criterion, prec: &str) {
    for (name, queries) in CASES {
        let scene = composites::scene(name).expect("a known case");
        let ours = Ours::<T>::new(&scene);
        let mut theirs = P::new(&scene);
        check(name, prec, queries, &ours, &mut theirs);
        for &q in queries {
            let mut group = c.benchmark_group(format!("composite_{}_{prec}/{name}", q.name()));
            group.bench_function("kasanari", |b| b.iter(|| ours.pass(q)));
            group.bench_function("parry", |b| b.iter(|| theirs.pass(q)));
            group.finish();
        }
    }
}

fn benches(c: &mut Criterion) {
    composite::<f32, Parry32>(c, "f32");
    composite::<f64, Parry64>(c, "f64");
}

criterion_group! {
    name = composite_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700))
        .sample_size(15);
    targets = benches
}
criterion_main!(composite_benches);
