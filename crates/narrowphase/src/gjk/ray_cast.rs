//! The support-map fallback of the single-shape queries: a ray cast and a
//! point projection for any convex shape given by its support function
//! ([`Convex`]), used by the narrow phase for user shapes that answer neither
//! query themselves.
//!
//! **Frame.** Both work relative to the pose's translation `t`: the shape is
//! queried with the pose's rotation alone (so its support points carry no
//! rounding of `t`, and a shape that ignores rotation still does), the ray
//! origin or query point is moved by `−t` first and the answer by `+t` last.
//! Precision follows the shape's size, not its distance from the world
//! origin.
//!
//! **Ray cast** (conservative advancement on the support function: G. van
//! den Bergen, "Ray casting against general convex objects with application
//! to continuous collision detection", *Journal of Graphics Tools*, 2004):
//! 1. With `u` the unit direction, keep a point `x = o + λ u` of the ray
//!    (`λ = 0` first), a simplex of support points `pᵢ` of the shape `C`, and
//!    `v`, the point of the simplex's hull of `x − pᵢ` nearest the origin
//!    (`x − v` is the point of `hull{pᵢ}` nearest `x`; GJK's solver,
//!    [`super::gjk`]).
//! 2. Take `p = s_C(v)` and `w = x − p`. If `v · w > 0` the plane through `p`
//!    with normal `v` has `C` on one side and `x` strictly on the other: when
//!    `v · u ≥ 0` the ray runs away from that plane and misses `C`; else no
//!    point of the ray before the plane can be in `C`, so advance `x` to it,
//!    `λ ← λ − (v · w)/(v · u)`, and remember `v` as the normal.
//! 3. Add `p` to the simplex, recompute every `x − pᵢ` (`x` may have moved),
//!    solve for the new `v`. Stop with a hit when `|v| ≤ δ` (or the simplex
//!    encloses `x`): `x` is within `δ` of `C` and every earlier point of the
//!    ray was proven outside, so `λ` is the time of the first contact, to
//!    `δ`. The normal is the last `v` (outward: from `C` towards the ray).
//!
//! `δ = gjk_tolerance · scale` ([`super::gjk_tolerance`], `64 ε`), with
//! `scale` the larger of the shape's extent and the origin's distance from
//! the shape's position (the rounding of `x = o + λ u` is of that order).
//! At most `RAY_MAX_ITERATIONS` = 128 support steps; at the cap the state is
//! a hit only if `|v| ≤ 16 δ`.
//!
//! **Solid, hollow.** The origin is inside when the shape's `contains_point`
//! says so: a solid cast hits at time 0 with normal `−u`; a hollow one casts
//! back from beyond the shape, `o + L u` with `L` past the support in `u`,
//! along `−u`: the exit is `L − λ'` and the inward normal the negated
//! normal of that entry.
//!
//! **Point projection.** Outside: the closest point of GJK's distance
//! ([`super::gjk_distance`]) to the point seen as a `Point` shape. Inside
//! (`contains_point`) a solid query answers the point itself; a hollow one,
//! or a point that GJK finds within `δ` outside, takes the contact point on
//! the shape of EPA ([`super::epa_contact`]), the boundary point nearest to it
//! (to `δ`).
//!
//! **Degenerate cases.** A flat or single-point shape (zero extent) has
//! `δ = 0` relative to itself but not to a distant origin; a ray exactly
//! through such a shape converges geometrically and is found to `δ`. Shapes
//! whose support function returns non-finite points give no hit.

use nalgebra::{Isometry2, Point2, Translation2, Unit, UnitComplex, Vector2};
use num_traits::Float;
use shape::{Convex, PointProjection, Ray, RayHit, Real, hit_at_origin};

use super::gjk::{Simplex, SupportPoint, power_of_two_near, support_box};
use super::{GjkResult, epa_contact, gjk_distance, gjk_tolerance};

/// Most support steps of one conservative-advancement ray cast.
pub(crate) const RAY_MAX_ITERATIONS: usize = 128;

