//! Ellipse kernels, in A's local frame (B placed by `b_in_a`).
//!
//! | function | answers | method |
//! |---|---|---|
//! | [`ellipse_ellipse`] | do they intersect (touching counts)? exact | map A to the unit disk, exact point–ellipse distance (Eberly) |
//! | [`ellipse_ellipse_contact`] | minimum translation vector, `Some` iff they intersect | minimise the support overlap over directions |
//! | [`ellipse_ellipse_approx_hwang_tsai`] | seed 004's published test: an approximation that misses collisions near contact | B to the unit circle, A's radii plus one |
//!
//! ```
//! use nalgebra::{Isometry2, Vector2};
//! use narrowphase::ellipse::{ellipse_ellipse, ellipse_ellipse_contact};
//! use shape::Ellipse;
//!
//! let a = Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
//! let b = Ellipse::new(Vector2::new(1.0, 3.0)).unwrap();
//! let pose = Isometry2::new(Vector2::new(2.5, 0.5), 0.3);
//! assert!(ellipse_ellipse(&a, &b, &pose));
//! let c = ellipse_ellipse_contact(&a, &b, &pose).unwrap();
//! assert!(c.depth > 0.0 && c.normal.x > 0.0);
//! ```

mod core_ellipse;
mod core_ellipse_pairs;
mod ellipse_ellipse;
mod ellipse_ellipse_approx_hwang_tsai;
mod search;

pub use core_ellipse::{core_ellipse, core_ellipse_closest_points, core_ellipse_contact};
pub use core_ellipse_pairs::*;
pub use ellipse_ellipse::{
    ellipse_ellipse, ellipse_ellipse_closest_points, ellipse_ellipse_contact,
};
pub use ellipse_ellipse_approx_hwang_tsai::ellipse_ellipse_approx_hwang_tsai;
