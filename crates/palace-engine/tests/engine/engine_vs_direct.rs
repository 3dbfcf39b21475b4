//! The engine against the direct definition (the paper's §1 three-counter programme), bit for
//! bit, on whole boards and random windows, for every kernel and several thread counts.

use palace_engine::testing as common;

use common::*;
use palace_engine::engine::{EngineOptions, Sweep, TileKind, TileView, TileVisitor};
use palace_engine::kernel::KernelChoice;
use palace_engine::model::geometry::Window;
use palace_engine::model::reference::reference_values;
use palace_engine::model::rule::{hood_value, in_hood};
use proptest::prelude::*;

#[test]
fn every_k_up_to_12_on_3k_boards() {
    for k in 1..=12u32 {
        let n = (3 * k).max(64);
        let win = Window::new(0, 0, n, n).unwrap();
        let want = direct_window(k, win);
        for kernel in kernels() {
            for threads in [1, 2, 3] {
                let got = engine_window(k, win, &opts(threads, kernel));
                assert_same(&got, &want, n, &format!("k={k} kernel={kernel:?} threads={threads}"));
            }
        }
    }
}

#[test]
fn larger_k_on_3k_boards() {
    for k in [50u32, 100, 333, 500] {
        let n = 3 * k;
        let win = Window::new(0, 0, n, n).unwrap();
        let want = direct_window(k, win);
        for kernel in kernels() {
            for threads in [1, 2, 4] {
                let got = engine_window(k, win, &opts(threads, kernel));
                assert_same(&got, &want, n, &format!("k={k} kernel={kernel:?} threads={threads}"));
            }
        }
    }
}

#[test]
fn fills_agree_with_computation() {
    // With the hood and quiet fills switched off every tile is computed: same answer.
    for k in [1u32, 5, 37, 200] {
        let win = Window::new(0, 0, 700, 650).unwrap();
        let want = direct_window(k, win);
        let o = EngineOptions {
            skip: false,
            threads: 2,
            kernel: KernelChoice::Auto,
            tile_width: Some(96),
            band_height: Some(64),
            ..Default::default()
        };
        assert_same(&engine_window(k, win, &o), &want, win.width(), &format!("k={k} no skipping"));
    }
}

#[test]
fn casing_tiles_split_at_every_offset() {
    // Tiles along the casing are split into a wide part and a narrow part; sweep many tile
    // widths and band heights so the split column takes every offset from the tile's edge.
    for k in [40u32, 77, 130] {
        let win = Window::new(0, 0, 3 * k, 3 * k).unwrap();
        let want = direct_window(k, win);
        for tile_width in (66..140).step_by(3) {
            for band_height in [2u32, 3, 5, 8, 13] {
                let o = EngineOptions {
                    threads: 2,
                    kernel: KernelChoice::Auto,
                    skip: true,
                    tile_width: Some(tile_width),
                    band_height: Some(band_height),
                    ..Default::default()
                };
                assert_same(
                    &engine_window(k, win, &o),
                    &want,
                    win.width(),
                    &format!("k={k} tiles {tile_width}x{band_height}"),
                );
            }
        }
    }
}

#[test]
fn reference_ca_equals_direct_definition() {
    for k in [1u32, 2, 3, 5, 7, 10, 37, 100] {
        let n = (3 * k as usize).max(90);
        let a = reference_values(k, n, n);
        let b = palace_engine::model::reference::direct_values(k, n, n);
        assert_eq!(a, b, "k={k}");
    }
}

#[test]
fn hood_closed_form_and_symmetry() {
    for k in [1u32, 4, 9, 60, 301] {
        let n = 3 * k + 20;
        let vals = engine_window(k, Window::new(0, 0, n, n).unwrap(), &opts(2, KernelChoice::Auto));
        let refv = reference_values(k, n as usize, n as usize);
        for y in 0..n as u64 {
            for x in 0..n as u64 {
                let i = (y * n as u64 + x) as usize;
                // v(x, y) = v(y, x) (`docs/rule.md`, "Symmetry").
                assert_eq!(vals[i], vals[(x * n as u64 + y) as usize], "symmetry k={k} ({x},{y})");
                if in_hood(k, x, y) {
                    // The hood: N = max + 2 min, computed by the rule with no closed form.
                    assert_eq!(i64::from(refv[i]), hood_value(k, x, y), "hood k={k} ({x},{y})");
                    assert!(vals[i] < 0);
                }
            }
        }
    }
}

/// Collects the window's exact values from tile views (the tile-visitor mode, where the
/// vector kernels keep tiles in their diagonal arrangement).
struct Grid {
    win: Window,
    cells: std::sync::Mutex<Vec<Option<i64>>>,
}