/// The first hit of `ray` on a convex shape given by its support function,
/// placed at `pose`, with time of impact at most `max_toi`, or `None` (the
/// contract of [`shape::RayCast`]; accurate to `δ = gjk_tolerance · scale`,
/// module notes).
///
/// The narrow phase's [`cast_ray`](crate::cast_ray) uses it for a user shape
/// with a support function and no ray cast of its own.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::gjk::gjk_cast_ray;
/// use shape::{Circle, Ray};
/// let ball = Circle::new(5.0).unwrap();
/// let ray = Ray::new(Point2::new(-10.0, 3.0), Vector2::new(1.0, 0.0));
/// let hit = gjk_cast_ray(&ball, &Isometry2::identity(), &ray, 100.0, true).unwrap();
/// assert!((hit.toi - 6.0f64).abs() < 1e-9);
/// assert!((hit.normal.into_inner() - Vector2::new(-0.8, 0.6)).norm() < 1e-6);
/// ```
pub fn gjk_cast_ray<T: Real>(
    shape: &dyn Convex<T>,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    max_toi: T,
    solid: bool,
) -> Option<RayHit<T>> {
    let t = pose.translation.vector;
    let turn = Isometry2::from_parts(Translation2::identity(), pose.rotation);
    let o = ray.origin - t;
    let len = norm(&ray.dir);
    let u = ray.dir / len;
    if !(Float::is_finite(len) && len > T::zero() && u.iter().all(|v| Float::is_finite(*v))) {
        return None;
    }
    let (lo, hi) = support_box(shape, &turn);
    let extent = [lo, hi]
        .iter()
        .fold(T::zero(), |s, p| Float::max(s, p.coords.amax()));
    let caster = Caster {
        shape,
        pose: &turn,
        u,
        tol: gjk_tolerance::<T>() * Float::max(extent, o.coords.amax()),
        max_lambda: max_toi * len,
    };
    let (lambda, n) = if shape.contains_point(&turn, &o) {
        if solid {
            return Some(hit_at_origin(ray));
        }
        // Cast back from beyond the shape: its entry is this ray's exit.
        let reach = shape.support_point(&turn, &u).coords.dot(&u) - o.coords.dot(&u);
        let back = Float::max(reach, T::zero()) + Float::max(extent, T::one());
        let reverse = Caster {
            u: -u,
            max_lambda: T::infinity(),
            tol: gjk_tolerance::<T>() * Float::max(extent, T::one()),
            ..caster
        };
        match reverse.advance(&(o + u * back)) {
            Some((l, n)) if l < back => (back - l, -n),
            _ => (T::zero(), Vector2::zeros()),
        }
    } else {
        caster.advance(&o)?
    };
    let toi = lambda / len;
    if !(toi <= max_toi && Float::is_finite(toi)) {
        return None;
    }
    let point = o + u * lambda + t;
    let m = n.amax();
    let normal = if m > T::zero() && Float::is_finite(m) {
        let n = n / m;
        n / n.norm()
    } else {
        -u
    };
    point.iter().all(|v| Float::is_finite(*v)).then(|| RayHit {
        toi,
        point,
        normal: Unit::new_unchecked(normal),
    })
}

/// The point of a convex shape given by its support function nearest `p`
/// (`p` itself inside a solid shape, the nearest boundary point for a hollow
/// query), and whether `p` is inside by the shape's `contains_point`
/// (module notes; accurate to `δ`).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::gjk::gjk_project_point;
/// use shape::Obb;
/// let b = Obb::new(Vector2::new(2.0, 1.0)).unwrap();
/// let id = Isometry2::identity();
/// let out = gjk_project_point(&b, &id, &Point2::new(5.0, 0.5), true);
/// assert!((out.point - Point2::new(2.0, 0.5f64)).norm() < 1e-12 && !out.is_inside);
/// let wall = gjk_project_point(&b, &id, &Point2::new(1.0, 0.25), false);
/// assert!((wall.point - Point2::new(1.0, 1.0f64)).norm() < 1e-9 && wall.is_inside);
/// ```
pub fn gjk_project_point<T: Real>(
    shape: &dyn Convex<T>,
    pose: &Isometry2<T>,
    p: &Point2<T>,
    solid: bool,
) -> PointProjection<T> {
    let t = pose.translation.vector;
    let turn = Isometry2::from_parts(Translation2::identity(), pose.rotation);
    let q = p - t;
    let is_inside = shape.contains_point(&turn, &q);
    if is_inside && solid {
        return PointProjection {
            point: *p,
            is_inside,
        };
    }
    let probe = shape::Point::<T>::origin();
    let at = Isometry2::from_parts(Translation2::from(q.coords), UnitComplex::identity());
    let local = match (is_inside, gjk_distance(shape, &turn, &probe, &at)) {
        (false, GjkResult::Separated { point_a, .. }) => point_a,
        _ => epa_contact(shape, &turn, &probe, &at).map_or(q, |c| c.point_a),
    };
    PointProjection {
        point: local + t,
        is_inside,
    }
}

