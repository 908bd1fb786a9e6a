//! Hostile numbers given to every shape constructor, 2D and 3D, f32 and f64:
//! NaN, ±∞, ±0, subnormals, ±MAX. Each input gives the documented error
//! variant (with the right field or index), or a valid shape whose queries
//! return known, finite values. Sizes and local coordinates beyond
//! `shape::tolerance::max_size` (√MAX / 16) are `TooLarge`, never "collinear";
//! shapes right at the limit are valid and exact.

use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use num_traits::Float;
use shape::prelude::*;
use shape::tolerance::max_size;

/// How a value given as a size (radius, half extent) must be judged.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    NonFinite,
    NonPositive,
    TooLarge,
    Valid,
}

/// Every hostile value of `T` with the verdict for a size parameter.
fn sizes<T: Real>() -> Vec<(T, Expect)> {
    let max = <T as Float>::max_value();
    let sub = <T as Float>::min_positive_value() / T::lit(2.0);
    let mut v = vec![
        (T::nan(), Expect::NonFinite),
        (-T::nan(), Expect::NonFinite),
        (T::infinity(), Expect::NonFinite),
        (T::neg_infinity(), Expect::NonFinite),
        (T::zero(), Expect::NonPositive),
        (-T::zero(), Expect::NonPositive),
        (-sub, Expect::NonPositive),
        (-max, Expect::NonPositive),
        (-T::one(), Expect::NonPositive),
        (sub, Expect::Valid),
        (<T as Float>::min_positive_value(), Expect::Valid),
        (max, Expect::TooLarge),
        (max_size::<T>() * T::two(), Expect::TooLarge),
        (max_size::<T>(), Expect::Valid),
        (T::one(), Expect::Valid),
    ];
    // The smallest f64 subnormal: positive in f64, zero once rounded to f32.
    let smallest = T::lit(5e-324);
    v.push((
        smallest,
        if smallest > T::zero() {
            Expect::Valid
        } else {
            Expect::NonPositive
        },
    ));
    v
}

/// Every hostile coordinate of `T` (for points and vertices).
fn coords<T: Real>() -> Vec<T> {
    let max = <T as Float>::max_value();
    let sub = <T as Float>::min_positive_value() / T::lit(2.0);
    vec![
        T::nan(),
        T::infinity(),
        T::neg_infinity(),
        T::zero(),
        -T::zero(),
        sub,
        -sub,
        max,
        -max,
        max_size::<T>(),
        -max_size::<T>(),
        T::lit(5e-324),
    ]
}

/// Checks a size constructor's verdict for `v`; returns the shape when valid.
fn judged<S: core::fmt::Debug, T: Real>(
    what: &str,
    field: &'static str,
    v: T,
    e: Expect,
    r: Result<S, ShapeError>,
) -> Option<S> {
    match (e, r) {
        (Expect::NonFinite, Err(ShapeError::NonFinite { field: f })) => {
            assert_eq!(f, field, "{what}({v:?})");
            None
        }
        (Expect::NonPositive, Err(ShapeError::NonPositiveSize { field: f, value })) => {
            assert_eq!(f, field, "{what}({v:?})");
            assert_eq!(
                value.to_bits(),
                v.as_f64().to_bits(),
                "{what}({v:?}) reports the value given"
            );
            None
        }
        (Expect::TooLarge, Err(ShapeError::TooLarge { field: f, value })) => {
            assert_eq!(f, field, "{what}({v:?})");
            assert_eq!(value.to_bits(), v.as_f64().to_bits(), "{what}({v:?})");
            None
        }
        (Expect::Valid, Ok(s)) => Some(s),
        (e, r) => panic!("{what}({v:?}): expected {e:?}, got {r:?}"),
    }
}

fn no_nan2<T: Real>(p: &Point2<T>) -> bool {
    !p.x.is_nan() && !p.y.is_nan()
}

