// What every kernel shares: the step of a dispatch, the counter arrays, the tile's counters
// in workgroup memory, and the functions that read and write them. Each kernel declares its
// own `Job` (with the fields `k` and `diag_off`) and its bindings from 5 on; the host puts this
// file after its source.

// The tile shape: LANES invocations, each computing ROWS rows, over TILE_W columns, set as
// override constants when the host makes the pipeline (src/lib.rs, `shader_constants`); and
// whether the lanes pass counters by subgroup shuffles, which the text decides (the shuffles
// and the lane's builtin are in the source only then).
override LANES: u32;
override ROWS: u32;
override TILE_W: u32;
override TILE_H: u32 = LANES * ROWS;
const SUBGROUPS: bool = @SUBGROUPS@;

struct Step {
    // The tile-diagonal: tiles (i, j) with i + j = diag.
    diag: u32,
    // Its first tile column.
    i_min: u32,
    // The tally's slot of its first tile in `keys` (the skin's kernel takes its slots itself).
    slot_base: u32,
    // Diagonal entries below it live in `diags`, the others in `diags_hi` (the array may be
    // longer than one storage binding holds); 0xffffffff when `diags` holds them all.
    diag_split: u32,
}

@group(0) @binding(0) var<uniform> job: Job;
@group(0) @binding(1) var<uniform> step: Step;
@group(0) @binding(2) var<storage, read_write> rows: array<u32>;
@group(0) @binding(3) var<storage, read_write> cols: array<u32>;
@group(0) @binding(4) var<storage, read_write> diags: array<u32>;
// The diagonal counters from `step.diag_split` on (a buffer of one unused word when none).
@group(0) @binding(@DIAGS_HI@) var<storage, read_write> diags_hi: array<u32>;

// C and D of each lane's bottom row, for the lane below, by step parity.
var<workgroup> cbuf: array<u32, 2 * LANES>;
var<workgroup> dbuf: array<u32, 2 * LANES>;
// The counters entering the tile through its top row and leaving through its bottom row, C
// and D of each column.
var<workgroup> top_c: array<u32, TILE_W>;
var<workgroup> top_d: array<u32, TILE_W>;
var<workgroup> bot_c: array<u32, TILE_W>;
var<workgroup> bot_d: array<u32, TILE_W>;

// Where diagonal x - y is stored: x - y + diag_off (the region's height).
fn dix(x: u32, y: u32) -> u32 {
    return x + job.diag_off - y;
}

// The D of the diagonal through (x, y), from whichever binding holds it.
fn dget(x: u32, y: u32) -> u32 {
    let i = dix(x, y);
    if (i < step.diag_split) {
        return diags[i];
    }
    return diags_hi[i - step.diag_split];
}

// Sets the D of the diagonal through (x, y).
fn dput(x: u32, y: u32, v: u32) {
    let i = dix(x, y);
    if (i < step.diag_split) {
        diags[i] = v;
    } else {
        diags_hi[i - step.diag_split] = v;
    }
}

// The hood, max(x, y) + 2 min(x, y) < k (docs/rule.md, "The hood"), without overflow.
fn in_hood(x: u32, y: u32) -> bool {
    let a = max(x, y);
    let b = min(x, y);
    return a < job.k && a + 2u * b < job.k;
}

// The slot of tile (i, j) in `quiet`, which keeps a flag per tile of the last QUIET_ROWS rows of
// tiles (each kernel declares both): a tile reuses the slot of the tile QUIET_ROWS rows above it.
fn quiet_slot(i: u32, j: u32) -> u32 {
    return (j % QUIET_ROWS) * job.tiles_x + i;
}

// Whether tile (i, j)'s flag says it is quiet (only v = 0, no palace); tiles beyond the board's
// top and left edges hold the initial condition's zeros.
fn quiet_flag(i: i32, j: i32) -> bool {
    if (i < 0 || j < 0) {
        return true;
    }
    return quiet[quiet_slot(u32(i), u32(j))] == 1u;
}

// Whether the left, upper and upper-left neighbours of tile (ti, tj) are quiet (by the
// kernel's quiet_at): the tile is then quiet too, unless it is at the corner.
fn neighbours_quiet(ti: u32, tj: u32) -> bool {
    let i = i32(ti);
    let j = i32(tj);
    return quiet_at(i - 1, j) && quiet_at(i, j - 1) && quiet_at(i - 1, j - 1);
}

// Whether tile (ti, tj), whose first cell is (tx0, ty0), reads the initial condition's k at the
// corner (or within two cells of it, which the rule reads back): such a tile is never skipped.
fn at_corner(ti: u32, tj: u32, tx0: u32, ty0: u32) -> bool {
    return (ti == 0u && tj == 0u) || (tj == 0u && tx0 < 2u) || (ti == 0u && ty0 < 2u);
}

// The counters entering the tile through its top row, C and D of each column, into workgroup
// memory; the lanes take the columns in turn.
fn load_top(lane: u32, tx0: u32, ty0: u32) {
    for (var x = lane; x < TILE_W; x += LANES) {
        top_c[x] = cols[tx0 + x];
        top_d[x] = dget(tx0 + x, ty0);
    }
}

// The counters leaving the tile through its bottom row, back to the global arrays.
fn store_bottom(lane: u32, tx0: u32, ty0: u32) {
    for (var x = lane; x < TILE_W; x += LANES) {
        cols[tx0 + x] = bot_c[x];
        dput(tx0 + x, ty0 + TILE_H - 1u, bot_d[x]);
    }
}
