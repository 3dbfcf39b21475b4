//! The GPU tally against a plain row-major count of the game's definition, on small boards,
//! windows and tile shapes. Without an adapter the tests pass with a note, unless
//! `PALACE_REQUIRE_GPU` is set (CI sets it, with Mesa's software Vulkan installed).

use palace_engine::engine::{Cancel, Progress};
use palace_gpu::{Cell, Gpu, GpuError, Job, Shape, Tally, Watch};
use std::sync::atomic::{AtomicU64, Ordering};

/// Cancels its token when a submission is reported done, counting the reports.
struct CancelWhenDone<'a>(&'a Cancel, AtomicU64);

impl Progress for CancelWhenDone<'_> {
    fn set_position(&self, _: u64) {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.cancel();
    }
}

/// Counts the runs that said how long they are.
struct Started(AtomicU64);

impl Progress for Started {
    fn set_length(&self, _: u64) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}
use std::sync::OnceLock;

fn gpu() -> Option<&'static Gpu> {
    static GPU: OnceLock<Option<Gpu>> = OnceLock::new();
    GPU.get_or_init(|| match Gpu::open() {
        Ok(g) => Some(g),
        Err(e) if std::env::var_os("PALACE_REQUIRE_GPU").is_none() => {
            eprintln!("no GPU adapter ({e}); GPU tests skipped (set PALACE_REQUIRE_GPU=1 to fail instead)");
            None
        }
        Err(e) => panic!("PALACE_REQUIRE_GPU is set but no GPU could be opened: {e}"),
    })
    .as_ref()
}

/// `N` of every cell of `[0, w) x [0, h)`, row-major, by the definition: the palaces seen west,
/// north and north-west, counted line by line.
fn board(k: u32, w: usize, h: usize) -> Vec<Vec<u32>> {
    let (mut rows, mut cols, mut diags) = (vec![0u32; h], vec![0u32; w], vec![0u32; w + h]);
    let mut out = vec![vec![0; w]; h];
    for y in 0..h {
        for x in 0..w {
            let d = x + h - y;
            let n = rows[y] + cols[x] + diags[d];
            out[y][x] = n;
            if n < k {
                rows[y] += 1;
                cols[x] += 1;
                diags[d] += 1;
            }
        }
    }
    out
}

fn hood(k: u32, x: u32, y: u32) -> bool {
    u64::from(x.max(y)) + 2 * u64::from(x.min(y)) < u64::from(k)
}

fn reference(job: &Job) -> Result<Tally, GpuError> {
    let [x0, y0, x1, y1] = job.window;
    let n = board(job.k, x1 as usize, y1 as usize);
    let mut t =
        Tally { counts: [0; 256], min: None, max: None, max_tiles: Vec::new(), computed: 0, region: 0 };
    let lim = job.limit as i32;
    for y in y0..y1 {
        for x in x0..x1 {
            if hood(job.k, x, y) {
                continue;
            }
            let v = n[y as usize][x as usize] as i32 - job.k as i32;
            if v < -lim || v >= lim {
                return Err(GpuError::ValueRange { x, y, v, limit: job.limit });
            }
            t.counts[(v + 128) as usize] += 1;
            if t.min.is_none_or(|m| v < m.v) {
                t.min = Some(Cell { v, x, y });
            }
            if t.max.is_none_or(|m| v > m.v) {
                t.max = Some(Cell { v, x, y });
            }
        }
    }
    // The tiles holding the largest value, by tile-diagonal and then column.
    let (tw, th) = (job.shape.width, job.shape.height());
    let top = t.max.map(|m| m.v);
    let mut tiles = std::collections::BTreeSet::new();
    for y in y0..y1 {
        for x in x0..x1 {
            if !hood(job.k, x, y) && Some(n[y as usize][x as usize] as i32 - job.k as i32) == top {
                let (i, j) = (x / tw, y / th);
                tiles.insert((i + j, i, j));
            }
        }
    }
    t.max_tiles = tiles.into_iter().map(|(_, i, j)| (i, j)).collect();
    Ok(t)
}