/// The exact bounding box at the identity pose, the support point along +x
/// and +y, and closed containment of the local origin and of the support
/// points, for a valid 2D shape centred on its origin whose half widths are
/// `hx`, `hy`.
fn check_centred_2d<T: Real>(what: &str, s: &dyn Shape<T>, hx: T, hy: T) {
    let id = Isometry2::identity();
    let b = s.bounding_box(&id);
    assert_eq!(
        (b.min, b.max),
        (Point2::new(-hx, -hy), Point2::new(hx, hy)),
        "{what}: bounding box"
    );
    let c = s.as_convex().unwrap();
    let px = c.support_point(&id, &Vector2::x());
    let py = c.support_point(&id, &Vector2::y());
    assert!(no_nan2(&px) && no_nan2(&py), "{what}: {px:?} {py:?}");
    assert_eq!(px.x, hx, "{what}: support along +x");
    assert_eq!(py.y, hy, "{what}: support along +y");
    assert!(c.contains_point(&id, &Point2::origin()), "{what}");
    // Far away (a finite pose) everything stays finite or infinite, never NaN.
    let far = Isometry2::new(
        Vector2::new(<T as Float>::max_value() / T::two(), T::one()),
        T::lit(0.3),
    );
    let b = s.bounding_box(&far);
    assert!(no_nan2(&b.min) && no_nan2(&b.max), "{what}: {b:?}");
    assert!(no_nan2(
        &c.support_point(&far, &Vector2::new(T::one(), -T::two()))
    ));
    if let Some(sa) = s.as_separating_axes() {
        let i = sa.project(&far, &Vector2::new(T::one(), T::two()));
        assert!(!i.min.is_nan() && !i.max.is_nan(), "{what}: {i:?}");
    }
}

fn size_parameters_2d<T: Real>() {
    for (v, e) in sizes::<T>() {
        let one = T::one();
        if let Some(c) = judged("Circle::new", "radius", v, e, Circle::new(v)) {
            check_centred_2d("circle", &c, v, v);
        }
        let r = Obb::new(Vector2::new(v, one));
        if let Some(o) = judged("Obb::new x", "half_extents.x", v, e, r) {
            check_centred_2d("obb", &o, v, one);
        }
        let r = Obb::new(Vector2::new(one, v));
        if let Some(o) = judged("Obb::new y", "half_extents.y", v, e, r) {
            check_centred_2d("obb", &o, one, v);
        }
        let r = Ellipse::new(Vector2::new(v, one));
        if let Some(el) = judged("Ellipse::new x", "radii.x", v, e, r) {
            check_centred_2d("ellipse", &el, v, one);
        }
        let r = Ellipse::new(Vector2::new(one, v));
        if let Some(el) = judged("Ellipse::new y", "radii.y", v, e, r) {
            check_centred_2d("ellipse", &el, one, v);
        }
        let r = Capsule::new(Point2::new(T::zero(), -one), Point2::new(T::zero(), one), v);
        if let Some(c) = judged("Capsule::new", "radius", v, e, r) {
            // The half height 1 + r rounds to 1 for tiny radii and to r for huge ones.
            check_centred_2d("capsule", &c, v, one + v);
        }
        // A vertical capsule's segment is 2h long: it must be finite too.
        let r = Capsule::vertical(v, one);
        if Float::is_finite(v + v) || e != Expect::Valid {
            if let Some(c) = judged("Capsule::vertical", "half_height", v, e, r) {
                check_centred_2d("capsule", &c, one, v + one);
            }
        } else {
            assert!(
                matches!(r, Err(ShapeError::NonFinite { .. })),
                "Capsule::vertical({v:?}): the length overflows: {r:?}"
            );
        }
        // Aabb: the width 2h must be finite too, as for `Aabb::new`.
        let r = Aabb::from_half_extents(Vector2::new(v, one));
        if Float::is_finite(v + v) || e != Expect::Valid {
            if let Some(a) = judged("Aabb::from_half_extents", "half_extents.x", v, e, r) {
                check_centred_2d("aabb", &a, v, one);
            }
        } else {
            assert!(
                matches!(r, Err(ShapeError::NonFinite { .. })),
                "Aabb::from_half_extents({v:?}): the width overflows: {r:?}"
            );
        }
    }
}
shape::for_each_precision!(size_parameters_2d, size_parameters_2d);

