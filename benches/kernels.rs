//! Criterion benchmarks of the tile kernels and the baseline dynamic programme, per cell.
//! Speed targets are checked here and by `palace bench`, never in tests.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palace::kernel::wide::wide_tile;
use palace::kernel::{Arrangement, KernelChoice, TileBuf, available_kernels};
use palace::reference::DirectDp;
use std::hint::black_box;

/// A realistic halo: a strip of the k = 500 board below the hood, taken from the reference.
fn halo(w: usize, h: usize) -> (Vec<i64>, Vec<i64>, Vec<i8>, Vec<i8>) {
    let k = 500;
    let (x0, y0) = (700usize, 600usize);
    let vals = palace::reference::reference_values(k, x0 + w, y0 + h);
    let at = |x: usize, y: usize| i64::from(vals[y * (x0 + w) + x]);
    let mut top = Vec::new();
    for y in [y0 - 2, y0 - 1] {
        for x in x0 - 2..x0 + w {
            top.push(at(x, y));
        }
    }
    let mut left = Vec::new();
    for y in y0..y0 + h {
        left.push(at(x0 - 2, y));
        left.push(at(x0 - 1, y));
    }
    let t8 = top.iter().map(|&v| v as i8).collect();
    let l8 = left.iter().map(|&v| v as i8).collect();
    (top, left, t8, l8)
}

fn kernels(c: &mut Criterion) {
    let (w, h) = (1024usize, 128usize);
    let (top, left, t8, l8) = halo(w, h);
    let mut g = c.benchmark_group("tile 1024x128");
    g.throughput(Throughput::Elements((w * h) as u64));
    let mut out = vec![0i64; w * h];
    g.bench_function("wide (exact scalar reference)", |b| {
        b.iter(|| wide_tile(black_box(&top), black_box(&left), w, h, &mut out))
    });
    for k in available_kernels() {
        if let Some(f) = k.narrow_fn() {
            let mut buf = TileBuf::new(w, h);
            assert!(f(&t8, &l8, w, h, &mut buf), "the k = 500 strip stays in the narrow range");
            g.bench_function(format!("narrow {}", k.name()), |b| {
                b.iter(|| f(black_box(&t8), black_box(&l8), w, h, &mut buf))
            });
            // The arrangement the statistics path uses: no transposes.
            if let Some(l) = k.diagonal_lanes() {
                let mut buf = TileBuf::arranged(w, h, Arrangement::Diagonal(l));
                g.bench_function(format!("narrow {} (diagonal)", k.name()), |b| {
                    b.iter(|| f(black_box(&t8), black_box(&l8), w, h, &mut buf))
                });
            }
        }
    }
    g.bench_function("direct definition (three counters), same cell count", |b| {
        b.iter(|| {
            let mut dp = DirectDp::new(500, w);
            for _ in 0..h {
                black_box(dp.next_row());
            }
        })
    });
    // Counting the values of a computed tile, as the statistics do.
    let mut buf = TileBuf::new(w, h);
    let portable = KernelChoice::Portable.narrow_fn().expect("the portable kernel");
    assert!(portable(&t8, &l8, w, h, &mut buf));
    let rows: Vec<Vec<i8>> = (0..h).map(|r| buf.row(r).to_vec()).collect();
    g.bench_function("histogram of the tile's values", |b| {
        b.iter(|| {
            let mut counts = [0u64; 256];
            palace::histogram::count(rows.iter().map(|r| &r[..]), &mut counts);
            black_box(counts)
        })
    });
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
