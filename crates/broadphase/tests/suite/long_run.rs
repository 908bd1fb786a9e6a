//! Long random runs: a World driven through 1,000,000 random operations (f32
//! and f64), checked against a model after every one. Ignored by default:
//!
//! ```text
//! cargo test --release -p broadphase --test suite -- --ignored long_run::
//! KASANARI_LONG_OPS=5000000 KASANARI_LONG_SEED=7 cargo test ... -- --ignored
//! ```
//!
//! A short version of the same run (3,000 operations) is part of the normal
//! suite, so the driver itself cannot rot.
//!
//! After every operation: `validate()` holds (grid and slots agree, no stale
//! box), the length matches the model, and a failed operation left the world
//! as it was. Every 64 operations: every live object is where the model says,
//! and the handle list is the model's. On every query: the colliding pairs are
//! the brute-force narrow phase over all pairs of the model, and the events
//! are the difference with the previous query. Operations mix valid inputs
//! with invalid ones (stale and foreign handles, NaN and infinite poses, bad
//! cell sizes), moves near and far, large shapes that go to the oversize list,
//! and cell size changes.

use crate::common;

use broadphase::{Filter, Handle, World, WorldError};
use common::*;
use nalgebra::{Isometry2, Vector2};
use narrowphase::DispatchTable;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use shape::prelude::*;

/// SplitMix64: a small, seedable generator for the operation stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Shapes from the shared generator, drawn with a seeded runner.
struct Shapes(TestRunner);

impl Shapes {
    fn new(seed: u64) -> Self {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
        Self(TestRunner::new_with_rng(Config::default(), rng))
    }
    fn next(&mut self) -> Spec {
        spec().new_tree(&mut self.0).unwrap().current()
    }
}

/// Where objects go: mostly a small region (many pairs), sometimes far away
/// or huge.
fn pose(rng: &mut Rng) -> [f64; 3] {
    let angle = rng.range(-3.2, 3.2);
    match rng.below(16) {
        0 => [rng.range(-1e4, 1e4), rng.range(-1e4, 1e4), angle],
        1 => [rng.range(-1e5, -9.9e4), rng.range(9.9e4, 1e5), angle],
        _ => [rng.range(-25.0, 25.0), rng.range(-25.0, 25.0), angle],
    }
}

type Live = Vec<(Handle, Spec, [f64; 3])>;

fn brute_force<T: Real>(live: &Live) -> Vec<(Handle, Handle)> {
    let table = DispatchTable::<T>::shared();
    let built: Vec<_> = live
        .iter()
        .map(|(h, s, p)| (*h, build::<T>(s), iso::<T>(*p)))
        .collect();
    let mut v = Vec::new();
    for i in 0..built.len() {
        for j in i + 1..built.len() {
            let (ha, a, pa) = &built[i];
            let (hb, b, pb) = &built[j];
            if table.intersects(a.as_ref(), pa, b.as_ref(), pb).unwrap() {
                v.push(if ha < hb { (*ha, *hb) } else { (*hb, *ha) });
            }
        }
    }
    v.sort();
    v
}

/// Checks that everything in the model is in the world, as the model says.
fn check_objects<T: Real>(world: &World<T>, live: &Live) {
    for (h, _, p) in live {
        assert_eq!(*world.get(*h).unwrap().pose(), iso::<T>(*p));
    }
    let mut handles: Vec<Handle> = live.iter().map(|(h, _, _)| *h).collect();
    handles.sort_by_key(|h| h.index());
    assert_eq!(world.handles().collect::<Vec<_>>(), handles);
}

