//! # narrowphase
//!
//! Given two shapes and their poses, decides whether they collide and how to push
//! them apart. This crate will hold kasanari's pair dispatch table and one exact
//! kernel per pair of shape kinds (see `docs/ARCHITECTURE.md`).
//!
//! Status: the dispatch table and the typed kernels are not written yet. Until
//! then the generic separating-axis test of the `shape` crate
//! ([`shape::sat`]) decides any pair of shapes that implement
//! [`shape::SupportSeparatingAxes`]; it is re-exported here.

pub use shape::sat::{Penetration, sat_contact, sat_intersects};
