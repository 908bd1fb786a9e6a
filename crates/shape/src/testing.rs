//! Test support shared by kasanari's crates (not part of the public API).

/// Defines a test module `$name` that runs the generic test body `$body::<T>()`
/// once for `f32` and once for `f64`.
#[macro_export]
#[doc(hidden)]
macro_rules! for_each_precision {
    ($name:ident, $body:ident) => {
        mod $name {
            #[test]
            fn f32() {
                super::$body::<f32>();
            }
            #[test]
            fn f64() {
                super::$body::<f64>();
            }
        }
    };
}

/// The tolerance tests allow for a value of magnitude about `scale` after a few
/// dozen floating-point operations: `256 ε · max(scale, 1)` (f32: 3.1e-5, f64:
/// 5.7e-14 at unit scale).
#[must_use]
pub fn test_tolerance<T: crate::Real>(scale: T) -> T {
    T::epsilon() * T::lit(256.0) * num_traits::Float::max(scale, T::one())
}

/// The number of cases a property test runs: `PROPTEST_CASES` from the
/// environment when it is set (deep runs, `docs/testing.md`), else the test's
/// own `default`, chosen to keep CI under its time budget.
#[must_use]
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}
