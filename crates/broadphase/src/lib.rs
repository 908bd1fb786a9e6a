//! # broadphase
//!
//! Groups nearby shapes so that only neighbours reach the narrow phase: a sparse
//! uniform [`Grid`] over unbounded space (2D and 3D) that reports every pair of
//! overlapping bounding boxes exactly once, and the [`World`] a game uses every
//! frame: shapes registered with poses and filters, moved, removed, and queried
//! for colliding pairs with contacts and start/stop events.

mod error;
pub mod grid;
mod hash;
#[cfg(feature = "rayon")]
mod sorted;
pub mod space;
pub mod stored;
pub mod world;

pub use error::GridError;
pub use grid::{Grid, Grid2, Grid3, GridStats, MAX_CELLS_PER_OBJECT, WalkStats};
pub use narrowphase;
pub use space::{ContactType, Dim, Space};
pub use world::{
    Collisions, Filter, Handle, MoveHit, MoveOptions, Moved, Object, PairContact, PairManifold,
    Parts, QueryFilter, Stats, World, World2, World3, WorldError,
};
