//! Pausing and resuming a sweep between bands.
//!
//! A sweep hands out bands in order. When it is asked to pause it hands out no more, lets the
//! bands in flight finish, and returns its [`Frontier`]: the index of the next band and, for
//! each strip, what the band below reads of the last band: its last two rows and (in counter
//! sweeps) the counters leaving its bottom. That is a few bytes per column, whatever the
//! board's height. A sweep started from a frontier continues exactly where the paused one
//! stopped.
//!
//! [`Checkpoint`] is the file that carries a frontier and an analysis's own state between
//! processes: written atomically, with the program's version, a tag naming the run (command,
//! game, board), and a CRC-32 of everything before it, so that a corrupt, truncated or
//! foreign file is refused. It is encoded here ([`Checkpoint::encode`]) and written by the
//! output layer (`output::checkpoint`), so that the engine imports nothing of `output`.

use crate::error::{CheckpointProblem, Error, Result};
use std::path::Path;

/// Where a paused sweep stands: every band before [`Frontier::band`] is done, none after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontier {
    /// The game.
    pub k: u32,
    /// Width of the swept region.
    pub width: u32,
    /// Height of the swept region.
    pub height: u32,
    /// The tiling the sweep used (a resumed sweep uses it too).
    pub tile_width: u32,
    /// Band height of that tiling.
    pub band_height: u32,
    /// The next band to compute.
    pub band: u32,
    /// Per strip, what the next band reads of the last one.
    pub strips: Vec<FrontierStrip>,
}

/// What the band below reads of one tile of the last band done.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FrontierStrip {
    /// Its last two rows (one if the band has one row), row after row.
    pub bottom: Vec<i8>,
    /// Counter sweeps: `C` leaving its bottom, per column (modulo 256).
    pub c: Vec<u8>,
    /// Counter sweeps: `D'` leaving its bottom, per column (modulo 256).
    pub d_top: Vec<u8>,
}

impl Frontier {
    /// Rows done.
    pub fn rows_done(&self) -> u32 {
        (self.band.saturating_mul(self.band_height)).min(self.height)
    }

    /// Why this frontier cannot continue a sweep of game `k` over `[0, width) x [0, height)`,
    /// if it cannot: another game or region, an impossible tiling, a band past the end, or
    /// strips that do not match the tiling.
    pub fn unfit(&self, k: u32, width: u32, height: u32) -> Option<String> {
        if (self.k, self.width, self.height) != (k, width, height) {
            return Some(format!(
                "the frontier is of game {} over {}x{}, not of game {k} over {width}x{height}",
                self.k, self.width, self.height
            ));
        }
        if self.tile_width < 2 || self.band_height < 2 || self.width == 0 || self.height == 0 {
            return Some("the frontier's tiling is impossible".into());
        }
        let bands = self.height.div_ceil(self.band_height);
        if self.band == 0 || self.band >= bands {
            return Some(format!("the frontier's band {} is not between 1 and {}", self.band, bands - 1));
        }
        let strips = self.width.div_ceil(self.tile_width) as usize;
        if self.strips.len() != strips {
            return Some(format!("the frontier has {} strips, its tiling {strips}", self.strips.len()));
        }
        for (j, s) in self.strips.iter().enumerate() {
            let x0 = j as u32 * self.tile_width;
            let w = ((x0 + self.tile_width).min(self.width) - x0) as usize;
            let counters = s.c.is_empty() && s.d_top.is_empty() || s.c.len() == w && s.d_top.len() == w;
            if s.bottom.len() != 2 * w || !counters {
                return Some(format!("strip {j} of the frontier does not have the size of its tile"));
            }
        }
        None
    }

    /// Writes the frontier.
    pub fn encode(&self, w: &mut Writer) {
        for v in [self.k, self.width, self.height, self.tile_width, self.band_height, self.band] {
            w.u32(v);
        }
        w.u64(self.strips.len() as u64);
        for s in &self.strips {
            w.bytes(&s.bottom.iter().map(|&v| v as u8).collect::<Vec<u8>>());
            w.bytes(&s.c);
            w.bytes(&s.d_top);
        }
    }