fn size_parameters_3d<T: Real>() {
    let one = T::one();
    let id = Isometry3::identity();
    let check = |what: &str, s: &dyn Shape3<T>, h: Vector3<T>| {
        let b = s.bounding_box(&id);
        assert_eq!(
            (b.min, b.max),
            (Point3::from(-h), Point3::from(h)),
            "{what}"
        );
        let c = s.as_convex().unwrap();
        for (axis, want) in [
            (Vector3::x(), h.x),
            (Vector3::y(), h.y),
            (Vector3::z(), h.z),
        ] {
            let p = c.support_point(&id, &axis);
            assert_eq!(p.coords.dot(&axis), want, "{what}: support along {axis:?}");
        }
        assert!(c.contains_point(&id, &Point3::origin()), "{what}");
        let far = Isometry3::new(
            Vector3::new(<T as Float>::max_value() / T::two(), one, -one),
            Vector3::new(T::lit(0.3), T::lit(-0.2), T::lit(0.1)),
        );
        let b = s.bounding_box(&far);
        assert!(
            b.min.iter().chain(b.max.iter()).all(|x| !x.is_nan()),
            "{what}: {b:?}"
        );
        let p = c.support_point(&far, &Vector3::new(one, -one, T::two()));
        assert!(p.iter().all(|x| !x.is_nan()), "{what}: {p:?}");
    };
    for (v, e) in sizes::<T>() {
        if let Some(s) = judged("Sphere::new", "radius", v, e, Sphere::new(v)) {
            check("sphere", &s, Vector3::repeat(v));
        }
        let fields = ["half_extents.x", "half_extents.y", "half_extents.z"];
        for (axis, field) in fields.iter().enumerate() {
            let mut h = Vector3::repeat(one);
            h[axis] = v;
            if let Some(c) = judged("Cuboid::new", field, v, e, Cuboid::new(h)) {
                check("cuboid", &c, h);
            }
            let r = Aabb3::from_half_extents(h);
            if Float::is_finite(v + v) || e != Expect::Valid {
                if let Some(a) = judged("Aabb3::from_half_extents", field, v, e, r) {
                    check("aabb3", &a, h);
                }
            } else {
                assert!(matches!(r, Err(ShapeError::NonFinite { .. })), "{r:?}");
            }
        }
    }
}
shape::for_each_precision!(size_parameters_3d, size_parameters_3d);

/// Points, segments, capsules and boxes given by corners: a NaN or infinite
/// coordinate names its parameter; a finite one beyond `max_size` is too
/// large; any other is a valid point, and shapes at the limit are exact.
fn point_parameters<T: Real>() {
    let id = Isometry2::identity();
    let one = T::one();
    let limit = max_size::<T>();
    for x in coords::<T>() {
        let finite = Float::is_finite(x);
        let fits = finite && Float::abs(x) <= limit;
        let p = Point2::new(x, -x);
        match Point::new(p) {
            Ok(s) => {
                assert!(fits);
                let b = s.bounding_box(&id);
                assert!(b.min.x == x && b.max.y == -x, "{b:?}");
                assert!(s.contains_point(&id, &p));
            }
            Err(e) if finite => {
                assert!(!fits, "{x:?}: {e:?}");
                assert!(
                    matches!(e, ShapeError::TooLarge { field: "point", .. }),
                    "{e:?}"
                );
            }
            Err(e) => assert_eq!(e, ShapeError::NonFinite { field: "point" }),
        }
        // One end hostile, the other at (1, 1).
        let q = Point2::new(one, one);
        for (name, r) in [
            ("a", Segment::new(p, q).map(|_| ())),
            ("b", Segment::new(q, p).map(|_| ())),
            ("a", Capsule::new(p, q, one).map(|_| ())),
            ("b", Capsule::new(q, p, one).map(|_| ())),
        ] {
            if fits {
                assert_eq!(r, Ok(()), "{name} = {p:?}");
            } else if finite {
                assert!(
                    matches!(r, Err(ShapeError::TooLarge { field, .. }) if field == name),
                    "{name} = {p:?}: {r:?}"
                );
            } else {
                assert_eq!(r, Err(ShapeError::NonFinite { field: name }), "{p:?}");
            }
        }
        // Box corners, up to the largest one.
        let lo = Point2::new(x, T::zero());
        let r = Aabb::new(lo, Point2::new(limit, one));
        if !finite {
            assert_eq!(r, Err(ShapeError::NonFinite { field: "min" }));
        } else if !fits {
            assert!(
                matches!(r, Err(ShapeError::TooLarge { field: "min", .. })),
                "{r:?}"
            );
        } else if x == limit {
            assert!(
                matches!(r, Err(ShapeError::NonPositiveSize { .. })),
                "{r:?}"
            );
        } else {
            let a = r.unwrap();
            assert_eq!(a.bounding_box(&id).min.x, x);
        }
        let r3 = Aabb3::new(
            Point3::new(x, T::zero(), T::zero()),
            Point3::new(one, one, one),
        );
        if !finite {
            assert_eq!(r3, Err(ShapeError::NonFinite { field: "min" }));
        } else if !fits {
            assert!(
                matches!(r3, Err(ShapeError::TooLarge { field: "min", .. })),
                "{r3:?}"
            );
        } else if x >= one {
            assert!(
                matches!(
                    r3,
                    Err(ShapeError::NonPositiveSize {
                        field: "extent.x",
                        ..
                    })
                ),
                "{r3:?}"
            );
        } else {
            assert_eq!(r3.unwrap().min().x, x);
        }
    }
    // Coincident ends, whatever the sign of zero.
    let z = Point2::new(T::zero(), T::zero());
    let nz = Point2::new(-T::zero(), -T::zero());
    assert_eq!(Segment::new(z, nz), Err(ShapeError::CoincidentEndpoints));
    assert_eq!(
        Capsule::new(nz, z, one),
        Err(ShapeError::CoincidentEndpoints)
    );
    // Ends a subnormal apart are distinct: a valid, tiny segment.
    let sub = <T as Float>::min_positive_value() / T::lit(4.0);
    let s = Segment::new(z, Point2::new(sub, T::zero())).unwrap();
    assert_eq!(s.length(), sub);
    assert_eq!(s.bounding_box(&id).max.x, sub);
    // Ends at ±MAX: too large (its length would overflow, and its queries
    // compute ∞ − ∞).
    let max = <T as Float>::max_value();
    for (a, b) in [
        (Point2::new(-max, T::zero()), Point2::new(max, T::zero())),
        (Point2::new(T::zero(), max), Point2::new(T::zero(), -max)),
    ] {
        assert!(
            matches!(
                Segment::new(a, b),
                Err(ShapeError::TooLarge { field: "a", .. })
            ),
            "{:?}",
            Segment::new(a, b)
        );
        assert!(matches!(
            Capsule::new(a, b, one),
            Err(ShapeError::TooLarge { field: "a", .. })
        ));
    }
    // Ends at the limit: a valid segment, with exact bounds and support points.
    let h = limit;
    let s = Segment::new(Point2::new(-h, T::zero()), Point2::new(h, T::zero())).unwrap();
    let b = s.bounding_box(&id);
    assert_eq!((b.min.x, b.max.x), (-h, h));
    assert_eq!(s.support_point(&id, &-Vector2::x()).x, -h);
}
shape::for_each_precision!(point_parameters, point_parameters);

