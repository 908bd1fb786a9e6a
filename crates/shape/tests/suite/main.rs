//! The integration tests of `shape`: the shapes: construction and validation, properties, ray casts, the generic SAT, serde, user shapes.
//!
//! One test binary per crate: each file below was its own binary once, and
//! linking and instantiating the generic kernels once per file took most of
//! CI's time. Run one file's tests with a filter: `cargo test -p shape --test suite -- FILE::`.

#[path = "../common/mod.rs"]
mod common;

mod composite;
mod decompose;
mod hostile;
mod properties;
mod ray_cast;
mod sat;
mod serde;
mod user_shape;
