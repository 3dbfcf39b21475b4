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
// LANES, ROWS and TILE_W are substituted by the host (src/lib.rs) before compilation.

const LANES: u32 = @LANES@u;
const ROWS: u32 = @ROWS@u;
const TILE_W: u32 = @TILE_W@u;
const TILE_H: u32 = @TILE_H@u;
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
    _pad: u32,
}

struct Step {
    // The tile-diagonal: tiles (i, j) with i + j = diag.
    diag: u32,
    // Its first tile column.
    i_min: u32,
    // The slot of its first tile in `keys`.
    slot_base: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> job: Job;
@group(0) @binding(1) var<uniform> step: Step;
@group(0) @binding(2) var<storage, read_write> rows: array<u32>;
@group(0) @binding(3) var<storage, read_write> cols: array<u32>;
@group(0) @binding(4) var<storage, read_write> diags: array<u32>;
// The window's histogram outside the hood by v + 128: a low and a high word per value.
@group(0) @binding(5) var<storage, read_write> hist: array<atomic<u32>>;
// Per tile: the least (v + 128, position) key, the least (127 - v, position) key, the first
// position whose value lies out of range, and that value.
@group(0) @binding(6) var<storage, read_write> keys: array<u32>;

// C and D of each lane's bottom row, for the lane below, by step parity.
var<workgroup> cbuf: array<u32, @LANES2@>;
var<workgroup> dbuf: array<u32, @LANES2@>;
// Per-lane counts of v in -16 .. 15, value-major (no bank conflicts).
var<workgroup> lane_hist: array<u32, @LANES32@>;
var<workgroup> wide: array<atomic<u32>, 256>;
var<workgroup> red: array<atomic<u32>, 3>;

fn dix(x: u32, y: u32) -> u32 {
    return x + job.diag_off - y;
}

// The hood, max(x, y) + 2 min(x, y) < k (docs/rule.md, "The hood"), without overflow.
fn in_hood(x: u32, y: u32) -> bool {
    let a = max(x, y);
    let b = min(x, y);
    return a < job.k && a + 2u * b < job.k;
}

@compute @workgroup_size(@LANES@)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let lane = lid.x;
    let ti = step.i_min + wid.x;
    let tj = step.diag - ti;
    let tx0 = ti * TILE_W;
    let ty0 = tj * TILE_H;
    let ytop = ty0 + lane * ROWS;

    for (var b = 0u; b < 32u; b++) {
        lane_hist[b * LANES + lane] = 0u;
    }
    for (var b = lane; b < 256u; b += LANES) {
        atomicStore(&wide[b], 0u);
    }
    for (var b = lane; b < 3u; b += LANES) {
        atomicStore(&red[b], NONE);
    }

    // R of the lane's rows, and the D entering each of its rows below the first at the
    // tile's left edge (the last one is the lane below's first).
    var r: array<u32, @ROWS@>;
    var dp: array<u32, @ROWS@>;
    for (var h = 0u; h < ROWS; h++) {
        r[h] = rows[ytop + h];
        dp[h] = diags[dix(tx0, ytop + h + 1u)];
    }

    // Every cell counts when the tile lies inside the window and outside the hood (the hood
    // key grows with x and y, so the corner decides).
    let simple = tx0 >= job.win_x0 && tx0 + TILE_W <= job.win_x1 && ty0 >= job.win_y0
        && ty0 + TILE_H <= job.win_y1 && !in_hood(tx0, ty0);
    let lim = i32(job.limit);
    var mn = NONE;
    var mx = NONE;
    var ep = NONE;
    var ev = 0i;
    workgroupBarrier();

    for (var s = 0u; s < TILE_W + LANES - 1u; s++) {
        let par = s & 1u;
        if (s >= lane && s - lane < TILE_W) {
            let lx = s - lane;
            let x = tx0 + lx;
            var c: u32;
            var dd: u32;
            if (lane == 0u) {
                c = cols[x];
                dd = diags[dix(x, ty0)];
            } else {
                c = cbuf[(par ^ 1u) * LANES + lane - 1u];
                dd = dbuf[(par ^ 1u) * LANES + lane - 1u];
            }
            let xin = x >= job.win_x0 && x < job.win_x1;
            for (var h = 0u; h < ROWS; h++) {
                let din = dd;
                dd = dp[h];
                let n = r[h] + c + din;
                let p = select(0u, 1u, n < job.k);
                r[h] += p;
                c += p;
                dp[h] = din + p;
                let y = ytop + h;
                if (simple || (xin && y >= job.win_y0 && y < job.win_y1 && !in_hood(x, y))) {
                    // n <= 3k fits an i32 (MAX_K).
                    let v = i32(n) - i32(job.k);
                    let pos = (y - ty0) * TILE_W + lx;
                    if (v < -lim || v >= lim) {
                        if (pos < ep) {
                            ep = pos;
                            ev = v;
                        }
                    } else {
                        let b = u32(v + 128);
                        if (v >= -16 && v < 16) {
                            let at = u32(v + 16) * LANES + lane;
                            lane_hist[at] = lane_hist[at] + 1u;
                        } else {
                            atomicAdd(&wide[b], 1u);
                        }
                        mn = min(mn, (b << 24u) | pos);
                        mx = min(mx, ((255u - b) << 24u) | pos);
                    }
                }
            }
            cbuf[par * LANES + lane] = c;
            dbuf[par * LANES + lane] = dd;
            if (lane == LANES - 1u) {
                cols[x] = c;
                diags[dix(x, ty0 + TILE_H - 1u)] = dp[ROWS - 1u];
            }
            if (lx == TILE_W - 1u) {
                for (var h = 0u; h < ROWS; h++) {
                    rows[ytop + h] = r[h];
                    diags[dix(x, ytop + h)] = dp[h];
                }
            }
        }
        workgroupBarrier();
    }

    for (var b = lane; b < 32u; b += LANES) {
        var sum = 0u;
        for (var l = 0u; l < LANES; l++) {
            sum += lane_hist[b * LANES + l];
        }
        if (sum > 0u) {
            atomicAdd(&wide[b + 112u], sum);
        }
    }
    atomicMin(&red[0], mn);
    atomicMin(&red[1], mx);
    atomicMin(&red[2], ep);
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
    let slot = step.slot_base + wid.x;
    let first_bad = atomicLoad(&red[2]);
    if (lane == 0u) {
        keys[slot * 4u] = atomicLoad(&red[0]);
        keys[slot * 4u + 1u] = atomicLoad(&red[1]);
        keys[slot * 4u + 2u] = first_bad;
        if (first_bad == NONE) {
            keys[slot * 4u + 3u] = 0u;
        }
    }
    if (first_bad != NONE && ep == first_bad) {
        keys[slot * 4u + 3u] = bitcast<u32>(ev);
    }
}
