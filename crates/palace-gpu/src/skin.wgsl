// The three-counter sweep of one tile-diagonal, keeping the values of the tiles near the
// arm's boundary (the skin's cells) and nothing else.
//
// The tiles, lanes and counters are those of tally.wgsl: lane j owns the rows ROWS * j ..
// ROWS * (j + 1) of the tile and computes column s - j of them at step s; R per row, C per
// column and D per diagonal are exact 32-bit counts, N = R + C + D, and a cell is a palace when
// N < k. What differs is what a tile leaves besides its counters:
//
// - `open[d]`: 1 + the largest tile column i of a tile of tile-diagonal d that is not quiet
//   (0 when every tile of it is quiet). A tile (i, j) of diagonal d with
//   i > max(open[d - 1], open[d - 2]) has quiet left, upper and upper-left neighbours, so it is
//   quiet (outer space, docs/rule.md): it returns at once and writes nothing. Every tile at or
//   right of open[d] is quiet, the host's and the shader's test alike.
// - `quiet`: 1 per tile that holds only v = 0 and no palace, for the last four rows of tiles.
// - A computed tile is kept when the tile KEEP_A columns right and KEEP_A + 1 rows up (on the
//   previous tile-diagonal) is quiet or off the board (with KEEP_A = 0, instead, every tile
//   whose bit is set in `want` is kept, computed or skipped): then it lies near the boundary, whose
//   columns the skin reads, or right of it. Skipped tiles are never kept: those the skin may
//   read lie at or right of open[d] (the arm's boundary runs down and right, so along a
//   tile-diagonal the tiles right of it stay in outer space), and the host checks every cell
//   it reads. A kept tile takes a slot (`heads[0]` counts them), writes its
//   column i, row j and whether it is quiet to its slot's header and, when it is not quiet,
//   its cells' values as bytes, column by column, to `cells`. Hood cells hold max(v, -128);
//   another cell outside -128..127 sets the error words `heads[1..=4]`.

const WORDS: u32 = @WORDS@u;

