//! The integration tests of `broadphase`: the grid and the World: pairs, events, queries, motion, manifolds, hostile input.
//!
//! One test binary per crate: each file below was its own binary once, and
//! linking and instantiating the generic kernels once per file took most of
//! CI's time. Run one file's tests with a filter: `cargo test -p broadphase --test suite -- FILE::`.

#[path = "../../../shape/tests/common/mod.rs"]
mod common;

mod composites;
mod continuous;
mod far;
mod grid;
mod hostile;
mod long_run;
mod manifolds;
mod motion;
mod queries;
mod slide;
mod store;
mod world;
mod world3d;
