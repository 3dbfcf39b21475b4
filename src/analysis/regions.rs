//! Telling the paper's regions apart (§3.1) by properties one can measure.
//!
//! * **hood**: the closed form `max(x, y) + 2 min(x, y) < k` (`docs/rule.md`, "The hood");
//! * **outer space**: the quiet region beyond the shoulders: columns `x >= k` whose cells are
//!   all 0 from row 0 down, and rows `y >= k` whose cells are all 0 from column 0 across;
//! * **épaulettes**: the two-dimensional periodic pattern with periods (5, 1) and (4, 3) and
//!   values `k-1, k, k+1` (§3.2): `v(x, y) = v(x-5, y-1) = v(x-4, y-3)` with `|v| <= 1` for the
//!   lower épaulette, and the mirrored periods (1, 5) and (3, 4) for the upper one (the picture
//!   is symmetric, `v(x, y) = v(y, x)`);
//! * **rift**: the band between an épaulette and the fabric that keeps the épaulette's period
//!   (81, 31) (§3.2) without being épaulette: `v(x, y) = v(x-81, y-31)` for the upper rift (below
//!   the upper épaulette) and `v(x, y) = v(x-31, y-81)` for the lower one, the partner off the
//!   hood and on the board;
//! * **fabric**: the part that game `k + 3` reproduces shifted by (1, 1) with palace numbers
//!   raised by 3 (Fig. 4 left: hood, épaulettes and fabric match; the fabric depends on
//!   `k mod 3` only, §3.3);
//! * **arms**: the part that game `k + 1` reproduces shifted by (1, 0) (upper arm) or (0, 1)
//!   (lower arm) with palace numbers raised by 1 (Fig. 4 right: épaulette and arm match). The
//!   fabric and arm labels are thus *defined* by the invariances the paper observed; that the
//!   matching cells form the connected regions of the pictures is what the labels show;
//! * the cells left over (the *rest*) are split three ways:
//!   * **fray**: the fabric's frayed edge, the first [`FRAY_WIDTH`] cells of the rest past the
//!     fabric — along the row for cells above the diagonal (the upper warp lies right of the
//!     fabric), along the column below it. Past the fabric's last cell the share of cells that
//!     game `k + 3` still reproduces falls from 0.97 to the chance level (about 0.45) within about
//!     a dozen cells (`docs/regions.md`): there the threads unravel;
//!   * **inner sector**: the rest where the warp has run out of threads: at most [`INNER_MAX`]
//!     palaces in the [`INNER_WINDOW`] x [`INNER_WINDOW`] square that ends at the cell (its
//!     lower-right corner), and every rest cell on the diagonal;
//!   * **warps**: the rest of the rest, upper above the diagonal, lower below it.
//!
//! The invariance and periodicity tests are decided on blocks of [`BLOCK`] x [`BLOCK`] cells,
//! all of whose cells (outside hood and outer space) must pass: single cells of chaotic regions
//! agree by chance, whole blocks practically never do. A block without a palace (quiet blocks
//! of the warps pass the invariance tests by chance) only continues the region of the block to
//! its left or above it. The labels are then refined to the cell where a block is mixed: from
//! the block to the left, each row of the block keeps that block's region while its cells pass
//! the region's test, and from the block above each column does (runs of passing cells from
//! the border; a run of chance agreements ends after a cell or two). Going down from the upper
//! épaulette the run goes on through the rift (cells keeping the (81, 31) period), going right
//! from the lower épaulette through the lower rift. A region of higher rank (épaulette, rift,
//! arm, fabric, rest) or one whose test the block's own region fails at the cell wins the cell.
//! Refinement looks only left and up, so the labels of a row are final once its block row is
//! done: a border where the region that continues lies right of or below a mixed block keeps
//! the block's edge there.
//!
//! The reference labeller ([`label`], [`Labeler`]) computes the labels in one lockstep sweep of
//! the four games ([`crate::engine::lockstep`]) from row 0 and column 0, in memory that grows
//! with the width; the tiled labeller ([`label_tiles`]) computes the same labels on the sweep's
//! workers, from three games (game k+1 once).

pub mod borders;
mod bytewise;

use crate::engine::EngineOptions;
use crate::engine::Progress;
use crate::engine::lockstep::{Lane, lockstep};
use crate::engine::sink::Row;
use crate::engine::{LaneState, LaneTiles, LaneVisitor, TileKind, TileView};
use crate::error::Result;
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_value};
use crate::output::legend::{self, MapOutput};
use crate::output::ordered::OrderedPicture;
use crate::output::png::PngStream;
use borders::{Border, BorderAcc, NONE};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Side of the blocks on which the matching and periodicity tests are decided: large enough
/// that whole blocks of the chaotic regions do not pass by chance.
pub const BLOCK: usize = 8;

/// The rift's period (§3.2): the upper rift repeats under `(RIFT_DX, RIFT_DY)`, the lower one
/// under `(RIFT_DY, RIFT_DX)`.
pub const RIFT_DX: usize = 81;
/// See [`RIFT_DX`].
pub const RIFT_DY: usize = 31;

/// Width of the fray: rest cells at most this many cells past the fabric (along the row above
/// the diagonal, along the column below it).
pub const FRAY_WIDTH: u64 = 12;

/// Side of the square of cells (ending at a cell) whose palaces decide the inner sector.
pub const INNER_WINDOW: usize = 64;

/// The most palaces an [`INNER_WINDOW`] square of the inner sector holds.
pub const INNER_MAX: u32 = 4;

/// Rows and columns before a cell that its tests reach back to: the lower rift's period.
const HALO: usize = RIFT_DX;

/// A region of the picture (paper §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Region {
    /// The hood (closed form).
    Hood,
    /// Outer space: the quiet v = 0 region beyond the shoulders.
    OuterSpace,
    /// The upper épaulette: the (1,5)/(3,4)-periodic pattern.
    EpauletteUpper,
    /// The lower épaulette: the (5,1)/(4,3)-periodic pattern.
    EpauletteLower,
    /// The fabric: what game k+3 reproduces shifted by (1,1).
    Fabric,
    /// The upper arm: what game k+1 reproduces shifted by (1,0).
    ArmUpper,
    /// The lower arm: what game k+1 reproduces shifted by (0,1).
    ArmLower,
    /// The upper rift: the (81,31)-periodic band below the upper épaulette that is no épaulette.
    RiftUpper,
    /// The lower rift: the (31,81)-periodic band right of the lower épaulette.
    RiftLower,
    /// The fray: the first [`FRAY_WIDTH`] cells of the rest past the fabric.
    Fray,
    /// The upper warp: the rest above the diagonal, with threads.
    WarpUpper,
    /// The lower warp: the rest below the diagonal, with threads.
    WarpLower,
    /// The inner sector: the rest without threads (at most [`INNER_MAX`] palaces in the
    /// [`INNER_WINDOW`] square ending at the cell).
    InnerSector,
}

/// All regions, in palette order.
pub const ALL: [Region; 13] = [
    Region::Hood,
    Region::OuterSpace,
    Region::EpauletteUpper,
    Region::EpauletteLower,
    Region::Fabric,
    Region::ArmUpper,
    Region::ArmLower,
    Region::RiftUpper,
    Region::RiftLower,
    Region::Fray,
    Region::WarpUpper,
    Region::WarpLower,
    Region::InnerSector,
];

impl Region {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Region::Hood => "hood",
            Region::OuterSpace => "outer space",
            Region::EpauletteUpper => "epaulette (upper)",
            Region::EpauletteLower => "epaulette (lower)",
            Region::Fabric => "fabric",
            Region::ArmUpper => "arm (upper)",
            Region::ArmLower => "arm (lower)",
            Region::RiftUpper => "rift (upper)",
            Region::RiftLower => "rift (lower)",
            Region::Fray => "fray",
            Region::WarpUpper => "warp (upper)",
            Region::WarpLower => "warp (lower)",
            Region::InnerSector => "inner sector",
        }
    }

    /// Index into [`ALL`] and the region map's palette.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The region of an index into [`ALL`].
    pub fn from_index(i: u8) -> Region {
        ALL[usize::from(i)]
    }

    /// The mirror image's region (the picture is symmetric, `v(x, y) = v(y, x)`).
    pub fn mirror(self) -> Region {
        match self {
            Region::EpauletteUpper => Region::EpauletteLower,
            Region::EpauletteLower => Region::EpauletteUpper,
            Region::ArmUpper => Region::ArmLower,
            Region::ArmLower => Region::ArmUpper,
            Region::RiftUpper => Region::RiftLower,
            Region::RiftLower => Region::RiftUpper,
            Region::WarpUpper => Region::WarpLower,
            Region::WarpLower => Region::WarpUpper,
            other => other,
        }
    }

    /// Whether the region is part of the rest: no invariance or period holds on it (fray,
    /// warps, inner sector).
    pub fn is_rest(self) -> bool {
        matches!(self, Region::Fray | Region::WarpUpper | Region::WarpLower | Region::InnerSector)
    }
}

/// The region map's palette (flat RGB), in [`ALL`] order, then white for masked cells.
pub fn plte() -> Vec<u8> {
    [
        [0x5c, 0x33, 0x17], // hood: dark brown
        [0x00, 0x00, 0x00], // outer space: black
        [0xb5, 0xb3, 0x5c], // upper épaulette: light olive
        [0x9a, 0x98, 0x48], // lower épaulette: olive
        [0x3a, 0x6e, 0xe8], // fabric: blue
        [0xff, 0xd7, 0x00], // upper arm: gold
        [0xe8, 0xb0, 0x00], // lower arm: dark gold
        [0x1f, 0x9e, 0x89], // upper rift: teal
        [0x17, 0x80, 0x6e], // lower rift: dark teal
        [0x7f, 0xd4, 0xff], // fray: light blue
        [0x8a, 0x3f, 0xa8], // upper warp: purple
        [0x70, 0x30, 0x8c], // lower warp: dark purple
        [0xe0, 0x6f, 0x9f], // inner sector: pink
        [0xff, 0xff, 0xff], // masked
    ]
    .iter()
    .flatten()
    .copied()
    .collect()
}

/// The games the tiled labeller sweeps, over `[0, x1) x [0, y1)`: `k`, `k+1` shifted (1, 1)
/// and `k+3` shifted (1, 1). The reference's `k+1` shifted (1, 0) is the second lane one row
/// up, and `k+1` shifted (0, 1) the second lane one column left: the labeller takes both from
/// one sweep of `k+1`, with the row above and the column left of a tile from its neighbours.
fn tile_lanes(k: u32, x1: u32, y1: u32) -> [Lane; 3] {
    let w = |dx: u32, dy: u32| Window::new(dx, dy, x1 + dx, y1 + dy);
    [Lane { k, window: w(0, 0) }, Lane { k: k + 1, window: w(1, 1) }, Lane { k: k + 3, window: w(1, 1) }]
}

/// The four games the labels need, over `[0, x1) x [0, y1)`: `k`, `k+1` shifted (1, 0),
/// `k+1` shifted (0, 1), `k+3` shifted (1, 1).
pub fn lanes(k: u32, x1: u32, y1: u32) -> [Lane; 4] {
    let w = |dx: u32, dy: u32| Window::new(dx, dy, x1 + dx, y1 + dy);
    [
        Lane { k, window: w(0, 0) },
        Lane { k: k + 1, window: w(1, 0) },
        Lane { k: k + 1, window: w(0, 1) },
        Lane { k: k + 3, window: w(1, 1) },
    ]
}

// The per-cell tests of the tile path's vector loop take the low byte, so that they are
// computed in bytes; the others the high byte.
const F_UPPER: u16 = 1; // matches k+1 shifted (1,0)
const F_LOWER: u16 = 2; // matches k+1 shifted (0,1)
const F_PLUS3: u16 = 4; // matches k+3 shifted (1,1)
const F_PER_LOWER: u16 = 8; // the lower épaulette's periods (5,1), (4,3) hold and |v| <= 1
const F_PER_UPPER: u16 = 16; // the upper épaulette's periods (1,5), (3,4) hold and |v| <= 1
const F_RIFT_UPPER: u16 = 32; // v(x, y) = v(x-81, y-31), the partner testable
const F_RIFT_LOWER: u16 = 64; // v(x, y) = v(x-31, y-81), the partner testable
const F_SMALL: u16 = 128; // |v| <= 1
const F_HOOD: u16 = 256;
const F_OUTER: u16 = 512;
const F_UNTESTABLE: u16 = 1024; // a period partner lies in the hood or off the board
const F_SPARSE: u16 = 2048; // at most INNER_MAX palaces in the INNER_WINDOW square ending here
// Classes of the value, which the tile path adds to the flags for the blocks' reductions (not
// tests of a region, so never looked at per cell): v < 0, v = -1, v = 1, v <= -2.
const V_NEG: u16 = 4096;
const V_M1: u16 = 8192;
const V_P1: u16 = 16384;
const V_LE_M2: u16 = 32768;
const V_ALL: u16 = V_NEG | V_M1 | V_P1 | V_LE_M2;

/// The value classes of `v` ([`V_NEG`] and the others).
#[inline(always)]
fn value_bits(v: i8) -> u16 {
    (u16::from(v < 0) * V_NEG)
        | (u16::from(v == -1) * V_M1)
        | (u16::from(v == 1) * V_P1)
        | (u16::from(v <= -2) * V_LE_M2)
}

