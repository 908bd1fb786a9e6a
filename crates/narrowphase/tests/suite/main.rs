//! The integration tests of `narrowphase`: the narrow phase: every pair and query through the table, kernels against slow references, 3D, user kinds.
//!
//! One test binary per crate: each file below was its own binary once, and
//! linking and instantiating the generic kernels once per file took most of
//! CI's time. Run one file's tests with a filter: `cargo test -p narrowphase --test suite -- FILE::`.

#[path = "../../../shape/tests/common/mod.rs"]
mod common;
mod support;

mod cast_kernels;
mod casts;
mod circle_world;
mod composite;
mod degenerate;
mod distance;
mod distance3d;
mod ellipse_touching;
mod far;
mod level_shapes;
mod manifolds;
mod manifolds3d;
mod pairs;
mod pairs3d;
mod rays;
mod regressions;
mod rounded_polygon;
mod seams;
mod seeds;
mod table_paths;
mod toi;
mod user_kinds;
mod vertices;
