//! Criterion benchmarks of the tile kernels and the baseline dynamic programme, per cell.
//! Speed targets are checked here and by `palace bench`, never in tests.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use palace::kernel::wide::wide_tile;
use palace::kernel::{Arrangement, KernelChoice, TileBuf, available_kernels};
use palace::model::reference::DirectDp;
use std::hint::black_box;

/// A realistic halo: a strip of the k = 500 board below the hood, taken from the reference.
fn halo(w: usize, h: usize) -> (Vec<i64>, Vec<i64>, Vec<i8>, Vec<i8>) {
    let k = 500;
    let (x0, y0) = (700usize, 600usize);
    let vals = palace::model::reference::reference_values(k, x0 + w, y0 + h);
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
            // "narrow avx2": the anti-diagonal kernels; "narrow band-avx2": the band kernels.
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
    let portable = KernelChoice::PORTABLE.narrow_fn().expect("the portable kernel");
    assert!(portable(&t8, &l8, w, h, &mut buf));
    let rows: Vec<Vec<i8>> = (0..h).map(|r| buf.row(r).to_vec()).collect();
    g.bench_function("histogram of the tile's values", |b| {
        b.iter(|| {
            let mut counts = [0u64; 256];
            palace::simd::histogram::count(rows.iter().map(|r| &r[..]), &mut counts);
            black_box(counts)
        })
    });
    g.finish();
}

/// The CA rule's narrow kernels on a tall tile of k = 500 below the hood, stored as rows:
/// the anti-diagonal kernels ("CA tile") against the band-lane kernels ("CA band tile"), whose
/// bands are 32 rows high here (at the engine's 128-row bands they are 4, and the register
/// blocking's inner loop never runs).
fn ca_tall(c: &mut Criterion) {
    let (w, h) = (1020usize, 1024usize);
    let (_, _, t8, l8) = halo(w, h);
    let mut g = c.benchmark_group("CA tile 1020x1024");
    g.throughput(Throughput::Elements((w * h) as u64));
    g.sample_size(20);
    for k in available_kernels() {
        if let Some(f) = k.narrow_fn() {
            let band = k.describe().contains("band");
            let name =
                if band { format!("CA band tile {}", k.name()) } else { format!("CA tile {}", k.name()) };
            let mut buf = TileBuf::new(w, h);
            assert!(f(&t8, &l8, w, h, &mut buf), "the k = 500 strip stays in the narrow range");
            g.bench_function(name, |b| b.iter(|| f(black_box(&t8), black_box(&l8), w, h, &mut buf)));
        }
    }
    g.finish();
}

/// The PNG path per byte: one 1 MiB piece of 4-bit scanlines of the k = 500 picture (a window
/// through the arms, the fabric and outer space), mapped, packed and deflated.
fn png(c: &mut Criterion) {
    use palace::engine::sink::Collect;
    use palace::engine::{EngineOptions, Sweep};
    let (k, w, h) = (500u32, 2048u32, 1024u32);
    let window = palace::Window::new(0, 700, w, 700 + h).expect("a valid window");
    let mut rows = Collect::default();
    Sweep::new(k, window).options(&EngineOptions::default()).rows(&mut rows).expect("sweep");
    let cells: Vec<i8> = rows.values.iter().map(|&v| v.clamp(-128, 127) as i8).collect();
    let stride = w as usize / 2 + 1;
    let mut scanlines = vec![0u8; stride * h as usize];
    for (line, row) in scanlines.chunks_exact_mut(stride).zip(cells.chunks_exact(w as usize)) {
        palace::output::png::pack_cells(row, &mut line[1..]);
    }
    let mut g = c.benchmark_group("png 1 MiB piece");
    g.throughput(Throughput::Bytes(scanlines.len() as u64));
    g.bench_function("map and pack cells to 4 bits", |b| {
        let mut out = vec![0u8; w as usize / 2];
        b.iter(|| {
            for row in cells.chunks_exact(w as usize) {
                palace::output::png::pack_cells(row, &mut out);
            }
            black_box(&out);
        })
    });
    for (name, mut enc) in [
        ("deflate (run-time choice)", palace::output::deflate::PieceEncoder::default()),
        ("deflate (portable)", palace::output::deflate::PieceEncoder::portable()),
    ] {
        g.bench_function(name, |b| {
            let mut out = Vec::new();
            b.iter(|| {
                out.clear();
                out = enc.encode(&scanlines, stride, std::mem::take(&mut out));
                black_box(out.len())
            })
        });
    }
    g.finish();
}

/// The three-counter lane kernels on a large interior tile of k = 500 (below the hood, through
/// the arms and the fabric), per cell.
fn counters(c: &mut Criterion) {
    use palace::kernel::counter::{EdgeValues, Scratch, available, entering_by_definition};
    let (w, h) = (4092usize, 4096usize);
    let edges = entering_by_definition(500, 1000, 1200, w, h);
    let mut g = c.benchmark_group("counter tile 4092x4096");
    g.throughput(Throughput::Elements((w * h) as u64));
    g.sample_size(20);
    let mut scratch = Scratch::default();
    let mut values = EdgeValues::sized(w, h);
    for kernel in available() {
        let mut e = edges.clone();
        assert!((kernel.run)(w, h, &mut e, &mut values, &mut scratch).valid, "k = 500 stays in range");
        for tally in [false, true] {
            // With the tally every value is counted too (the statistics' histogram).
            scratch.tally(tally);
            let name = if tally { format!("{} + tally", kernel.name) } else { kernel.name.to_string() };
            g.bench_function(name, |b| {
                b.iter(|| {
                    let mut e = edges.clone();
                    black_box((kernel.run)(w, h, &mut e, &mut values, &mut scratch))
                })
            });
        }
    }
    g.finish();

    // The tally alone: 16 KiB of a tile's sums (`s = v + BIAS`), as the kernels gather them.
    use palace::kernel::counter::{BIAS, reference};
    let (w, h) = (256usize, 64usize);
    let mut e = entering_by_definition(500, 1000, 1200, w, h);
    let mut v = EdgeValues::sized(w, h);
    let mut sums = vec![0u8; w * h];
    reference(w, h, &mut e, &mut v, Some(&mut sums));
    let mut g = c.benchmark_group("tally 16 KiB");
    g.throughput(Throughput::Elements(sums.len() as u64));
    use palace::simd::histogram::{count_below_32, count_offset};
    type Count = fn(&mut [u8], u8, &mut [u64; 256]);
    let paths: [(&str, Count); 2] =
        [("count_below_32 (the tally)", count_below_32), ("count_offset (any byte)", count_offset)];
    for (name, count) in paths {
        g.bench_function(name, |b| {
            // The fallback shifts the cells in place: each run starts from a fresh copy, made
            // outside the timing (one at a time, so that it is as hot in the cache as the
            // kernels leave their sums).
            b.iter_batched_ref(
                || sums.clone(),
                |cells| {
                    let mut counts = [0u64; 256];
                    count(black_box(cells), BIAS, &mut counts);
                    black_box(counts)
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, kernels, ca_tall, counters, png);
criterion_main!(benches);
