//! User shape kinds through the dispatch table: the separating-axis fallback,
//! the GJK/EPA fallback, a registered kernel for a user pair, overriding a
//! built-in kernel, and the two errors (unsupported pair, kind/data mismatch).

use crate::support;

use core::any::Any;

use nalgebra::{Isometry2, Vector2};
use narrowphase::{Contact, DispatchError, DispatchTable, Route};
use num_traits::Float;
use shape::prelude::*;
use support::{Hex, Ring};

/// A rounded blob: its own kind, support function only (no axes).
#[derive(Debug)]
struct Blob<T: Real>(Ellipse<T>);

impl<T: Real> Shape<T> for Blob<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(1)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        self.0.bounding_box(pose)
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(&self.0)
    }
}

/// Claims to be a circle but hands out something else.
#[derive(Debug)]
struct Liar;

impl Shape<f64> for Liar {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CIRCLE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
        Shape::<f64>::bounding_box(&Ring, pose)
    }
}

fn fallbacks<T: Real>() {
    let table = DispatchTable::<T>::new();
    let hex = Hex::<T>::new(1.0);
    let circle = Circle::new(T::one()).unwrap();
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    assert_eq!(table.route(&hex, &circle).unwrap(), Route::Sat);
    // Side by side: the hexagon's flat top is at √3/2 above its centre.
    let top = 3f64.sqrt() / 2.0;
    assert!(
        table
            .intersects(&hex, &at(0.0, 0.0), &circle, &at(0.0, top + 0.99))
            .unwrap()
    );
    assert!(
        !table
            .intersects(&hex, &at(0.0, 0.0), &circle, &at(0.0, top + 1.01))
            .unwrap()
    );
    let c = table
        .contact(&hex, &at(0.0, 0.0), &circle, &at(0.0, top + 0.5))
        .unwrap()
        .unwrap();
    let tol = T::lit(1e-4);
    assert!(Float::abs(c.depth - T::half()) < tol, "{c:?}");
    assert!((c.normal.into_inner() - Vector2::y()).norm() < tol);
    // The mirrored query agrees exactly.
    let m = table
        .contact(&circle, &at(0.0, top + 0.5), &hex, &at(0.0, 0.0))
        .unwrap()
        .unwrap();
    assert_eq!(m.depth, c.depth);
    assert_eq!(m.normal.into_inner(), -c.normal.into_inner());
    // Far from the origin, the same answer.
    let far = table
        .contact(&hex, &at(1e4, -1e4), &circle, &at(1e4, -1e4 + top + 0.5))
        .unwrap()
        .unwrap();
    assert!(Float::abs(far.depth - T::half()) < T::lit(1e-2));

    // Support function only: GJK/EPA.
    let blob = Blob(Ellipse::new(Vector2::new(T::two(), T::one())).unwrap());
    assert_eq!(table.route(&blob, &hex).unwrap(), Route::Gjk);
    assert!(
        table
            .intersects(&blob, &at(0.0, 0.0), &hex, &at(2.9, 0.0))
            .unwrap()
    );
    assert!(
        !table
            .intersects(&blob, &at(0.0, 0.0), &hex, &at(3.1, 0.0))
            .unwrap()
    );
    let c = table
        .contact(&blob, &at(0.0, 0.0), &hex, &at(2.5, 0.0))
        .unwrap()
        .unwrap();
    assert!(Float::abs(c.depth - T::half()) < T::lit(1e-3), "{c:?}");
    // The overlap is flat to fourth order around +x (the hexagon's corner in the
    // ellipse's tip), so the direction is only loosely determined; the depth is.
    assert!(c.normal.x > T::lit(0.99), "{c:?}");
    assert_eq!(
        table
            .intersects(&blob, &at(0.0, 0.0), &hex, &at(2.9, 0.0))
            .unwrap(),
        table
            .intersects(&hex, &at(2.9, 0.0), &blob, &at(0.0, 0.0))
            .unwrap()
    );
}
shape::for_each_precision!(fallbacks, fallbacks);