    /// Reads a frontier written by [`Frontier::encode`]; `None` if the bytes are truncated or
    /// malformed (whether it fits a run is [`Frontier::unfit`]'s to say).
    pub fn decode(r: &mut Reader<'_>) -> Option<Frontier> {
        let mut f = Frontier {
            k: r.u32()?,
            width: r.u32()?,
            height: r.u32()?,
            tile_width: r.u32()?,
            band_height: r.u32()?,
            band: r.u32()?,
            strips: Vec::new(),
        };
        // Every strip takes at least 24 bytes: refuse counts the bytes cannot hold before
        // allocating for them.
        let n = r.len(24)?;
        for _ in 0..n {
            let bottom = r.bytes()?.iter().map(|&b| b as i8).collect();
            let c = r.bytes()?.to_vec();
            let d_top = r.bytes()?.to_vec();
            f.strips.push(FrontierStrip { bottom, c, d_top });
        }
        Some(f)
    }
}

/// The one encoding of checkpoint state: little-endian numbers, and byte strings and lists
/// after their length as a `u64`. Every run's state is written with it and read back with
/// [`Reader`].
#[derive(Debug, Default)]
pub struct Writer(Vec<u8>);

impl Writer {
    /// An empty state.
    pub fn new() -> Self {
        Writer(Vec::new())
    }

    /// A byte.
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    /// A `u32`.
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// A `u64`.
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// An `i64`.
    pub fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// A byte string, after its length.
    pub fn bytes(&mut self, v: &[u8]) {
        self.u64(v.len() as u64);
        self.0.extend_from_slice(v);
    }

    /// A list of `u32`, after its length.
    pub fn u32s(&mut self, v: &[u32]) {
        self.u64(v.len() as u64);
        v.iter().for_each(|&x| self.u32(x));
    }

    /// A list of `u64`, after its length.
    pub fn u64s(&mut self, v: &[u64]) {
        self.u64(v.len() as u64);
        v.iter().for_each(|&x| self.u64(x));
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

/// Reads what a [`Writer`] wrote; every read is `None` once the bytes run out or a length
/// exceeds what is left, so a truncated or malformed state is refused, never misread.
#[derive(Debug)]
pub struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    /// Reads `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader(bytes)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }

    /// A byte.
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    /// A `u32`.
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    /// A `u64`.
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// An `i64`.
    pub fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// A length of items of at least `each` bytes, refused if the bytes left cannot hold it.
    pub fn len(&mut self, each: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n <= self.0.len() / each.max(1)).then_some(n)
    }

    /// A byte string.
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len(1)?;
        self.take(n)
    }

    /// A list of `u32`.
    pub fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.len(4)?;
        (0..n).map(|_| self.u32()).collect()
    }

    /// A list of `u64`.
    pub fn u64s(&mut self) -> Option<Vec<u64>> {
        let n = self.len(8)?;
        (0..n).map(|_| self.u64()).collect()
    }

    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The bytes left to read.
    pub fn remaining(&self) -> usize {
        self.0.len()
    }
}

/// A paused run as a file: the tag that names the run and the run's state (for a sweep, its
/// frontier and its analysis's state), in the encoding of [`Writer`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// Names the run (command, game, board); a resumed run must name the same.
    pub tag: String,
    /// The run's state.
    pub state: Vec<u8>,
}

const MAGIC: &[u8; 18] = b"palace checkpoint\n";

/// The first bytes of a checkpoint of the skin on a GPU as its format of its own wrote it
/// (format 1): still recognised, and refused as another format.
const GPU_SKIN_MAGIC: &[u8; 16] = b"palace GPU skin\n";