/// Cell and block labels while they are decided: an index into [`ALL`], or the rest.
const REST: u8 = u8::MAX;
const HOOD: u8 = Region::Hood as u8;
const OUTER: u8 = Region::OuterSpace as u8;
const EP_UP: u8 = Region::EpauletteUpper as u8;
const EP_LO: u8 = Region::EpauletteLower as u8;
const FABRIC: u8 = Region::Fabric as u8;
const ARM_UP: u8 = Region::ArmUpper as u8;
const ARM_LO: u8 = Region::ArmLower as u8;
const RIFT_UP: u8 = Region::RiftUpper as u8;
const RIFT_LO: u8 = Region::RiftLower as u8;

/// The flags of the épaulettes' and the rift's tests that need cells before the cell: the rift
/// partners `(x-81, y-31)` and `(x-31, y-81)`, and the palaces of the inner sector's square.
/// `at(dx, dy)` is the cell `dx` columns left of and `dy` rows above `(x, y)`; `t_up` and
/// `t_lo` the first columns whose rift partners are testable; `pal` the palaces in the square.
fn rift_flags(v: i8, x: u64, t_up: u64, t_lo: u64, at: impl Fn(usize, usize) -> i8, pal: u32) -> u16 {
    let mut f = 0;
    if x >= t_up && at(RIFT_DX, RIFT_DY) == v {
        f |= F_RIFT_UPPER;
    }
    if x >= t_lo && at(RIFT_DY, RIFT_DX) == v {
        f |= F_RIFT_LOWER;
    }
    if pal <= INNER_MAX {
        f |= F_SPARSE;
    }
    if v.abs() <= 1 {
        f |= F_SMALL;
    }
    f
}

/// The first columns of row `y` whose upper and lower rift partners are on the board and off
/// the hood.
fn rift_testable(k: u32, y: u64) -> (u64, u64) {
    let t = |dx: usize, dy: usize| {
        if y >= dy as u64 { hood_len(k, y - dy as u64) + dx as u64 } else { u64::MAX }
    };
    (t(RIFT_DX, RIFT_DY), t(RIFT_DY, RIFT_DX))
}

/// What a block's label is decided on: its cells outside hood and outer space.
#[derive(Clone, Copy)]
struct BlockStats {
    cand: u32,
    tested: u32,
    /// AND of the flags of all candidate cells, and of the testable ones.
    all: u16,
    per: u16,
    lo: i8,
    hi: i8,
    hood: bool,
}

impl BlockStats {
    fn new() -> Self {
        BlockStats { cand: 0, tested: 0, all: !0, per: !0, lo: i8::MAX, hi: i8::MIN, hood: false }
    }

    fn add(&mut self, f: u16, v: i8) {
        if f & F_HOOD != 0 {
            self.hood = true;
            return;
        }
        if f & F_OUTER != 0 {
            return;
        }
        self.cand += 1;
        (self.lo, self.hi) = (self.lo.min(v), self.hi.max(v));
        self.all &= f;
        if f & F_UNTESTABLE == 0 {
            self.tested += 1;
            self.per &= f;
        }
    }
}

impl BlockStats {
    /// What [`block_label`] decides on.
    fn facts(&self) -> BlockFacts {
        if self.cand == 0 {
            return BlockFacts::EMPTY;
        }
        BlockFacts {
            cand: self.cand > 0,
            all: self.all,
            per: self.per,
            // The épaulette pattern has palaces and k+1 cells in every block: a uniform block
            // is periodic with any period and is no épaulette. Along the casing a block keeps
            // few cells off the hood; there the values need only stay within k-1..k+1.
            periodic: if self.hood {
                self.lo >= -1 && self.hi <= 1
            } else {
                2 * self.tested >= self.cand && self.lo == -1 && self.hi == 1
            },
            quiet: self.lo == self.hi || self.lo >= 0,
        }
    }
}

/// What a block's label is decided on (from [`BlockStats`], or on the tile path from the OR
/// and AND of its cells' flags and value classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BlockFacts {
    /// The block has a candidate cell (outside hood and outer space).
    cand: bool,
    /// [`BlockStats::all`] and [`BlockStats::per`].
    all: u16,
    per: u16,
    /// The values allow the épaulette's pattern.
    periodic: bool,
    /// No palace, or every candidate the same value.
    quiet: bool,
}

impl BlockFacts {
    /// The facts of a block without candidate cells.
    const EMPTY: BlockFacts = BlockFacts { cand: false, all: !0, per: !0, periodic: false, quiet: true };

    /// The facts of a block all of whose cells are candidates and testable, from the OR and
    /// AND of their flags with their [`value_bits`]; `None` where every value is -2 or less
    /// (whether they are all equal is not known from the classes).
    #[inline(always)]
    fn of_candidates(or: u16, and: u16) -> Option<BlockFacts> {
        if and & V_LE_M2 != 0 {
            return None;
        }
        let tests = and & !V_ALL;
        Some(BlockFacts {
            cand: true,
            all: tests,
            per: tests,
            // lo = -1 and hi = 1: all within -1..1, a -1 and a 1.
            periodic: and & F_SMALL != 0 && or & V_M1 != 0 && or & V_P1 != 0,
            // lo >= 0, or all -1 (all equal and negative means all -1 here).
            quiet: or & V_NEG == 0 || and & V_M1 != 0,
        })
    }
}

/// A block's label from its facts, its side of the diagonal and the labels of the blocks to
/// its left and above it.
#[inline(always)]
fn block_label(s: &BlockFacts, upper_side: bool, left: Option<u8>, above: Option<u8>) -> u8 {
    if !s.cand {
        return REST;
    }
    let has = |flag: u16| s.all & flag != 0;
    let (per_lo, per_up) = (s.per & F_PER_LOWER != 0, s.per & F_PER_UPPER != 0);
    let periodic = s.periodic;
    // Where a block passes both mirrored tests, its side of the diagonal decides, so the labels
    // keep the picture's symmetry.
    if periodic && per_lo && (!per_up || !upper_side) {
        return EP_LO;
    }
    if periodic && per_up {
        return EP_UP;
    }
    if s.quiet {
        // A block without a palace (a quiet patch) passes the invariance tests easily: it
        // belongs to the region it continues — the block to its left or the one above (the
        // left first above the diagonal, the one above first below it) — if it passes that
        // region's test.
        let continues = |b: Option<u8>| match b {
            Some(FABRIC) if has(F_PLUS3) => Some(FABRIC),
            Some(ARM_UP) if has(F_UPPER) => Some(ARM_UP),
            Some(ARM_LO) if has(F_LOWER) => Some(ARM_LO),
            Some(RIFT_UP | EP_UP) if has(F_RIFT_UPPER) => Some(RIFT_UP),
            Some(RIFT_LO | EP_LO) if has(F_RIFT_LOWER) => Some(RIFT_LO),
            _ => None,
        };
        let (first, second) = if upper_side { (left, above) } else { (above, left) };
        return continues(first).or_else(|| continues(second)).unwrap_or(REST);
    }
    // The warps' threads run at about the rift's slope 31/81 and often keep its period over a
    // block: the rift only continues an épaulette or the rift (from the left or above).
    let after = |a: u8, b: u8| [left, above].iter().any(|&n| n == Some(a) || n == Some(b));
    if upper_side && has(F_RIFT_UPPER) && after(EP_UP, RIFT_UP) {
        RIFT_UP
    } else if !upper_side && has(F_RIFT_LOWER) && after(EP_LO, RIFT_LO) {
        RIFT_LO
    } else if has(F_PLUS3) {
        FABRIC
    } else if has(F_UPPER) && (!has(F_LOWER) || upper_side) {
        ARM_UP
    } else if has(F_LOWER) {
        ARM_LO
    } else {
        REST
    }
}

/// The rank of a label when two claim a cell.
fn rank(l: u8) -> u8 {
    match l {
        EP_UP | EP_LO => 5,
        RIFT_UP | RIFT_LO => 4,
        ARM_UP | ARM_LO => 3,
        FABRIC => 2,
        _ => 0,
    }
}

/// Whether a cell with flags `f` passes the test of the region `l`.
fn passes(l: u8, f: u16) -> bool {
    let need = match l {
        EP_UP => return f & F_PER_UPPER != 0 || f & (F_UNTESTABLE | F_SMALL) == F_UNTESTABLE | F_SMALL,
        EP_LO => return f & F_PER_LOWER != 0 || f & (F_UNTESTABLE | F_SMALL) == F_UNTESTABLE | F_SMALL,
        RIFT_UP => F_RIFT_UPPER,
        RIFT_LO => F_RIFT_LOWER,
        FABRIC => F_PLUS3,
        ARM_UP => F_UPPER,
        ARM_LO => F_LOWER,
        _ => return false,
    };
    f & need != 0
}

/// A run of cells keeping a neighbour block's region into a block: the region, and the region
/// it may go on into once the cells stop passing the first one's test.
type Run = Option<(u8, u8)>;

/// The run a neighbour block labelled `l` starts, going right (`down == false`) or down.
fn run_from(l: Option<u8>, down: bool) -> Run {
    match l? {
        EP_UP if down => Some((EP_UP, RIFT_UP)),
        EP_LO if !down => Some((EP_LO, RIFT_LO)),
        l @ (EP_UP | EP_LO | RIFT_UP | RIFT_LO | FABRIC | ARM_UP | ARM_LO) => Some((l, REST)),
        _ => None,
    }
}

/// Advances a run over a cell with flags `f`: the region it gives the cell, if any.
fn step(run: &mut Run, f: u16) -> Option<u8> {
    let (cur, next) = (*run)?;
    if f & (F_HOOD | F_OUTER) == 0 {
        if passes(cur, f) {
            return Some(cur);
        }
        if next != REST && passes(next, f) {
            *run = Some((next, REST));
            return Some(next);
        }
    }
    *run = None;
    None
}

/// Refines a block labelled `block` to its cells: the runs from the blocks to its left and
/// above (see the module's documentation). `flags` and `out` hold the block's rows at strides
/// `fs` and `os`; `(x0, y0)` is its top-left cell. Hood and outer-space cells get their labels.
#[allow(clippy::too_many_arguments)]
fn refine_block(
    block: u8,
    left: Option<u8>,
    above: Option<u8>,
    (x0, y0): (u64, u64),
    (rows, cols): (usize, usize),
    flags: &[u16],
    fs: usize,
    out: &mut [u8],
    os: usize,
) {
    let mut down = [run_from(above, true); BLOCK];
    let across = run_from(left, false);
    // Most blocks have no run into them that could change a cell (neighbours of the rest, or
    // of their own region) and do not meet the diagonal: their cells take the block's label.
    let inert = |run: Run| run.is_none_or(|(l, next)| l == block && next == REST);
    let diagonal = x0 < y0 + rows as u64 && y0 < x0 + cols as u64;
    if inert(across) && inert(down[0]) && !diagonal {
        for r in 0..rows {
            for (o, &f) in out[r * os..r * os + cols].iter_mut().zip(&flags[r * fs..r * fs + cols]) {
                *o = if f & F_HOOD != 0 {
                    HOOD
                } else if f & F_OUTER != 0 {
                    OUTER
                } else {
                    block
                };
            }
        }
        return;
    }
    for r in 0..rows {
        let mut right = across;
        for c in 0..cols {
            let f = flags[r * fs + c];
            let (rl, cl) = (step(&mut right, f), step(&mut down[c], f));
            out[r * os + c] = if f & F_HOOD != 0 {
                HOOD
            } else if f & F_OUTER != 0 {
                OUTER
            } else {
                let (x, y) = (x0 + c as u64, y0 + r as u64);
                let run = match (rl, cl) {
                    (Some(a), Some(b)) if a != b => Some(if rank(a) != rank(b) {
                        if rank(a) > rank(b) { a } else { b }
                    } else if x > y {
                        b
                    } else {
                        a
                    }),
                    (a, b) => a.or(b),
                };
                let l = match run {
                    Some(l) if l != block && (rank(l) > rank(block) || !passes(block, f)) => l,
                    _ => block,
                };
                // A cell of the diagonal is its own mirror image: it takes no upper or lower
                // label, so that the labels keep the picture's symmetry. Below the diagonal in
                // a block that the diagonal halves, a cell takes the mirror image of its mirror
                // cell's label (a row above, already labelled), so that the block's side of
                // the diagonal does not decide its lower half.
                match l {
                    EP_UP | EP_LO | RIFT_UP | RIFT_LO | ARM_UP | ARM_LO if x == y => {
                        if f & F_PLUS3 != 0 {
                            FABRIC
                        } else {
                            REST
                        }
                    }
                    _ if x0 == y0 && x < y && r < cols => mirror_label(out[c * os + r]),
                    l => l,
                }
            };
        }
    }
}

/// The label a block receives from a neighbour labelled `l` (to its left or above): a block
/// that the diagonal halves (`from_diagonal`) is upper on one side and lower on the other, so
/// its side-specific label is taken as the receiving block's side's (`upper_side`), and the
/// labels keep the picture's mirror symmetry.
fn to_side(l: Option<u8>, from_diagonal: bool, upper_side: bool) -> Option<u8> {
    let upper = matches!(l, Some(EP_UP | ARM_UP | RIFT_UP));
    let lower = matches!(l, Some(EP_LO | ARM_LO | RIFT_LO));
    if from_diagonal && (upper && !upper_side || lower && upper_side) { l.map(mirror_label) } else { l }
}

/// The label of the mirror image of a cell labelled `l` (as [`Region::mirror`]; the rest,
/// split later cell by cell, stays the rest).
fn mirror_label(l: u8) -> u8 {
    ALL.get(usize::from(l)).map_or(l, |r| r.mirror() as u8)
}

