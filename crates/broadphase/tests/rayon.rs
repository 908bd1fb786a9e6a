//! With the `rayon` feature, the World's frame tests again, the narrow phase
//! of `World::collisions` running on all cores: pairs, events and brute-force
//! agreement (`suite/world.rs`), manifolds and their matches
//! (`suite/manifolds.rs`), swept pairs (`suite/continuous.rs`), composite
//! shapes and the parts they name (`suite/composites.rs`). The results
//! must be identical to the serial run's, which these tests pin.
//!
//! Built only with the feature (`cargo test -p broadphase --features rayon
//! --test rayon`, as `.ci/run` does); empty without it. The other tests reach
//! the parallel code only through these paths, so they are not rebuilt.

#![cfg(feature = "rayon")]

#[path = "../../shape/tests/common/mod.rs"]
mod common;

#[path = "suite/composites.rs"]
mod composites;
#[path = "suite/continuous.rs"]
mod continuous;
#[path = "suite/manifolds.rs"]
mod manifolds;
#[path = "suite/world.rs"]
mod world;