fn same(job: &Job) {
    let Some(gpu) = gpu() else { return };
    let want = reference(job);
    for (skip, subgroups) in [(true, true), (false, true), (true, false)] {
        let job = &Job { skip, subgroups, ..*job };
        let got = gpu.tally(job, &Watch::NONE);
        agree(job, got, &want);
    }
}

fn agree(job: &Job, got: Result<Tally, GpuError>, want: &Result<Tally, GpuError>) {
    match (got, want) {
        (Ok(mut g), Ok(w)) => {
            assert!(g.computed <= g.region, "{job:?}");
            if !job.skip {
                assert_eq!(g.computed, g.region, "{job:?}");
            }
            (g.computed, g.region) = (0, 0);
            assert_eq!(&g, w, "{job:?}");
        }
        (
            Err(GpuError::ValueRange { x, y, v, .. }),
            Err(GpuError::ValueRange { x: wx, y: wy, v: wv, .. }),
        ) => {
            assert_eq!((x, y, v), (*wx, *wy, *wv), "{job:?}");
        }
        (g, w) => panic!("{job:?}: GPU {g:?}, reference {w:?}"),
    }
}

#[test]
fn boards_windows_and_shapes_agree_with_the_definition() {
    let shapes = [
        Shape::default(),
        Shape { lanes: 1, rows: 1, width: 1 },
        Shape { lanes: 2, rows: 3, width: 5 },
        Shape { lanes: 8, rows: 4, width: 16 },
        Shape { lanes: 8, rows: 1, width: 300 },
        Shape { lanes: 32, rows: 2, width: 64 },
        Shape { lanes: 64, rows: 2, width: 7 },
        Shape { lanes: 3, rows: 32, width: 40 },
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: u32| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % u64::from(n)) as u32
    };
    for (i, &shape) in shapes.iter().enumerate() {
        for k in [1, 2, 3, 7, 20, 61] {
            same(&Job::board(k, 50 + 13 * i as u32, 47, shape));
        }
        for _ in 0..6 {
            let k = 1 + next(90);
            let (w, h) = (1 + next(160), 1 + next(160));
            let (x0, y0) = (next(w), next(h));
            let (x1, y1) = (x0 + 1 + next(w - x0), y0 + 1 + next(h - y0));
            same(&Job { k, window: [x0, y0, x1, y1], limit: 128, shape, skip: true, subgroups: true });
        }
    }
}

#[test]
fn a_value_out_of_the_tally_range_stops_the_run_at_its_first_cell() {
    // Game 40 on 300 x 300 holds values from -3 to 3 outside the hood; a tally of -2..2
    // cannot hold them, and the first such cell in row-major order is reported.
    for limit in [1, 2, 3] {
        same(&Job {
            k: 40,
            window: [0, 0, 300, 300],
            limit,
            shape: Shape { lanes: 4, rows: 4, width: 32 },
            skip: true,
            subgroups: true,
        });
    }
    if let Some(gpu) = gpu() {
        let job = Job {
            k: 40,
            window: [0, 0, 300, 300],
            limit: 2,
            shape: Shape::default(),
            skip: true,
            subgroups: true,
        };
        assert!(matches!(gpu.tally(&job, &Watch::NONE), Err(GpuError::ValueRange { .. })));
    }
}

#[test]
fn cancelling_stops_between_dispatches() {
    let Some(gpu) = gpu() else { return };
    let job = Job::board(500, 1500, 1500, Shape { lanes: 2, rows: 1, width: 8 });
    // The token is cancelled once the first submission is done: the run stops before the next.
    let stop = Cancel::new();
    let progress = CancelWhenDone(&stop, AtomicU64::new(0));
    assert!(matches!(gpu.tally(&job, &Watch::new(&stop, &progress)), Err(GpuError::Interrupted)));
    assert_eq!(progress.1.load(Ordering::Relaxed), 1, "one submission done, no more");
}

