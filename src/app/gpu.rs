//! `--backend gpu` and `palace gpu-info`: the GPU backend's commands (cargo feature `gpu`).

#[cfg(feature = "gpu")]
use crate::app::cli::flags::RunConfig;
use crate::app::print::ExitCode;
#[cfg(feature = "gpu")]
use crate::app::print::out_text;
#[cfg(feature = "gpu")]
use crate::app::progress;
#[cfg(feature = "gpu")]
use palace::engine::Cancel;
use palace::error::{Error, Result};
#[cfg(feature = "gpu")]
use palace::gpu::{Gpu, GpuRun, Shape};
#[cfg(feature = "gpu")]
use palace::model::geometry::Window;

/// What a build without the feature says.
#[cfg(not(feature = "gpu"))]
const NOT_BUILT: &str =
    "this palace was built without the GPU backend; build it with `cargo build --release --features gpu`";

/// `palace gpu-info`: the adapter `--backend gpu` would use.
pub fn info(json: bool) -> Result<ExitCode> {
    #[cfg(feature = "gpu")]
    {
        let gpu = Gpu::open().map_err(Error::Gpu)?;
        let a = gpu.adapter();
        let text = if json {
            serde_json::to_string_pretty(&serde_json::json!({
                "name": a.name,
                "backend": a.backend,
                "device_type": a.device_type,
                "driver": a.driver,
            }))
            .expect("serialisable")
        } else {
            format!("GPU adapter: {a}")
        };
        out_text(&text)?;
        Ok(0)
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = json;
        Err(Error::Usage(format!("palace gpu-info: {NOT_BUILT}")))
    }
}

/// `palace stats --backend gpu`: the statistics of `window` (or, with `palaces_only`, the palace
/// count of the board from its corner), printed as the CPU backend prints them.
#[cfg(feature = "gpu")]
pub fn stats(
    k: u32,
    window: Window,
    palaces_only: bool,
    shape: Option<(u32, u32, u32)>,
    json: bool,
    run: &RunConfig,
    cancel: &Cancel,
) -> Result<ExitCode> {
    let gpu = Gpu::open().map_err(Error::Gpu)?;
    let shape = shape.map_or_else(Shape::default, |(lanes, rows, width)| Shape { lanes, rows, width });
    let pb = progress::bar(run.quiet, if palaces_only { "palaces" } else { "stats" }, "tiles");
    let (text, value, g) = if palaces_only {
        let (count, g) = palace::gpu::palace_count(&gpu, k, window.x1, window.y1, shape, &pb, cancel)?;
        (count.to_string(), serde_json::json!({ "palaces": count }), g)
    } else {
        let (stats, g) = palace::gpu::stats(&gpu, k, window, shape, &pb, cancel)?;
        (stats.to_string(), serde_json::json!({ "stats": stats }), g)
    };
    pb.finish_and_clear();
    if json {
        let mut v = value;
        v["gpu"] = serde_json::to_value(&g).expect("serialisable");
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
    } else {
        out_text(&text)?;
        summary(run, &g);
    }
    Ok(0)
}

/// The run's line on stderr, unless `--quiet`.
#[cfg(feature = "gpu")]
fn summary(run: &RunConfig, g: &GpuRun) {
    if run.quiet {
        return;
    }
    let secs = g.elapsed.as_secs_f64();
    eprintln!(
        "swept {} cells on {} in {secs:.3} s ({:.2} G cells/s, tiles {}): computed {}, skipped {} (outer space)",
        g.region,
        g.adapter,
        g.region as f64 / secs.max(1e-9) / 1e9,
        g.shape,
        g.computed,
        g.region - g.computed
    );
}

/// `palace bench --backend gpu`: the statistics of the `size x size` board of game `k` on the
/// GPU and by the CPU engine (its counter sweep, on all the threads `run` allows), `repeat`
/// times each; the fastest and the median run of each, and whether the two agree.
#[cfg(feature = "gpu")]
pub fn bench(k: u32, size: u32, repeat: usize, json: bool, run: &RunConfig) -> Result<ExitCode> {
    use palace::analysis::stats;
    use palace::engine::Silent;
    let gpu = Gpu::open().map_err(Error::Gpu)?;
    let cancel = &run.engine.cancel;
    let window = Window::new(0, 0, size, size);
    let cells = u64::from(size) * u64::from(size);
    let threads = run.engine.resolved_threads();
    let (on_gpu, g) = crate::app::bench::timed("gpu", 1, cells, repeat, || {
        Ok(palace::gpu::stats(&gpu, k, window, Shape::default(), &Silent, cancel)?.0)
    })?;
    let (on_cpu, c) = crate::app::bench::timed("cpu", threads, cells, repeat, || {
        Ok(stats::stats_by_counters(k, size, size, &run.engine, &Silent)?.0)
    })?;
    if on_gpu != on_cpu {
        return Err(Error::Mismatch(format!(
            "the GPU's statistics of k = {k}, {size} x {size} differ from the CPU's"
        )));
    }
    let (gb, gm, cb, cm) = (g.seconds, g.median_seconds, c.seconds, c.median_seconds);
    let text = if json {
        serde_json::to_string_pretty(&serde_json::json!({
            "k": k, "size": size, "repeat": repeat, "adapter": gpu.adapter().to_string(),
            "gpu_best_s": gb, "gpu_median_s": gm, "cpu_threads": threads, "cpu_best_s": cb,
            "cpu_median_s": cm, "same": true,
        }))
        .expect("serialisable")
    } else {
        format!(
            "stats, k = {k}, {size} x {size}, best (median) of {repeat}:\n  GPU {}: {gb:.3} s ({gm:.3} s), {:.1} G cells/s\n  CPU, {threads} threads: {cb:.3} s ({cm:.3} s), {:.1} G cells/s\n  the same statistics: yes",
            gpu.adapter(),
            g.cells_per_second / 1e9,
            c.cells_per_second / 1e9
        )
    };
    out_text(&text)?;
    Ok(0)
}