struct Job {
    k: u32,
    // The diagonal x - y is stored at x - y + diag_off (the region's height).
    diag_off: u32,
    // Tiles per row of tiles, and rows of tiles.
    tiles_x: u32,
    tiles_y: u32,
    // Kept tiles look KEEP_A tiles right and KEEP_A + 1 up; 0: the tiles of `want` are kept.
    keep_a: u32,
    // Slots in `cells`.
    slots: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(5) var<storage, read_write> quiet: array<u32>;
@group(0) @binding(6) var<storage, read_write> open: array<atomic<u32>>;
// Bindings 0 to 4 (the job, the step, R, C and D) and the tile's counters in workgroup memory
// are declared in common.wgsl.
// [0]: slots taken; [1]: an out-of-range cell was seen; [2], [3], [4]: its x, y and v;
// [5]: tiles computed; from [8]: per slot, the tile's i, j and 1 when it holds its cells (0: quiet), and a spare.
@group(0) @binding(7) var<storage, read_write> heads: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> cells: array<u32>;
// With keep_a = 0: bit (j * tiles_x + i) is set for each tile (i, j) to keep.
@group(0) @binding(9) var<storage, read_write> want: array<u32>;

var<workgroup> busy: atomic<u32>;
var<workgroup> plan: u32;
var<workgroup> slot_w: u32;

// The last four rows of tiles' flags are kept (see `quiet` at the top of this file).
const QUIET_ROWS: u32 = 4u;

// Whether tile (i, j) is quiet; tiles beyond the board's top and left edges hold the initial
// condition's zeros, and so does every tile at or right of open[i + j].
fn quiet_at(i: i32, j: i32) -> bool {
    if (i >= 0 && j >= 0 && u32(i) >= atomicLoad(&open[u32(i + j)])) {
        return true;
    }
    return quiet_flag(i, j);
}

// The value byte of a cell with N = n.
fn value_byte(n: u32, x: u32, y: u32) -> u32 {
    let v = i32(n) - i32(job.k);
    if (v >= -128 && v <= 127) {
        return u32(v) & 0xffu;
    }
    if (in_hood(x, y)) {
        return 0x80u;
    }
    if (atomicExchange(&heads[1], 1u) == 0u) {
        atomicStore(&heads[2], x);
        atomicStore(&heads[3], y);
        atomicStore(&heads[4], bitcast<u32>(v));
    }
    return 0u;
}

@compute @workgroup_size(LANES)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>@LANE_ARG@) {
    let lane = @LANE@;
    let ti = step.i_min + wid.x;
    let tj = step.diag - ti;
    let tx0 = ti * TILE_W;
    let ty0 = tj * TILE_H;
    let ytop = ty0 + lane * ROWS;
    let tile = quiet_slot(ti, tj);

    // plan: 0 returns at once, 1 is quiet (skipped), 2 computes, 3 computes and keeps.
    if (lane == 0u) {
        let d = step.diag;
        var reach = 0u;
        if (d >= 1u) {
            reach = max(reach, atomicLoad(&open[d - 1u]));
        }
        if (d >= 2u) {
            reach = max(reach, atomicLoad(&open[d - 2u]));
        }
        let corner = at_corner(ti, tj, tx0, ty0);
        var p = 2u;
        if (!corner && ti > reach) {
            p = 0u;
        } else if (!corner && neighbours_quiet(ti, tj)) {
            p = 1u;
        }
        var keep = true;
        let listed = job.keep_a == 0u;
        if (listed) {
            let t = tj * job.tiles_x + ti;
            keep = ((want[t >> 5u] >> (t & 31u)) & 1u) == 1u;
        } else {
            let ki = ti + job.keep_a;
            if (tj >= job.keep_a + 1u && ki < job.tiles_x) {
                keep = quiet_at(i32(ki), i32(tj - job.keep_a - 1u));
            }
        }
        var s = 0u;
        // A listed tile is kept even when skipped: its header says it is quiet.
        if (keep && (p == 2u || listed)) {
            s = atomicAdd(&heads[0], 1u);
            atomicStore(&heads[8u + 4u * min(s, job.slots)], ti);
            atomicStore(&heads[9u + 4u * min(s, job.slots)], tj);
            atomicStore(&heads[10u + 4u * min(s, job.slots)], 0u);
            if (p == 2u && s < job.slots) {
                p = 3u;
            }
        }
        if (p >= 2u) {
            atomicAdd(&heads[5], 1u);
        }
        plan = p;
        slot_w = s;
        atomicStore(&busy, 0u);
        if (p == 1u) {
            quiet[tile] = 1u;
        }
    }
    let p = workgroupUniformLoad(&plan);
    if (p < 2u) {
        return;
    }
    let keep = p == 3u;
    let base = slot_w * (TILE_W * WORDS * LANES);

    load_top(lane, tx0, ty0);
@DECLARE@
@LOAD@
    let k = job.k;
    // The OR of N ^ k over the lane's cells: 0 when every cell is 0 and no palace.
    var nz = 0u;
    workgroupBarrier();

    var c_out = 0u;
    var d_out = 0u;
    if (keep) {
@LOOP_KEEP@
    } else {
@LOOP_LEAN@
    }
    workgroupBarrier();

@STORE@
    store_bottom(lane, tx0, ty0);
    if (nz != 0u) {
        atomicStore(&busy, 1u);
    }
    workgroupBarrier();
    if (lane == 0u) {
        let b = atomicLoad(&busy);
        quiet[tile] = select(1u, 0u, b == 1u);
        if (b == 1u) {
            atomicMax(&open[step.diag], ti + 1u);
            if (keep) {
                atomicStore(&heads[10u + 4u * slot_w], 1u);
            }
        }
    }
}