#[test]
fn bad_shapes_and_jobs_are_refused() {
    let Some(gpu) = gpu() else { return };
    let bad = [
        Job::board(5, 10, 10, Shape { lanes: 65, rows: 1, width: 8 }),
        Job::board(5, 10, 10, Shape { lanes: 4, rows: 0, width: 8 }),
        Job::board(5, 10, 10, Shape { lanes: 64, rows: 32, width: 513 }),
        Job::board(0, 10, 10, Shape::default()),
        Job { k: 5, window: [3, 0, 3, 10], limit: 128, shape: Shape::default(), skip: true, subgroups: true },
        Job {
            k: 5,
            window: [0, 0, 10, 10],
            limit: 129,
            shape: Shape::default(),
            skip: true,
            subgroups: true,
        },
    ];
    for job in bad {
        assert!(
            matches!(gpu.tally(&job, &Watch::NONE), Err(GpuError::Shape { .. } | GpuError::Job(_))),
            "{job:?}"
        );
    }
}

#[test]
fn subgroup_sizes_are_reported_as_the_adapter_gives_them() {
    let Some(gpu) = gpu() else { return };
    if let Some(n) = gpu.subgroup_size() {
        assert!(n.is_power_of_two() && (4..=128).contains(&n), "{n}");
        assert!(gpu.adapter().to_string().contains(&format!("subgroups of {n}")));
    }
}

/// The skin's sweep sends back the definition: every kept tile's cells are `v = N - k` (hood
/// cells `max(v, -128)`), every tile it calls quiet or places at or right of `open` holds only
/// `v = 0`, and every computed tile near the arm's boundary (the last one that is not quiet in
/// each tile row, and those up to `reach` columns left of it) is kept.
#[test]
fn the_skin_sweep_sends_back_the_definition() {
    use palace_gpu::{Flow, SkinJob};
    let Some(gpu) = gpu() else { return };
    for (k, w, h, lanes, rows, width, reach) in [
        (7, 300, 200, 8, 4, 16, 64),
        (60, 700, 500, 4, 4, 32, 100),
        (500, 1300, 900, 8, 8, 64, 200),
        (500, 1300, 900, 1, 4, 2, 8),
        (2000, 6000, 3000, 32, 4, 256, 512),
        // Short, narrow tiles and a long reach: the boundary's own advance leaves no slack.
        (2000, 6000, 3000, 1, 4, 16, 600),
    ] {
        let shape = Shape { lanes, rows, width };
        let job = SkinJob { k, width: w, height: h, shape, reach, subgroups: true };
        let n = board(k, w as usize, h as usize);
        let v = |x: u32, y: u32| -> Option<i32> {
            (x < w && y < h).then(|| n[y as usize][x as usize] as i32 - k as i32)
        };
        let (tw, th) = (shape.width, shape.height());
        let zero = |i: u32, j: u32| {
            (0..th).all(|dy| (0..tw).all(|dx| v(i * tw + dx, j * th + dy).is_none_or(|v| v == 0)))
        };
        let mut open = Vec::new();
        let mut kept = std::collections::BTreeSet::new();
        let mut batches = 0;
        let sweep = gpu
            .skin_sweep(&job, None, &Watch::NONE, |b| {
                assert_eq!(b.first as usize, open.len());
                open.extend(b.open);
                batches += 1;
                for t in b.kept {
                    assert!(kept.insert((t.i, t.j)), "tile {:?} sent twice", (t.i, t.j));
                    match t.cells {
                        None => assert!(zero(t.i, t.j), "k {k}: tile {:?} is not quiet", (t.i, t.j)),
                        Some(c) => {
                            for dx in 0..tw {
                                for dy in 0..th {
                                    let (x, y) = (t.i * tw + dx, t.j * th + dy);
                                    let Some(v) = v(x, y) else { continue };
                                    let want = if hood(k, x, y) { v.max(-128) } else { v };
                                    assert_eq!(
                                        i32::from(c[(dx * th + dy) as usize]),
                                        want,
                                        "k {k} cell ({x}, {y})"
                                    );
                                }
                            }
                        }
                    }
                }
                Flow::Go
            })
            .unwrap()
            .0;
        let (nx, ny) = (w.div_ceil(tw), h.div_ceil(th));
        assert_eq!(open.len() as u32, nx + ny - 1);
        assert_eq!(sweep.diagonals, nx + ny - 1);
        assert!(sweep.computed <= sweep.swept && batches > 0);
        for j in 0..ny {
            for i in 0..nx {
                if i >= open[(i + j) as usize] {
                    assert!(zero(i, j), "k {k}: tile {:?} lies right of open but is not quiet", (i, j));
                }
            }
        }
        // Outer space at row y: the columns from `boundary[y]` on, all 0 from row 0 down to y.
        // The tiles of each tile row within `reach` columns left of its last row's boundary
        // came back, or are all 0.
        let mut first_busy = vec![h; w as usize];
        for x in 0..w {
            first_busy[x as usize] = (0..h).find(|&y| v(x, y) != Some(0)).unwrap_or(h);
        }
        let boundary = |y: u32| (0..w).rev().find(|&x| first_busy[x as usize] <= y).map_or(0, |x| x + 1);
        for j in 0..ny {
            let b = boundary((j * th + th - 1).min(h - 1));
            if b == 0 || b >= w {
                continue;
            }
            for i in b.saturating_sub(reach) / tw..=(b - 1) / tw {
                assert!(
                    kept.contains(&(i, j)) || zero(i, j),
                    "k {k}: tile {:?} near the boundary {b} was not sent",
                    (i, j)
                );
            }
        }
    }
}

