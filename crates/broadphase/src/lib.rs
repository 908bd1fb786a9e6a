//! # broadphase
//!
//! Groups nearby shapes so that only neighbours reach the narrow phase. This crate
//! will hold kasanari's uniform grid and the `World` (see `docs/ARCHITECTURE.md`).
//!
//! Status: not written yet. It depends on [`narrowphase`], which it will feed with
//! candidate pairs; the bounding boxes it will sort come from
//! [`shape::Shape::bounding_box`].

pub use narrowphase;