/// The checkpoint format: 2 since every run's state, the GPU skin's too, is one [`Writer`]
/// state in this file.
pub const FORMAT: u32 = 2;

impl Checkpoint {
    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.0.extend_from_slice(MAGIC);
        w.u32(FORMAT);
        w.bytes(env!("CARGO_PKG_VERSION").as_bytes());
        w.bytes(self.tag.as_bytes());
        w.bytes(&self.state);
        let mut out = w.into_bytes();
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a checkpoint written by [`Checkpoint::encode`] for the run named `tag`; `path` is
    /// for the messages. A file that is not a checkpoint, or is truncated, is
    /// [`Error::BadInput`] (or [`Error::Checkpoint`] with [`CheckpointProblem::Corrupt`]); one of
    /// another version, format or run is [`Error::Checkpoint`], a usage error.
    pub fn decode(bytes: &[u8], tag: &str, path: &Path) -> Result<Checkpoint> {
        let bad = |reason: &str| Error::BadInput { path: path.to_path_buf(), reason: reason.to_string() };
        let other = |version: String, format: u32| Error::Checkpoint {
            path: path.to_path_buf(),
            problem: CheckpointProblem::Version {
                version,
                format,
                ours: env!("CARGO_PKG_VERSION"),
                our_format: FORMAT,
            },
        };
        if bytes.starts_with(GPU_SKIN_MAGIC) {
            return Err(other("0.1.0 (the skin on a GPU)".into(), 1));
        }
        if !bytes.starts_with(MAGIC) {
            return Err(bad("not a palace checkpoint"));
        }
        let (body, crc) = bytes.split_at(bytes.len().saturating_sub(4).max(MAGIC.len()));
        if crc.len() != 4 || crc32fast::hash(body).to_le_bytes() != crc {
            return Err(Error::Checkpoint { path: path.to_path_buf(), problem: CheckpointProblem::Corrupt });
        }
        let mut r = Reader(&body[MAGIC.len()..]);
        let format = r.u32().ok_or_else(|| bad("truncated header"))?;
        // Format 1 stored its version after a 32-bit length.
        let version = if format == 1 { r.u32().and_then(|n| r.take(n as usize)) } else { r.bytes() };
        let version = String::from_utf8_lossy(version.ok_or_else(|| bad("truncated header"))?).into_owned();
        if format != FORMAT || version != env!("CARGO_PKG_VERSION") {
            return Err(other(version, format));
        }
        let found = String::from_utf8_lossy(r.bytes().ok_or_else(|| bad("truncated header"))?).into_owned();
        if found != tag {
            return Err(Error::Checkpoint {
                path: path.to_path_buf(),
                problem: CheckpointProblem::Run { found, tag: tag.to_string() },
            });
        }
        let state = r.bytes().ok_or_else(|| bad("truncated state"))?.to_vec();
        if !r.is_empty() {
            return Err(bad("trailing bytes after the state"));
        }
        Ok(Checkpoint { tag: tag.to_string(), state })
    }
}

/// Whether the file at `path` begins like a checkpoint (its first bytes are a checkpoint's
/// signature); says nothing of its integrity, which [`Checkpoint::decode`] checks.
pub fn looks_like_checkpoint(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path).and_then(|f| f.take(MAGIC.len() as u64).read_to_end(&mut head)).is_ok()
        && (head == MAGIC || head.starts_with(GPU_SKIN_MAGIC))
}

