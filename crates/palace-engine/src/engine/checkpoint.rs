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

    fn encode(&self, out: &mut Vec<u8>) {
        for v in [self.k, self.width, self.height, self.tile_width, self.band_height, self.band] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(self.strips.len() as u32).to_le_bytes());
        for s in &self.strips {
            for part in [s.bottom.iter().map(|&v| v as u8).collect::<Vec<u8>>(), s.c.clone(), s.d_top.clone()]
            {
                out.extend_from_slice(&(part.len() as u32).to_le_bytes());
                out.extend_from_slice(&part);
            }
        }
    }

    fn decode(r: &mut Reader<'_>) -> Option<Frontier> {
        let mut f = Frontier {
            k: r.u32()?,
            width: r.u32()?,
            height: r.u32()?,
            tile_width: r.u32()?,
            band_height: r.u32()?,
            band: r.u32()?,
            strips: Vec::new(),
        };
        let n = r.u32()? as usize;
        // Every strip takes at least 12 bytes: refuse counts the file cannot hold before
        // allocating for them.
        if n > r.rest() / 12 {
            return None;
        }
        for _ in 0..n {
            let bottom = r.bytes()?.iter().map(|&b| b as i8).collect();
            let c = r.bytes()?.to_vec();
            let d_top = r.bytes()?.to_vec();
            f.strips.push(FrontierStrip { bottom, c, d_top });
        }
        Some(f)
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    fn rest(&self) -> usize {
        self.0.len()
    }
}

/// A paused run: the sweep's frontier and the analysis's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// Names the run (command, game, board); a resumed run must name the same.
    pub tag: String,
    /// Where the sweep stands.
    pub frontier: Frontier,
    /// The analysis's state, in its own encoding.
    pub state: Vec<u8>,
}

const MAGIC: &[u8; 18] = b"palace checkpoint\n";

/// The first bytes of a checkpoint of the skin on a GPU (`palace::gpu::GpuSkin`), which has a
/// format of its own: [`looks_like_checkpoint`] knows both.
pub const GPU_SKIN_MAGIC: &[u8; 16] = b"palace GPU skin\n";
const FORMAT: u32 = 1;

impl Checkpoint {
    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&FORMAT.to_le_bytes());
        for s in [env!("CARGO_PKG_VERSION").as_bytes(), self.tag.as_bytes()] {
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s);
        }
        self.frontier.encode(&mut out);
        out.extend_from_slice(&(self.state.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.state);
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a checkpoint written by [`Checkpoint::encode`] for the run named `tag`; `path` is
    /// for the messages. A file that is not a checkpoint, or is corrupt or truncated, is
    /// [`Error::BadInput`] (or [`Error::Checkpoint`] with [`CheckpointProblem::Corrupt`]); one of
    /// another version or another run is [`Error::Checkpoint`], a usage error.
    pub fn decode(bytes: &[u8], tag: &str, path: &Path) -> Result<Checkpoint> {
        let bad = |reason: &str| Error::BadInput { path: path.to_path_buf(), reason: reason.to_string() };
        if !bytes.starts_with(MAGIC) {
            return Err(bad("not a palace checkpoint"));
        }
        let (body, crc) = bytes.split_at(bytes.len().saturating_sub(4).max(MAGIC.len()));
        if crc.len() != 4 || crc32fast::hash(body).to_le_bytes() != crc {
            return Err(Error::Checkpoint { path: path.to_path_buf(), problem: CheckpointProblem::Corrupt });
        }
        let mut r = Reader(&body[MAGIC.len()..]);
        let format = r.u32().ok_or_else(|| bad("truncated header"))?;
        let version = r.bytes().ok_or_else(|| bad("truncated header"))?;
        let version = String::from_utf8_lossy(version).into_owned();
        if format != FORMAT || version != env!("CARGO_PKG_VERSION") {
            return Err(Error::Checkpoint {
                path: path.to_path_buf(),
                problem: CheckpointProblem::Version {
                    version,
                    format,
                    ours: env!("CARGO_PKG_VERSION"),
                    our_format: FORMAT,
                },
            });
        }
        let found = String::from_utf8_lossy(r.bytes().ok_or_else(|| bad("truncated header"))?).into_owned();
        if found != tag {
            return Err(Error::Checkpoint {
                path: path.to_path_buf(),
                problem: CheckpointProblem::Run { found, tag: tag.to_string() },
            });
        }
        let frontier = Frontier::decode(&mut r).ok_or_else(|| bad("truncated frontier"))?;
        if let Some(why) = frontier.unfit(frontier.k, frontier.width, frontier.height) {
            return Err(bad(&why));
        }
        let state = r.bytes().ok_or_else(|| bad("truncated state"))?.to_vec();
        if r.rest() != 0 {
            return Err(bad("trailing bytes after the state"));
        }
        Ok(Checkpoint { tag: tag.to_string(), frontier, state })
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

    fn sample() -> Checkpoint {
        Checkpoint {
            tag: "stats --palaces-only k=9 12x34".into(),
            frontier: Frontier {
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
            },
            state: vec![1, 2, 3, 4, 5],
        }
    }

    #[test]
    fn round_trip() {
        let c = sample();
        assert_eq!(Checkpoint::decode(&c.encode(), &c.tag, Path::new("x")).unwrap(), c);
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
    }

    /// A frontier that does not fit its own tiling is refused even with a valid checksum.
    #[test]
    fn a_frontier_that_does_not_fit_its_tiling_is_refused() {
        let good = sample();
        assert_eq!(good.frontier.unfit(9, 12, 34), None);
        let mut bad = good.clone();
        bad.frontier.strips[1].bottom.pop();
        let mut past = good.clone();
        past.frontier.band = 9;
        let mut narrow = good.clone();
        narrow.frontier.tile_width = 1;
        for (what, c) in [("strip size", bad), ("band", past), ("tiling", narrow)] {
            assert!(Checkpoint::decode(&c.encode(), &c.tag, Path::new("x")).is_err(), "{what}");
        }
        assert!(good.frontier.unfit(10, 12, 34).is_some());
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
}
