//! `palace survey`'s rows against independent computations: the statistics, hottest cells and
//! their clusters from the direct definition (`model::reference`, no CA), the hottest cell's
//! region and armpit distance from the region labels of the whole board, the prism from
//! `palace regions`' own junction, and the skin's onsets from the row-sweep reference
//! (`skin::follow_rows`). Then the command line: the CSV's header and rows, the plot, the
//! usage errors.

use crate::common;

use common::palace;
use palace::analysis::regions;
use palace::analysis::skin;
use palace::analysis::survey::{self, ARMPIT_RADIUS, CLUSTER_GAP, SurveyOptions, SurveyRow};
use palace::engine::{EngineOptions, Silent};
use palace::labels::{self, Region};
use palace::model::geometry::Window;
use palace::model::reference::direct_values;
use palace::model::rule::in_hood;

fn one() -> EngineOptions {
    EngineOptions { threads: 1, ..EngineOptions::default() }
}

/// The columns the direct definition gives: min_v, max_v, max_x, max_y, states, max_cells,
/// max_clusters, max_spread.
fn direct(k: u32, n: u32) -> (i64, i64, u64, u64, u32, u64, u32, u64) {
    let v = direct_values(k, n as usize, n as usize);
    let mut out = Vec::new(); // (x, y, v) outside the hood, row-major
    for y in 0..n {
        for x in 0..n {
            if !in_hood(k, u64::from(x), u64::from(y)) {
                out.push((x, y, i64::from(v[(y * n + x) as usize])));
            }
        }
    }
    let min = out.iter().map(|c| c.2).min().unwrap();
    let max = out.iter().map(|c| c.2).max().unwrap();
    let hot: Vec<(u32, u32)> = out.iter().filter(|c| c.2 == max).map(|c| (c.0, c.1)).collect();
    let (hx, hy) = hot[0];
    let mut states: Vec<i64> = out.iter().map(|c| c.2).collect();
    states.sort_unstable();
    states.dedup();
    // Clusters: plain pairwise joining, to a fixed point.
    let mut label: Vec<usize> = (0..hot.len()).collect();
    loop {
        let mut changed = false;
        for i in 0..hot.len() {
            for j in 0..hot.len() {
                let near = hot[i].0.abs_diff(hot[j].0) as u64 <= CLUSTER_GAP
                    && hot[i].1.abs_diff(hot[j].1) as u64 <= CLUSTER_GAP;
                if near && label[j] < label[i] {
                    label[i] = label[j];
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut roots = label.clone();
    roots.sort_unstable();
    roots.dedup();
    let spread = hot
        .iter()
        .filter(|c| c.0 >= c.1)
        .map(|c| u64::from(c.0.abs_diff(hx).max(c.1.abs_diff(hy))))
        .max()
        .unwrap();
    (
        min,
        max,
        u64::from(hx),
        u64::from(hy),
        states.len() as u32,
        hot.len() as u64,
        roots.len() as u32,
        spread,
    )
}

/// The hottest cell's region and armpit distance from the labels of the whole board.
fn from_whole_labels(k: u32, n: u32, hx: u64, hy: u64) -> (Region, Option<u64>) {
    let mut near = [u64::MAX; 4];
    let mut own = None;
    labels::label(
        k,
        Window::new(0, 0, n, n).unwrap(),
        &one(),
        &Silent,
        &[],
        |_| (),
        |r| {
            for (x, &reg) in r.labels.iter().enumerate() {
                let (x, y) = (x as u64, u64::from(r.y));
                if (x, y) == (hx, hy) {
                    own = Some(reg);
                }
                let kind = match reg {
                    Region::Fabric | Region::RiftUpper | Region::RiftLower => 0,
                    Region::EpauletteUpper | Region::EpauletteLower => 1,
                    Region::ArmUpper | Region::ArmLower => 2,
                    Region::Fray | Region::WarpUpper | Region::WarpLower | Region::InnerSector => 3,
                    _ => continue,
                };
                near[kind] = near[kind].min(x.abs_diff(hx).max(y.abs_diff(hy)));
            }
            Ok(())
        },
    )
    .unwrap();
    let d = *near.iter().max().unwrap();
    (own.unwrap(), (d <= ARMPIT_RADIUS).then_some(d))
}

fn prism_of_regions(k: u32, n: u32) -> Option<u64> {
    let (rep, _) = regions::run(k, Window::new(0, 0, n, n).unwrap(), 1, None, &one(), &Silent).unwrap();
    rep.junctions.iter().find(|j| j.name == "prism").map(|j| j.x)
}

fn check_row(r: &SurveyRow, factor: u32) {
    let (k, n) = (r.k, r.k * factor);
    assert_eq!(r.size, n);
    let d = direct(k, n);
    let got = (r.min_v, r.max_v, r.max_x, r.max_y, r.states, r.max_cells, r.max_clusters, r.max_spread);
    assert_eq!(got, d, "k = {k}: min, max, first max cell, states, hottest cells, clusters, spread");
    let (region, dist) = from_whole_labels(k, n, r.max_x, r.max_y);
    assert_eq!((r.hot_region, r.armpit_dist), (Some(region), dist), "k = {k}: armpit");
    assert_eq!(r.prism, prism_of_regions(k, n), "k = {k}: prism");
}

/// Small games on 3k boards (and one on a 2k board), statistics, hot cells, armpit and prism.
#[test]
fn rows_match_independent_computations() {
    for k in [12u32, 20, 31, 45, 64, 100, 104] {
        let r = survey::survey_k(k, 3, true, false, &one()).unwrap();
        check_row(&r, 3);
        assert_eq!((r.skin2, r.skin3, r.skin_span), (None, None, 0), "no skin asked");
    }
    let r = survey::survey_k(77, 2, true, false, &one()).unwrap();
    check_row(&r, 2);
}

/// The skin's onsets are where the row-sweep reference sees levels 2 and 3 begin.
#[test]
fn skin_onsets_match_the_row_sweep() {
    // k = 40: no level 3 within the longest span; k = 101: level 3 after +8000; k = 600: before.
    for k in [40u32, 101, 600] {
        let r = survey::survey_k(k, 3, true, true, &one()).unwrap();
        let (rep, _, _) = skin::follow_rows(k, u64::from(k) + r.skin_span, &one(), &Silent).unwrap();
        let at = |n: usize| rep.levels.iter().find(|l| l.n == n).map(|l| l.begins_at - u64::from(k));
        assert_eq!((r.skin2, r.skin3), (at(2), at(3)), "k = {k}");
        assert_eq!(r.skin3.is_some(), k >= 100, "k = {k}: level 3 within {} columns", r.skin_span);
        // A longer span is used only when level 3 had not begun within the shorter ones.
        for &span in survey::SKIN_SPANS.iter().take_while(|&&s| s < r.skin_span) {
            let (short, _, _) = skin::follow_rows(k, u64::from(k) + span, &one(), &Silent).unwrap();
            assert!(short.levels.iter().all(|l| l.n != 3), "k = {k}, span {span}");
        }
        if k < 100 {
            assert_eq!(r.skin_span, *survey::SKIN_SPANS.last().unwrap());
        }
    }
}

/// Many k at once, on any number of workers (more than the k too, each k's sweeps then on
/// several), give the rows one k at a time gives.
#[test]
fn parallel_survey_equals_one_k_at_a_time() {
    let so = SurveyOptions { from: 30, to: 50, step: 4, factor: 3, skin: false, detail_step: 8 };
    let serial: Vec<SurveyRow> =
        so.ks().iter().map(|&k| survey::survey_k(k, 3, (k - 30) % 8 == 0, false, &one()).unwrap()).collect();
    assert!(serial[0].hot_region.is_some() && serial[1].hot_region.is_none());
    for threads in [1, 3, 13] {
        let rows = survey::survey(&so, threads, &EngineOptions::default(), &Silent).unwrap();
        assert_eq!(rows, serial, "threads = {threads}");
    }
    assert_eq!(so.ks(), vec![30, 34, 38, 42, 46, 50]);
}

/// A cancelled token stops the survey.
#[test]
fn a_cancelled_survey_stops() {
    let opts = EngineOptions::default();
    opts.cancel.cancel();
    let so = SurveyOptions { from: 30, to: 40, step: 1, factor: 3, skin: true, detail_step: 1 };
    let r = survey::survey(&so, 2, &opts, &Silent);
    assert!(matches!(r, Err(ref e) if e.is_interrupted()), "{r:?}");
}

#[test]
fn command_writes_the_csv_the_plot_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, png) = (dir.path().join("s.csv"), dir.path().join("s.png"));
    let out = palace()
        .args(["survey", "--k", "20..24", "--step", "2", "--no-skin", "-q", "-o"])
        .arg(&csv)
        .arg("--plot")
        .arg(&png)
        .assert()
        .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("k,min_v,max_v,max_x,max_y,states,size,"), "{}", lines[0]);
    assert_eq!(lines.len(), 4, "{text}");
    for (line, k) in lines[1..].iter().zip([20u32, 22, 24]) {
        let r = survey::survey_k(k, 3, true, false, &one()).unwrap();
        assert_eq!(*line, survey::csv_line(&r));
        let (min, max, x, y, states, ..) = direct(k, 3 * k);
        assert!(line.starts_with(&format!("{k},{min},{max},{x},{y},{states},{},", 3 * k)), "{line}");
    }
    let summary = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(summary.contains("survey of k = 20..=24 (3 boards"), "{summary}");
    let img = image_size(&png);
    assert_eq!(img, (1400, 40 + 4 * 280));
    // Without -o the CSV goes to standard output.
    let out = palace().args(["survey", "--k", "20", "--no-skin", "-q"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
}

fn image_size(path: &std::path::Path) -> (u32, u32) {
    let d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let r = d.read_info().unwrap();
    (r.info().width, r.info().height)
}

#[test]
fn usage_errors_name_the_flag() {
    for (args, want) in [
        (vec!["--k", "30..20"], "A..B"),
        (vec!["--k", "20..30", "--step", "0"], "--step 0"),
        (vec!["--k", "20..30", "--size-factor", "0"], "--size-factor 0"),
        (vec!["--k", "20..400000000"], "--size-factor"),
    ] {
        let out = palace().arg("survey").args(&args).assert().code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
