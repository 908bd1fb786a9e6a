//! The integration tests of `kasanari`: the facade: scene, pairs, rays and casts files, the command, the pyramid, the platformer.
//!
//! One test binary per crate: each file below was its own binary once, and
//! linking and instantiating the generic kernels once per file took most of
//! CI's time. Run one file's tests with a filter: `cargo test -p kasanari --test suite -- FILE::`.

#[path = "../../../shape/tests/common/mod.rs"]
mod common;
mod support;

// The `pyramid` example's solver, for `pyramid.rs` (at the root, as in the
// example, whose code names `crate::sim`).
#[allow(dead_code)] // the tests use part of the example's code
#[path = "../../examples/pyramid/scenes.rs"]
mod scenes;
#[allow(dead_code)]
#[path = "../../examples/pyramid/sim.rs"]
mod sim;

mod big_polygon;
mod cli;
mod far_files;
mod fuzz_regressions;
mod hostile_scene;
mod level;
mod platformer;
mod pyramid;
mod rays;
mod scene;
mod view;