fn hex_circle(a: &Hex<f64>, b: &Circle<f64>, m: &Isometry2<f64>) -> bool {
    narrowphase::circle::circle_polygon(b, &a.0, &m.inverse())
}
fn hex_circle_contact(a: &Hex<f64>, b: &Circle<f64>, m: &Isometry2<f64>) -> Option<Contact<f64>> {
    narrowphase::circle::circle_polygon_contact(b, &a.0, &m.inverse())
        .map(|c| c.flipped().transformed(m))
}

#[test]
fn registered_user_kernel() {
    let mut table = DispatchTable::<f64>::new();
    table.register(
        Hex::<f64>::KIND,
        ShapeKind::CIRCLE,
        "hex_circle",
        hex_circle,
        hex_circle_contact,
    );
    let hex = Hex::<f64>::new(1.0);
    let circle = Circle::new(1.0).unwrap();
    assert_eq!(
        table.route(&hex, &circle).unwrap(),
        Route::Kernel {
            name: "hex_circle",
            mirrored: false
        }
    );
    assert_eq!(
        table.route(&circle, &hex).unwrap(),
        Route::Kernel {
            name: "hex_circle",
            mirrored: true
        }
    );
    let (o, p) = (
        Isometry2::identity(),
        Isometry2::new(Vector2::new(1.5, 0.3), 0.4),
    );
    let by_kernel = table.contact(&hex, &o, &circle, &p).unwrap().unwrap();
    let by_sat = DispatchTable::<f64>::new()
        .contact(&hex, &o, &circle, &p)
        .unwrap()
        .unwrap();
    assert!(
        (by_kernel.depth - by_sat.depth).abs() < 1e-9,
        "{by_kernel:?} vs {by_sat:?}"
    );
    assert!((by_kernel.normal.into_inner() - by_sat.normal.into_inner()).norm() < 1e-9);
    let mirrored = table.contact(&circle, &p, &hex, &o).unwrap().unwrap();
    assert_eq!(mirrored.normal.into_inner(), -by_kernel.normal.into_inner());
}

#[test]
fn overriding_a_builtin_kernel() {
    fn never(_: &Circle<f64>, _: &Circle<f64>, _: &Isometry2<f64>) -> bool {
        false
    }
    fn never_contact(_: &Circle<f64>, _: &Circle<f64>, _: &Isometry2<f64>) -> Option<Contact<f64>> {
        None
    }
    let mut table = DispatchTable::<f64>::new();
    let c = Circle::new(1.0).unwrap();
    let o = Isometry2::identity();
    assert!(table.intersects(&c, &o, &c, &o).unwrap());
    table.register(
        ShapeKind::CIRCLE,
        ShapeKind::CIRCLE,
        "ghosts",
        never,
        never_contact,
    );
    assert!(!table.intersects(&c, &o, &c, &o).unwrap());
    assert_eq!(table.contact(&c, &o, &c, &o).unwrap(), None);
}

#[test]
fn errors() {
    let table = DispatchTable::<f64>::new();
    let o = Isometry2::identity();
    let circle = Circle::new(1.0).unwrap();
    assert_eq!(
        table.intersects(&Ring, &o, &circle, &o),
        Err(DispatchError::Unsupported {
            a: ShapeKind::custom(2),
            b: ShapeKind::CIRCLE
        })
    );
    assert!(table.contact(&circle, &o, &Ring, &o).is_err());
    let err = table.intersects(&Liar, &o, &circle, &o).unwrap_err();
    assert_eq!(
        err,
        DispatchError::KindMismatch {
            kind: ShapeKind::CIRCLE
        }
    );
    assert!(err.to_string().contains("as_any"));
    // The table is still usable afterwards.
    assert!(table.intersects(&circle, &o, &circle, &o).unwrap());
    // An empty table falls back for built-ins too.
    let empty = DispatchTable::<f64>::empty();
    assert_eq!(empty.route(&circle, &circle).unwrap(), Route::Sat);
    assert!(
        empty
            .intersects(&circle, &o, &circle, &Isometry2::translation(2.0, 0.0))
            .unwrap()
    );
}
