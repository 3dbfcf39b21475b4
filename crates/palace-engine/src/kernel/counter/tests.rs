use super::*;
use crate::model::reference::DirectCounters;
use crate::model::rule::in_hood;
use proptest::prelude::*;

/// A board's exact counters per cell, with the tile edges the kernels take and leave.
struct Board(DirectCounters);

impl Board {
    fn new(k: u32, w: usize, h: usize) -> Self {
        Board(DirectCounters::new(k, w, h))
    }

    fn at(&self, a: &[u32], x: usize, y: usize) -> u8 {
        a[y * self.0.width + x] as u8
    }

    fn dp(&self, x: usize, y: usize) -> u8 {
        self.0.d_biased(x, y, BIAS)
    }

    /// The counters entering the tile at `(x0, y0)`.
    fn edges(&self, x0: usize, y0: usize, w: usize, h: usize) -> Edges {
        let b = &self.0;
        Edges {
            r: (0..h).map(|i| self.at(&b.r, x0, y0 + i)).collect(),
            d_left: (0..h).map(|i| self.dp(x0, y0 + i)).collect(),
            c: (0..w).map(|i| self.at(&b.c, x0 + i, y0)).collect(),
            d_top: (0..w).map(|i| self.dp(x0 + i, y0)).collect(),
        }
    }

    /// The counters leaving it, by definition.
    fn leaving(&self, x0: usize, y0: usize, w: usize, h: usize) -> Edges {
        let b = &self.0;
        Edges {
            r: (0..h).map(|i| self.at(&b.r, x0 + w, y0 + i)).collect(),
            d_left: (0..h).map(|i| self.dp(x0 + w, y0 + i + 1)).collect(),
            c: (0..w).map(|i| self.at(&b.c, x0 + i, y0 + h)).collect(),
            d_top: (0..w).map(|i| self.dp(x0 + i + 1, y0 + h)).collect(),
        }
    }

    fn value(&self, x: usize, y: usize) -> i32 {
        let b = &self.0;
        let i = y * b.width + x;
        (b.r[i] + b.c[i] + b.d[i]) as i32 - b.k as i32
    }
}

pub(crate) use crate::testing::splitmix64;

/// splitmix64: a deterministic stream for random tiles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, n: usize, spread: u8) -> Vec<u8> {
        (0..n).map(|_| (self.next() as u8) % spread.max(1)).collect()
    }
}

fn run_reference(w: usize, h: usize, e: &Edges) -> (Edges, EdgeValues, Outcome) {
    let mut e = e.clone();
    let mut vals = EdgeValues::sized(w, h);
    let o = reference(w, h, &mut e, &mut vals, None);
    (e, vals, o)
}

/// The counts of the tile's values `v = s - BIAS` (wrapping, by `v + 128`), from the
/// reference's cells one by one.
fn reference_counts(w: usize, h: usize, e: &Edges) -> [u64; 256] {
    let mut e = e.clone();
    let mut vals = EdgeValues::sized(w, h);
    let mut cells = vec![0u8; w * h];
    reference(w, h, &mut e, &mut vals, Some(&mut cells));
    let mut counts = [0u64; 256];
    for s in cells {
        counts[usize::from((s.wrapping_sub(BIAS) as i8 as i16 + 128) as u8)] += 1;
    }
    counts
}

fn run_kernel(
    k: &CounterKernel,
    w: usize,
    h: usize,
    e: &Edges,
    scratch: &mut Scratch,
) -> (Edges, EdgeValues, Outcome) {
    let mut e = e.clone();
    let mut vals = EdgeValues::sized(w, h);
    let o = (k.run)(w, h, &mut e, &mut vals, scratch);
    (e, vals, o)
}

