// The three-counter sweep of one tile-diagonal, listing its palaces (the P-positions).
//
// The tiles, lanes, counters and the skipping of outer space are those of tally.wgsl: a cell
// is a palace when N = R + C + D < k, and a tile whose left, upper and upper-left neighbours
// are quiet (only v = 0, no palace) is quiet too and holds no palace. Each palace (x, y) of
// the board [0, width) x [0, height) takes the next entry of `list` by an atomic count and
// writes its x and y there, while the count stays below the list's capacity; the host reads
// the count (which goes on past the capacity, so an overflow is seen) and the entries, in no
// particular order, after each submission.

struct Job {
    k: u32,
    // The diagonal x - y is stored at x - y + diag_off (the region's height).
    diag_off: u32,
    // Tiles per row of tiles; 0 turns skipping off.
    tiles_x: u32,
    // Entries the list holds.
    cap: u32,
    // The board: palaces outside it (in the region's rounding to whole tiles) are not listed.
    width: u32,
    height: u32,
    _pad0: u32,
    _pad1: u32,
}

// Bindings 0 to 4 (the job, the step, R, C and D) and the tile's counters in workgroup memory
// are declared in common.wgsl.
// [0]: palaces found in this submission (may exceed the capacity); [1]: tiles computed;
// from [2]: x and y of each palace, two words an entry.
@group(0) @binding(5) var<storage, read_write> list: array<atomic<u32>>;
// Per tile of the last two rows of tiles: 1 when it holds only v = 0 and no palace.
@group(0) @binding(6) var<storage, read_write> quiet: array<u32>;

var<workgroup> skip_flag: u32;
var<workgroup> busy: atomic<u32>;

// Two rows of tiles' flags are kept, by the parity of j.
const QUIET_ROWS: u32 = 2u;

// Whether tile (i, j) is quiet: its flag says so.
fn quiet_at(i: i32, j: i32) -> bool {
    return quiet_flag(i, j);
}

// Lists the palace (x, y) where it lies on the board.
fn emit(x: u32, y: u32) {
    if (x < job.width && y < job.height) {
        let e = atomicAdd(&list[0], 1u);
        if (e < job.cap) {
            atomicStore(&list[2u + 2u * e], x);
            atomicStore(&list[3u + 2u * e], y);
        }
    }
}

@compute @workgroup_size(LANES)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>@LANE_ARG@) {
    let lane = @LANE@;
    let ti = step.i_min + wid.x;
    let tj = step.diag - ti;
    let tx0 = ti * TILE_W;
    let ty0 = tj * TILE_H;
    let ytop = ty0 + lane * ROWS;
    // Two rows of tiles' flags are kept, by the parity of j (as in tally.wgsl).
    let tile = quiet_slot(ti, tj);

    if (lane == 0u) {
        let corner = at_corner(ti, tj, tx0, ty0);
        skip_flag = select(0u, 1u, job.tiles_x > 0u && !corner && neighbours_quiet(ti, tj));
        atomicStore(&busy, 0u);
    }
    if (workgroupUniformLoad(&skip_flag) == 1u) {
        if (lane == 0u) {
            quiet[tile] = 1u;
        }
        return;
    }
    if (lane == 0u) {
        atomicAdd(&list[1], 1u);
    }

    load_top(lane, tx0, ty0);
@DECLARE@
@LOAD@
    let k = job.k;
    // The OR of N ^ k over the lane's cells: 0 when every cell is 0 and no palace.
    var nz = 0u;
    workgroupBarrier();

    var c_out = 0u;
    var d_out = 0u;
@STEP_LOOP@
    workgroupBarrier();

@STORE@
    store_bottom(lane, tx0, ty0);
    if (nz != 0u) {
        atomicStore(&busy, 1u);
    }
    workgroupBarrier();
    if (lane == 0u && job.tiles_x > 0u) {
        quiet[tile] = select(1u, 0u, atomicLoad(&busy) == 1u);
    }
}
