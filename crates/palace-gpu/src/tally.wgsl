// The three-counter sweep of one tile-diagonal, tallying the values of a window.
//
// Each workgroup computes one tile of TILE_W columns x (LANES * ROWS) rows. Lane j owns the
// rows ROWS * j .. ROWS * (j + 1) of the tile and, at step s, computes column s - j of them,
// top to bottom. Every cell carries the palaces it sees west (R, one per row), north (C, one
// per column) and north-west (D, one per diagonal x - y): N = R + C + D, and the cell is a
// palace when N < k (docs/rule.md, "The game"). The counts are exact 32-bit integers.
//
// Between tiles the counters live in three global arrays, `rows`, `cols` and `diags`; the
// tiles of one tile-diagonal touch disjoint entries of all three, so one dispatch computes
// them all. Inside a tile, C and D pass from lane j - 1 to lane j through workgroup memory,
// double-buffered by the step's parity; R and the D of the lane's own rows stay in registers.
//
// Outer space is skipped exactly: a tile whose left, upper and upper-left neighbours hold
// only v = 0 and no palace (`quiet`) has a halo of zeros, so by the rule (docs/rule.md, "Outer
// space") it holds only zeros too: no palace, every counter passes through unchanged, and its
// tally is its window cells at v = 0. Tiles at the board's edges read the initial condition's
// zeros instead of a neighbour; the corner tile, which reads k, is always computed. Skipping
// needs tiles of at least 2 x 2 cells (the rule reads two cells back), which the host checks.
//
// LANES, ROWS and TILE_W (declared in common.wgsl) are override constants the host sets when
// it makes the pipeline (src/lib.rs); the per-row statements (DECLARE, LOAD, STORE) and the
// step loop (STEP_LOOP, the one every kernel runs, with the tally's statements per row) are
// written into the source by the host: each row's counters are plain variables, so that they
// stay in registers.

const NONE: u32 = 0xffffffffu;

struct Job {
    k: u32,
    win_x0: u32,
    win_y0: u32,
    win_x1: u32,
    win_y1: u32,
    // Values must lie in -limit .. limit - 1 (limit <= 128).
    limit: u32,
    // The diagonal x - y is stored at x - y + diag_off (the region's height).
    diag_off: u32,
    // Tiles per row of tiles; 0 turns skipping off.
    tiles_x: u32,
}

// Bindings 0 to 4 (the job, the step, R, C and D) and the tile's counters in workgroup memory
// are declared in common.wgsl.
// The window's histogram outside the hood by v + 128: a low and a high word per value.
@group(0) @binding(5) var<storage, read_write> hist: array<atomic<u32>>;
// Per tile: the least (v + 128, position) key, the least (127 - v, position) key, the first
// position whose value lies out of range, and that value (NONE where the tile was skipped).
@group(0) @binding(6) var<storage, read_write> keys: array<u32>;
// Per tile of the last two rows of tiles: 1 when it holds only v = 0 and no palace.
@group(0) @binding(7) var<storage, read_write> quiet: array<u32>;

var<workgroup> wide: array<atomic<u32>, 256>;
var<workgroup> red: array<atomic<u32>, 4>;
var<workgroup> skip_flag: u32;

// Two rows of tiles' flags are kept, by the parity of j.
const QUIET_ROWS: u32 = 2u;

// Whether tile (i, j) is quiet: its flag says so.
fn quiet_at(i: i32, j: i32) -> bool {
    return quiet_flag(i, j);
}