#[test]
fn the_skin_sweep_refuses_rows_that_are_not_a_multiple_of_4_and_stops_when_asked() {
    use palace_gpu::{Flow, SkinJob};
    let Some(gpu) = gpu() else { return };
    let job = SkinJob {
        k: 50,
        width: 400,
        height: 300,
        shape: Shape { lanes: 8, rows: 3, width: 16 },
        reach: 64,
        subgroups: true,
    };
    assert!(matches!(gpu.skin_sweep(&job, None, &Watch::NONE, |_| Flow::Go), Err(GpuError::Shape { .. })));
    let job = SkinJob { shape: Shape { lanes: 8, rows: 4, width: 16 }, ..job };
    let mut calls = 0;
    let (sweep, frontier) = gpu
        .skin_sweep(&job, None, &Watch::NONE, |_| {
            calls += 1;
            Flow::Stop
        })
        .unwrap();
    assert_eq!(calls, 1);
    assert!(frontier.is_none());
    assert!(sweep.diagonals < 400 / 16 + 300 / 32);
    let stop = Cancel::new();
    let progress = CancelWhenDone(&stop, AtomicU64::new(0));
    let watch = Watch::new(&stop, &progress);
    assert!(matches!(gpu.skin_sweep(&job, None, &watch, |_| Flow::Go), Err(GpuError::Interrupted)));
    assert_eq!(progress.1.load(Ordering::Relaxed), 1, "one submission done, no more");
}

/// A skin's sweep of game 500 on 3000 x 1800 in tiles of 32 x 16 (94 x 113 tiles, 4816
/// diagonals), looking 128 columns back.
const THREE_THOUSAND: palace_gpu::SkinJob = palace_gpu::SkinJob {
    k: 500,
    width: 3000,
    height: 1800,
    shape: Shape { lanes: 4, rows: 4, width: 32 },
    reach: 128,
    subgroups: true,
};

/// A sweep paused and continued from its frontier, once or many times, sends back what an
/// uninterrupted one sends; a frontier of another board is refused.
#[test]
fn the_skin_sweep_continues_from_its_frontier() {
    use palace_gpu::{Flow, KeptTile};
    let Some(gpu) = gpu() else { return };
    let job = THREE_THOUSAND;
    let run = |pause_every: usize| {
        let mut kept: Vec<KeptTile> = Vec::new();
        let mut open = Vec::new();
        let mut from = None;
        let mut pauses = 0;
        loop {
            let mut calls = 0;
            let (_, next) = gpu
                .skin_sweep(&job, from.as_ref(), &Watch::NONE, |b| {
                    open.extend(b.open);
                    kept.extend(b.kept);
                    calls += 1;
                    if pause_every > 0 && calls == pause_every { Flow::Pause } else { Flow::Go }
                })
                .unwrap();
            match next {
                Some(f) => {
                    assert_eq!(f.open, open);
                    from = Some(f);
                    pauses += 1;
                }
                None => break,
            }
        }
        kept.sort_by_key(|t| (t.j, t.i));
        (kept, open, pauses)
    };
    let (want, want_open, _) = run(0);
    for every in [1, 3] {
        let (got, open, pauses) = run(every);
        assert!(pauses > 1, "every {every}: paused {pauses} times");
        assert_eq!(open, want_open, "every {every}");
        assert!(got == want, "every {every}: the tiles sent back differ");
    }
    let mut f = gpu.skin_sweep(&job, None, &Watch::NONE, |_| Flow::Pause).unwrap().1.expect("a frontier");
    f.cols.pop();
    assert!(matches!(gpu.skin_sweep(&job, Some(&f), &Watch::NONE, |_| Flow::Go), Err(GpuError::Job(_))));
}

