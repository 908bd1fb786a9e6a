//! The shape-cast kernel of every built-in 3D pair (`<a>_<b>_cast`, A's
//! frame, A at rest, B moving at `args.vel_b`; see [`crate::cast`]): the
//! conservative advancement of [`crate::cast::advance`] on the pair's exact
//! closest-points kernel.

use nalgebra::{Isometry3, SVector, Translation3};
use shape::{Aabb3, Cuboid, Real, Shape3, Sphere};

use super::*;
use crate::cast::advance::advance;
use crate::cast::{ShapeCastArgs3, ShapeCastHit3};

/// The size of a 3D shape for the advancement's tolerance: its local
/// bounding box's diagonal plus the box's distance from the local origin.
#[must_use]
pub fn shape_scale3<T: Real>(s: &dyn Shape3<T>) -> T {
    let b = s.bounding_box(&Isometry3::identity());
    (b.max - b.min).norm() + b.center().coords.norm()
}

/// A 3D kernel from a pair's closest-points and contact kernels (A's frame,
/// B at `b_in_a`).
#[inline]
pub fn cast_3d<T: Real, A: Shape3<T>, B: Shape3<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry3<T>,
    args: &ShapeCastArgs3<T>,
    closest: fn(&A, &B, &Isometry3<T>, T) -> ClosestPoints3<T>,
    contact: fn(&A, &B, &Isometry3<T>) -> Option<Contact3<T>>,
) -> Option<ShapeCastHit3<T>> {
    let moved = |shift: &SVector<T, 3>| {
        Isometry3::from_parts(
            Translation3::from(b_in_a.translation.vector + shift),
            b_in_a.rotation,
        )
    };
    advance(
        |shift, max_distance| closest(a, b, &moved(shift), max_distance),
        |shift| contact(a, b, &moved(shift)).map(|c| (c.normal, c.point_a, c.point_b, c.depth)),
        &args.vel_b,
        args.max_toi,
        args.options,
        (shape_scale3::<T>(a), shape_scale3::<T>(b)),
    )
}

/// One shape-cast kernel per row, by conservative advancement.
macro_rules! advancement_casts3 {
    ($( $name:ident: $a:ident, $b:ident => $closest:ident, $contact:ident; )*) => {$(
        #[doc = concat!("The shape cast of a `", stringify!($a), "` and a `", stringify!($b),
            "` (B at `b_in_a`, moving at `args.vel_b` relative to A, in A's frame): conservative \
            advancement on [`", stringify!($closest), "`].")]
        #[must_use]
        pub fn $name<T: Real>(
            a: &$a<T>,
            b: &$b<T>,
            b_in_a: &Isometry3<T>,
            args: ShapeCastArgs3<T>,
        ) -> Option<ShapeCastHit3<T>> {
            cast_3d(a, b, b_in_a, &args, $closest, $contact)
        }
    )*};
}

advancement_casts3! {
    sphere_sphere_cast: Sphere, Sphere => sphere_sphere_closest_points, sphere_sphere_contact;
    sphere_cuboid_cast: Sphere, Cuboid => sphere_cuboid_closest_points, sphere_cuboid_contact;
    sphere_aabb3_cast: Sphere, Aabb3 => sphere_aabb3_closest_points, sphere_aabb3_contact;
    cuboid_cuboid_cast: Cuboid, Cuboid => cuboid_cuboid_closest_points, cuboid_cuboid_contact;
    cuboid_aabb3_cast: Cuboid, Aabb3 => cuboid_aabb3_closest_points, cuboid_aabb3_contact;
    aabb3_aabb3_cast: Aabb3, Aabb3 => aabb3_aabb3_closest_points, aabb3_aabb3_contact;
}