@compute @workgroup_size(LANES)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>@LANE_ARG@) {
    let lane = @LANE@;
    let ti = step.i_min + wid.x;
    let tj = step.diag - ti;
    let tx0 = ti * TILE_W;
    let ty0 = tj * TILE_H;
    let ytop = ty0 + lane * ROWS;
    let slot = step.slot_base + wid.x;
    // The flag's slot: two rows of tiles are kept, by the parity of j. Tile (i, j) reads the
    // slots of (i - 1, j), (i, j - 1) and (i - 1, j - 1), which the tiles (i - 1, j + 1) and
    // (i, j + 1) that reuse them overwrite only on later tile-diagonals.
    let tile = quiet_slot(ti, tj);

    // A tile whose neighbours are quiet is quiet (see the top of this file): its window
    // cells are all 0, the first of them in row-major order first.
    if (lane == 0u) {
        let corner = at_corner(ti, tj, tx0, ty0);
        skip_flag = select(0u, 1u, job.tiles_x > 0u && !corner && neighbours_quiet(ti, tj));
    }
    if (workgroupUniformLoad(&skip_flag) == 1u) {
        if (lane == 0u) {
            let ax = max(tx0, job.win_x0);
            let bx = min(tx0 + TILE_W, job.win_x1);
            let ay = max(ty0, job.win_y0);
            let by = min(ty0 + TILE_H, job.win_y1);
            var key = NONE;
            if (ax < bx && ay < by) {
                // (bx - ax) (by - ay) < 2^24 cells, all at v = 0, none in the hood.
                let cells = (bx - ax) * (by - ay);
                let old = atomicAdd(&hist[256u], cells);
                if (old + cells < old) {
                    atomicAdd(&hist[257u], 1u);
                }
                key = (ay - ty0) * TILE_W + (ax - tx0);
            }
            keys[slot * 4u] = select(NONE, (128u << 24u) | key, key != NONE);
            keys[slot * 4u + 1u] = select(NONE, (127u << 24u) | key, key != NONE);
            keys[slot * 4u + 2u] = NONE;
            // Marks the tile as skipped (a computed tile without a bad cell writes 0).
            keys[slot * 4u + 3u] = NONE;
            quiet[tile] = 1u;
        }
        return;
    }

    load_top(lane, tx0, ty0);
    for (var b = lane; b < 256u; b += LANES) {
        atomicStore(&wide[b], 0u);
    }
    for (var b = lane; b < 4u; b += LANES) {
        atomicStore(&red[b], NONE);
    }

    // R of the lane's rows (r0, r1, ...), and the D entering each of its rows below the first
    // at the tile's left edge (d0, d1, ...; the last is the lane below's first).
@DECLARE@
@LOAD@

    // Every cell counts when the tile lies inside the window and outside the hood (the hood
    // key grows with x and y, so the corner decides).
    let simple = tx0 >= job.win_x0 && tx0 + TILE_W <= job.win_x1 && ty0 >= job.win_y0
        && ty0 + TILE_H <= job.win_y1 && !in_hood(tx0, ty0);
    let lim = i32(job.limit);
    let k = job.k;
    let ki = i32(k);
    // The lane's tally: least keys, the first out-of-range cell, whether every cell was 0,
    // and its counts of v = -2 ..= 2, the common values (the others go to `wide`).
    var mn = NONE;
    var mx = NONE;
    var ep = NONE;
    var ev = 0i;
    var zero = true;
    var h_m2 = 0u;
    var h_m1 = 0u;
    var h_0 = 0u;
    var h_p1 = 0u;
    var h_p2 = 0u;
    workgroupBarrier();

    // With SUBGROUPS the workgroup is one subgroup and a lane takes the C and D of the lane
    // above by a shuffle (no barrier); without, through workgroup memory and a barrier.
    var c_out = 0u;
    var d_out = 0u;
@STEP_LOOP@
    workgroupBarrier();

    // The counters leaving the tile, written after the loop: a step that stored to global
    // memory would wait for the store at the next barrier.
@STORE@
    store_bottom(lane, tx0, ty0);

    atomicAdd(&wide[126u], h_m2);
    atomicAdd(&wide[127u], h_m1);
    atomicAdd(&wide[128u], h_0);
    atomicAdd(&wide[129u], h_p1);
    atomicAdd(&wide[130u], h_p2);
    atomicMin(&red[0], mn);
    atomicMin(&red[1], mx);
    atomicMin(&red[2], ep);
    if (!zero) {
        atomicStore(&red[3], 0u);
    }
    workgroupBarrier();
    for (var b = lane; b < 256u; b += LANES) {
        let cnt = atomicLoad(&wide[b]);
        if (cnt > 0u) {
            let old = atomicAdd(&hist[2u * b], cnt);
            if (old + cnt < old) {
                atomicAdd(&hist[2u * b + 1u], 1u);
            }
        }
    }
    let first_bad = atomicLoad(&red[2]);
    if (lane == 0u) {
        keys[slot * 4u] = atomicLoad(&red[0]);
        keys[slot * 4u + 1u] = atomicLoad(&red[1]);
        keys[slot * 4u + 2u] = first_bad;
        if (first_bad == NONE) {
            keys[slot * 4u + 3u] = 0u;
        }
        if (job.tiles_x > 0u) {
            quiet[tile] = select(0u, 1u, atomicLoad(&red[3]) == NONE);
        }
    }
    if (first_bad != NONE && ep == first_bad) {
        keys[slot * 4u + 3u] = bitcast<u32>(ev);
    }
}