/// On a device whose storage bindings hold fewer words than the diagonal counter array, the
/// array is split over two bindings: the tally, the skin's sweep and its frontier are those of
/// the undivided array, and an array the device cannot hold at all is refused by name.
#[test]
fn a_diagonal_array_longer_than_one_binding_is_split_over_two() {
    use palace_gpu::{Flow, KeptTile};
    let Some(whole) = gpu() else { return };
    let capped = |bytes: u64| {
        let mut g = Gpu::open().expect("a second handle on the adapter");
        g.limit_binding_size(bytes);
        g
    };
    // 21 x 15 tiles of 64 x 64: 1344 columns, 960 rows, 2304 diagonals; 1500 words a binding.
    let split = capped(6000);
    let job = Job::board(500, 1300, 900, Shape { lanes: 8, rows: 8, width: 64 });
    agree(&job, split.tally(&job, &Watch::NONE), &reference(&job));
    let job = Job { window: [200, 100, 1300, 900], ..job };
    agree(&job, split.tally(&job, &Watch::NONE), &reference(&job));

    // 3008 columns, 1808 rows, 4816 diagonals; 4000 words a binding.
    let job = THREE_THOUSAND;
    // Paused after every submission, each segment on the other device: a frontier read from
    // the split array goes on in the whole one, and back.
    let run = |devices: &[&Gpu], pause: bool| {
        let (mut kept, mut open): (Vec<KeptTile>, Vec<u32>) = (Vec::new(), Vec::new());
        let (mut from, mut segments) = (None, 0);
        loop {
            let gpu = devices[segments % devices.len()];
            segments += 1;
            let (_, next) = gpu
                .skin_sweep(&job, from.as_ref(), &Watch::NONE, |b| {
                    open.extend(b.open);
                    kept.extend(b.kept);
                    if pause { Flow::Pause } else { Flow::Go }
                })
                .unwrap();
            match next {
                Some(f) => from = Some(f),
                None => break,
            }
        }
        kept.sort_by_key(|t| (t.j, t.i));
        (kept, open, segments)
    };
    let (want, want_open, _) = run(&[whole], false);
    let split = capped(16000);
    let (got, open, _) = run(&[&split], false);
    assert!(got == want && open == want_open, "the tiles sent back differ");
    let (got, open, segments) = run(&[&split, whole], true);
    assert!(segments > 10, "{segments} segments");
    assert!(got == want && open == want_open, "the tiles sent back differ");

    // 3008 columns do not fit bindings of 2000 words.
    match capped(8000).skin_sweep(&job, None, &Watch::NONE, |_| Flow::Go) {
        Err(GpuError::TooLarge { what, needed, allowed }) => {
            assert_eq!((what, needed, allowed), ("column counter array", 3008 * 4, 8000));
        }
        other => panic!("{other:?}"),
    }
}

