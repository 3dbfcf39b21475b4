//! The GPU backend (`--backend gpu`, cargo feature `gpu`) against the CPU engine, bit for bit:
//! statistics and palace counts over random games, boards, windows and tile shapes, the
//! commands' output byte for byte, and the refusals. Without an adapter these tests pass with
//! a note unless `PALACE_REQUIRE_GPU` is set; CI sets it and installs Mesa's software Vulkan
//! (lavapipe), so there they run for real.
//!
//! Without the feature, only the refusals of `--backend gpu` and `gpu-info` are tested.

#[cfg(not(feature = "gpu"))]
#[test]
fn without_the_feature_the_gpu_backend_is_refused_with_the_build_command() {
    use crate::common::palace;
    for args in [
        &["stats", "--k", "50", "--size", "100", "--backend", "gpu"][..],
        &["gpu-info"],
        &["bench", "--k", "50", "--size", "100", "--backend", "gpu"],
        &["skin", "--k", "50", "--to", "100", "--backend", "gpu"],
        &["survey", "--k", "50..60", "--backend", "gpu"],
        &["positions", "--k", "7", "--rows", "10", "-o", "p.csv", "--backend", "gpu"],
    ] {
        let out = palace().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--features gpu"), "{args:?}: {err}");
    }
}

#[cfg(feature = "gpu")]
mod with_the_feature {
    use crate::common::{bin, kill, palace};
    use palace::analysis::{skin, stats, survey};
    use palace::backend::gpu::{self, Gpu, Shape};
    use palace::engine::{Cancel, EngineOptions, Silent};
    use palace::model::geometry::Window;
    use palace::resume::{Checkpoint, Reader, Resumable, Writer};
    use proptest::prelude::*;
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    fn gpu() -> Option<&'static Gpu> {
        static GPU: OnceLock<Option<Gpu>> = OnceLock::new();
        GPU.get_or_init(|| match Gpu::open() {
            Ok(g) => Some(g),
            Err(e) if std::env::var_os("PALACE_REQUIRE_GPU").is_none() => {
                eprintln!("no GPU adapter ({e}); GPU tests skipped (PALACE_REQUIRE_GPU=1 fails instead)");
                None
            }
            Err(e) => panic!("PALACE_REQUIRE_GPU is set but no GPU could be opened: {e}"),
        })
        .as_ref()
    }

    fn cpu_stats(k: u32, w: Window) -> stats::Stats {
        stats::stats(k, w, &EngineOptions::default(), &Silent).unwrap().0
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Statistics of any window equal the CPU engine's, whatever the tile shape.
        #[test]
        fn stats_equal_the_cpu_engine(
            k in 1u32..2500,
            (w, h) in (1u32..700, 1u32..700),
            corner in (0.0f64..1.0, 0.0f64..1.0),
            far in (0.0f64..1.0, 0.0f64..1.0),
            shape in (1u32..=64, 1u32..=8, 2u32..=300),
        ) {
            let Some(g) = gpu() else { return Ok(()) };
            let x0 = (corner.0 * f64::from(w)) as u32;
            let y0 = (corner.1 * f64::from(h)) as u32;
            let x1 = x0 + 1 + (far.0 * f64::from(w - x0 - 1)) as u32;
            let y1 = y0 + 1 + (far.1 * f64::from(h - y0 - 1)) as u32;
            let window = Window::new(x0, y0, x1, y1).unwrap();
            let shape = Shape { lanes: shape.0, rows: shape.1, width: shape.2 };
            let (got, _) = gpu::stats(g, k, window, shape, &Silent, &Cancel::new()).unwrap();
            prop_assert_eq!(got, cpu_stats(k, window), "k {} window {:?} shape {}", k, window, shape);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

        /// The skin on the GPU equals the CPU's counter sweep, report and columns, patterns
        /// included, whatever the tile shape.
        #[test]
        fn the_skin_equals_the_cpu_engine(
            k in 3u32..2500,
            span in 1u64..6000,
            shape in (1u32..=16, 1u32..=2, 2u32..=300),
            patterns in any::<bool>(),
        ) {
            let Some(g) = gpu() else { return Ok(()) };
            let to = u64::from(k) + span;
            let tiles = gpu::SkinTiles {
                shape: Shape { lanes: shape.0, rows: 4 * shape.1, width: shape.2 },
                ..Default::default()
            };
            let (report, cols, run) = gpu::skin(g, k, to, patterns, tiles, &Silent, &Cancel::new()).unwrap();
            let opts = EngineOptions::default();
            let f = skin::Follower::new(k, to, &opts, &Silent).unwrap();
            let f = if patterns { f.with_patterns() } else { f };
            let (_, frontier) = f.segment(None, &|| false).unwrap();
            prop_assert!(frontier.is_none());
            let (want, want_cols) = f.finish().unwrap();
            prop_assert_eq!(&cols, &want_cols, "k {} to {} tiles {:?}", k, to, tiles);
            prop_assert_eq!(
                serde_json::to_string(&report).unwrap(),
                serde_json::to_string(&want).unwrap(),
                "k {} to {} tiles {:?}", k, to, tiles
            );
            prop_assert!(run.computed <= run.region);
        }
    }

    /// Far out, where the skin is thick, with the default tiles: the same columns and report.
    #[test]
    fn a_long_skin_equals_the_cpu_engine() {
        let Some(g) = gpu() else { return };
        let (k, to) = (2000, 40000);
        let (report, cols, run) =
            gpu::skin(g, k, to, false, gpu::SkinTiles::default(), &Silent, &Cancel::new()).unwrap();
        let (want, want_cols, _) = skin::follow(k, to, &EngineOptions::default(), &Silent).unwrap();
        assert_eq!(cols, want_cols);
        assert_eq!(serde_json::to_string(&report).unwrap(), serde_json::to_string(&want).unwrap());
        // Outer space above the arm is skipped.
        assert!(run.computed < run.region, "{run:?}");
    }

    /// Tiles kept too close to the boundary: the skin reads a cell the GPU did not send back,
    /// and the run fails saying so instead of measuring short runs.
    #[test]
    fn a_skin_reading_past_the_tiles_sent_back_is_an_error() {
        let Some(g) = gpu() else { return };
        let tiles = gpu::SkinTiles { shape: Shape { lanes: 1, rows: 4, width: 8 }, reach: 0 };
        let err = gpu::skin(g, 2000, 30000, false, tiles, &Silent, &Cancel::new()).unwrap_err();
        assert!(err.to_string().contains("which the GPU did not send back"), "{err}");
    }

    /// A skin on the GPU paused between submissions, saved and restored into another run,
    /// ends with the report and columns of an uninterrupted one; a saved run does not restore
    /// into a run of another column, nor when a byte of it has changed.
    #[test]
    fn a_paused_gpu_skin_resumes_to_the_same_result() {
        let Some(g) = gpu() else { return };
        let (k, to) = (700, 20000);
        let tiles = gpu::SkinTiles { shape: Shape { lanes: 8, rows: 4, width: 32 }, ..Default::default() };
        let cancel = Cancel::new();
        let opts = EngineOptions::default();
        let f = skin::Follower::new(k, to, &opts, &Silent).unwrap().with_patterns();
        assert!(f.segment(None, &|| false).unwrap().1.is_none());
        let (want, want_cols) = f.finish().unwrap();
        let want = serde_json::to_string(&want).unwrap();
        for pauses in [1, 3] {
            let mut run = gpu::GpuSkin::new(g, k, to, true, tiles, &Silent, &cancel).unwrap();
            let asked = std::sync::atomic::AtomicU32::new(0);
            let pause = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1 >= 8;
            let mut bytes = Vec::new();
            for _ in 0..pauses {
                asked.store(0, std::sync::atomic::Ordering::Relaxed);
                assert!(!run.segment(&pause).unwrap(), "the skin ended before a pause");
                let mut w = Writer::new();
                run.encode(&mut w);
                bytes = Checkpoint { tag: Resumable::tag(&run), state: w.into_bytes() }.encode();
            }
            let here = std::path::Path::new("s.ckpt");
            let other = gpu::GpuSkin::new(g, k, to + 1, true, tiles, &Silent, &cancel).unwrap();
            let why = Checkpoint::decode(&bytes, &Resumable::tag(&other), here).unwrap_err();
            assert!(why.to_string().contains("not of this one"), "{why}");
            let mut broken = bytes.clone();
            let mid = broken.len() / 2;
            broken[mid] ^= 1;
            let fresh = gpu::GpuSkin::new(g, k, to, true, tiles, &Silent, &cancel).unwrap();
            let why = Checkpoint::decode(&broken, &Resumable::tag(&fresh), here).unwrap_err();
            assert!(why.to_string().contains("checksum"), "{why}");
            let mut resumed = gpu::GpuSkin::new(g, k, to, true, tiles, &Silent, &cancel).unwrap();
            let saved = Checkpoint::decode(&bytes, &Resumable::tag(&resumed), here).unwrap();
            let mut r = Reader::new(&saved.state);
            resumed.restore(&mut r).unwrap();
            assert!(r.is_empty());
            assert!(resumed.rows() > 0);
            assert!(resumed.segment(&|| false).unwrap());
            let (report, cols, _) = resumed.finish().unwrap();
            assert_eq!(cols, want_cols, "pauses {pauses}");
            assert_eq!(serde_json::to_string(&report).unwrap(), want, "pauses {pauses}");
        }
    }

    /// `skin --backend gpu --checkpoint` stopped by SIGINT leaves a checkpoint; `--resume`
    /// finishes the run with the CPU backend's CSV and report, and removes the checkpoint.
    #[test]
    fn the_gpu_skin_command_checkpoints_and_resumes() {
        let Some(g) = gpu() else { return };
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        let (ck, a, b) = (at("s.ckpt"), at("cpu.csv"), at("gpu.csv"));
        let to = if g.adapter().device_type == "Cpu" { "150000" } else { "3040003" };
        let cpu = stdout(&["skin", "--k", "40003", "--to", to, "--csv", &a, "-q"]);
        let on_gpu = |more: &[&str]| {
            let mut args = vec!["skin", "--k", "40003", "--to", to, "--backend", "gpu", "--csv", &b, "-q"];
            args.extend_from_slice(more);
            args.into_iter().map(String::from).collect::<Vec<_>>()
        };
        let mut child = std::process::Command::new(bin())
            .args(on_gpu(&["--checkpoint", &ck]))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        assert!(child.try_wait().unwrap().is_none(), "the run ended before the signal");
        assert!(kill(&child, "INT"));
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{err}");
        assert!(err.contains("--resume") && std::path::Path::new(&ck).exists(), "{err}");
        assert!(!std::path::Path::new(&b).exists());
        let resume = on_gpu(&["--resume", &ck, "--checkpoint", &ck]);
        let gpu = stdout(&resume.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(gpu, cpu);
        assert_eq!(std::fs::read(&b).unwrap(), std::fs::read(&a).unwrap());
        assert!(!std::path::Path::new(&ck).exists(), "the checkpoint was left behind");
    }

    /// `skin --backend gpu` writes what the CPU backend writes, CSV and report, byte for byte.
    #[test]
    fn the_skin_command_prints_what_the_cpu_backend_prints() {
        if gpu().is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let csv = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        for extra in [&[][..], &["--pattern", "--json"]] {
            let (a, b) = (csv("cpu.csv"), csv("gpu.csv"));
            let mut cpu = vec!["skin", "--k", "300", "--to", "9000", "--csv", &a, "-q"];
            cpu.extend_from_slice(extra);
            let mut on_gpu =
                vec!["skin", "--k", "300", "--to", "9000", "--csv", &b, "-q", "--backend", "gpu"];
            on_gpu.extend_from_slice(extra);
            assert_eq!(stdout(&on_gpu), stdout(&cpu), "{extra:?}");
            assert_eq!(std::fs::read(&b).unwrap(), std::fs::read(&a).unwrap(), "{extra:?}");
        }
    }

    /// The survey's rows on the GPU, or its error, as the CPU gives them.
    fn same_survey(g: &Gpu, so: &survey::SurveyOptions, shape: Shape, threads: usize) {
        let opts = EngineOptions::default();
        let want = survey::survey(so, threads, &opts, &Silent).map_err(|e| e.to_string());
        let got = gpu::survey(g, shape, so, threads, &opts, &Silent).map_err(|e| e.to_string());
        assert_eq!(got, want, "{so:?} tiles {shape}");
    }

    /// The survey on the GPU: the same rows as on the CPU, skin and labels included, for games
    /// from k = 1 (whose boards are refused) up, several board sizes, detail steps and tiles.
    #[test]
    fn the_survey_equals_the_cpu_engine() {
        let Some(g) = gpu() else { return };
        let so = |from, to, step, factor, skin, detail_step| survey::SurveyOptions {
            from,
            to,
            step,
            factor,
            skin,
            detail_step,
        };
        let tiles = |lanes, rows, width| Shape { lanes, rows, width };
        same_survey(g, &so(1, 4, 1, 3, false, 1), Shape::default(), 2);
        same_survey(g, &so(5, 41, 3, 3, false, 2), Shape::default(), 2);
        same_survey(g, &so(97, 130, 11, 2, false, 1), tiles(3, 4, 70), 1);
        same_survey(g, &so(1000, 1003, 1, 4, false, 2), tiles(8, 8, 64), 3);
        same_survey(g, &so(600, 1800, 600, 3, true, 1), tiles(32, 4, 256), 2);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

        /// Any game, board size and tile shape: the GPU's survey row is the CPU's.
        #[test]
        fn survey_rows_equal_the_cpu_engine(
            k in 5u32..700,
            factor in 1u32..=4,
            shape in (1u32..=16, 1u32..=2, 2u32..=300),
        ) {
            let Some(g) = gpu() else { return Ok(()) };
            let so = survey::SurveyOptions { from: k, to: k, step: 1, factor, skin: false, detail_step: 1 };
            same_survey(g, &so, Shape { lanes: shape.0, rows: 4 * shape.1, width: shape.2 }, 1);
        }
    }

    /// The P-positions listed by the sweep on the GPU and on the CPU, and their reports.
    fn both_positions(g: &Gpu, k: u32, rows: u32, width: Option<u32>, shape: Shape) {
        use palace::analysis::positions::{Method, positions};
        let mut on_cpu = Vec::new();
        let want = positions(
            k,
            rows,
            width,
            Method::Sweep,
            &EngineOptions::default(),
            &mut |x, y| {
                on_cpu.push((x, y));
                Ok(())
            },
            &Silent,
        );
        let mut on_gpu = Vec::new();
        let got = gpu::positions(
            g,
            k,
            rows,
            width,
            shape,
            &mut |x, y| {
                on_gpu.push((x, y));
                Ok(())
            },
            &Silent,
            &Cancel::new(),
        )
        .map(|(r, _)| r);
        assert_eq!(
            got.map_err(|e| e.to_string()),
            want.map_err(|e| e.to_string()),
            "k {k} rows {rows} width {width:?} shape {shape}"
        );
        assert!(on_gpu == on_cpu, "k {k} rows {rows} width {width:?} shape {shape}: the lists differ");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// The P-positions listed on the GPU, in order, and the report equal the CPU sweep's,
        /// on default and narrow boards (whose rows come out short) and any tile shape.
        #[test]
        fn positions_equal_the_cpu_sweep(
            k in 1u32..1500,
            rows in 1u32..400,
            narrow in proptest::option::of(0.05f64..1.0),
            shape in (1u32..=64, 1u32..=8, 1u32..=300),
        ) {
            let Some(g) = gpu() else { return Ok(()) };
            let width = narrow.map(|f| ((f * f64::from(k + 3 * rows)) as u32).max(1));
            both_positions(g, k, rows, width, Shape { lanes: shape.0, rows: shape.1, width: shape.2 });
        }
    }

    /// Larger boards with the default tiles, and an empty one refused alike.
    #[test]
    fn positions_of_larger_boards_equal_the_cpu_sweep() {
        let Some(g) = gpu() else { return };
        for (k, rows) in [(1, 3000), (7, 5000), (255, 2000), (2000, 1500)] {
            both_positions(g, k, rows, None, Shape::default());
        }
        both_positions(g, 5, 0, None, Shape::default());
    }

    /// `positions --backend gpu` writes the CPU sweep's CSV and `.npy` and prints its report,
    /// byte for byte.
    #[test]
    fn the_positions_command_prints_what_the_cpu_backend_prints() {
        if gpu().is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        for (k, ext) in [("7", "csv"), ("300", "npy"), ("1001", "csv")] {
            let (a, b) = (file(&format!("cpu.{ext}")), file(&format!("gpu.{ext}")));
            let args = ["positions", "--k", k, "--rows", "2500", "-q"];
            let cpu = stdout(&[&args[..], &["-o", &a, "--method", "sweep"]].concat());
            let on_gpu = stdout(&[&args[..], &["-o", &b, "--backend", "gpu"]].concat());
            assert_eq!(on_gpu, cpu, "k {k}");
            assert!(std::fs::read(&b).unwrap() == std::fs::read(&a).unwrap(), "k {k}: the lists differ");
        }
    }

    /// `survey --backend gpu` writes the CPU's CSV and summary byte for byte.
    #[test]
    fn the_survey_command_prints_what_the_cpu_backend_prints() {
        if gpu().is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let csv = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        let (a, b) = (csv("cpu.csv"), csv("gpu.csv"));
        let args = ["survey", "--k", "600..1800", "--step", "600", "-q"];
        let cpu = stdout(&[&args[..], &["-o", &a]].concat());
        let on_gpu = stdout(&[&args[..], &["-o", &b, "--backend", "gpu"]].concat());
        assert_eq!(on_gpu, cpu);
        assert_eq!(std::fs::read(&b).unwrap(), std::fs::read(&a).unwrap());
    }

    /// Whole boards where the hood, outer space and the fabric all appear, with the default
    /// tiles: statistics and palace counts as the CPU gives them.
    #[test]
    fn boards_of_the_paper_equal_the_cpu_engine() {
        let Some(g) = gpu() else { return };
        for (k, side) in [(1, 300), (2, 300), (100, 300), (500, 1500), (997, 2100), (2000, 6200)] {
            let w = Window::new(0, 0, side, side).unwrap();
            let (got, _) = gpu::stats(g, k, w, Shape::default(), &Silent, &Cancel::new()).unwrap();
            assert_eq!(got, cpu_stats(k, w), "k {k} side {side}");
            let (count, run) =
                gpu::palace_count(g, k, side, side, Shape::default(), &Silent, &Cancel::new()).unwrap();
            assert_eq!((count.cells, count.palaces), (got.total.cells, got.total.palaces));
            assert!(run.computed <= run.region);
        }
        // Game 2000 on 6200 x 6200 has outer space: some tiles are skipped.
        let (_, run) =
            gpu::palace_count(g, 2000, 6200, 6200, Shape::default(), &Silent, &Cancel::new()).unwrap();
        assert!(run.computed < run.region, "{run:?}");
    }

    fn stdout(args: &[&str]) -> String {
        let out = palace().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    /// `stats --backend gpu` prints what `stats` prints, byte for byte, and its JSON holds the
    /// same statistics.
    #[test]
    fn the_command_prints_what_the_cpu_backend_prints() {
        if gpu().is_none() {
            return;
        }
        for args in [
            &["stats", "--k", "500", "--size", "1500"][..],
            &["stats", "--k", "500", "--size", "1500", "--window", "300,200,1400,1500"],
            &["stats", "--k", "999", "--width", "2500", "--height", "1200", "--palaces-only"],
        ] {
            let cpu = stdout(args);
            let gpu = stdout(&[args, &["--backend", "gpu"]].concat());
            assert_eq!(gpu, cpu, "{args:?}");
            let shaped = stdout(&[args, &["--backend", "gpu", "--gpu-shape", "3x5x70", "-q"]].concat());
            assert_eq!(shaped, cpu, "{args:?} with tiles 3x5x70");
        }
        let json = |extra: &[&str]| -> serde_json::Value {
            let args = [&["stats", "--k", "700", "--size", "2100", "--json", "-q"][..], extra].concat();
            serde_json::from_str(&stdout(&args)).unwrap()
        };
        let g = json(&["--backend", "gpu"]);
        assert_eq!(g["stats"], json(&[])["stats"]);
        assert!(g["gpu"]["adapter"].as_str().is_some_and(|a| !a.is_empty()), "{g}");
        let info = stdout(&["gpu-info"]);
        assert!(info.starts_with("GPU adapter: ") && info.contains("storage bindings of up to"), "{info}");
        assert!(info.contains("\nmemory: "), "{info}");
        let bench: serde_json::Value = serde_json::from_str(&stdout(&[
            "bench",
            "--backend",
            "gpu",
            "--k",
            "500",
            "--size",
            "1500",
            "--repeat",
            "1",
            "--json",
        ]))
        .unwrap();
        assert_eq!(bench["same"], true, "{bench}");
        assert!(bench["gpu_best_s"].as_f64().is_some_and(|t| t > 0.0), "{bench}");
    }

    /// What the GPU backend cannot do is refused before any work, naming the flags.
    #[test]
    fn refusals_name_the_flags() {
        let dir = tempfile::tempdir().unwrap();
        let ck = dir.path().join("c.ckpt");
        let ck = ck.to_str().unwrap();
        for (args, says) in [
            (&["stats", "--k", "50", "--size", "100", "--backend", "gpu", "--ca"][..], "--ca"),
            (
                &["stats", "--k", "50", "--size", "100", "--backend", "gpu", "--checkpoint", ck],
                "--checkpoint",
            ),
            (&["stats", "--k", "50", "--size", "100", "--gpu-shape", "8x8x8"], "--backend gpu"),
            (
                &["stats", "--k", "50", "--size", "100", "--backend", "gpu", "--gpu-shape", "65x1x8"],
                "--gpu-shape",
            ),
            (
                &["stats", "--k", "50", "--size", "100", "--backend", "gpu", "--gpu-shape", "8x8"],
                "--gpu-shape",
            ),
            (
                &["skin", "--k", "50", "--to", "100", "--backend", "gpu", "--gpu-shape", "8x3x8"],
                "--gpu-shape",
            ),
            (&["skin", "--k", "50", "--to", "100", "--backend", "gpu", "--rows"], "--rows"),
            (&["survey", "--k", "50..60", "--backend", "gpu", "--gpu-shape", "8x6x8"], "--gpu-shape"),
            (&["survey", "--k", "50..60", "--gpu-shape", "8x4x8"], "--backend gpu"),
            (
                &[
                    "positions",
                    "--k",
                    "7",
                    "--rows",
                    "10",
                    "-o",
                    "p.csv",
                    "--backend",
                    "gpu",
                    "--method",
                    "lines",
                ],
                "--method lines",
            ),
            (
                &["positions", "--k", "7", "--rows", "10", "-o", "p.csv", "--gpu-shape", "8x4x8"],
                "--backend gpu",
            ),
        ] {
            let out = palace().args(args).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(says), "{args:?}: {err}");
        }
        assert!(!std::path::Path::new(ck).exists());
    }

    /// A board whose counter arrays need more memory than the GPU has is refused before the
    /// run begins (exit 1, nothing written), saying what it needs and how to go on; the cap
    /// `PALACE_GPU_MEMORY` stands for a smaller device, and `gpu-info` shows it.
    #[test]
    fn a_board_too_large_for_the_gpu_s_memory_is_refused_before_it_begins() {
        if gpu().is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("skin.csv");
        for args in [
            &["stats", "--k", "500", "--size", "30000", "--backend", "gpu"][..],
            &["skin", "--k", "500", "--to", "30000", "--backend", "gpu", "--csv", csv.to_str().unwrap()],
            &["survey", "--k", "500..510", "--backend", "gpu"],
        ] {
            let out = palace().args(args).env("PALACE_GPU_MEMORY", "100000").output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("of GPU memory for its arrays; the GPU has 100000 bytes")
                    && err.contains("--backend cpu"),
                "{args:?}: {err}"
            );
            assert!(out.stdout.is_empty(), "{args:?}");
        }
        assert!(!csv.exists());
        let info = palace().arg("gpu-info").env("PALACE_GPU_MEMORY", "100000").output().unwrap();
        assert!(String::from_utf8_lossy(&info.stdout).contains("memory: 100000 bytes"));
        let out = palace().arg("gpu-info").env("PALACE_GPU_MEMORY", "lots").output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("PALACE_GPU_MEMORY=lots"));
    }

    /// No adapter is an error (exit 1) that says what was looked for, never a silent CPU run.
    #[test]
    fn no_adapter_is_an_error_naming_what_was_looked_for() {
        let out = palace()
            .args(["stats", "--k", "50", "--size", "100", "--backend", "gpu"])
            .env("WGPU_ADAPTER_NAME", "no adapter is called this")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no GPU adapter found") && err.contains("no adapter is called this"), "{err}");
        assert!(out.stdout.is_empty());
    }

    /// The first SIGINT stops a GPU run between two submissions, within a second, with exit 130:
    /// the statistics, the skin (whose reader thread stops too), the survey and the
    /// P-positions, and none leaves its file.
    #[test]
    fn a_signal_stops_a_gpu_run_within_a_second() {
        let Some(g) = gpu() else { return };
        // About ten seconds of work on a software adapter, a second or more on a data-centre GPU
        // (the survey's labels and skin take longer).
        let software = g.adapter().device_type == "Cpu";
        let size = if software { "30000" } else { "400000" };
        let to = if software { "150000" } else { "3040003" };
        let k = if software { "9000" } else { "40003" };
        for args in [
            &["stats", "--k", "40003", "--size", size, "--backend", "gpu", "-q"][..],
            &["skin", "--k", "40003", "--to", to, "--backend", "gpu", "-q", "--csv", "skin.csv"],
            &["survey", "--k", k, "--backend", "gpu", "-q", "-o", "skin.csv"],
            &[
                "positions",
                "--k",
                if software { "300" } else { "7" },
                "--rows",
                if software { "40000" } else { "1000000" },
                "--backend",
                "gpu",
                "-q",
                "-o",
                "skin.csv",
            ],
        ] {
            stops_within_a_second(args, software);
        }
    }

    fn stops_within_a_second(args: &[&str], software: bool) {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new(bin())
            .args(args)
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(if software { 1500 } else { 300 }));
        assert!(child.try_wait().unwrap().is_none(), "{args:?}: the run ended before the signal");
        let sent = Instant::now();
        assert!(kill(&child, "INT"));
        let out = child.wait_with_output().unwrap();
        assert!(
            sent.elapsed() < Duration::from_secs(1),
            "{args:?}: stopped {:?} after the signal",
            sent.elapsed()
        );
        assert_eq!(out.status.code(), Some(130), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!dir.path().join("skin.csv").exists(), "{args:?}: a CSV was left");
    }
}
