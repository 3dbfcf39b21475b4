//! NumPy `.npy` export of a window: little-endian `int32`, shape `(rows, columns)`, C order,
//! format version 1.0 — what `numpy.load` reads unchanged. Rows are streamed, so memory stays
//! bounded by the width. A small reader is included for round-trip checks.

use crate::engine::sink::{Row, RowSink};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Which numbers to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Values {
    /// CA values v = N - k (negative exactly at palaces).
    #[default]
    Ca,
    /// Palace numbers N: how many palaces the queen sees west, north and north-west.
    Palace,
}

/// The `.npy` version 1.0 header for an `int32` array of shape `(rows, cols)`, padded so the
/// data starts at a multiple of 64 bytes.
pub fn header(rows: u64, cols: u64) -> Vec<u8> {
    header_of("<i4", rows, cols, 0)
}

/// The `.npy` version 1.0 header for an array of `descr` (such as `<i8`) and shape
/// `(rows, cols)`, padded to at least `len` bytes and to a multiple of 64: a header written
/// before the row count is known can be replaced by the final one of the same length.
pub fn header_of(descr: &str, rows: u64, cols: u64, len: usize) -> Vec<u8> {
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    // magic (6) + version (2) + header length (2) + dict + padding + '\n'
    let unpadded = (10 + dict.len() + 1).max(len);
    let total = unpadded.next_multiple_of(64);
    let mut h = Vec::with_capacity(total);
    h.extend_from_slice(b"\x93NUMPY\x01\x00");
    h.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.resize(total - 1, b' ');
    h.push(b'\n');
    h
}

/// Cells converted and written at a time: a row of a very wide window is written in pieces,
/// with a bounded buffer and a look at the cancellation token between them.
const CHUNK: usize = 1 << 18;

/// Streams a window's values into a `.npy` file.
pub struct NpyWriter {
    out: AtomicOutput,
    values: Values,
    buf: Vec<u8>,
    cancel: crate::engine::Cancel,
}

impl NpyWriter {
    /// Starts the file for `window` (the header is written now).
    pub fn create(mut out: AtomicOutput, window: Window, values: Values) -> Result<Self> {
        let h = header(u64::from(window.height()), u64::from(window.width()));
        let path = out.path().to_path_buf();
        out.file().write_all(&h).map_err(|e| Error::io(&path, e))?;
        let buf = Vec::with_capacity(4 * CHUNK.min(window.width() as usize));
        Ok(NpyWriter { out, values, buf, cancel: crate::engine::Cancel::new() })
    }

    /// Stops writing a row with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled (a row of a
    /// very wide window takes long).
    pub fn with_cancel(mut self, cancel: crate::engine::Cancel) -> Self {
        self.cancel = cancel;
        self
    }

    /// Renames the finished file into place.
    pub fn finish(self) -> Result<PathBuf> {
        self.out.commit()
    }
}

impl RowSink for NpyWriter {
    type Error = crate::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let shift = match self.values {
            Values::Ca => 0,
            Values::Palace => i64::from(row.k),
        };
        let n = row.cells.len();
        for start in (0..n).step_by(CHUNK) {
            self.cancel.check()?;
            self.buf.clear();
            for i in start..(start + CHUNK).min(n) {
                // |v| <= 2k and N <= 3k fit i32 for every accepted k (rule::MAX_K).
                let v = i32::try_from(row.v(i) + shift).expect("value fits int32");
                self.buf.extend_from_slice(&v.to_le_bytes());
            }
            let path = self.out.path().to_path_buf();
            self.out.file().write_all(&self.buf).map_err(|e| Error::io(path, e))?;
        }
        Ok(())
    }
}

/// A 2-D `int32` array read back from a `.npy` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpyArray {
    /// Rows and columns.
    pub shape: (usize, usize),
    /// The values, row-major.
    pub data: Vec<i32>,
}

/// Reads a 2-D little-endian `int32` C-order `.npy` file (versions 1.0 and 2.0).
pub fn read(path: &Path) -> Result<NpyArray> {
    let bad = |m: &str| Error::BadInput {
        path: path.to_path_buf(),
        reason: format!("not a 2-D <i4 .npy file ({m})"),
    };
    let mut f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("bad magic"));
    }
    let (hlen, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 => (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12),
        _ => return Err(bad("unknown version")),
    };
    let dict = std::str::from_utf8(bytes.get(start..start + hlen).ok_or_else(|| bad("short header"))?)
        .map_err(|_| bad("header not text"))?;
    if !dict.contains("'descr': '<i4'") || !dict.contains("'fortran_order': False") {
        return Err(bad("dtype or order"));
    }
    let shape_txt =
        dict.split("'shape': (").nth(1).and_then(|s| s.split(')').next()).ok_or_else(|| bad("no shape"))?;
    let dims: Vec<usize> = shape_txt
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| bad("shape")))
        .collect::<Result<_>>()?;
    if dims.len() != 2 {
        return Err(bad("not 2-D"));
    }
    let body = &bytes[start + hlen..];
    if body.len() != dims[0] * dims[1] * 4 {
        return Err(bad("data length does not match the shape"));
    }
    let data = body.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Ok(NpyArray { shape: (dims[0], dims[1]), data })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_aligned_and_parsable() {
        for (r, c) in [(1, 1), (1500, 1500), (123456789, 7)] {
            let h = header(r, c);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
            assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
            assert_eq!(*h.last().unwrap(), b'\n');
            let text = std::str::from_utf8(&h[10..]).unwrap();
            assert!(text.contains(&format!("'shape': ({r}, {c})")));
        }
    }
}
