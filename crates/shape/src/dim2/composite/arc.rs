//! Arcs of admissible normals.

use nalgebra::{Unit, Vector2};

use crate::Real;

/// The unit directions from `from` counter-clockwise to `to`, both included;
/// `from == to` is that one direction. An arc spans less than a full turn
/// (a part that admits every direction says so with no arcs at all: see
/// [`Part::normals`](super::Part::normals)).
///
/// ```
/// use nalgebra::{Unit, Vector2};
/// use shape::dim2::composite::NormalArc;
/// // The normals of a box's top-right corner: right to up.
/// let arc = NormalArc::new(Vector2::x_axis(), Vector2::y_axis());
/// assert!(arc.contains(&Vector2::new(1.0, 1.0)));
/// assert!(arc.contains(&Vector2::new(0.0, 2.0)));
/// assert!(!arc.contains(&Vector2::new(-1.0, 1.0)));
/// assert!(!arc.contains(&Vector2::new(1.0, -1.0)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalArc<T: Real> {
    /// The first direction (clockwise end).
    pub from: Unit<Vector2<T>>,
    /// The last direction (counter-clockwise end).
    pub to: Unit<Vector2<T>>,
}

impl<T: Real> NormalArc<T> {
    /// The arc from `from` counter-clockwise to `to`.
    #[must_use]
    pub fn new(from: Unit<Vector2<T>>, to: Unit<Vector2<T>>) -> Self {
        Self { from, to }
    }

    /// The single direction `n`.
    #[must_use]
    pub fn single(n: Unit<Vector2<T>>) -> Self {
        Self { from: n, to: n }
    }

    /// Whether the direction of `n` (any length, not zero) is on the arc.
    /// Decided by the signs of cross products, so directions exactly on an
    /// end count.
    #[must_use]
    pub fn contains(&self, n: &Vector2<T>) -> bool {
        let (a, b) = (self.from.into_inner(), self.to.into_inner());
        let zero = T::zero();
        let cross = |u: &Vector2<T>, v: &Vector2<T>| u.x * v.y - u.y * v.x;
        let span = cross(&a, &b);
        if span > zero || (span == zero && a.dot(&b) < zero) {
            // At most half a turn: n is between a and b.
            cross(&a, n) >= zero && cross(n, &b) >= zero
        } else if span == zero {
            // One direction.
            cross(&a, n) == zero && a.dot(n) > zero
        } else {
            // More than half a turn: n is not strictly inside the rest.
            !(cross(&b, n) > zero && cross(n, &a) > zero)
        }
    }
}