/// [`refine_block`] where its runs cannot change a cell, for the tile path: a block off the
/// diagonal into which every run from the left and from above either is none or continues the
/// block's own region, and either stops at the first cell failing that region's test or meets
/// no such cell (`passes` on the AND of the candidates' flags, `s.all`, holds for every
/// candidate). Its cells then take the block's label, or hood or outer space (`any`: the OR of
/// its flags). Writes the labels and returns `true` then; returns `false`, writing nothing,
/// otherwise.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn refine_quick(
    block: u8,
    s: &BlockFacts,
    any: u16,
    left: Option<u8>,
    above: Option<u8>,
    (x0, y0): (u64, u64),
    (rows, cols): (usize, usize),
    flags: &[u16],
    fs: usize,
    out: &mut [u8],
    os: usize,
) -> bool {
    let all_pass = passes(block, s.all);
    let inert = |run: Run| run.is_none_or(|(l, next)| l == block && (next == REST || all_pass));
    let diagonal = x0 < y0 + rows as u64 && y0 < x0 + cols as u64;
    if diagonal || !inert(run_from(left, false)) || !inert(run_from(above, true)) {
        return false;
    }
    // A whole block row as one 8-byte store: `[block; BLOCK]` and `fill` compile to a call of
    // memset per row.
    let splat = (u64::from(block) * 0x0101_0101_0101_0101).to_le_bytes();
    for r in 0..rows {
        let o = &mut out[r * os..r * os + cols];
        if any & (F_HOOD | F_OUTER) == 0 {
            match <&mut [u8; BLOCK]>::try_from(&mut *o) {
                Ok(o) => *o = splat,
                Err(_) => o.copy_from_slice(&splat[..cols]),
            }
        } else {
            for (o, &f) in o.iter_mut().zip(&flags[r * fs..r * fs + cols]) {
                let l = block ^ ((block ^ OUTER) & mask(f & F_OUTER != 0));
                *o = l ^ ((l ^ HOOD) & mask(f & F_HOOD != 0));
            }
        }
    }
    true
}

/// 0xff for `true`, 0 for `false`.
#[inline(always)]
fn mask(b: bool) -> u8 {
    0u8.wrapping_sub(u8::from(b))
}

/// Splits the rest of a row into fray, warps and inner sector (see the module's
/// documentation). `last_fab` is the row's last fabric cell so far, `last_fab_col[i]` the last
/// fabric row of column `x0 + i` so far; both are updated.
fn split_rest(
    labels: &mut [u8],
    flags: &[u16],
    x0: u64,
    y: u64,
    last_fab: &mut Option<u64>,
    last_fab_col: &mut [Option<u64>],
) {
    for (i, (l, &f)) in labels.iter_mut().zip(flags).enumerate() {
        let x = x0 + i as u64;
        if *l == FABRIC {
            *last_fab = Some(x);
            last_fab_col[i] = Some(y);
            continue;
        }
        if *l != REST {
            continue;
        }
        let near_row = last_fab.is_some_and(|fx| x - fx <= FRAY_WIDTH);
        let near_col = last_fab_col[i].is_some_and(|fy| y - fy <= FRAY_WIDTH);
        let r = if (x >= y && near_row) || (x <= y && near_col) {
            Region::Fray
        } else if f & F_SPARSE != 0 || x == y {
            Region::InnerSector
        } else if x > y {
            Region::WarpUpper
        } else {
            Region::WarpLower
        };
        *l = r as u8;
    }
}

/// A labelled row of the game `k`, from column 0.
pub struct LabelledRow<E> {
    /// The row.
    pub y: u32,
    /// The engine's cells of the row (hood cells as their stand-in), from column 0.
    pub cells: Vec<i8>,
    /// The region of every cell.
    pub labels: Vec<Region>,
    /// What the caller attached to the row.
    pub extra: E,
}

/// Streams rows of the four [`lanes`] (from row 0, column 0) and hands out labelled rows, a
/// block of rows at a time.
pub struct Labeler<E> {
    k: u32,
    width: usize,
    /// The last `HALO + 1` rows of game k (for the rift's period reaching 81 rows up).
    ring: Vec<Vec<i8>>,
    col_zero: Vec<bool>,
    /// Per column, the palaces among its last `INNER_WINDOW` rows.
    col_pal: Vec<u32>,
    pending: Vec<(u32, Vec<i8>, E)>,
    /// The flags of the pending rows, row after row.
    flags: Vec<u16>,
    /// The block labels of the previous block row.
    above: Vec<u8>,
    /// Per column, the last row with a fabric cell.
    last_fab_col: Vec<Option<u64>>,
}

impl<E> Labeler<E> {
    /// A labeller for game `k` on rows `width` wide.
    pub fn new(k: u32, width: usize) -> Self {
        Labeler {
            k,
            width,
            ring: vec![vec![0; width]; HALO + 1],
            col_zero: vec![true; width],
            col_pal: vec![0; width],
            pending: Vec::with_capacity(BLOCK),
            flags: Vec::with_capacity(BLOCK * width),
            above: Vec::new(),
            last_fab_col: vec![None; width],
        }
    }

    /// Adds the next row of each of the four games (in [`lanes`] order) with `extra`
    /// attached; returns the rows whose labels are now decided.
    pub fn push(&mut self, rows: &[Row<'_>], extra: E) -> Vec<LabelledRow<E>> {
        let [a, up, lo, p3] = rows else { panic!("four lanes") };
        let (k, n) = (self.k, self.width);
        let y = a.y;
        let yy = u64::from(y);
        let hood = (hood_len(k, yy) as usize).min(n);
        let ring_len = self.ring.len() as u32;
        // ring[y % len] will hold this row; row y - d is at (y + len - d) % len.
        let back = |d: usize| ((y + ring_len - d as u32) % ring_len) as usize;
        // The inner sector's square: palaces per column over the last INNER_WINDOW rows.
        let gone = back(INNER_WINDOW);
        for x in 0..n {
            let (now, old) = (a.cells[x] < 0, self.ring[gone][x] < 0);
            self.col_pal[x] = self.col_pal[x] + u32::from(now) - u32::from(old);
        }
        let mut pal = 0u32;
        let mut row_zero = yy >= u64::from(k);
        // Where any of the four games is in its hood, compare exact palace numbers; beyond,
        // the lanes' stored values compare directly (N_{k+d} = N_k + d <=> equal values).
        let exact = [a, up, lo, p3].iter().map(|r| r.hood_cells()).max().unwrap_or(0);
        // Hood widths of the rows the period partners lie in.
        let hood_of = |dy: u32| if y >= dy { hood_len(k, yy - u64::from(dy)) as usize } else { usize::MAX };
        let partner_hood = [hood_of(1), hood_of(3), hood_of(5), hood_of(4)];
        let (t_up, t_lo) = rift_testable(k, yy);
        for x in 0..n {
            // The square's palaces: columns x - INNER_WINDOW + 1 ..= x.
            pal += self.col_pal[x];
            if x >= INNER_WINDOW {
                pal -= self.col_pal[x - INNER_WINDOW];
            }
            let v = a.cells[x];
            let mut f = 0u16;
            if x < hood {
                f |= F_HOOD;
            } else {
                if x as u64 >= u64::from(k) {
                    self.col_zero[x] &= v == 0;
                    if self.col_zero[x] {
                        f |= F_OUTER;
                    }
                }
                row_zero &= v == 0;
                if row_zero {
                    f |= F_OUTER;
                }
                let (mu, ml, m3) = if x < exact {
                    let na = a.palace_number(x);
                    (
                        up.palace_number(x) == na + 1,
                        lo.palace_number(x) == na + 1,
                        p3.palace_number(x) == na + 3,
                    )
                } else {
                    (up.cells[x] == v, lo.cells[x] == v, p3.cells[x] == v)
                };
                f |= if mu { F_UPPER } else { 0 }
                    | if ml { F_LOWER } else { 0 }
                    | if m3 { F_PLUS3 } else { 0 };
                // Both épaulettes' periods, when their partners are on the board and off the hood.
                let off_hood = |dx: usize, i: usize| x >= dx && x - dx >= partner_hood[i];
                if off_hood(5, 0) && off_hood(4, 1) && off_hood(1, 2) && off_hood(3, 3) {
                    let (a1, a2) = (self.ring[back(1)][x - 5], self.ring[back(3)][x - 4]);
                    let (b1, b2) = (self.ring[back(5)][x - 1], self.ring[back(4)][x - 3]);
                    if v.abs() <= 1 && a1 == v && a2 == v {
                        f |= F_PER_LOWER;
                    }
                    if v.abs() <= 1 && b1 == v && b2 == v {
                        f |= F_PER_UPPER;
                    }
                } else {
                    f |= F_UNTESTABLE;
                }
                let ring = &self.ring;
                f |= rift_flags(v, x as u64, t_up, t_lo, |dx, dy| ring[back(dy)][x - dx], pal);
            }
            self.flags.push(f);
        }
        self.ring[back(0)].copy_from_slice(a.cells);
        self.pending.push((y, a.cells.to_vec(), extra));
        if self.pending.len() == BLOCK { self.decide() } else { Vec::new() }
    }

    /// Decides the labels of the rows still pending (at the end of the sweep).
    pub fn finish(&mut self) -> Vec<LabelledRow<E>> {
        if self.pending.is_empty() { Vec::new() } else { self.decide() }
    }

    fn decide(&mut self) -> Vec<LabelledRow<E>> {
        let n = self.width;
        let rows = self.pending.len();
        let blocks = n.div_ceil(BLOCK);
        let mut block_labels = vec![REST; blocks];
        let y0 = self.pending[0].0;
        let y_mid = 2 * u64::from(y0) + rows as u64;
        let mut labels = vec![0u8; rows * n];
        for (bi, bx) in (0..n).step_by(BLOCK).enumerate() {
            let xs = bx..(bx + BLOCK).min(n);
            let mut s = BlockStats::new();
            for (r, (_, cells, _)) in self.pending.iter().enumerate() {
                for x in xs.clone() {
                    s.add(self.flags[r * n + x], cells[x]);
                }
            }
            let upper_side = 2 * bx as u64 + (xs.end - xs.start) as u64 >= y_mid;
            let left =
                to_side(bi.checked_sub(1).map(|b| block_labels[b]), bx == y0 as usize + BLOCK, upper_side);
            let above = to_side(self.above.get(bi).copied(), bx + BLOCK == y0 as usize, upper_side);
            let label = block_label(&s.facts(), upper_side, left, above);
            block_labels[bi] = label;
            refine_block(
                label,
                left,
                above,
                (bx as u64, u64::from(y0)),
                (rows, xs.len()),
                &self.flags[bx..],
                n,
                &mut labels[bx..],
                n,
            );
        }
        for r in 0..rows {
            let mut last_fab = None;
            split_rest(
                &mut labels[r * n..(r + 1) * n],
                &self.flags[r * n..(r + 1) * n],
                0,
                u64::from(y0) + r as u64,
                &mut last_fab,
                &mut self.last_fab_col,
            );
        }
        self.above = block_labels;
        self.flags.clear();
        self.pending
            .drain(..)
            .zip(labels.chunks(n))
            .map(|((y, cells, extra), l)| LabelledRow {
                y,
                cells,
                labels: l.iter().map(|&i| Region::from_index(i)).collect(),
                extra,
            })
            .collect()
    }
}

/// Per-region counts.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RegionStats {
    /// Cells in the region.
    pub cells: u64,
    /// Palaces (v < 0) in it.
    pub palaces: u64,
    /// Palace density.
    pub density: f64,
    /// `(v, count)` for the values in the region (the hood's are summarised by its range).
    pub histogram: Vec<(i64, u64)>,
    /// Smallest and largest v.
    pub v_range: Option<(i64, i64)>,
}

/// A located junction (§3.1).
#[derive(Debug, Clone, Serialize)]
pub struct Junction {
    /// Its name.
    pub name: &'static str,
    /// Column.
    pub x: u64,
    /// Row.
    pub y: u64,
    /// How it was located.
    pub how: String,
}

/// The result of `palace regions`.
#[derive(Debug, Clone, Serialize)]
pub struct RegionsReport {
    /// The game.
    pub k: u32,
    /// The window reported.
    pub window: [u32; 4],
    /// Block side of the block tests.
    pub block: usize,
    /// Per region, in [`ALL`] order.
    pub regions: Vec<(Region, RegionStats)>,
    /// The junctions that could be located.
    pub junctions: Vec<Junction>,
    /// The hottest cell on or above the diagonal and the one below it (not junctions: where
    /// they lie against the armpits is a question of §4, answered by measuring).
    pub hottest: Vec<Junction>,
    /// The upper rift's width along its length (the lower rift is its mirror image).
    pub rift: RiftReport,
    /// Every pair of regions that touch, with the edges between them (§3.1's borders).
    pub borders: Vec<Border>,
}

/// Per column, the upper rift's cells in the window: (cells, top row, bottom row).
type RiftColumns = BTreeMap<u64, (u64, u64, u64)>;

/// Adds a cell of the upper rift to its column.
fn add_rift(cols: &mut RiftColumns, x: u64, y: u64) {
    let e = cols.entry(x).or_insert((0, y, y));
    *e = (e.0 + 1, e.1.min(y), e.2.max(y));
}

