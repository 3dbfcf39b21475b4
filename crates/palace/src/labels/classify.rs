//! The labels' per-cell tests (as flags), the block labels decided on them, the refinement of
//! mixed blocks to the cell, and the rest's split into fray, warps and inner sector: what both
//! labellers share.

use super::region::{ALL, BLOCK, FRAY_WIDTH, INNER_MAX, RIFT_DX, RIFT_DY, Region};
use crate::model::rule::hood_len;

// The per-cell tests of the tile path's vector loop take the low byte, so that they are
// computed in bytes; the others the high byte.
pub(super) const F_UPPER: u16 = 1; // matches k+1 shifted (1,0)
pub(super) const F_LOWER: u16 = 2; // matches k+1 shifted (0,1)
pub(super) const F_PLUS3: u16 = 4; // matches k+3 shifted (1,1)
pub(super) const F_PER_LOWER: u16 = 8; // the lower épaulette's periods (5,1), (4,3) hold and |v| <= 1
pub(super) const F_PER_UPPER: u16 = 16; // the upper épaulette's periods (1,5), (3,4) hold and |v| <= 1
pub(super) const F_RIFT_UPPER: u16 = 32; // v(x, y) = v(x-81, y-31), the partner testable
pub(super) const F_RIFT_LOWER: u16 = 64; // v(x, y) = v(x-31, y-81), the partner testable
pub(super) const F_SMALL: u16 = 128; // |v| <= 1
pub(super) const F_HOOD: u16 = 256;
pub(super) const F_OUTER: u16 = 512;
pub(super) const F_UNTESTABLE: u16 = 1024; // a period partner lies in the hood or off the board
pub(super) const F_SPARSE: u16 = 2048; // at most INNER_MAX palaces in the INNER_WINDOW square ending here
// Classes of the value, which the tile path adds to the flags for the blocks' reductions (not
// tests of a region, so never looked at per cell): v < 0, v = -1, v = 1, v <= -2.
pub(super) const V_NEG: u16 = 4096;
pub(super) const V_M1: u16 = 8192;
pub(super) const V_P1: u16 = 16384;
pub(super) const V_LE_M2: u16 = 32768;
pub(super) const V_ALL: u16 = V_NEG | V_M1 | V_P1 | V_LE_M2;

/// The value classes of `v` ([`V_NEG`] and the others).
#[inline(always)]
pub(super) fn value_bits(v: i8) -> u16 {
    (u16::from(v < 0) * V_NEG)
        | (u16::from(v == -1) * V_M1)
        | (u16::from(v == 1) * V_P1)
        | (u16::from(v <= -2) * V_LE_M2)
}

/// Cell and block labels while they are decided: an index into [`ALL`], or the rest.
pub(super) const REST: u8 = u8::MAX;
pub(super) const HOOD: u8 = Region::Hood as u8;
pub(super) const OUTER: u8 = Region::OuterSpace as u8;
pub(super) const EP_UP: u8 = Region::EpauletteUpper as u8;
pub(super) const EP_LO: u8 = Region::EpauletteLower as u8;
pub(super) const FABRIC: u8 = Region::Fabric as u8;
pub(super) const ARM_UP: u8 = Region::ArmUpper as u8;
pub(super) const ARM_LO: u8 = Region::ArmLower as u8;
pub(super) const RIFT_UP: u8 = Region::RiftUpper as u8;
pub(super) const RIFT_LO: u8 = Region::RiftLower as u8;

/// The flags of the épaulettes' and the rift's tests that need cells before the cell: the rift
/// partners `(x-81, y-31)` and `(x-31, y-81)`, and the palaces of the inner sector's square.
/// `at(dx, dy)` is the cell `dx` columns left of and `dy` rows above `(x, y)`; `t_up` and
/// `t_lo` the first columns whose rift partners are testable; `pal` the palaces in the square.
pub(super) fn rift_flags(
    v: i8,
    x: u64,
    t_up: u64,
    t_lo: u64,
    at: impl Fn(usize, usize) -> i8,
    pal: u32,
) -> u16 {
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
pub(super) fn rift_testable(k: u32, y: u64) -> (u64, u64) {
    let t = |dx: usize, dy: usize| {
        if y >= dy as u64 { hood_len(k, y - dy as u64) + dx as u64 } else { u64::MAX }
    };
    (t(RIFT_DX, RIFT_DY), t(RIFT_DY, RIFT_DX))
}

/// What a block's label is decided on: its cells outside hood and outer space.
#[derive(Clone, Copy)]
pub(super) struct BlockStats {
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
    pub(super) fn new() -> Self {
        BlockStats { cand: 0, tested: 0, all: !0, per: !0, lo: i8::MAX, hi: i8::MIN, hood: false }
    }

    pub(super) fn add(&mut self, f: u16, v: i8) {
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
    pub(super) fn facts(&self) -> BlockFacts {
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
pub(super) struct BlockFacts {
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
    pub(super) const EMPTY: BlockFacts =
        BlockFacts { cand: false, all: !0, per: !0, periodic: false, quiet: true };

    /// The facts of a block all of whose cells are candidates and testable, from the OR and
    /// AND of their flags with their [`value_bits`]; `None` where every value is -2 or less
    /// (whether they are all equal is not known from the classes).
    #[inline(always)]
    pub(super) fn of_candidates(or: u16, and: u16) -> Option<BlockFacts> {
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
pub(super) fn block_label(s: &BlockFacts, upper_side: bool, left: Option<u8>, above: Option<u8>) -> u8 {
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
pub(super) fn rank(l: u8) -> u8 {
    match l {
        EP_UP | EP_LO => 5,
        RIFT_UP | RIFT_LO => 4,
        ARM_UP | ARM_LO => 3,
        FABRIC => 2,
        _ => 0,
    }
}

/// Whether a cell with flags `f` passes the test of the region `l`.
pub(super) fn passes(l: u8, f: u16) -> bool {
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
pub(super) fn run_from(l: Option<u8>, down: bool) -> Run {
    match l? {
        EP_UP if down => Some((EP_UP, RIFT_UP)),
        EP_LO if !down => Some((EP_LO, RIFT_LO)),
        l @ (EP_UP | EP_LO | RIFT_UP | RIFT_LO | FABRIC | ARM_UP | ARM_LO) => Some((l, REST)),
        _ => None,
    }
}

/// Advances a run over a cell with flags `f`: the region it gives the cell, if any.
pub(super) fn step(run: &mut Run, f: u16) -> Option<u8> {
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
pub(super) fn refine_block(
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
pub(super) fn to_side(l: Option<u8>, from_diagonal: bool, upper_side: bool) -> Option<u8> {
    let upper = matches!(l, Some(EP_UP | ARM_UP | RIFT_UP));
    let lower = matches!(l, Some(EP_LO | ARM_LO | RIFT_LO));
    if from_diagonal && (upper && !upper_side || lower && upper_side) { l.map(mirror_label) } else { l }
}

/// The label of the mirror image of a cell labelled `l` (as [`Region::mirror`]; the rest,
/// split later cell by cell, stays the rest).
pub(super) fn mirror_label(l: u8) -> u8 {
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
pub(super) fn refine_quick(
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
pub(super) fn mask(b: bool) -> u8 {
    0u8.wrapping_sub(u8::from(b))
}

/// Splits the rest of a row into fray, warps and inner sector (see the module's
/// documentation). `last_fab` is the row's last fabric cell so far, `last_fab_col[i]` the last
/// fabric row of column `x0 + i` so far; both are updated.
pub(super) fn split_rest(
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
}