/// The tiles asked for come back once each, with the definition's values (hood cells
/// `max(v, -128)`) or as quiet, whether the sweep computed or skipped them; tiles outside the
/// board are refused.
#[test]
fn listed_tiles_come_back_with_the_definition_s_values() {
    use palace_gpu::TilesJob;
    let Some(gpu) = gpu() else { return };
    for (k, w, h, lanes, rows, width) in [
        (7, 300, 200, 8, 4, 16),
        (500, 1300, 900, 8, 8, 64),
        (500, 1300, 900, 1, 4, 2),
        (2000, 6000, 3000, 32, 4, 256),
    ] {
        let shape = Shape { lanes, rows, width };
        let job = TilesJob { k, width: w, height: h, shape, subgroups: true };
        let n = board(k, w as usize, h as usize);
        let (tw, th) = (shape.width, shape.height());
        let (nx, ny) = (w.div_ceil(tw), h.div_ceil(th));
        // The diagonal's tiles, every 7th tile, the corner and the last, some twice.
        let mut wanted: Vec<(u32, u32)> =
            (0..nx * ny).filter(|t| t % 7 == 3).map(|t| (t % nx, t / nx)).collect();
        wanted.extend((0..h).step_by(th as usize / 2 + 1).map(|y| (y / tw, y / th)));
        wanted.extend([(0, 0), (nx - 1, ny - 1), (0, 0)]);
        let (tiles, sweep) = gpu.tiles(&job, &wanted, &Watch::NONE).unwrap();
        let mut want: Vec<(u32, u32)> = wanted.clone();
        want.sort();
        want.dedup();
        let mut got: Vec<(u32, u32)> = tiles.iter().map(|t| (t.i, t.j)).collect();
        got.sort();
        assert_eq!(got, want, "k {k}: the tiles sent back");
        assert!(sweep.computed < sweep.swept || k < 100, "k {k}: nothing skipped");
        let mut quiet = 0;
        for t in &tiles {
            for dx in 0..tw {
                for dy in 0..th {
                    let (x, y) = (t.i * tw + dx, t.j * th + dy);
                    if x >= w || y >= h {
                        continue;
                    }
                    let v = n[y as usize][x as usize] as i32 - k as i32;
                    let want = if hood(k, x, y) { v.max(-128) } else { v };
                    let got = t.cells.as_ref().map_or(0, |c| i32::from(c[(dx * th + dy) as usize]));
                    assert_eq!(got, want, "k {k} cell ({x}, {y})");
                }
            }
            quiet += usize::from(t.cells.is_none());
        }
        assert!(quiet > 0, "k {k}: no quiet tile was asked for");
    }
    let job = TilesJob {
        k: 50,
        width: 100,
        height: 100,
        shape: Shape { lanes: 4, rows: 4, width: 16 },
        subgroups: true,
    };
    assert!(matches!(gpu.tiles(&job, &[(7, 0)], &Watch::NONE), Err(GpuError::Job(_))));
    assert!(gpu.tiles(&job, &[], &Watch::NONE).unwrap().0.is_empty());
}

/// A run whose arrays need more memory than the device has is refused before it begins, with
/// the bytes it needs: exactly those, since the same run with that much memory goes through.
/// On a Vulkan adapter the device's memory is known.
#[test]
fn a_run_needing_more_memory_than_the_device_has_is_refused_before_it_begins() {
    use palace_gpu::{Flow, TilesJob};
    let Some(whole) = gpu() else { return };
    if whole.adapter().backend == "Vulkan" {
        let m = whole.memory().expect("a Vulkan adapter's memory heaps");
        assert!(m >= 64 << 20, "{m} bytes");
    }
    let with_memory = |bytes: u64| {
        let mut g = Gpu::open().expect("a second handle on the adapter");
        g.limit_memory(bytes);
        g
    };
    let started = Started(AtomicU64::new(0));
    let watch = Watch::reporting(&started);
    let tally = Job::board(500, 1300, 900, Shape { lanes: 8, rows: 8, width: 64 });
    let skin = THREE_THOUSAND;
    let tiles = TilesJob { k: 500, width: 3000, height: 1800, shape: skin.shape, subgroups: true };
    // Each run's counters take 4 bytes a row, a column and a diagonal, rounded up to whole
    // tiles; its other arrays come on top.
    for (run, frontier) in
        [("tally", 4 * (1344 + 960) * 2), ("skin", 4 * (3008 + 1808) * 2), ("tiles", 4 * (3008 + 1808) * 2)]
    {
        let go = |gpu: &Gpu| -> Result<(), GpuError> {
            match run {
                "tally" => gpu.tally(&tally, &watch).map(drop),
                "skin" => gpu.skin_sweep(&skin, None, &watch, |_| Flow::Go).map(drop),
                _ => gpu.tiles(&tiles, &[(3, 4)], &watch).map(drop),
            }
        };
        let needed = match go(&with_memory(1 << 10)) {
            Err(GpuError::Memory { needed, available: Some(1024) }) => needed,
            other => panic!("{run}: {other:?}"),
        };
        assert_eq!(started.0.load(Ordering::Relaxed), 0, "{run}: the run began");
        assert!(needed >= frontier, "{run}: {needed} bytes");
        match go(&with_memory(needed - 4)) {
            Err(GpuError::Memory { needed: n, available: Some(a) }) => {
                assert_eq!((n, a), (needed, needed - 4))
            }
            other => panic!("{run}: {other:?}"),
        }
        assert_eq!(started.0.load(Ordering::Relaxed), 0, "{run}: the run began");
        go(&with_memory(needed)).unwrap_or_else(|e| panic!("{run} with {needed} bytes: {e}"));
        assert_eq!(started.0.swap(0, Ordering::Relaxed), 1, "{run}: the run did not begin");
    }
}

