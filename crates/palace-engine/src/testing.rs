//! Helpers the tests of several crates share: a deterministic random stream, the engine's values
//! of a window and the direct definition's, the kernels to try. Hidden from the docs; not part
//! of the library's interface.

use crate::engine::sink::{Collect, Row, RowParts, RowSink};
use crate::engine::{EngineOptions, Sweep};
use crate::kernel::KernelChoice;
use crate::model::geometry::Window;
use crate::model::reference::direct_values;

/// The next value of the splitmix64 stream whose state is `state`: a deterministic stream for
/// random test data.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The engine's exact values of a window, checking that rows arrive in order.
pub fn engine_window(k: u32, w: Window, opts: &EngineOptions) -> Vec<i64> {
    let mut c = Collect::default();
    Sweep::new(k, w).options(opts).rows(&mut c).expect("sweep");
    assert_eq!(c.ys, (w.y0..w.y1).collect::<Vec<_>>(), "rows in order");
    c.values
}

/// As [`engine_window`], the rows taken in pieces ([`RowSink::takes_parts`]), as the PNG
/// writer takes them.
pub fn engine_window_parts(k: u32, w: Window, opts: &EngineOptions) -> Vec<i64> {
    struct Parts(Collect);
    impl RowSink for Parts {
        type Error = crate::error::Error;

        fn row(&mut self, _: &Row<'_>) -> crate::error::Result<()> {
            panic!("a sink that takes parts gets no assembled rows")
        }
        fn takes_parts(&self) -> bool {
            true
        }
        fn row_parts(&mut self, row: &RowParts<'_>) -> crate::error::Result<()> {
            assert!(row.parts.iter().all(|p| !p.is_empty()), "no empty pieces");
            let cells = row.parts.concat();
            self.0.row(&Row { k: row.k, y: row.y, x0: row.x0, cells: &cells })
        }
    }
    let mut c = Parts(Collect::default());
    Sweep::new(k, w).options(opts).rows(&mut c).expect("sweep");
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
    let mut k = crate::kernel::available_kernels();
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