/// The reference follows the direct definition: on tiles clear of the hood it is valid, and
/// its palaces, leaving counters and edge values are the board's; wherever it says valid, it
/// is right.
#[test]
fn reference_equals_direct_definition() {
    for k in [3u32, 5, 12, 37, 100, 250] {
        let (bw, bh) = (3 * k as usize + 90, 3 * k as usize + 70);
        let b = Board::new(k, bw, bh);
        let mut rng = Rng(u64::from(k));
        let mut clear = 0;
        for _ in 0..40 {
            let w = 1 + rng.below(60);
            let h = 1 + rng.below(60);
            let x0 = rng.below(bw - w - 1);
            let y0 = rng.below(bh - h - 1);
            let (e, vals, o) = run_reference(w, h, &b.edges(x0, y0, w, h));
            let palaces: u64 = (y0..y0 + h)
                .flat_map(|y| (x0..x0 + w).map(move |x| (x, y)))
                .filter(|&(x, y)| b.value(x, y) < 0)
                .count() as u64;
            let small = (y0..y0 + h)
                .all(|y| (x0..x0 + w).all(|x| (-i32::from(BIAS)..i32::from(BIAS)).contains(&b.value(x, y))));
            let hood = in_hood(k, x0 as u64, y0 as u64);
            if small && !hood {
                clear += 1;
                assert!(o.valid, "k={k} tile ({x0}, {y0}) {w}x{h}");
            }
            if o.valid {
                assert_eq!(o.palaces, palaces, "k={k} tile ({x0}, {y0}) {w}x{h}");
                assert_eq!(e, b.leaving(x0, y0, w, h), "k={k} tile ({x0}, {y0}) {w}x{h}");
                for (q, y) in [y0 + h - 2, y0 + h - 1].into_iter().enumerate() {
                    if h >= 2 - q {
                        for i in 0..w {
                            assert_eq!(i32::from(vals.bottom[q * w + i]), b.value(x0 + i, y), "bottom");
                        }
                    }
                }
                for row in 0..h {
                    for q in 0..2 {
                        if w + q >= 2 {
                            let x = x0 + w + q - 2;
                            assert_eq!(i32::from(vals.right[2 * row + q]), b.value(x, y0 + row), "right");
                        }
                    }
                }
            }
        }
        assert!(clear > 0 || k < 10, "k={k}: some tile lies clear of the hood");
    }
}

/// A tile that reaches into the hood, where `v` falls to `-k`, is refused.
#[test]
fn reference_refuses_the_hood() {
    let k = 200;
    let b = Board::new(k, 300, 300);
    let (_, _, o) = run_reference(40, 40, &b.edges(100, 20, 40, 40));
    assert!(!o.valid);
}

/// Checks a lane kernel against the reference on one tile, whatever its counters.
fn same(kernel: &CounterKernel, w: usize, h: usize, e: &Edges, scratch: &mut Scratch) {
    let want = run_reference(w, h, e);
    let got = run_kernel(kernel, w, h, e, scratch);
    assert_eq!(got.2, want.2, "{} {w}x{h}: outcome", kernel.name);
    assert_eq!(got.0, want.0, "{} {w}x{h}: leaving counters", kernel.name);
    assert_eq!(got.1, want.1, "{} {w}x{h}: edge values", kernel.name);
}

/// Every lane kernel this CPU has equals the reference bit for bit on real tiles of several
/// games, valid or not.
#[test]
fn lane_kernels_equal_reference_on_boards() {
    let mut scratch = Scratch::default();
    for k in [5u32, 37, 100, 333] {
        let (bw, bh) = (3 * k as usize + 200, 3 * k as usize + 300);
        let b = Board::new(k, bw, bh);
        let mut rng = Rng(u64::from(k) * 7);
        for kernel in available() {
            for _ in 0..12 {
                let w = kernel.group * (1 + rng.below(150 / kernel.group));
                let h = 64 * (1 + rng.below(3));
                let x0 = rng.below(bw - w - 1);
                let y0 = rng.below(bh - h - 1);
                same(&kernel, w, h, &b.edges(x0, y0, w, h), &mut scratch);
            }
        }
    }
}