/// Where a rift ends: the lowest cell of its last column, unless that column or row is the
/// window's last (the window then cuts the rift, and where it ends is not known).
fn rift_end(cols: &RiftColumns, window: Window) -> Option<(u64, u64)> {
    let (&x, &(_, _, y)) = cols.last_key_value()?;
    (x + 1 < u64::from(window.x1) && y + 1 < u64::from(window.y1)).then_some((x, y))
}

/// Merges the rift columns `b` into `a`.
fn merge_rift(a: &mut RiftColumns, b: RiftColumns) {
    for (x, (c, t, d)) in b {
        let e = a.entry(x).or_insert((0, t, d));
        *e = (e.0 + c, e.1.min(t), e.2.max(d));
    }
}

/// How many stretches [`RiftReport::bins`] cuts the rift into.
pub const RIFT_BINS: u64 = 16;

/// The upper rift's vertical width (its cells per column) along its length.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RiftReport {
    /// Columns of the window holding a cell of the upper rift.
    pub columns: u64,
    /// The upper rift's cells in the window.
    pub cells: u64,
    /// Its first and last column, as offsets from the nose's column `(k-1)/3`.
    pub span: Option<(u64, u64)>,
    /// Its lowest cell in its last column: where it ends.
    pub end: Option<(u64, u64)>,
    /// The span cut into [`RIFT_BINS`] stretches of equal length.
    pub bins: Vec<RiftBin>,
    /// Least-squares slope of the width against the offset, in cells per 1000 columns.
    pub widening_per_1000: Option<f64>,
}

/// One stretch of the upper rift.
#[derive(Debug, Clone, Serialize)]
pub struct RiftBin {
    /// First and one past the last column offset from the nose.
    pub from: u64,
    /// See `from`.
    pub to: u64,
    /// Columns of the stretch holding a rift cell.
    pub columns: u64,
    /// Mean cells per such column.
    pub mean_width: f64,
    /// Most cells in one column.
    pub max_width: u64,
}

impl RiftReport {
    /// The report of the upper rift's columns for game `k` (offsets from the nose's column).
    fn new(k: u32, cols: &RiftColumns) -> Self {
        let m = u64::from(k.saturating_sub(1) / 3);
        let mut r = RiftReport { columns: cols.len() as u64, ..Default::default() };
        let (Some((&first, _)), Some((&last, &(_, _, bottom)))) =
            (cols.first_key_value(), cols.last_key_value())
        else {
            return r;
        };
        let off = |x: u64| x.saturating_sub(m);
        r.cells = cols.values().map(|c| c.0).sum();
        r.span = Some((off(first), off(last)));
        r.end = Some((last, bottom));
        let len = (off(last) - off(first) + 1).div_ceil(RIFT_BINS);
        let mut bins: BTreeMap<u64, (u64, u64, u64)> = BTreeMap::new();
        let (mut sx, mut sy, mut sxx, mut sxy) = (0f64, 0f64, 0f64, 0f64);
        for (&x, &(c, _, _)) in cols {
            let b = (off(x) - off(first)) / len;
            let e = bins.entry(b).or_insert((0, 0, 0));
            *e = (e.0 + 1, e.1 + c, e.2.max(c));
            let (fx, fy) = (off(x) as f64, c as f64);
            (sx, sy, sxx, sxy) = (sx + fx, sy + fy, sxx + fx * fx, sxy + fx * fy);
        }
        let n = cols.len() as f64;
        let d = n * sxx - sx * sx;
        r.widening_per_1000 = (cols.len() > 1 && d > 0.0).then(|| 1000.0 * (n * sxy - sx * sy) / d);
        r.bins = bins
            .into_iter()
            .map(|(b, (columns, cells, max_width))| RiftBin {
                from: off(first) + b * len,
                to: off(first) + (b + 1) * len,
                columns,
                mean_width: cells as f64 / columns as f64,
                max_width,
            })
            .collect();
        r
    }
}

/// Accumulates per-region statistics and the junctions over labelled rows.
pub struct RegionAcc {
    k: u32,
    window: Window,
    /// Per region, counts of `v + 128` (cells outside the hood are exact in 8 bits).
    hist: Vec<[u64; 256]>,
    hood_range: Option<(i64, i64)>,
    hood_cells: u64,
    /// The hottest cell above and below the diagonal: (v, x, y), first in row-major order.
    hottest: [Option<(i64, u64, u64)>; 2],
    /// The fabric's run along the diagonal from the nose: its last cell, and whether it ended
    /// (a gap of more than two blocks).
    prism: Option<u64>,
    prism_ended: bool,
    rift: RiftColumns,
    /// The lower rift's cells transposed: per row, (cells, first column, last column).
    rift_lower: RiftColumns,
    borders: BorderAcc,
    /// The labels of the window's previous row (as [`Region::index`]), and of its current one.
    prev: Vec<u8>,
    row: Vec<u8>,
}

impl RegionAcc {
    /// Empty statistics of `window` of game `k`.
    pub fn new(k: u32, window: Window) -> Self {
        RegionAcc {
            k,
            window,
            hist: vec![[0; 256]; ALL.len()],
            hood_range: None,
            hood_cells: 0,
            hottest: [None; 2],
            prism: None,
            prism_ended: false,
            rift: RiftColumns::new(),
            rift_lower: RiftColumns::new(),
            borders: BorderAcc::default(),
            prev: Vec::new(),
            row: Vec::new(),
        }
    }

    /// Adds a labelled row (cells from column 0); only its part inside the window counts.
    pub fn add<E>(&mut self, r: &LabelledRow<E>) {
        if !(self.window.y0..self.window.y1).contains(&r.y) {
            return;
        }
        let y = u64::from(r.y);
        let row = Row { k: self.k, y: r.y, x0: 0, cells: &r.cells };
        let hood = row.hood_cells();
        let (x0, x1) = (self.window.x0 as usize, self.window.x1 as usize);
        // The borders: the row's labels against its own and the previous row's.
        self.row.clear();
        self.row.extend(r.labels[x0..x1].iter().map(|&l| l.index() as u8));
        let above = (r.y > self.window.y0).then_some(&self.prev[..]);
        self.borders.add_row(y, x0 as u64, &self.row, NONE, above, NONE);
        std::mem::swap(&mut self.prev, &mut self.row);
        if x0 < hood {
            // The hood's values rise along the row: its extremes are the run's ends.
            let (a, b) = (row.v(x0), row.v(hood.min(x1) - 1));
            self.hood_cells += (hood.min(x1) - x0) as u64;
            self.hood_range = Some(self.hood_range.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
        }
        for x in x0.max(hood)..x1 {
            let v = r.cells[x];
            self.hist[r.labels[x].index()][v as u8 as usize] += 1;
            if r.labels[x] == Region::RiftUpper {
                add_rift(&mut self.rift, x as u64, y);
            } else if r.labels[x] == Region::RiftLower {
                add_rift(&mut self.rift_lower, y, x as u64);
            }
            let v = i64::from(v);
            let side = usize::from((x as u64) < y);
            if self.hottest[side].is_none_or(|(h, _, _)| v > h) {
                self.hottest[side] = Some((v, x as u64, y));
            }
            if x as u64 == y && r.labels[x] == Region::Fabric && !self.prism_ended {
                // Stray fabric-like blocks far out along the diagonal do not extend the run.
                if self.prism.is_some_and(|p| y - p > 2 * BLOCK as u64) {
                    self.prism_ended = true;
                } else {
                    self.prism = Some(y);
                }
            }
        }
    }

    /// The finished report.
    pub fn finish(self) -> RegionsReport {
        let k = self.k;
        let mut regions = Vec::new();
        for reg in ALL {
            let mut s = RegionStats::default();
            if reg == Region::Hood {
                s.cells = self.hood_cells;
                s.palaces = self.hood_cells;
                s.v_range = self.hood_range;
            } else {
                let h: BTreeMap<i64, u64> = self.hist[reg.index()]
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| c > 0)
                    .map(|(i, &c)| (i64::from(i as u8 as i8), c))
                    .collect();
                s.cells = h.values().sum();
                s.palaces = h.iter().filter(|&(&v, _)| v < 0).map(|(_, c)| c).sum();
                s.histogram = h.iter().map(|(&v, &c)| (v, c)).collect();
                s.v_range = h.keys().next().copied().zip(h.keys().next_back().copied());
            }
            s.density = if s.cells > 0 { s.palaces as f64 / s.cells as f64 } else { 0.0 };
            regions.push((reg, s));
        }
        let mut junctions = Vec::new();
        let m = u64::from(k.saturating_sub(1) / 3);
        let within = |x: u64, y: u64| self.window.contains(x, y);
        if within(m, m) {
            junctions.push(Junction {
                name: "nose",
                x: m,
                y: m,
                how: "closed form: the hood's last cell on the diagonal (max + 2 min < k)".into(),
            });
        }
        for (x, y) in [(u64::from(k), 0), (0, u64::from(k))] {
            if within(x, y) {
                junctions.push(Junction {
                    name: "shoulder",
                    x,
                    y,
                    how: "closed form: first cell past the hood on the border, where outer space begins"
                        .into(),
                });
            }
        }
        // The armpits: where the rift, running along the seam between épaulette and fabric,
        // ends against the warp (§3.1; claim 31 of docs/paper-claims.md), the upper rift's
        // lowest cell in its last column and the mirror image's for the lower rift.
        let upper = rift_end(&self.rift, self.window);
        let lower = rift_end(&self.rift_lower, self.window.transposed()).map(|(y, x)| (x, y));
        for (end, name, how) in [
            (upper, "armpit (upper)", "where the upper rift ends: the lowest cell of its last column"),
            (lower, "armpit (lower)", "where the lower rift ends: the rightmost cell of its last row"),
        ] {
            if let Some((x, y)) = end {
                junctions.push(Junction { name, x, y, how: how.into() });
            }
        }
        let mut hottest = Vec::new();
        for (side, name) in [(0usize, "hottest (upper)"), (1, "hottest (lower)")] {
            if let Some((v, x, y)) = self.hottest[side] {
                let near = [upper, lower][side].map_or(String::new(), |(ax, ay)| {
                    format!("; {} cells from the armpit (Chebyshev)", x.abs_diff(ax).max(y.abs_diff(ay)))
                });
                hottest.push(Junction {
                    name,
                    x,
                    y,
                    how: format!(
                        "hottest cell {} the diagonal: v = {v} (palace number k{v:+}), first in row-major order{near}",
                        if side == 0 { "on or above" } else { "below" }
                    ),
                });
            }
        }
        if let Some(d) = self.prism {
            junctions.push(Junction {
                name: "prism",
                x: d,
                y: d,
                how: "end of the fabric's run along the main diagonal from the nose (where the frays meet)"
                    .into(),
            });
        }
        let w = self.window;
        let rift = RiftReport::new(k, &self.rift);
        let borders = self.borders.borders();
        RegionsReport {
            k,
            window: [w.x0, w.y0, w.x1, w.y1],
            block: BLOCK,
            regions,
            junctions,
            hottest,
            rift,
            borders,
        }
    }
}

/// Labels `window` of game `k` and hands every labelled row to `f` (rows of the window only,
/// cells from column 0). `extra_lanes` are swept in the same lockstep (over rows from 0, of the
/// same width `window.x1`); `extra` sees all rows of a step (the four label lanes first) and
/// its result travels with the labelled row.
pub fn label<E>(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    extra_lanes: &[Lane],
    mut extra: impl FnMut(&[Row<'_>]) -> E,
    mut f: impl FnMut(&LabelledRow<E>) -> Result<()>,
) -> Result<()> {
    let mut all: Vec<Lane> = lanes(k, window.x1, window.y1).to_vec();
    all.extend_from_slice(extra_lanes);
    let mut lab = Labeler::new(k, window.x1 as usize);
    let mut emit = |rows: Vec<LabelledRow<E>>| -> Result<()> {
        for r in rows.iter().filter(|r| r.y >= window.y0) {
            f(r)?;
        }
        Ok(())
    };
    lockstep(&all, opts, progress, |rows| {
        let e = extra(rows);
        emit(lab.push(&rows[..4], e))
    })?;
    emit(lab.finish())
}

impl std::fmt::Display for RegionsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "k = {}, window [{x0}, {x1}) x [{y0}, {y1}); block tests on {} x {} blocks",
            self.k, self.block, self.block
        )?;
        let total: u64 = self.regions.iter().map(|(_, s)| s.cells).sum();
        writeln!(
            f,
            "{:<22} {:>14} {:>8} {:>14} {:>9}   v range   histogram of v",
            "region", "cells", "share", "palaces", "density"
        )?;
        for (r, s) in &self.regions {
            let share = if total > 0 { 100.0 * s.cells as f64 / total as f64 } else { 0.0 };
            let range = s.v_range.map_or("-".to_string(), |(a, b)| format!("{a}..{b}"));
            let hist: Vec<String> = s.histogram.iter().map(|(v, c)| format!("{v}:{c}")).collect();
            writeln!(
                f,
                "{:<22} {:>14} {:>7.2}% {:>14} {:>9.4}   {:<9} {}",
                r.name(),
                s.cells,
                share,
                s.palaces,
                s.density,
                range,
                hist.join(" ")
            )?;
        }
        for (title, points) in [("junctions:", &self.junctions), ("hottest cells:", &self.hottest)] {
            writeln!(f, "{title}")?;
            for j in points {
                writeln!(f, "  {:<16} ({}, {})  {}", j.name, j.x, j.y, j.how)?;
            }
        }
        let r = &self.rift;
        match (r.span, r.end) {
            (Some((a, b)), Some((ex, ey))) => {
                writeln!(
                    f,
                    "upper rift: {} cells in {} columns, offsets {a}..={b} from the nose's column; ends at ({ex}, {ey})",
                    r.cells, r.columns
                )?;
                if let Some(s) = r.widening_per_1000 {
                    writeln!(
                        f,
                        "  width (cells per column) grows by {s:.3} per 1000 columns (least squares)"
                    )?;
                }
                writeln!(f, "  {:>17} {:>8} {:>11} {:>9}", "offsets", "columns", "mean width", "max width")?;
                for bin in &r.bins {
                    writeln!(
                        f,
                        "  {:>17} {:>8} {:>11.2} {:>9}",
                        format!("{}..{}", bin.from, bin.to),
                        bin.columns,
                        bin.mean_width,
                        bin.max_width
                    )?;
                }
            }
            _ => writeln!(f, "upper rift: none in the window")?,
        }
        writeln!(
            f,
            "borders: edges between 4-neighbours of two regions; per step = edges / (rows + columns spanned), about 1 for a clean line; ends = corners where the border stops"
        )?;
        writeln!(
            f,
            "  {:<19} {:<40} {:>11} {:>12} {:>15} {:>15} {:>8} {:>7}",
            "paper's border", "regions", "row edges", "column edges", "rows", "columns", "per step", "ends"
        )?;
        for b in &self.borders {
            writeln!(
                f,
                "  {:<19} {:<40} {:>11} {:>12} {:>15} {:>15} {:>8.2} {:>7}",
                b.paper.unwrap_or("-"),
                b.labels(),
                b.row_edges,
                b.column_edges,
                format!("{}..={}", b.rows.0, b.rows.1),
                format!("{}..={}", b.columns.0, b.columns.1),
                b.per_step,
                b.ends
            )?;
        }
        Ok(())
    }
}