fn triangle<T: Real>(v: [[T; 2]; 3]) -> Result<Triangle<T>, ShapeError> {
    Triangle::new(
        Point2::new(v[0][0], v[0][1]),
        Point2::new(v[1][0], v[1][1]),
        Point2::new(v[2][0], v[2][1]),
    )
}

/// Triangles and polygons: a NaN or infinite coordinate names its vertex (for
/// `new` and `from_hull`); repeated vertices (±0 alike) and flat corners are
/// named; vertices whose spread overflows are a non-finite size.
fn vertex_parameters<T: Real>() {
    let one = T::one();
    let o = T::zero();
    let square = |s: T| {
        vec![
            Point2::new(-s, -s),
            Point2::new(s, -s),
            Point2::new(s, s),
            Point2::new(-s, s),
        ]
    };
    for x in coords::<T>() {
        if Float::is_finite(x) {
            continue;
        }
        for i in 0..4 {
            let mut v = square(one);
            v[i].y = x;
            assert_eq!(
                ConvexPolygon::new(&v).unwrap_err(),
                ShapeError::NonFiniteVertex { index: i }
            );
            assert_eq!(
                ConvexPolygon::from_hull(&v).unwrap_err(),
                ShapeError::NonFiniteVertex { index: i }
            );
            if i < 3 {
                let mut t = [[o, o], [one, o], [o, one]];
                t[i][0] = x;
                assert_eq!(
                    triangle(t).unwrap_err(),
                    ShapeError::NonFiniteVertex { index: i }
                );
            }
        }
    }
    // -0 repeats +0.
    let t = [[o, o], [-o, -o], [one, one]];
    assert_eq!(
        triangle(t).unwrap_err(),
        ShapeError::DuplicateVertex { index: 1 }
    );
    // Too few points, also after removing duplicates in a hull.
    assert_eq!(
        ConvexPolygon::<T>::new(&[]).unwrap_err(),
        ShapeError::TooFewVertices { count: 0, min: 3 }
    );
    let p = Point2::new(one, one);
    assert_eq!(
        ConvexPolygon::from_hull(&[p, p, p, Point2::new(-o, o)]).unwrap_err(),
        ShapeError::AllCollinear
    );
    // Subnormal area: the turns cannot be told from straight.
    let sub = <T as Float>::min_positive_value() / T::lit(4.0);
    assert!(matches!(
        triangle([[o, o], [sub, o], [o, sub]]),
        Err(ShapeError::CollinearVertices { .. })
    ));
    // ±MAX: too large, never "collinear".
    let max = <T as Float>::max_value();
    let huge = [
        triangle([[-max, o], [max, o], [o, max]]).map(|_| ()),
        triangle([[-max, -max], [max, -max], [o, max]]).map(|_| ()),
        triangle([[o, -max], [one, o], [o, max]]).map(|_| ()),
        ConvexPolygon::new(&square(max)).map(|_| ()),
        ConvexPolygon::from_hull(&square(max)).map(|_| ()),
        ConvexPolygon::from_hull(&[square(max), vec![Point2::origin()]].concat()).map(|_| ()),
    ];
    for r in huge {
        assert!(
            matches!(
                r,
                Err(ShapeError::TooLarge {
                    field: "vertex",
                    ..
                })
            ),
            "{r:?}"
        );
    }
    // At the limit: valid, with exact bounds.
    let h = max_size::<T>();
    let big = ConvexPolygon::new(&square(h)).unwrap();
    let b = big.bounding_box(&Isometry2::identity());
    assert_eq!((b.min.x, b.max.y), (-h, h));
    assert!(big.contains_point(&Isometry2::identity(), &Point2::new(h, -h)));
    let t = triangle([[-h, o], [h, o], [o, h]]).unwrap();
    for n in t.normals() {
        assert!(
            Float::abs(n.norm() - one) <= T::epsilon() * T::lit(4.0),
            "{n:?}"
        );
    }
    // A tiny triangle whose edges' squared lengths are subnormal still has
    // unit normals and the exact bounds.
    let s = Float::sqrt(<T as Float>::min_positive_value() * T::epsilon()) * T::lit(4.0);
    let t = triangle([[o, o], [s, o], [o, s]]).unwrap();
    for n in t.normals() {
        assert!(
            Float::abs(n.norm() - one) <= T::epsilon() * T::lit(4.0),
            "tiny triangle normal {n:?}"
        );
    }
    assert_eq!(
        t.bounding_box(&Isometry2::identity()).max,
        Point2::new(s, s)
    );
}
shape::for_each_precision!(vertex_parameters, vertex_parameters);