/// One conservative-advancement cast along the unit direction `u`.
#[derive(Clone, Copy)]
struct Caster<'s, T: Real> {
    shape: &'s dyn Convex<T>,
    pose: &'s Isometry2<T>,
    u: Vector2<T>,
    /// The convergence distance `δ`.
    tol: T,
    /// A time (along `u`) past which the cast gives up: `max_toi · |dir|`.
    max_lambda: T,
}

impl<T: Real> Caster<'_, T> {
    /// Steps 1–3 of the module notes from `o`: the time `λ` along `u` and
    /// the (unnormalised, outward) normal, or `None` for a miss.
    fn advance(&self, o: &Point2<T>) -> Option<(T, Vector2<T>)> {
        let u = self.u;
        let (_, down) = power_of_two_near(Float::max(self.tol / gjk_tolerance::<T>(), T::one()));
        let tol = self.tol * down;
        let support = |v: &Vector2<T>| self.shape.support_point(self.pose, v);
        let point = |x: &Point2<T>, p: Point2<T>| SupportPoint {
            w: x.coords * down - p.coords * down,
            a: *x,
            b: p,
        };
        let mut lambda = T::zero();
        let mut x = *o;
        let mut n = Vector2::zeros();
        let mut simplex: Option<Simplex<T>> = None;
        let mut v = point(&x, support(&-u)).w;
        for _ in 0..RAY_MAX_ITERATIONS {
            if !v.iter().all(|c| Float::is_finite(*c)) {
                return None;
            }
            if v.norm_squared() <= tol * tol {
                return Some((lambda, n));
            }
            let p = support(&v);
            let w = point(&x, p).w;
            let vw = v.dot(&w);
            let advanced = vw > T::zero();
            if advanced {
                let vu = v.dot(&u);
                if vu >= T::zero() {
                    return None;
                }
                // x + Δ u reaches the plane v·(y − p) = 0: Δ = −v·w / v·u, in
                // world units (v and w carry the factor `down` each).
                lambda -= vw / vu / down;
                if lambda > self.max_lambda || Float::is_nan(lambda) {
                    return None;
                }
                x = o + u * lambda;
                n = v;
            }
            let mut s = match simplex {
                Some(mut s) => {
                    let known = s.v[..s.count].iter().any(|q| q.b == p);
                    if known && !advanced {
                        // Nothing new: converged as far as rounding allows.
                        return (v.norm() <= tol * T::lit(16.0)).then_some((lambda, n));
                    }
                    for q in &mut s.v[..s.count] {
                        *q = point(&x, q.b);
                    }
                    if !known {
                        s.push(point(&x, p));
                    }
                    s
                }
                None => Simplex::new(point(&x, p)),
            };
            s.solve();
            v = s.closest();
            simplex = Some(s);
        }
        (v.norm() <= tol * T::lit(16.0)).then_some((lambda, n))
    }
}

