//! Shared input generation for kasanari's benchmarks: the deterministic
//! random generator of `kasanari::demo` (SplitMix64), so every run measures the
//! same inputs without another dependency.

pub use kasanari::demo::Rng;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            let x = a.range(-2.0, 3.0);
            assert_eq!(x, b.range(-2.0, 3.0));
            assert!((-2.0..3.0).contains(&x));
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