/// Drives a world through `ops` random operations from `seed`, checking it
/// against the model after each. Returns how many operations failed as they
/// should (invalid input) and how many queries were checked.
fn run<T: Real>(ops: u64, seed: u64) -> (u64, u64) {
    let mut rng = Rng(seed);
    let mut shapes = Shapes::new(seed);
    let mut world = World::<T>::new(T::lit(2.0)).unwrap();
    let other = World::<T>::new(T::one()).unwrap();
    let foreign = {
        let mut w = World::<T>::new(T::one()).unwrap();
        w.insert(
            Circle::new(T::one()).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap()
    };
    let mut live: Live = Vec::new();
    let mut dead: Vec<Handle> = Vec::new();
    let mut previous: Vec<(Handle, Handle)> = Vec::new();
    let (mut rejected, mut queries) = (0u64, 0u64);
    let bad_values = [T::nan(), T::infinity(), T::neg_infinity()];
    for step in 0..ops {
        let len_before = world.len();
        let mut failed = false;
        // Keep the population between a few and ~80 objects.
        let insert_weight = if live.len() < 8 {
            12
        } else if live.len() > 80 {
            0
        } else {
            4
        };
        let pick = rng.below(insert_weight + 20);
        match pick {
            p if p < insert_weight => {
                let s = shapes.next();
                let p = pose(&mut rng);
                let h = world
                    .insert_boxed(build::<T>(&s), iso::<T>(p), Filter::ALL)
                    .unwrap();
                assert!(!dead.contains(&h), "a handle came back to life");
                live.push((h, s, p));
            }
            p if p < insert_weight + 8 && !live.is_empty() => {
                let k = rng.below(live.len());
                let p = if rng.below(4) == 0 {
                    pose(&mut rng)
                } else {
                    // A small step: the common frame-to-frame move.
                    let q = live[k].2;
                    [
                        q[0] + rng.range(-0.5, 0.5),
                        q[1] + rng.range(-0.5, 0.5),
                        q[2] + rng.range(-0.2, 0.2),
                    ]
                };
                world.set_pose(live[k].0, iso::<T>(p)).unwrap();
                live[k].2 = p;
            }
            p if p < insert_weight + 10 && !live.is_empty() => {
                let k = rng.below(live.len());
                let s = shapes.next();
                world
                    .replace_shape_boxed(live[k].0, build::<T>(&s))
                    .unwrap();
                live[k].1 = s;
            }
            p if p < insert_weight + 13 && !live.is_empty() => {
                let k = rng.below(live.len());
                let (h, _, _) = live.swap_remove(k);
                world.remove(h).unwrap();
                dead.push(h);
                if dead.len() > 256 {
                    dead.swap_remove(rng.below(256));
                }
            }
            p if p < insert_weight + 14 && !dead.is_empty() => {
                failed = true;
                let h = dead[rng.below(dead.len())];
                assert_eq!(world.remove(h).unwrap_err(), WorldError::StaleHandle(h));
                assert!(world.set_pose(h, Isometry2::identity()).is_err());
                assert!(world.get(h).is_err());
                assert!(matches!(
                    world.remove(foreign),
                    Err(WorldError::ForeignHandle(_))
                ));
            }
            p if p < insert_weight + 15 => {
                failed = true;
                let v = bad_values[rng.below(3)];
                let bad = if rng.below(2) == 0 {
                    Isometry2::new(Vector2::new(v, T::zero()), T::zero())
                } else {
                    Isometry2::new(Vector2::new(T::zero(), T::zero()), v)
                };
                if !live.is_empty() {
                    let h = live[rng.below(live.len())].0;
                    assert_eq!(
                        world.set_pose(h, bad).unwrap_err(),
                        WorldError::NonFinitePose
                    );
                }
                assert_eq!(
                    world
                        .insert(Circle::new(T::one()).unwrap(), bad, Filter::ALL)
                        .unwrap_err(),
                    WorldError::NonFinitePose
                );
            }
            p if p < insert_weight + 16 => {
                // A new cell size, or a bad one that must be refused.
                if rng.below(2) == 0 {
                    world.set_cell_size(T::lit(rng.range(0.25, 40.0))).unwrap();
                } else {
                    failed = true;
                    let bad = [T::zero(), -T::one(), T::nan(), T::infinity()][rng.below(4)];
                    assert!(world.set_cell_size(bad).is_err());
                }
            }
            p if p < insert_weight + 17 && !live.is_empty() => {
                // A huge shape: into the oversize list and out again later.
                let k = rng.below(live.len());
                let s = Spec::Circle(rng.range(100.0, 400.0));
                world
                    .replace_shape_boxed(live[k].0, build::<T>(&s))
                    .unwrap();
                live[k].1 = s;
            }
            _ => {
                queries += 1;
                let want = brute_force::<T>(&live);
                let got = world.collisions();
                let pairs: Vec<_> = got.pairs.iter().map(|p| (p.a, p.b)).collect();
                assert_eq!(pairs, want, "step {step}: colliding pairs");
                let started: Vec<_> = want
                    .iter()
                    .filter(|p| !previous.contains(p))
                    .copied()
                    .collect();
                let stopped: Vec<_> = previous
                    .iter()
                    .filter(|p| !want.contains(p))
                    .copied()
                    .collect();
                assert_eq!(got.started, started, "step {step}: started");
                assert_eq!(got.stopped, stopped, "step {step}: stopped");
                assert!(got.errors.is_empty());
                previous = want;
            }
        }
        if failed {
            rejected += 1;
            assert_eq!(
                world.len(),
                len_before,
                "step {step}: a refused op changed the world"
            );
        }
        if let Err(e) = world.validate() {
            panic!("step {step}: {e}");
        }
        assert_eq!(world.len(), live.len(), "step {step}: length");
        if step % 64 == 0 {
            check_objects(&world, &live);
            if let Some((h, _, _)) = live.first() {
                assert!(matches!(other.get(*h), Err(WorldError::ForeignHandle(_))));
            }
        }
    }
    check_objects(&world, &live);
    (rejected, queries)
}

fn long_run<T: Real>() {
    let ops = env_u64("KASANARI_LONG_OPS", 1_000_000);
    let seed = env_u64("KASANARI_LONG_SEED", 0x6B61_7361_6E61_7269);
    let (rejected, queries) = run::<T>(ops, seed);
    eprintln!(
        "{ops} operations (seed {seed:#x}): {rejected} refused as they should, {queries} queries checked"
    );
    assert!(queries > ops / 40 && rejected > ops / 60);
}

#[test]
#[ignore = "long"]
fn million_operations_f32() {
    long_run::<f32>();
}

#[test]
#[ignore = "long"]
fn million_operations_f64() {
    long_run::<f64>();
}

/// The same driver, short, in every run of the suite (3,000 operations:
/// unoptimised, as the test profile builds this crate, 10,000 took about 55 s
/// per precision, most of the suite's time in CI).
fn short_run<T: Real>() {
    let ops = 3_000;
    let (rejected, queries) = run::<T>(ops, 1);
    assert!(
        queries > ops / 40 && rejected > ops / 70,
        "{queries} queries, {rejected} refused"
    );
}
shape::for_each_precision!(three_thousand_operations, short_run);