/// `palace regions` as first written, on one consumer thread (a lockstep of four row sweeps
/// and [`label`]): the reference [`run`] is tested against.
pub fn run_reference(
    k: u32,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(RegionsReport, Option<std::path::PathBuf>)> {
    let mut acc = RegionAcc::new(k, window);
    let (mut png, map) = match out {
        Some(o) => {
            let text = vec![(
                "Comment".to_string(),
                format!("palace regions, k = {k}, window {window}, scale {scale}"),
            )];
            let (png, map) = legend::start(o, window, scale, plte(), text, opts.threads)?;
            (Some(png), Some(map))
        }
        None => (None, None),
    };
    let mut line = Vec::new();
    label(
        k,
        window,
        opts,
        progress,
        &[],
        |_| (),
        |r| {
            acc.add(r);
            if let Some(p) = &mut png
                && (r.y - window.y0).is_multiple_of(scale)
            {
                line.clear();
                line.extend(
                    (window.x0..window.x1)
                        .step_by(scale as usize)
                        .map(|x| r.labels[x as usize].index() as u8),
                );
                p.push_row(&line)?;
            }
            Ok(())
        },
    )?;
    let drawn = png.map(PngStream::finish_file).transpose()?;
    let report = acc.finish();
    let path = map.zip(drawn).map(|(m, d)| m.finish(d, &report, opts)).transpose()?;
    Ok((report, path))
}

// The labels computed by the sweep's workers, tile by tile.
//
// The same labels as [`Labeler`], from the aligned tiles of the three games of [`tile_lanes`]
// ([`crate::engine::sweep_lanes`]). What a label needs beyond its tile travels with the tiles
// as a wavefront state ([`LabelState`]): the last 81 rows and columns of game k (the lower
// rift's period partner reaches 81 rows up, the upper one's 81 columns left, the épaulettes'
// five, the inner sector's square 63), whether each column and row is still 0 from the border
// (outer space), the block labels along the bottom and right edges (a block continues or
// refines from the block to its left or above it), the last fabric cell of every row and
// column (the fray), and the last row and column of game k+1 (the reference's two k+1 lanes
// are one lane's row above and column left). Tiles are cut on the 8 x 8 block grid, so that every block lies in one
// tile.

/// A tile of game k with its labels, as [`label_tiles`] shows it.
pub struct LabelledTile<'a> {
    /// The band of tiles this tile belongs to.
    pub band: usize,
    /// Strips in a band.
    pub strips: usize,
    /// First column.
    pub x0: u32,
    /// One past the last column.
    pub x1: u32,
    /// First row.
    pub y0: u32,
    /// One past the last row.
    pub y1: u32,
    stride: usize,
    /// Game k's stored cells (with the `HALO` columns and rows before the tile).
    buf: &'a [i8],
    labels: &'a [u8],
    /// The labels of the row above the tile, columns `x0 - 1 .. x1` ([`borders::NONE`] left of
    /// column 0), and of the column left of it, rows `y0 .. y1`; `None` on the board's edge.
    above_labels: Option<&'a [u8]>,
    left_labels: Option<&'a [u8]>,
    /// The extra lanes' views of this tile, aligned with it.
    pub extra: &'a [TileView<'a>],
}

impl LabelledTile<'_> {
    /// Game k's stored cells of row `y` (hood cells as their stand-in), columns `x0..x1`.
    pub fn cells(&self, y: u32) -> &[i8] {
        let r = (y - self.y0) as usize + HALO;
        &self.buf[r * self.stride + HALO..(r + 1) * self.stride]
    }

    /// The region index ([`Region::index`]) of every cell of row `y`, columns `x0..x1`.
    pub fn labels(&self, y: u32) -> &[u8] {
        let w = (self.x1 - self.x0) as usize;
        let r = (y - self.y0) as usize;
        &self.labels[r * w..(r + 1) * w]
    }
}

/// What a labelled tile leaves to the tiles below it and to its right.
struct LabelState {
    /// The last `HALO` rows of game k over columns `x0 - HALO .. x1`.
    bottom: Vec<i8>,
    /// The last `HALO` columns of game k, `HALO` per row.
    right: Vec<i8>,
    /// Per column: all 0 from row 0 down to the tile's last row.
    col_zero: Vec<bool>,
    /// Per row: all 0 from column 0 across to the tile's last column (rows `>= k` only).
    row_zero: Vec<bool>,
    /// The block labels of the tile's last block row and last block column.
    last_row: Vec<u8>,
    last_col: Vec<u8>,
    /// Per column, the rows from its last fabric cell to the tile's last row; per row, the
    /// columns from its last fabric cell to the tile's last column ([`bytewise::FAR`] for none
    /// or far).
    fab_col: Vec<u8>,
    fab_row: Vec<u8>,
    /// Game k+1 shifted (1, 1) (the second of [`tile_lanes`]): the tile's last row, and its
    /// last column.
    plus1_bottom: Vec<i8>,
    plus1_right: Vec<i8>,
}

/// What a visited tile leaves to its neighbours: the labeller's state, and the labels of its
/// last row (preceded by the label left of it) and last column, for the borders between tiles.
struct TileState {
    label: LabelState,
    bottom_labels: Vec<u8>,
    right_labels: Vec<u8>,
}

/// A worker's buffers.
#[derive(Default)]
struct TileScratch {
    buf: Vec<i8>,
    flags: Vec<u16>,
    labels: Vec<u8>,
    rows: [Vec<i8>; 4],
    blocks: Vec<u8>,
    /// Per column, the palaces among the `INNER_WINDOW` rows up to the current one.
    col_pal: Vec<u8>,
    /// Per cell of a row: the palaces in the inner sector's square (saturated), and scratch.
    sparse: Vec<u8>,
    near: Vec<u8>,
    tmp: Vec<u8>,
    /// A block row's per-column reductions.
    cols: bytewise::ColumnStats,
}

/// The state a neighbour left, if there is one.
fn tile_state(s: Option<&(dyn std::any::Any + Send + Sync)>) -> Option<&TileState> {
    s.map(|s| s.downcast_ref::<TileState>().expect("a label state"))
}

/// The label state a neighbour left, if there is one.
fn label_state(s: Option<&(dyn std::any::Any + Send + Sync)>) -> Option<&LabelState> {
    tile_state(s).map(|s| &s.label)
}

/// Row `y` of a lane's tile, as [`TileView::row_or`] gives it, except that a quiet tile's
/// zeros are written to `scratch` only once per tile (`ready` says they are there).
#[inline(always)]
pub(crate) fn lane_row<'s>(
    v: &'s TileView<'_>,
    y: u32,
    scratch: &'s mut Vec<i8>,
    ready: &mut bool,
) -> &'s [i8] {
    if matches!(v.kind, TileKind::Zero) {
        if !*ready {
            scratch.clear();
            scratch.resize((v.x1 - v.x0) as usize, 0);
            *ready = true;
        }
        return scratch;
    }
    v.row_or(y, scratch)
}