/// The palaces listed are the definition's, each once, whatever the tile shape, with and
/// without skipping; a row is declared done only once all its palaces were handed over. A
/// submission that finds more palaces than the list holds stops the run.
#[test]
fn palaces_listed_are_the_definition_s() {
    use palace_gpu::PalacesJob;
    let Some(gpu) = gpu() else { return };
    for (k, w, h, shape, skip) in [
        (1, 40, 30, Shape { lanes: 1, rows: 1, width: 1 }, true),
        (7, 300, 100, Shape { lanes: 8, rows: 4, width: 16 }, true),
        (7, 300, 100, Shape { lanes: 8, rows: 4, width: 16 }, false),
        (20, 161, 57, Shape { lanes: 3, rows: 5, width: 7 }, true),
        (300, 1300, 350, Shape { lanes: 8, rows: 8, width: 64 }, true),
        (500, 1100, 900, Shape { lanes: 64, rows: 4, width: 256 }, true),
    ] {
        let n = board(k, w as usize, h as usize);
        let mut want: Vec<(u32, u32)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (y, x)))
            .filter(|&(y, x)| n[y as usize][x as usize] < k)
            .collect();
        want.sort();
        let job = PalacesJob { k, width: w, height: h, shape, skip, subgroups: true };
        let (mut got, mut done, mut batches) = (Vec::new(), 0u32, 0);
        let sweep = gpu
            .palaces(&job, &Watch::NONE, |b| {
                assert!(b.rows_done >= done, "k {k}: rows done went back");
                assert!(b.palaces.iter().all(|&(_, y)| y >= done), "k {k}: a palace of a row declared done");
                done = b.rows_done;
                batches += 1;
                got.extend(b.palaces.iter().map(|&(x, y)| (y, x)));
                true
            })
            .unwrap();
        assert_eq!(done, h, "k {k}: not every row was declared done");
        got.sort();
        assert_eq!(sweep.palaces, got.len() as u64);
        assert!(got == want, "k {k} shape {shape} skip {skip}: {} palaces, want {}", got.len(), want.len());
        let skips = skip && shape.width >= 2 && shape.height() >= 2;
        assert!(!skips || k > 100 || sweep.computed < sweep.region, "k {k}: nothing skipped");
        assert!(skips || sweep.computed == sweep.region);
        assert!(batches > 1 || k == 1, "k {k}: one batch");
    }
    // 112 x 112 cells of tiles of 16 x 16, bindings of 512 bytes: the list holds 63 palaces,
    // fewer than the first tile of game 50 (all 256 of its cells are palaces).
    let mut small = Gpu::open().expect("a second handle on the adapter");
    small.limit_binding_size(512);
    let job = PalacesJob {
        k: 50,
        width: 100,
        height: 100,
        shape: Shape { lanes: 4, rows: 4, width: 16 },
        skip: true,
        subgroups: true,
    };
    match small.palaces(&job, &Watch::NONE, |_| true) {
        Err(GpuError::TooLarge { what, needed, allowed }) => {
            assert!(
                what.starts_with("list of palaces") && needed > allowed && allowed == 512,
                "{what} {needed} {allowed}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A game with few palaces a row fits the same list, batch by batch.
    let job = PalacesJob { k: 2, ..job };
    let mut count = 0;
    small
        .palaces(&job, &Watch::NONE, |b| {
            count += b.palaces.len();
            true
        })
        .unwrap();
    let want = board(2, 100, 100).iter().flatten().filter(|&&n| n < 2).count();
    assert_eq!(count, want);
}