/// Near-degenerate but valid polygons: the collinearity tolerance is
/// `16 ε`, so a corner turning by `64 ε` is a corner and one turning by `4 ε`
/// is not, at any scale.
fn collinearity_threshold<T: Real>() {
    let eps = T::epsilon();
    for scale in [T::lit(1e-6), T::one(), T::lit(1e6)] {
        let p = |x: f64, y: T| Point2::new(T::lit(x) * scale, y * scale);
        let bulge = |k: f64| {
            vec![
                p(0.0, T::zero()),
                p(1.0, T::zero()),
                p(2.0, eps * T::lit(k)),
                p(2.0, T::one()),
                p(0.0, T::one()),
            ]
        };
        // Vertex 1 turns left by about k ε (vertex 2 is raised by k ε).
        let ok = ConvexPolygon::new(&bulge(64.0)).unwrap();
        assert_eq!(ok.vertices().len(), 5);
        assert_eq!(
            ConvexPolygon::new(&bulge(4.0)).unwrap_err(),
            ShapeError::CollinearVertices { index: 1 }
        );
        // Exactly collinear.
        assert_eq!(
            ConvexPolygon::new(&bulge(0.0)).unwrap_err(),
            ShapeError::CollinearVertices { index: 1 }
        );
        // A sliver triangle 64 ε tall is valid, and contains its own centroid.
        let t = Triangle::new(
            p(0.0, T::zero()),
            p(1.0, T::zero()),
            p(0.5, eps * T::lit(64.0)),
        )
        .unwrap();
        let c = Point2::new(T::lit(0.5) * scale, eps * T::lit(20.0) * scale);
        assert!(t.contains_point(&Isometry2::identity(), &c));
        assert!(!t.contains_point(
            &Isometry2::identity(),
            &Point2::new(c.x, eps * T::lit(80.0) * scale)
        ));
    }
}
shape::for_each_precision!(collinearity_threshold, collinearity_threshold);