/// `|v|`, scaled by its largest component first (no overflow or underflow).
fn norm<T: Real>(v: &Vector2<T>) -> T {
    let m = v.amax();
    if m > T::zero() && Float::is_finite(m) {
        (v / m).norm() * m
    } else {
        m
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point2, Vector2};
    use shape::testing::test_tolerance;
    use shape::{
        Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Segment, Shape, for_each_precision,
    };

    use super::*;

    fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
        Point2::new(T::lit(x), T::lit(y))
    }

    fn v<T: Real>(x: f64, y: f64) -> Vector2<T> {
        Vector2::new(T::lit(x), T::lit(y))
    }

    /// Against the exact casts of the built-in shapes, from outside and
    /// inside, solid and hollow.
    fn agrees_with_exact<T: Real>() {
        let shapes: Vec<Box<dyn Shape<T>>> = vec![
            Box::new(Circle::new(T::two()).unwrap()),
            Box::new(Obb::new(v(2.0, 1.0)).unwrap()),
            Box::new(Capsule::new(p(-1.0, 0.0), p(1.0, 0.5), T::half()).unwrap()),
            Box::new(Ellipse::new(v(3.0, 1.0)).unwrap()),
        ];
        let pose = Isometry2::new(v(5.0, -3.0), T::lit(0.7));
        let rays = [
            Ray::new(p(-5.0, -2.0), v(1.0, -0.1)),
            Ray::new(p(5.0, 6.0), v(0.0, -2.0)),
            Ray::new(p(5.2, -3.1), v(0.3, 0.4)),
            Ray::new(p(12.0, -3.0), v(-1.0, 0.05)),
            Ray::new(p(0.0, 0.0), v(-1.0, 0.0)),
        ];
        let tol = test_tolerance::<T>(T::lit(16.0)) * T::lit(64.0);
        for shape in &shapes {
            let (convex, exact) = (shape.as_convex().unwrap(), shape.as_ray_cast().unwrap());
            for ray in &rays {
                for solid in [true, false] {
                    let want = exact.cast_ray(&pose, ray, T::infinity(), solid);
                    let got = gjk_cast_ray(convex, &pose, ray, T::infinity(), solid);
                    match (want, got) {
                        (None, None) => {}
                        (Some(a), Some(b)) => {
                            assert!(Float::abs(a.toi - b.toi) < tol, "{a:?} vs {b:?}");
                            assert!((a.point - b.point).norm() < tol, "{a:?} vs {b:?}");
                            assert!(
                                (a.normal.into_inner() - b.normal.into_inner()).norm()
                                    < T::lit(1e-2),
                                "{a:?} vs {b:?}"
                            );
                        }
                        (a, b) => panic!("{ray:?} solid {solid}: exact {a:?}, gjk {b:?}"),
                    }
                }
            }
        }
    }
    for_each_precision!(agrees, agrees_with_exact);

    fn polygon_and_degenerate<T: Real>() {
        let hex = ConvexPolygon::from_hull(&[
            p(1.0, 0.0),
            p(0.5, 0.875),
            p(-0.5, 0.875),
            p(-1.0, 0.0),
            p(-0.5, -0.875),
            p(0.5, -0.875),
        ])
        .unwrap();
        let id = Isometry2::identity();
        let inf = T::infinity();
        // Flat face: exact up to rounding.
        let h = gjk_cast_ray(&hex, &id, &Ray::new(p(0.0, 5.0), v(0.0, -1.0)), inf, true).unwrap();
        assert!(Float::abs(h.toi - T::lit(4.125)) < test_tolerance::<T>(T::lit(8.0)));
        assert!((h.normal.into_inner() - v(0.0, 1.0)).norm() < test_tolerance::<T>(T::one()));
        // Behind, beside, and max_toi.
        assert!(gjk_cast_ray(&hex, &id, &Ray::new(p(0.0, 5.0), v(0.0, 1.0)), inf, true).is_none());
        assert!(gjk_cast_ray(&hex, &id, &Ray::new(p(3.0, 5.0), v(0.0, -1.0)), inf, true).is_none());
        assert!(
            gjk_cast_ray(
                &hex,
                &id,
                &Ray::new(p(0.0, 5.0), v(0.0, -1.0)),
                T::lit(4.0),
                true
            )
            .is_none()
        );
        // A segment and a point: no interior.
        let s = Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap();
        let h = gjk_cast_ray(&s, &id, &Ray::new(p(0.5, -2.0), v(0.0, 1.0)), inf, true).unwrap();
        assert!(Float::abs(h.toi - T::two()) < test_tolerance::<T>(T::lit(4.0)));
        let dot = Point::new(p(3.0, 0.0)).unwrap();
        let h = gjk_cast_ray(&dot, &id, &Ray::new(p(0.0, 0.0), v(2.0, 0.0)), inf, true).unwrap();
        assert!(Float::abs(h.toi - T::lit(1.5)) < test_tolerance::<T>(T::lit(4.0)));
        assert!(gjk_cast_ray(&dot, &id, &Ray::new(p(0.0, 0.5), v(2.0, 0.0)), inf, true).is_none());
    }
    for_each_precision!(polygon, polygon_and_degenerate);

    fn projections<T: Real>() {
        let b = Obb::new(v(2.0, 1.0)).unwrap();
        let pose = Isometry2::new(v(10.0, 0.0), T::frac_pi_2());
        let tol = test_tolerance::<T>(T::lit(16.0));
        // (10, 5) is 3 above the box's end (the box spans y ∈ [−2, 2] turned).
        let pr = gjk_project_point(&b, &pose, &p(10.0, 5.0), true);
        assert!(!pr.is_inside && (pr.point - p(10.0, 2.0)).norm() < tol);
        let pr = gjk_project_point(&b, &pose, &p(10.25, 0.0), true);
        assert!(pr.is_inside && pr.point == p(10.25, 0.0));
        let pr = gjk_project_point(&b, &pose, &p(10.25, 0.0), false);
        assert!(pr.is_inside && (pr.point - p(11.0, 0.0)).norm() < tol * T::lit(16.0));
        let c = Circle::new(T::one()).unwrap();
        let pr = gjk_project_point(&c, &Isometry2::identity(), &p(3.0, 4.0), true);
        assert!((pr.point - p(0.6, 0.8)).norm() < tol);
    }
    for_each_precision!(project, projections);
}
