//! A small, fast hasher for integer cell keys (the standard SipHash is built to
//! resist hostile keys, which cell coordinates are not; this one is a
//! multiply-and-rotate mix in the style of FxHash, written here to avoid a
//! dependency).

use core::hash::{BuildHasherDefault, Hasher};

/// Hashes a few machine words by multiply-rotate mixing.
#[derive(Default, Clone, Copy)]
pub struct CellHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl Hasher for CellHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(K);
    }
    #[inline]
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // A final avalanche so that neighbouring cells spread over the table.
        let mut z = self.0;
        z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^ (z >> 33)
    }
}

/// `HashMap` builder using [`CellHasher`].
pub type BuildCellHasher = BuildHasherDefault<CellHasher>;