impl TileVisitor for Grid {
    fn visit(&self, _worker: usize, t: &TileView<'_>) {
        let mut cells = self.cells.lock().unwrap();
        let w = self.win.width() as usize;
        for y in t.y0..t.y1 {
            for x in t.x0..t.x1 {
                let v = match t.kind {
                    TileKind::Zero => 0,
                    TileKind::Hood => hood_value(t.k, u64::from(x), u64::from(y)),
                    TileKind::Cells { .. } if in_hood(t.k, u64::from(x), u64::from(y)) => {
                        hood_value(t.k, u64::from(x), u64::from(y))
                    }
                    TileKind::Cells { .. } => i64::from(t.row(y).unwrap()[(x - t.x0) as usize]),
                };
                let i = (y - self.win.y0()) as usize * w + (x - self.win.x0()) as usize;
                assert!(cells[i].is_none(), "cell ({x}, {y}) visited twice");
                cells[i] = Some(v);
            }
        }
    }
}

fn tiles_window(k: u32, win: Window, o: &EngineOptions) -> Vec<i64> {
    let g = Grid { win, cells: std::sync::Mutex::new(vec![None; win.cells() as usize]) };
    Sweep::new(k, win).options(o).tiles(&g).unwrap();
    g.cells.into_inner().unwrap().into_iter().map(|c| c.expect("every cell visited")).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The tile-visitor mode (diagonal tiles for the vector kernels) on random windows and
    /// tilings: every cell visited once, with the direct definition's value.
    #[test]
    fn tile_visitor_mode_matches(
        k in 1u32..200,
        n in 40u32..400,
        fx in 0.0f64..0.5, fy in 0.0f64..0.5,
        tile_width in prop_oneof![2u32..40, 60u32..300],
        band_height in prop_oneof![2u32..40, 60u32..200],
        threads in 1usize..4,
        kernel_i in 0usize..8,
    ) {
        let win = Window::new((n as f64 * fx) as u32, (n as f64 * fy) as u32, n, n).unwrap();
        let ks = kernels();
        let kernel = ks[kernel_i % ks.len()];
        let o = EngineOptions { threads, kernel, skip: true, tile_width: Some(tile_width), band_height: Some(band_height), ..Default::default() };
        prop_assert_eq!(tiles_window(k, win, &o), direct_window(k, win));
    }

    /// Random k, board, window, tiling, kernel and thread count.
    #[test]
    fn random_windows_match(
        k in 1u32..160,
        w in 1u32..260,
        h in 1u32..260,
        fx in 0.0f64..1.0, fy in 0.0f64..1.0, fw in 0.0f64..1.0, fh in 0.0f64..1.0,
        tile_width in 2u32..90,
        band_height in 2u32..80,
        threads in 1usize..5,
        kernel_i in 0usize..8,
        skip in any::<bool>(),
    ) {
        let x0 = ((w - 1) as f64 * fx) as u32;
        let y0 = ((h - 1) as f64 * fy) as u32;
        let x1 = x0 + 1 + ((w - x0 - 1) as f64 * fw) as u32;
        let y1 = y0 + 1 + ((h - y0 - 1) as f64 * fh) as u32;
        let win = Window::new(x0, y0, x1, y1).unwrap();
        let ks = kernels();
        let kernel = ks[kernel_i % ks.len()];
        let o = EngineOptions { threads, kernel, skip, tile_width: Some(tile_width), band_height: Some(band_height), ..Default::default() };
        let got = engine_window(k, win, &o);
        let want = direct_window(k, win);
        prop_assert_eq!(&got, &want);
        // Rows in pieces, as the PNG writer takes them.
        prop_assert_eq!(engine_window_parts(k, win, &o), want);
    }

    /// The CA band kernels with bands tall enough for their register-blocked inner loop (32
    /// lanes of up to 12 rows): boards from the corner, so tiles touch the initial condition,
    /// the hood, the casing and the board's edges; tiles whose narrow part leaves the range
    /// fall back to the exact kernel.
    #[test]
    fn band_kernels_on_tall_bands(
        k in 1u32..300,
        n in 100u32..700,
        tile_width in 2u32..300,
        band_height in 64u32..400,
        threads in 1usize..4,
        kernel_i in 0usize..3,
    ) {
        let ks: Vec<KernelChoice> = kernels().into_iter().filter(|k| k.name().starts_with("band-")).collect();
        let kernel = ks[kernel_i % ks.len()];
        let win = Window::new(0, 0, n, n).unwrap();
        let o = EngineOptions { threads, kernel, skip: true, tile_width: Some(tile_width), band_height: Some(band_height), ..Default::default() };
        prop_assert_eq!(engine_window(k, win, &o), direct_window(k, win), "{:?}", kernel);
    }

    /// Every thread count gives the same rows.
    #[test]
    fn thread_count_does_not_matter(k in 1u32..400, n in 50u32..500) {
        let win = Window::new(0, 0, n, n).unwrap();
        let one = engine_window(k, win, &opts(1, KernelChoice::Auto));
        for t in [2, 3, 5, 8] {
            prop_assert_eq!(&engine_window(k, win, &opts(t, KernelChoice::Auto)), &one);
        }
    }
}