/// ... and on the widths and heights at the edges of what they take: one group, fewer groups
/// than bands, two rows per band, and the tallest tile.
#[test]
fn lane_kernels_equal_reference_at_the_limits() {
    let mut scratch = Scratch::default();
    let k = 60;
    let b = Board::new(k, 400, MAX_HEIGHT + 200);
    for kernel in available() {
        let g = kernel.group;
        for (w, h) in [
            (g, 64),
            (2 * g, 64),
            (31 * g, 128),
            (32 * g, 64),
            (33 * g, 96),
            (5 * g, 160),
            (g, MAX_HEIGHT),
            (10 * g, MAX_HEIGHT),
        ] {
            for (x0, y0) in [(0, 0), (3, 5), (200, 70), (300 - w.min(290), 150)] {
                same(&kernel, w, h, &b.edges(x0, y0, w, h), &mut scratch);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random counters, mostly out of range: the lane kernels still do exactly the
    /// reference's arithmetic.
    #[test]
    fn lane_kernels_equal_reference_on_random_counters(
        seed in any::<u64>(),
        groups in 1usize..70,
        bands in 1usize..5,
        spread in prop::sample::select(vec![1u8, 3, 12, 40, 255]),
    ) {
        let mut rng = Rng(seed);
        let mut scratch = Scratch::default();
        for kernel in available() {
            let (w, h) = (groups * kernel.group, 32 * (bands + 1));
            let mut e = Edges {
                r: rng.bytes(h, spread),
                d_left: rng.bytes(h, spread),
                c: rng.bytes(w, spread),
                d_top: rng.bytes(w, spread),
            };
            e.d_left[0] = e.d_top[0];
            same(&kernel, w, h, &e, &mut scratch);
        }
    }
}

#[test]
fn every_isa_path_is_available_where_the_cpu_has_it() {
    let names: Vec<_> = available().iter().map(|k| k.name).collect();
    assert!(names.contains(&"portable"));
    #[cfg(target_arch = "x86_64")]
    {
        assert_eq!(names.contains(&"avx2"), is_x86_feature_detected!("avx2"));
        assert_eq!(names.contains(&"avx512vl"), x86::avx512vl_available());
    }
    assert!(best().fits(best().group * 10, 128));
}

#[test]
fn entering_by_definition_matches_the_board() {
    let k = 40;
    let b = Board::new(k, 200, 180);
    for (x0, y0, w, h) in [(0, 0, 10, 7), (13, 0, 30, 20), (0, 9, 5, 40), (50, 61, 100, 90)] {
        assert_eq!(entering_by_definition(k, x0, y0, w, h), b.edges(x0, y0, w, h), "({x0}, {y0})");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any tile shape, through the kernel and the reference strips beside it, equals the
    /// reference on the whole tile.
    #[test]
    fn tile_any_equals_reference(
        seed in any::<u64>(),
        w in 1usize..200,
        h in 1usize..300,
        spread in prop::sample::select(vec![1u8, 5, 40, 255]),
    ) {
        let mut rng = Rng(seed);
        let mut scratch = Scratch::default();
        let mut e = Edges {
            r: rng.bytes(h, spread),
            d_left: rng.bytes(h, spread),
            c: rng.bytes(w, spread),
            d_top: rng.bytes(w, spread),
        };
        e.d_left[0] = e.d_top[0];
        let want = run_reference(w, h, &e);
        let counts = reference_counts(w, h, &e);
        for kernel in available() {
            // Without and with the tally: the same tile, and the tally counts its values.
            for tally in [false, true] {
                scratch.tally(tally);
                let mut got = e.clone();
                let mut vals = EdgeValues::sized(w, h);
                let o = kernel.tile_any(w, h, &mut got, &mut vals, &mut scratch);
                prop_assert_eq!(o, want.2, "{} {}x{}", kernel.name, w, h);
                prop_assert_eq!(&got, &want.0, "{} {}x{}", kernel.name, w, h);
                prop_assert_eq!(&vals, &want.1, "{} {}x{}", kernel.name, w, h);
                if tally {
                    // A tile that is not valid adds nothing.
                    let want_counts = if o.valid { counts } else { [0; 256] };
                    prop_assert_eq!(scratch.counts().unwrap(), &want_counts, "{} {}x{}", kernel.name, w, h);
                }
            }
        }
    }
}

/// The same on real tiles of a board, which are valid.
#[test]
fn tile_any_on_boards() {
    let k = 100;
    let b = Board::new(k, 700, 800);
    let mut scratch = Scratch::default();
    for kernel in available() {
        for (x0, y0, w, h) in [
            (350, 400, 100, 100),
            (300, 350, 7, 200),
            (301, 320, 301, 65),
            (400, 380, 128, 256),
            (320, 300, 61, 97),
        ] {
            let e = b.edges(x0, y0, w, h);
            let want = run_reference(w, h, &e);
            assert!(want.2.valid);
            let mut got = e.clone();
            let mut vals = EdgeValues::sized(w, h);
            scratch.tally(true);
            assert_eq!(kernel.tile_any(w, h, &mut got, &mut vals, &mut scratch), want.2);
            assert_eq!((got, vals), (want.0, want.1), "{} ({x0}, {y0}) {w}x{h}", kernel.name);
            // The tally counts the board's values, by the direct definition.
            let mut counts = [0u64; 256];
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    counts[(b.value(x, y) + 128) as usize] += 1;
                }
            }
            assert_eq!(scratch.counts().unwrap(), &counts, "{} ({x0}, {y0}) {w}x{h}", kernel.name);
        }
    }
}

/// A tile without palaces where every `s` is 40 except in one row, where it is 70 (out of
/// range, still no palace): every kernel must find it, whichever row of a band it is in (the
/// wavefront's lean middle steps and its edge steps check alike).
#[test]
fn one_row_out_of_range_is_found_in_every_row() {
    let mut scratch = Scratch::default();
    for kernel in available() {
        let (w, h) = (8 * kernel.group, 32 * 12);
        for row in 0..h {
            // Every s is 20 (v = 4, no palace) but the row's, 50.
            let mut e = Edges { r: vec![0; h], d_left: vec![20; h], c: vec![0; w], d_top: vec![20; w] };
            let (_, _, clean) = run_reference(w, h, &e);
            assert!(clean.valid && clean.palaces == 0);
            e.r[row] = 30;
            let (_, _, want) = run_reference(w, h, &e);
            assert!(!want.valid && want.palaces == 0);
            let (_, _, got) = run_kernel(&kernel, w, h, &e, &mut scratch);
            assert_eq!(got, want, "{}: row {row} out of range", kernel.name);
        }
    }
}