crate::avx2_version! {
    /// Labels one tile of the three [`tile_lanes`] (`views[0..3]`); fills `sc.buf` (game k's cells
    /// with the `HALO` rows and columns before the tile) and `sc.labels`. The per-cell tests
    /// are written to vectorise.
    fn label_tile(k: u32, t: &LaneTiles<'_>, sc: &mut TileScratch) -> LabelState = label_tile_body;
}

#[inline(always)]
fn label_tile_body(k: u32, t: &LaneTiles<'_>, sc: &mut TileScratch) -> LabelState {
    let a = &t.views[0];
    let (x0, x1, y0, y1) = (a.x0, a.x1, a.y0, a.y1);
    let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
    let (above, left) = (label_state(t.above), label_state(t.left));
    let ww = w + HALO;
    let ku = u64::from(k);
    let TileScratch { buf, flags, labels, rows, blocks, col_pal, sparse, near, tmp, cols } = sc;
    // Game k's cells with the HALO rows above and HALO columns left of the tile. The buffers
    // are reused as they are: every value read is written first (zeroing them took a tenth
    // of the time).
    buf.resize((h + HALO) * ww, 0);
    match above {
        Some(ab) => buf[..HALO * ww].copy_from_slice(&ab.bottom),
        None => buf[..HALO * ww].fill(0),
    }
    let [ra, ru, rl, r3] = rows;
    // Game k+1 shifted (1, 1): row r is the shifted (0, 1) lane's row r one column on, and the
    // shifted (1, 0) lane's row r + 1.
    let p1 = &t.views[1];
    let mut zero_a = false;
    for r in 0..h {
        let line = &mut buf[(HALO + r) * ww..(HALO + 1 + r) * ww];
        match left {
            Some(l) => line[..HALO].copy_from_slice(&l.right[HALO * r..HALO * (r + 1)]),
            None => line[..HALO].fill(0),
        }
        line[HALO..].copy_from_slice(lane_row(a, y0 + r as u32, ra, &mut zero_a));
    }
    let mut col_zero = above.map_or_else(|| vec![true; w], |ab| ab.col_zero.clone());
    let row_zero_in = |r: usize| left.map_or(u64::from(y0) + r as u64 >= ku, |l| l.row_zero[r]);
    // A tile all in outer space or all in the hood takes that label whole: its blocks hold no
    // candidate cell (rest), no cell changes the zero runs of outer space, and no fabric cell
    // shortens the fray's distances.
    let whole = match a.kind {
        TileKind::Zero
            if hood_len(k, u64::from(y0)) <= u64::from(x0)
                && ((u64::from(x0) >= ku && col_zero.iter().all(|&z| z)) || (0..h).all(row_zero_in)) =>
        {
            Some(OUTER)
        }
        _ if u64::from(x1) <= hood_len(k, u64::from(y1 - 1)) => Some(HOOD),
        _ => None,
    };
    if let Some(l) = whole {
        labels.clear();
        labels.resize(w * h, l);
        let fab_col = match above {
            Some(ab) => ab.fab_col.iter().map(|&d| d.saturating_add(h.min(255) as u8)).collect(),
            None => vec![bytewise::FAR; w],
        };
        let fab_row = (0..h)
            .map(|r| {
                let d = left.map_or(bytewise::FAR, |l| l.fab_row[r]);
                if w > FRAY_WIDTH as usize { bytewise::FAR } else { (usize::from(d) + w).min(255) as u8 }
            })
            .collect();
        let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
        let row_zero = (0..h).map(row_zero_in).collect();
        return leave_state(
            buf,
            (w, h),
            col_zero,
            row_zero,
            (vec![REST; bw], vec![REST; bh]),
            (fab_col, fab_row),
            plus1_edges(&t.views[1], (w, h), (ru, rl)),
        );
    }
    let mut row_zero = Vec::with_capacity(h);
    flags.resize(w * h, 0);
    // Whether a lane's scratch row already holds the zeros of its quiet tile.
    let mut zero_rows = [false; 3];
    let mut plus1_right = Vec::with_capacity(h);
    let mut plus1_bottom = Vec::new();
    for r in 0..h {
        let y = y0 + r as u32;
        let yy = u64::from(y);
        let [zu, zl, z3] = &mut zero_rows;
        // `up`: k+1 at (x + 1, y), the lane's row above (the tile above's last row; row 0 of a
        // game is 0 past its hood). `lo` is k+1 at (x, y + 1): the lane's row shifted one
        // column, `lo(i) = this(i - 1)`, the first cell from the tile to the left (column 0 of
        // a game is 0 past its hood).
        let this = lane_row(p1, p1.y0 + r as u32, rl, zl);
        plus1_right.push(this[w - 1]);
        let up: &[i8] = if r > 0 {
            lane_row(p1, p1.y0 + r as u32 - 1, ru, zu)
        } else if let Some(ab) = above {
            &ab.plus1_bottom
        } else {
            ru.clear();
            ru.resize(w, 0);
            *zu = false;
            ru
        };
        let lo_first = left.map_or(0, |l| l.plus1_right[r]);
        let p3 = lane_row(&t.views[2], t.views[2].y0 + r as u32, r3, z3);
        let now = (HALO + r) * ww;
        let hood = hood_len(k, yy);
        let (hu, hl, h3) = (hood_len(k + 1, yy), hood_len(k + 1, yy + 1), hood_len(k + 3, yy + 1));
        // Where any of the four games is in its hood, exact palace numbers are compared.
        let exact = hood.max(hu.saturating_sub(1)).max(hl).max(h3.saturating_sub(1));
        // The épaulettes' period partners must be on the board and off the hood, and so must
        // the rift's.
        let ph = |d: u64, dx: u64| if yy >= d { hood_len(k, yy - d) + dx } else { u64::MAX };
        let testable = ph(1, 5).max(ph(3, 4)).max(ph(5, 1)).max(ph(4, 3));
        let (t_up, t_lo) = rift_testable(k, yy);
        let mut rz = row_zero_in(r);
        let lo = |i: usize| if i == 0 { lo_first } else { this[i - 1] };
        let f_row = &mut flags[r * w..(r + 1) * w];
        // Past the hoods and the untestable cells every cell is decided alike, branch-free
        // (below); before, cell by cell.
        // (At least the first cell, whose `lo` is the tile to the left's.)
        let fast = (hood.max(exact).max(testable).max(t_up).max(t_lo).max(u64::from(x0)) - u64::from(x0))
            .clamp(1, w as u64) as usize;
        for i in 0..fast {
            let x = u64::from(x0) + i as u64;
            if x < hood {
                f_row[i] = F_HOOD;
                continue;
            }
            let c = now + HALO + i;
            let v = buf[c];
            col_zero[i] &= v == 0;
            rz &= v == 0;
            let mut f = if (x >= ku && col_zero[i]) || rz { F_OUTER } else { 0 };
            let (mu, ml, m3) = if x < exact {
                let na = i64::from(v) + i64::from(k);
                let pn = |kk: u32, hl: u64, xx: u64, yy: u64, s: i8| {
                    (if xx < hl { hood_value(kk, xx, yy) } else { i64::from(s) }) + i64::from(kk)
                };
                (
                    pn(k + 1, hu, x + 1, yy, up[i]) == na + 1,
                    pn(k + 1, hl, x, yy + 1, lo(i)) == na + 1,
                    pn(k + 3, h3, x + 1, yy + 1, p3[i]) == na + 3,
                )
            } else {
                (up[i] == v, lo(i) == v, p3[i] == v)
            };
            f |= if mu { F_UPPER } else { 0 } | if ml { F_LOWER } else { 0 } | if m3 { F_PLUS3 } else { 0 };
            if x >= testable {
                // Partners (x-5, y-1), (x-4, y-3) and (x-1, y-5), (x-3, y-4), in `buf`.
                let small = v.abs() <= 1;
                if small && buf[c - ww - 5] == v && buf[c - 3 * ww - 4] == v {
                    f |= F_PER_LOWER;
                }
                if small && buf[c - 5 * ww - 1] == v && buf[c - 4 * ww - 3] == v {
                    f |= F_PER_UPPER;
                }
            } else {
                f |= F_UNTESTABLE;
            }
            // The inner sector's square is looked at where the rest is split (F_SPARSE unused).
            f_row[i] =
                f | rift_flags(v, x, t_up, t_lo, |dx, dy| buf[c - dy * ww - dx], u32::MAX) | value_bits(v);
        }
        if fast < w {
            let n = w - fast;
            let c = now + HALO + fast;
            let v = &buf[c..c + n];
            // Partners (x-5, y-1), (x-4, y-3) and (x-1, y-5), (x-3, y-4); the rift's
            // (x-81, y-31) and (x-31, y-81).
            let q1 = &buf[c - ww - 5..c - ww - 5 + n];
            let q3 = &buf[c - 3 * ww - 4..c - 3 * ww - 4 + n];
            let q5 = &buf[c - 5 * ww - 1..c - 5 * ww - 1 + n];
            let q4 = &buf[c - 4 * ww - 3..c - 4 * ww - 3 + n];
            let qu = &buf[c - RIFT_DY * ww - RIFT_DX..c - RIFT_DY * ww - RIFT_DX + n];
            let ql = &buf[c - RIFT_DX * ww - RIFT_DY..c - RIFT_DX * ww - RIFT_DY + n];
            let (u, l, p) = (&up[fast..fast + n], &this[fast - 1..fast - 1 + n], &p3[fast..fast + n]);
            let cz = &mut col_zero[fast..fast + n];
            let out = &mut f_row[fast..fast + n];
            // Outer space: the row's zero run from column 0, and columns >= k zero from row 0.
            let run = if rz { v.iter().position(|&c| c != 0).unwrap_or(n) } else { 0 };
            rz &= run == n;
            let kx = (ku.saturating_sub(u64::from(x0) + fast as u64)).min(n as u64) as usize;
            for i in 0..n {
                let vi = v[i];
                cz[i] &= vi == 0;
                let small = (vi as u8).wrapping_add(1) <= 2;
                // The low byte's tests as bytes (`as u8` of the constants below 256).
                let b = |c: bool, f: u16| u8::from(c) * f as u8;
                let low = b(u[i] == vi, F_UPPER)
                    | b(l[i] == vi, F_LOWER)
                    | b(p[i] == vi, F_PLUS3)
                    | b(small & (q1[i] == vi) & (q3[i] == vi), F_PER_LOWER)
                    | b(small & (q5[i] == vi) & (q4[i] == vi), F_PER_UPPER)
                    | b(qu[i] == vi, F_RIFT_UPPER)
                    | b(ql[i] == vi, F_RIFT_LOWER)
                    | b(small, F_SMALL);
                let h = |c: bool, f: u16| u8::from(c) * (f >> 8) as u8;
                let high = h(vi < 0, V_NEG) | h(vi == -1, V_M1) | h(vi == 1, V_P1) | h(vi <= -2, V_LE_M2);
                out[i] = u16::from(low) | (u16::from(high) << 8);
            }
            // Outer space over its ranges of columns (an index test in the loop above would
            // widen its vectors to 64-bit lanes).
            for o in &mut out[..run] {
                *o |= F_OUTER;
            }
            for (o, &z) in out[kx..].iter_mut().zip(&cz[kx..]) {
                *o |= u16::from(z) * F_OUTER;
            }
        }
        row_zero.push(rz);
        if r + 1 == h {
            plus1_bottom = this.to_vec();
        }
    }
    // The blocks, row-major: the decisions of `Labeler::decide`, refined to the cells.
    let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
    blocks.clear();
    blocks.resize(bw * bh, REST);
    labels.resize(w * h, 0);
    for rb in 0..bh {
        let (ra, rz) = (rb * BLOCK, (rb * BLOCK + BLOCK).min(h));
        // Down each column of the block row: OR, AND, min and max; then across each block.
        cols.reduce(&flags[ra * w..], w, rz - ra, w);
        for cb in 0..bw {
            let (ca, cz) = (cb * BLOCK, (cb * BLOCK + BLOCK).min(w));
            let (quick, any) = cols.block(ca..cz);
            let s = quick.unwrap_or_else(|| {
                let mut s = BlockStats::new();
                for r in ra..rz {
                    let fr = &flags[r * w + ca..r * w + cz];
                    let vr = &buf[(HALO + r) * ww + HALO + ca..(HALO + r) * ww + HALO + cz];
                    for (&f, &v) in fr.iter().zip(vr) {
                        s.add(f, v);
                    }
                }
                s.facts()
            });
            // The block's top-left cell; its centre is on or above the diagonal on the upper side.
            let (bx, by) = (u64::from(x0) + ca as u64, u64::from(y0) + ra as u64);
            let upper_side = 2 * bx + (cz - ca) as u64 >= 2 * by + (rz - ra) as u64;
            let left_label = to_side(
                if cb > 0 { Some(blocks[rb * bw + cb - 1]) } else { left.map(|l| l.last_col[rb]) },
                bx == by + BLOCK as u64,
                upper_side,
            );
            let above_label = to_side(
                if rb > 0 { Some(blocks[(rb - 1) * bw + cb]) } else { above.map(|ab| ab.last_row[cb]) },
                bx + BLOCK as u64 == by,
                upper_side,
            );
            let label = block_label(&s, upper_side, left_label, above_label);
            blocks[rb * bw + cb] = label;
            let fl = &flags[ra * w + ca..];
            let out = &mut labels[ra * w + ca..];
            let (at, size) = ((bx, by), (rz - ra, cz - ca));
            if !refine_quick(label, &s, any, left_label, above_label, at, size, fl, w, out, w) {
                refine_block(label, left_label, above_label, at, size, fl, w, out, w);
            }
        }
    }
    // The rest split into fray, warps and inner sector, row by row, with the inner sector's
    // square: palaces per column over the INNER_WINDOW rows up to the row (each row adds its
    // own and drops the first; from the INNER_WINDOW rows above the tile at the start).
    col_pal.clear();
    col_pal.resize(ww, 0);
    for r in HALO - INNER_WINDOW..HALO {
        for (cp, &v) in col_pal.iter_mut().zip(&buf[r * ww..(r + 1) * ww]) {
            *cp += u8::from(v < 0);
        }
    }
    let mut fab_col = above.map_or_else(|| vec![bytewise::FAR; w], |ab| ab.fab_col.clone());
    let mut fab_row = Vec::with_capacity(h);
    for r in 0..h {
        let (now, gone) = ((HALO + r) * ww, (HALO + r - INNER_WINDOW) * ww);
        for (cp, (&a, &b)) in col_pal.iter_mut().zip(buf[now..now + ww].iter().zip(&buf[gone..gone + ww])) {
            *cp = *cp + u8::from(a < 0) - u8::from(b < 0);
        }
        let mut d = left.map_or(bytewise::FAR, |l| l.fab_row[r]);
        bytewise::split_row(
            &mut labels[r * w..(r + 1) * w],
            &col_pal[HALO + 1 - INNER_WINDOW..],
            (u64::from(x0), u64::from(y0) + r as u64),
            &mut d,
            &mut fab_col,
            (sparse, near, tmp),
        );
        fab_row.push(d);
    }
    let last_row = blocks[(bh - 1) * bw..].to_vec();
    let last_col = (0..bh).map(|rb| blocks[rb * bw + bw - 1]).collect();
    leave_state(
        buf,
        (w, h),
        col_zero,
        row_zero,
        (last_row, last_col),
        (fab_col, fab_row),
        (plus1_bottom, plus1_right),
    )
}

/// The last row and the last column of a tile `(w, h)` of game k+1 shifted (1, 1) (see
/// [`LabelState::plus1_bottom`]); `scratch` for its quiet and hood rows.
#[inline(always)]
fn plus1_edges(
    p1: &TileView<'_>,
    (w, h): (usize, usize),
    (a, b): (&mut Vec<i8>, &mut Vec<i8>),
) -> (Vec<i8>, Vec<i8>) {
    let (mut ra, mut rb) = (false, false);
    let right = (0..h).map(|r| lane_row(p1, p1.y0 + r as u32, a, &mut ra)[w - 1]).collect();
    (lane_row(p1, p1.y0 + h as u32 - 1, b, &mut rb).to_vec(), right)
}

/// The state a labelled tile `(w, h)` leaves (see [`LabelState`]), from its buffer of game
/// k's cells with the `HALO` rows and columns before it.
#[inline(always)]
fn leave_state(
    buf: &[i8],
    (w, h): (usize, usize),
    col_zero: Vec<bool>,
    row_zero: Vec<bool>,
    (last_row, last_col): (Vec<u8>, Vec<u8>),
    (fab_col, fab_row): (Vec<u8>, Vec<u8>),
    (plus1_bottom, plus1_right): (Vec<i8>, Vec<i8>),
) -> LabelState {
    let ww = w + HALO;
    let mut right = Vec::with_capacity(h * HALO);
    for r in 0..h {
        right.extend_from_slice(&buf[(HALO + 1 + r) * ww - HALO..(HALO + 1 + r) * ww]);
    }
    LabelState {
        bottom: buf[h * ww..(h + HALO) * ww].to_vec(),
        right,
        col_zero,
        row_zero,
        last_row,
        last_col,
        fab_col,
        fab_row,
        plus1_bottom,
        plus1_right,
    }
}

/// The visitor behind [`label_tiles`].
struct TileLabeler<A, F> {
    k: u32,
    accs: Vec<Mutex<(A, TileScratch)>>,
    f: F,
}

impl<A: Send, F: Fn(&mut A, &LabelledTile<'_>) + Sync> LaneVisitor for TileLabeler<A, F> {
    fn visit(&self, worker: usize, t: &LaneTiles<'_>) -> LaneState {
        let mut g = self.accs[worker].lock().expect("labeller lock");
        let (acc, sc) = &mut *g;
        let state = label_tile(self.k, t, sc);
        let a = &t.views[0];
        let (above, left) = (tile_state(t.above), tile_state(t.left));
        let (w, h) = ((a.x1 - a.x0) as usize, (a.y1 - a.y0) as usize);
        let labels = &sc.labels[..w * h];
        let state = TileState {
            label: state,
            bottom_labels: std::iter::once(left.map_or(NONE, |l| l.right_labels[h - 1]))
                .chain(labels[(h - 1) * w..].iter().copied())
                .collect(),
            right_labels: labels.chunks_exact(w).map(|r| r[w - 1]).collect(),
        };
        let tile = LabelledTile {
            band: t.band,
            strips: t.strips,
            x0: a.x0,
            x1: a.x1,
            y0: a.y0,
            y1: a.y1,
            stride: (a.x1 - a.x0) as usize + HALO,
            buf: &sc.buf,
            labels,
            above_labels: above.map(|s| &s.bottom_labels[..]),
            left_labels: left.map(|s| &s.right_labels[..]),
            extra: &t.views[3..],
        };
        (self.f)(acc, &tile);
        Box::new(state)
    }
}

/// Bands of labelled rows waiting for [`label_rows`]' consumer (more wait for it in the sweep:
/// its workers block until one is taken).
const ROW_BANDS_QUEUED: usize = 4;

/// A band of labelled rows for [`label_rows`]: its first row, and its cells and labels, row
/// after row, from column 0.
type RowBand = (u32, Vec<i8>, Vec<u8>);

/// A worker's band of rows for [`label_rows`], filled tile by tile (a worker computes every
/// tile of its band, left to right) and sent when the band's last tile is in.
struct RowBandAcc {
    tx: std::sync::mpsc::SyncSender<RowBand>,
    band: RowBand,
}

/// [`label`] without extra lanes, computed by the tiled labeller on the sweep's workers
/// ([`label_tiles`]): the same rows, labels and cells outside the hood, handed to `f` in
/// order on the calling thread, for analyses that follow the rows down (`threads`, `beams`).
/// Memory: a few bands of rows of `window.x1` cells.
pub fn label_rows(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    mut f: impl FnMut(&LabelledRow<()>) -> Result<()>,
) -> Result<()> {
    let width = window.x1 as usize;
    let (tx, rx) = std::sync::mpsc::sync_channel::<RowBand>(ROW_BANDS_QUEUED);
    // The sweep stops when the caller cancels or `f` fails: its own token, which the consumer
    // sets from the caller's between bands.
    let inner = crate::engine::Cancel::new();
    let sweep_opts = EngineOptions { cancel: inner.clone(), ..opts.clone() };
    std::thread::scope(|scope| {
        let sweep = scope.spawn(move || {
            let tx = tx;
            label_tiles(
                k,
                window,
                &sweep_opts,
                progress,
                &[],
                || RowBandAcc { tx: tx.clone(), band: (0, Vec::new(), Vec::new()) },
                |acc, t| {
                    let (ya, yb) = (t.y0.max(window.y0), t.y1.min(window.y1));
                    if ya >= yb {
                        return;
                    }
                    let (y0, cells, labels) = &mut acc.band;
                    if t.x0 == 0 {
                        *y0 = ya;
                        cells.resize(width * (yb - ya) as usize, 0);
                        labels.resize(width * (yb - ya) as usize, 0);
                    }
                    let (a, b) = (t.x0 as usize, t.x1 as usize);
                    for y in ya..yb {
                        let r = (y - ya) as usize * width;
                        cells[r + a..r + b].copy_from_slice(t.cells(y));
                        labels[r + a..r + b].copy_from_slice(t.labels(y));
                    }
                    if t.x1 == window.x1 {
                        // A consumer that stopped takes nothing more; the sweep is being cancelled.
                        let _ = acc.tx.send(std::mem::take(&mut acc.band));
                    }
                },
            )
            .map(drop)
        });
        let mut failed = None;
        while let Ok((y0, cells, labels)) = rx.recv() {
            if opts.cancel.is_cancelled() {
                inner.cancel();
                break;
            }
            for (i, (c, l)) in cells.chunks_exact(width).zip(labels.chunks_exact(width)).enumerate() {
                let row = LabelledRow {
                    y: y0 + i as u32,
                    cells: c.to_vec(),
                    labels: l.iter().map(|&i| Region::from_index(i)).collect(),
                    extra: (),
                };
                if let Err(e) = f(&row) {
                    failed = Some(e);
                    break;
                }
            }
            if failed.is_some() {
                inner.cancel();
                break;
            }
        }
        // Workers waiting to send see the channel closed.
        drop(rx);
        let swept = sweep.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        match failed {
            Some(e) => Err(e),
            None if opts.cancel.is_cancelled() => Err(crate::error::Error::Interrupted),
            None => swept,
        }
    })
}

/// Sweeps the games the tiled labeller needs over `[0, window.x1) x [0, window.y1)` and does
/// nothing with their tiles: the floor of [`label_tiles`]' cost (what the labels cost beyond
/// it is the labeller's). For `palace bench`.
pub fn sweep_games_only(k: u32, window: Window, opts: &EngineOptions, progress: &dyn Progress) -> Result<()> {
    struct Nothing;
    impl LaneVisitor for Nothing {
        fn visit(&self, _: usize, _: &LaneTiles<'_>) -> LaneState {
            Box::new(())
        }
    }
    let grid = |v: Option<u32>| v.map(|v| v.max(2).next_multiple_of(BLOCK as u32));
    let opts = EngineOptions {
        tile_width: grid(opts.tile_width),
        band_height: grid(opts.band_height),
        ..opts.clone()
    };
    crate::engine::sweep_lanes(&tile_lanes(k, window.x1, window.y1), &opts, &Nothing, progress)?;
    Ok(())
}

/// Labels `[0, window.x1) x [0, window.y1)` of game `k` on the sweep's workers, as [`label`]
/// does on one thread, and shows every labelled tile (all of them, not only the window's) to
/// `f` with the worker's accumulator (one per worker, made by `acc`). `extra_lanes` are swept
/// with the labels' three games; their windows must be `window.x1 x window.y1` (from any
/// corner) and their views come aligned with each tile. Returns the accumulators.
pub fn label_tiles<A: Send>(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    extra_lanes: &[Lane],
    acc: impl Fn() -> A,
    f: impl Fn(&mut A, &LabelledTile<'_>) + Sync,
) -> Result<Vec<A>> {
    let mut all: Vec<Lane> = tile_lanes(k, window.x1, window.y1).to_vec();
    all.extend_from_slice(extra_lanes);
    // Tiles on the block grid: every block in one tile.
    let grid = |v: Option<u32>| v.map(|v| v.max(2).next_multiple_of(BLOCK as u32));
    let opts = EngineOptions {
        tile_width: grid(opts.tile_width),
        band_height: grid(opts.band_height),
        ..opts.clone()
    };
    let workers = opts.resolved_threads();
    let visitor = TileLabeler {
        k,
        accs: (0..workers).map(|_| Mutex::new((acc(), TileScratch::default()))).collect(),
        f,
    };
    crate::engine::sweep_lanes(&all, &opts, &visitor, progress)?;
    Ok(visitor.accs.into_iter().map(|m| m.into_inner().expect("labeller lock").0).collect())
}

crate::avx2_version! {
    /// [`RegionAcc::add_tile_body`], vectorised for AVX2 where the CPU has it.
    fn add_tile(k: u32, window: Window, acc: &mut TileAcc, t: &LabelledTile<'_>) = RegionAcc::add_tile_body;
}

/// The length of the run of `s[0]` that `s` starts with (`s` not empty), eight bytes at a
/// time.
pub(crate) fn run_len(s: &[u8]) -> usize {
    let splat = u64::from(s[0]) * 0x0101_0101_0101_0101;
    let mut chunks = s.chunks_exact(8);
    let mut n = 0;
    for c in chunks.by_ref() {
        let d = u64::from_le_bytes(c.try_into().expect("eight bytes")) ^ splat;
        if d != 0 {
            return n + (d.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + chunks.remainder().iter().position(|&b| b != s[0]).unwrap_or(chunks.remainder().len())
}

/// Adds the borders of a labelled tile's cells inside the window: their edges with their
/// left and upper neighbours in the window, from the tile or from its neighbours' labels.
#[inline(always)]
fn add_tile_borders(window: Window, acc: &mut BorderAcc, t: &LabelledTile<'_>) {
    let (xa, xb) = (t.x0.max(window.x0), t.x1.min(window.x1));
    let (ya, yb) = (t.y0.max(window.y0), t.y1.min(window.y1));
    if xa >= xb {
        return;
    }
    let (ia, ib) = ((xa - t.x0) as usize, (xb - t.x0) as usize);
    let has_left = xa > window.x0;
    for y in ya..yb {
        let r = (y - t.y0) as usize;
        // The row with the cell left of it: from the tile, or the left neighbour's last column.
        let (row, left) = (t.labels(y), |row: &[u8], r: usize| {
            if !has_left {
                NONE
            } else if ia > 0 {
                row[ia - 1]
            } else {
                t.left_labels.expect("a tile to the left")[r]
            }
        });
        let l = left(row, r);
        let (above, above_left) = if y == window.y0 {
            (None, NONE)
        } else if y > t.y0 {
            let up = t.labels(y - 1);
            (Some(&up[ia..ib]), left(up, r - 1))
        } else {
            // The row above the tile: the upper neighbour's last row, from column x0 - 1.
            let up = t.above_labels.expect("a tile above");
            (Some(&up[ia + 1..ib + 1]), if has_left { up[ia] } else { NONE })
        };
        acc.add_row(u64::from(y), u64::from(xa), &row[ia..ib], l, above, above_left);
    }
}

/// Per-worker statistics of `palace regions`, merged into a [`RegionAcc`] at the end.
struct TileAcc {
    /// Per region, counts of `v + 128`.
    hist: Vec<[u64; 256]>,
    hottest: [Option<(i64, u64, u64)>; 2],
    /// Rows of the diagonal's fabric cells in the window.
    diagonal: Vec<u64>,
    rift: RiftColumns,
    /// Transposed, as [`RegionAcc`]'s.
    rift_lower: RiftColumns,
    borders: BorderAcc,
}

impl RegionAcc {
    /// Adds a labelled tile: its cells inside the window.
    #[inline(always)]
    fn add_tile_body(k: u32, window: Window, acc: &mut TileAcc, t: &LabelledTile<'_>) {
        let (ya, yb) = (t.y0.max(window.y0), t.y1.min(window.y1));
        add_tile_borders(window, &mut acc.borders, t);
        for y in ya..yb {
            let yy = u64::from(y);
            let hood = hood_len(k, yy).min(u64::from(window.x1)) as u32;
            let (xa, xb) = (t.x0.max(window.x0).max(hood), t.x1.min(window.x1));
            if xa >= xb {
                continue;
            }
            let (cells, labels) = (t.cells(y), t.labels(y));
            let (ia, ib) = ((xa - t.x0) as usize, (xb - t.x0) as usize);
            // The histograms, run of one label by run.
            let mut i = ia;
            while i < ib {
                let l = labels[i];
                let end = i + run_len(&labels[i..ib]);
                let run = &cells[i..end];
                if l == RIFT_UP {
                    for x in i..end {
                        add_rift(&mut acc.rift, u64::from(t.x0) + x as u64, yy);
                    }
                } else if l == RIFT_LO {
                    for x in i..end {
                        add_rift(&mut acc.rift_lower, yy, u64::from(t.x0) + x as u64);
                    }
                }
                let hist = &mut acc.hist[l as usize];
                if run.len() >= 64 {
                    crate::simd::histogram::count(std::iter::once(run), hist);
                } else {
                    for &v in run {
                        hist[(v as u8 ^ 0x80) as usize] += 1;
                    }
                }
                i = end;
            }
            // The hottest cell on each side of the diagonal: the first of the segment's largest.
            let split = (u64::from(xa).max(yy.min(u64::from(xb))) - u64::from(t.x0)) as usize;
            for (side, (a, b)) in [(1usize, (ia, split)), (0, (split, ib))] {
                if a >= b {
                    continue;
                }
                // A fold, not `max()`: it vectorises.
                let m = i64::from(cells[a..b].iter().fold(i8::MIN, |m, &c| m.max(c)));
                if acc.hottest[side].is_none_or(|(h, _, _)| m >= h) {
                    let p = cells[a..b].iter().position(|&c| i64::from(c) == m).expect("the maximum");
                    let x = u64::from(t.x0) + (a + p) as u64;
                    if acc.hottest[side].is_none_or(|(h, hy, hx)| m > h || (yy, x) < (hy, hx)) {
                        acc.hottest[side] = Some((m, yy, x));
                    }
                }
            }
            if (xa..xb).contains(&y) && labels[(y - t.x0) as usize] == Region::Fabric.index() as u8 {
                acc.diagonal.push(yy);
            }
        }
    }

    /// The statistics the workers gathered, merged (the hood's from its closed form).
    fn from_tiles(k: u32, window: Window, tiles: Vec<TileAcc>) -> Self {
        let mut acc = RegionAcc::new(k, window);
        let mut diagonal = Vec::new();
        for t in tiles {
            // Tiles count by v + 128, the accumulator by v's byte.
            for (a, b) in acc.hist.iter_mut().zip(&t.hist) {
                for (i, &c) in b.iter().enumerate() {
                    a[i ^ 0x80] += c;
                }
            }
            for side in 0..2 {
                if let Some((v, y, x)) = t.hottest[side]
                    && acc.hottest[side].is_none_or(|(h, hx, hy)| v > h || (v == h && (y, x) < (hy, hx)))
                {
                    acc.hottest[side] = Some((v, x, y));
                }
            }
            diagonal.extend(t.diagonal);
            merge_rift(&mut acc.rift, t.rift);
            merge_rift(&mut acc.rift_lower, t.rift_lower);
            acc.borders.merge(&t.borders);
        }
        diagonal.sort_unstable();
        for y in diagonal {
            if acc.prism_ended {
                break;
            }
            if acc.prism.is_some_and(|p| y - p > 2 * BLOCK as u64) {
                acc.prism_ended = true;
            } else {
                acc.prism = Some(y);
            }
        }
        for y in window.y0..window.y1 {
            let yy = u64::from(y);
            let hood = hood_len(k, yy).min(u64::from(window.x1));
            let x0 = u64::from(window.x0);
            if x0 < hood {
                let end = hood.min(u64::from(window.x1));
                let (a, b) = (hood_value(k, x0, yy), hood_value(k, end - 1, yy));
                acc.hood_cells += end - x0;
                acc.hood_range = Some(acc.hood_range.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
            }
        }
        acc
    }
}

/// `palace regions` on the sweep's workers: the same report and map as [`run_reference`].
pub fn run(
    k: u32,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(RegionsReport, Option<std::path::PathBuf>)> {
    let (picture, map) = match out {
        Some(o) => {
            let (png, map) =
                legend::start(o, window, scale, plte(), map_text(k, window, scale), opts.threads)?;
            (Some(OrderedPicture::new(png, window, scale)), Some(map))
        }
        None => (None, None),
    };
    let tiles = label_tiles(
        k,
        window,
        opts,
        progress,
        &[],
        || TileAcc {
            hist: vec![[0; 256]; ALL.len()],
            hottest: [None; 2],
            diagonal: Vec::new(),
            rift: RiftColumns::new(),
            rift_lower: RiftColumns::new(),
            borders: BorderAcc::default(),
        },
        |acc, t| {
            add_tile(k, window, acc, t);
            if let Some(p) = &picture {
                p.draw(t.band, t.strips, (t.x0, t.x1), (t.y0, t.y1), |x, y| t.labels(y)[(x - t.x0) as usize]);
            }
        },
    )?;
    let drawn = picture.map(OrderedPicture::finish_file).transpose()?;
    let report = RegionAcc::from_tiles(k, window, tiles).finish();
    let path = map.zip(drawn).map(|(m, d)| m.finish(d, &report, opts)).transpose()?;
    Ok((report, path))
}

/// The region map's text chunk.
fn map_text(k: u32, window: Window, scale: u32) -> Vec<(String, String)> {
    vec![("Comment".to_string(), format!("palace regions, k = {k}, window {window}, scale {scale}"))]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Refines a 4 x 4 block whose cell flags are given row by row.
    fn refine(
        block: u8,
        left: Option<u8>,
        above: Option<u8>,
        at: (u64, u64),
        flags: [[u16; 4]; 4],
    ) -> [[u8; 4]; 4] {
        let flat: Vec<u16> = flags.iter().flatten().copied().collect();
        let mut out = [0u8; 16];
        refine_block(block, left, above, at, (4, 4), &flat, 4, &mut out, 4);
        std::array::from_fn(|r| std::array::from_fn(|c| out[r * 4 + c]))
    }

    #[test]
    fn runs_from_the_left_stop_at_the_first_failing_cell() {
        const P: u16 = F_PLUS3;
        let flags = [[P, P, 0, P], [0, P, P, P], [P, P, P, P], [P, 0, 0, 0]];
        let got = refine(REST, Some(FABRIC), None, (100, 0), flags);
        let (f, r) = (FABRIC, REST);
        assert_eq!(got, [[f, f, r, r], [r, r, r, r], [f, f, f, f], [f, r, r, r]]);
        // No neighbour of a region: the block keeps its label.
        assert_eq!(refine(REST, None, None, (100, 0), flags), [[r; 4]; 4]);
        // A run into a block of the same region changes nothing.
        assert_eq!(refine(FABRIC, Some(FABRIC), None, (100, 0), flags), [[f; 4]; 4]);
    }

    #[test]
    fn down_from_the_upper_epaulette_the_run_goes_on_through_the_rift() {
        // Column 0: épaulette, épaulette, rift, fabric. Column 1: épaulette, rift, rift, rift.
        // Column 2: a cell passing neither ends the run at once. Column 3: épaulette to the end.
        const E: u16 = F_PER_UPPER | F_RIFT_UPPER | F_PLUS3;
        const R: u16 = F_RIFT_UPPER | F_PLUS3;
        const F: u16 = F_PLUS3;
        let flags = [[E, E, F, E], [E, R, E, E], [R, R, E, E], [F, R, R, E]];
        let got = refine(FABRIC, None, Some(EP_UP), (100, 0), flags);
        let (e, r, f) = (EP_UP, RIFT_UP, FABRIC);
        assert_eq!(got, [[e, e, f, e], [e, r, f, e], [r, r, f, e], [f, r, f, e]]);
        // Going right from the upper épaulette there is no rift.
        let got = refine(FABRIC, Some(EP_UP), None, (100, 0), flags);
        assert_eq!(got[1], [e, f, f, f]);
        // The lower épaulette's rift goes right.
        let lo = |f: u16| {
            let mut g = f & F_PLUS3;
            if f & F_PER_UPPER != 0 {
                g |= F_PER_LOWER;
            }
            if f & F_RIFT_UPPER != 0 {
                g |= F_RIFT_LOWER;
            }
            g
        };
        let mirrored: [[u16; 4]; 4] = std::array::from_fn(|r| std::array::from_fn(|c| lo(flags[c][r])));
        let got = refine(FABRIC, Some(EP_LO), None, (0, 100), mirrored);
        let (e, r) = (EP_LO, RIFT_LO);
        let want: [[u8; 4]; 4] = [[e, e, r, f], [e, r, r, r], [f, f, f, f], [e, e, e, e]];
        assert_eq!(got, want);
    }

    #[test]
    fn ranks_decide_between_runs_and_the_block() {
        // A rift block: a fabric run from the left does not take cells the rift's test passes.
        const R: u16 = F_RIFT_UPPER | F_PLUS3;
        let got = refine(RIFT_UP, Some(FABRIC), None, (100, 0), [[R; 4]; 4]);
        assert_eq!(got, [[RIFT_UP; 4]; 4]);
        // An arm run from above takes a fabric block's cells only where the arm's test passes
        // (arms rank above fabric), and a fabric cell failing nothing stays fabric.
        const A: u16 = F_UPPER | F_PLUS3;
        let got = refine(FABRIC, None, Some(ARM_UP), (100, 0), [[A, F_PLUS3, A, A]; 4]);
        assert_eq!(got[3], [ARM_UP, FABRIC, ARM_UP, ARM_UP]);
        // Hood and outer-space cells keep their labels and stop runs.
        let got = refine(REST, Some(FABRIC), None, (100, 0), [[F_HOOD, F_PLUS3, F_OUTER, F_PLUS3]; 4]);
        assert_eq!(got[0], [HOOD, REST, OUTER, REST]);
    }

    proptest::proptest! {
        #[test]
        fn quick_refinement_equals_refine_block(
            seed: u64,
            block in 0usize..8,
            left in 0usize..9,
            above in 0usize..9,
            (x0, y0) in (0u64..40, 0u64..40),
            (rows, cols) in (1usize..=BLOCK, 1usize..=BLOCK),
            noise in 0u64..4,
        ) {
            // Labels of blocks and their neighbours; flags that mostly pass every test, with
            // `noise` in 16 cells missing some, and now and then a hood or outer cell.
            const L: [u8; 8] = [REST, EP_UP, EP_LO, FABRIC, ARM_UP, ARM_LO, RIFT_UP, RIFT_LO];
            let pick = |i: usize| L.get(i).copied();
            let (block, left, above) = (L[block], pick(left), pick(above));
            let mut s = seed;
            let mut next = move || {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            };
            let flags: Vec<u16> = (0..rows * cols)
                .map(|_| {
                    let mut f = 0xfff & !(F_HOOD | F_OUTER | F_UNTESTABLE);
                    if next() % 16 < noise {
                        f &= next() as u16;
                    }
                    match next() % 64 {
                        0 => F_HOOD,
                        1 => f | F_OUTER,
                        2 => f | F_UNTESTABLE,
                        _ => f,
                    }
                })
                .collect();
            let mut st = BlockStats::new();
            for &f in &flags {
                st.add(f, 0);
            }
            let any = flags.iter().fold(0, |a, &f| a | f);
            let (mut quick, mut plain) = (vec![0u8; rows * cols], vec![0u8; rows * cols]);
            refine_block(block, left, above, (x0, y0), (rows, cols), &flags, cols, &mut plain, cols);
            if refine_quick(block, &st.facts(), any, left, above, (x0, y0), (rows, cols), &flags, cols, &mut quick, cols) {
                proptest::prop_assert_eq!(quick, plain);
            }
        }
    }

    #[test]
    fn quick_refinement_takes_the_blocks_inside_a_region() {
        // Off the diagonal, inside the upper épaulette (runs from above go on into the rift
        // only where a cell fails the épaulette) and inside the fabric.
        let mut out = [0u8; 64];
        let all = |f: u16| BlockFacts { cand: true, all: f, per: f, periodic: true, quiet: false };
        let ep = F_PER_UPPER | F_RIFT_UPPER;
        assert!(refine_quick(
            EP_UP,
            &all(ep),
            ep,
            Some(EP_UP),
            Some(EP_UP),
            (80, 0),
            (8, 8),
            &[ep; 64],
            8,
            &mut out,
            8
        ));
        assert_eq!(out, [EP_UP; 64]);
        let fab = F_PLUS3;
        assert!(refine_quick(
            FABRIC,
            &all(fab),
            fab,
            Some(FABRIC),
            Some(REST),
            (80, 0),
            (8, 8),
            &[fab; 64],
            8,
            &mut out,
            8
        ));
        assert_eq!(out, [FABRIC; 64]);
        // A cell failing the épaulette's test under an épaulette block: refine_block decides.
        let mut flags = [ep; 64];
        flags[9] = F_RIFT_UPPER;
        let s = all(F_RIFT_UPPER);
        assert!(!refine_quick(
            EP_UP,
            &s,
            ep,
            Some(EP_UP),
            Some(EP_UP),
            (80, 0),
            (8, 8),
            &flags,
            8,
            &mut out,
            8
        ));
        // On the diagonal: refine_block decides.
        assert!(!refine_quick(
            FABRIC,
            &all(fab),
            fab,
            Some(FABRIC),
            None,
            (4, 0),
            (8, 8),
            &[fab; 64],
            8,
            &mut out,
            8
        ));
    }

    #[test]
    fn the_rest_splits_into_fray_warps_and_inner_sector() {
        // Row 5 of a board, columns 0..40: fabric at column 3, then rest.
        let mut labels = vec![REST; 40];
        labels[3] = FABRIC;
        let mut flags = vec![0u16; 40];
        flags[30] = F_SPARSE;
        let (mut last, mut cols) = (None, vec![None; 40]);
        cols[1] = Some(0); // fabric at (1, 0): four rows up, within the fray's width
        split_rest(&mut labels, &flags, 0, 5, &mut last, &mut cols);
        let r = |reg: Region| reg as u8;
        // Below the diagonal (x < 5) the column decides: only column 1 had fabric above.
        assert_eq!(
            &labels[..5],
            &[r(Region::WarpLower), r(Region::Fray), r(Region::WarpLower), FABRIC, r(Region::WarpLower)]
        );
        // On the diagonal and past it the row decides: columns 5..=15 are within 12 of column 3.
        assert!(labels[5..=15].iter().all(|&l| l == r(Region::Fray)));
        assert_eq!(labels[16], r(Region::WarpUpper));
        assert_eq!(labels[30], r(Region::InnerSector));
        assert_eq!((last, cols[3]), (Some(3), Some(5)));
    }

    #[test]
    fn rift_widths_by_hand() {
        // k = 7: the nose's column is 2. Columns 12..=15 hold 1, 2, 3, 4 cells.
        let mut cols = RiftColumns::new();
        for (x, n) in [(12u64, 1u64), (13, 2), (14, 3), (15, 4)] {
            for y in 0..n {
                add_rift(&mut cols, x, 20 + y);
            }
        }
        let r = RiftReport::new(7, &cols);
        assert_eq!((r.columns, r.cells, r.span, r.end), (4, 10, Some((10, 13)), Some((15, 23))));
        // Width rises by exactly one cell a column: 1000 per 1000 columns.
        assert!((r.widening_per_1000.unwrap() - 1000.0).abs() < 1e-9);
        // Four columns in 16 stretches of one column each.
        assert_eq!(r.bins.len(), 4);
        assert_eq!((r.bins[3].from, r.bins[3].to, r.bins[3].columns, r.bins[3].max_width), (13, 14, 1, 4));
        assert!((r.bins[1].mean_width - 2.0).abs() < 1e-12);
        // An empty rift.
        let e = RiftReport::new(7, &RiftColumns::new());
        assert!(e.span.is_none() && e.bins.is_empty() && e.widening_per_1000.is_none());
    }
}

#[cfg(test)]
mod run_len_tests {
    use super::run_len;

    #[test]
    fn run_len_equals_the_plain_count() {
        // Runs of every length 1..40 at every offset in an 8-byte word, then another byte or
        // the end.
        for len in 1..40 {
            for pad in 0..9 {
                let mut s = vec![9u8; pad];
                s.extend(std::iter::repeat_n(3u8, len));
                for tail in [None, Some(4u8), Some(0)] {
                    let mut t = s.clone();
                    t.extend(tail);
                    let plain = t[pad..].iter().take_while(|&&b| b == 3).count();
                    assert_eq!(run_len(&t[pad..]), plain, "len {len} pad {pad} tail {tail:?}");
                }
            }
        }
    }
}