/// Whether `a` and `b` name one file (after following links); false if either is missing.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            (x.dev(), x.ino()) == (y.dev(), y.ino())
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => {
            std::fs::canonicalize(a).ok().is_some_and(|p| std::fs::canonicalize(b).ok() == Some(p))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frontier() -> Frontier {
        Frontier {
            k: 9,
            width: 12,
            height: 34,
            tile_width: 8,
            band_height: 4,
            band: 3,
            strips: vec![
                FrontierStrip { bottom: vec![-1; 16], c: vec![2; 8], d_top: vec![200; 8] },
                FrontierStrip { bottom: vec![5; 8], c: vec![1; 4], d_top: vec![7; 4] },
            ],
        }
    }

    fn sample() -> Checkpoint {
        let mut w = Writer::new();
        frontier().encode(&mut w);
        w.u32s(&[1, 2, 3]);
        Checkpoint { tag: "stats --palaces-only k=9 12x34".into(), state: w.into_bytes() }
    }

    #[test]
    fn round_trip() {
        let c = sample();
        let back = Checkpoint::decode(&c.encode(), &c.tag, Path::new("x")).unwrap();
        assert_eq!(back, c);
        let mut r = Reader::new(&back.state);
        assert_eq!(Frontier::decode(&mut r), Some(frontier()));
        assert_eq!(r.u32s(), Some(vec![1, 2, 3]));
        assert!(r.is_empty());
    }

    #[test]
    fn every_flipped_byte_and_every_truncation_is_refused() {
        let c = sample();
        let bytes = c.encode();
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(Checkpoint::decode(&b, &c.tag, Path::new("x")).is_err(), "byte {i} flipped");
            assert!(Checkpoint::decode(&bytes[..i], &c.tag, Path::new("x")).is_err(), "cut at {i}");
        }
        // A state cut short is refused by its reader, not misread.
        for i in 0..c.state.len() {
            let mut r = Reader::new(&c.state[..i]);
            assert!(Frontier::decode(&mut r).is_none() || r.u32s().is_none(), "state cut at {i}");
        }
    }

    /// A frontier that does not fit its own tiling is found out.
    #[test]
    fn a_frontier_that_does_not_fit_its_tiling_is_found_out() {
        let good = frontier();
        assert_eq!(good.unfit(9, 12, 34), None);
        let mut bad = good.clone();
        bad.strips[1].bottom.pop();
        let mut past = good.clone();
        past.band = 9;
        let mut narrow = good.clone();
        narrow.tile_width = 1;
        for (what, f) in [("strip size", bad), ("band", past), ("tiling", narrow)] {
            assert!(f.unfit(9, 12, 34).is_some(), "{what}");
        }
        assert!(good.unfit(10, 12, 34).is_some());
    }

    #[test]
    fn another_run_is_a_usage_error_naming_both() {
        let c = sample();
        let e =
            Checkpoint::decode(&c.encode(), "stats --palaces-only k=10 12x34", Path::new("x")).unwrap_err();
        assert!(e.is_usage(), "{e}");
        assert!(
            matches!(&e, Error::Checkpoint { problem: CheckpointProblem::Run { found, tag }, .. }
                if found.contains("k=9") && tag.contains("k=10")),
            "{e}"
        );
    }

    /// The files of format 1 (a sweep's, and the GPU skin's format of its own) are refused as
    /// another format, naming the version that wrote them: a usage error.
    #[test]
    fn a_checkpoint_of_format_1_is_refused_naming_its_version() {
        let mut old = MAGIC.to_vec();
        old.extend_from_slice(&1u32.to_le_bytes());
        old.extend_from_slice(&5u32.to_le_bytes());
        old.extend_from_slice(b"0.1.0");
        old.extend_from_slice(&[0; 12]);
        let crc = crc32fast::hash(&old);
        old.extend_from_slice(&crc.to_le_bytes());
        let mut gpu = GPU_SKIN_MAGIC.to_vec();
        gpu.extend_from_slice(&[0; 40]);
        for bytes in [old, gpu] {
            let e = Checkpoint::decode(&bytes, "t", Path::new("x")).unwrap_err();
            assert!(
                e.is_usage()
                    && matches!(
                        &e,
                        Error::Checkpoint { problem: CheckpointProblem::Version { format: 1, .. }, .. }
                    ),
                "{e}"
            );
            assert!(e.to_string().contains("format 1"), "{e}");
        }
    }
}
