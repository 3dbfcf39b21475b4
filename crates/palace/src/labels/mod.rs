//! The region labeller: telling the paper's regions apart (§3.1) by properties one can
//! measure. The analyses build on the labels: `regions` reports on them, and `compare`,
//! `fabric`, `grid`, `gliders`, `threads`, `beams`, `survey` and the shift searches use them.
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
//!
//! The modules: `region` holds the regions ([`Region`], [`ALL`]); `classify` the per-cell
//! tests (as flags), the block labels and their refinement to the cell, and the rest's split;
//! `reference` the reference labeller; `tiled` the tiled labeller, with the byte-wide loops of
//! its rows in `bytewise`.

mod bytewise;
mod classify;
mod reference;
mod region;
mod tiled;

pub use reference::{Labeler, LabelledRow, label, lanes};
pub(crate) use region::NONE;
pub use region::{ALL, BLOCK, FRAY_WIDTH, INNER_MAX, INNER_WINDOW, RIFT_DX, RIFT_DY, Region};
pub use tiled::{LabelledTile, RowLabels, label_rows, label_tiles, sweep_games_only};
pub(crate) use tiled::{lane_row, run_len};
