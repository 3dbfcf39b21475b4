//! Helpers shared by the integration tests.
#![allow(dead_code)]

use palace::engine::sink::{Collect, Row, RowParts, RowSink};
use palace::engine::{EngineOptions, sweep};
use palace::kernel::KernelChoice;
use palace::model::geometry::Window;
use palace::model::reference::direct_values;

/// The engine's exact values of a window, checking that rows arrive in order.
pub fn engine_window(k: u32, w: Window, opts: &EngineOptions) -> Vec<i64> {
    let mut c = Collect::default();
    sweep(k, w, opts, &mut c, &palace::engine::Silent).expect("sweep");
    assert_eq!(c.ys, (w.y0..w.y1).collect::<Vec<_>>(), "rows in order");
    c.values
}

/// As [`engine_window`], the rows taken in pieces ([`RowSink::takes_parts`]), as the PNG
/// writer takes them.
pub fn engine_window_parts(k: u32, w: Window, opts: &EngineOptions) -> Vec<i64> {
    struct Parts(Collect);
    impl RowSink for Parts {
        fn row(&mut self, _: &Row<'_>) -> palace::Result<()> {
            panic!("a sink that takes parts gets no assembled rows")
        }
        fn takes_parts(&self) -> bool {
            true
        }
        fn row_parts(&mut self, row: &RowParts<'_>) -> palace::Result<()> {
            assert!(row.parts.iter().all(|p| !p.is_empty()), "no empty pieces");
            let cells = row.parts.concat();
            self.0.row(&Row { k: row.k, y: row.y, x0: row.x0, cells: &cells })
        }
    }
    let mut c = Parts(Collect::default());
    sweep(k, w, opts, &mut c, &palace::engine::Silent).expect("sweep");
    assert_eq!(c.0.ys, (w.y0..w.y1).collect::<Vec<_>>(), "rows in order");
    c.0.values
}

/// The direct definition's values on the window, computed on the board up to the window's
/// far corner.
pub fn direct_window(k: u32, w: Window) -> Vec<i64> {
    let full = direct_values(k, w.x1 as usize, w.y1 as usize);
    let mut out = Vec::with_capacity(w.cells() as usize);
    for y in w.y0..w.y1 {
        for x in w.x0..w.x1 {
            out.push(i64::from(full[y as usize * w.x1 as usize + x as usize]));
        }
    }
    out
}

/// Every kernel this CPU can run, and `Auto`.
pub fn kernels() -> Vec<KernelChoice> {
    let mut k = palace::kernel::available_kernels();
    k.push(KernelChoice::Auto);
    k
}

/// Engine options with the given threads and kernel, default tiling.
pub fn opts(threads: usize, kernel: KernelChoice) -> EngineOptions {
    EngineOptions { threads, kernel, ..EngineOptions::default() }
}

/// First differing index of two equally long slices, with a readable message.
pub fn assert_same(a: &[i64], b: &[i64], width: u32, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths differ");
    if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
        let (x, y) = (i as u32 % width, i as u32 / width);
        panic!("{what}: first difference at window cell ({x}, {y}): {} vs {}", a[i], b[i]);
    }
}

/// The `palace` binary, as a command to run.
pub fn palace() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("palace").unwrap()
}

/// Runs `palace ARGS`, which must succeed, and parses its stdout as JSON.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = palace().args(args).assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("JSON on stdout")
}
