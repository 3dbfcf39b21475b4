//! The beam tracker ([`palace::analysis::beams`]) on hand-built beams whose cells, slopes and
//! periods are known by construction: a jittered digital line, a digital line of slope 1/phi,
//! a periodic beam, two beams closer than the tolerance, a thick thread and a thin line
//! crossing a beam; on a small board by the direct definition of the game (the traced cells
//! are those a selector and tracker fed by hand trace, and the two halves are mirror images);
//! and `palace beams` end to end.

use crate::common;

use assert_cmd::Command;
use palace::analysis::beams::measure::BeamSummary;
use palace::analysis::beams::track::{Selector, Tracked, Tracker};
use palace::analysis::beams::{self, BeamsReport, Params};
use palace::engine::{Cancel, EngineOptions, Silent};
use palace::labels;
use palace::model::geometry::Window;
use palace::model::reference::direct_values;
use predicates::prelude::PredicateBooleanExt;
use std::collections::BTreeSet;

/// A cell `(y, x)`.
type Cell = (u32, u32);

/// Traces hand-built rows (`rows[y]`: the palaces of row `y`) with the default settings.
fn trace(rows: &[Vec<u32>]) -> Tracked {
    let (mut s, mut t) = (Selector::default(), Tracker::default());
    for (y, p) in rows.iter().enumerate() {
        let mut p = p.clone();
        p.sort_unstable();
        p.dedup();
        for r in s.push(y as u32, p) {
            t.line(r.y, &r.palaces, &r.candidates);
        }
    }
    for r in s.finish() {
        t.line(r.y, &r.palaces, &r.candidates);
    }
    t.finish()
}

/// The rows of a set of cells, `rows` of them.
fn rows_of(cells: &BTreeSet<Cell>, rows: u32) -> Vec<Vec<u32>> {
    (0..rows).map(|y| cells.range((y, 0)..(y + 1, 0)).map(|c| c.1).collect()).collect()
}

/// A reproducible jitter in `-a..=a` (a linear congruential sequence).
fn jitter(seed: u64, a: i64) -> impl FnMut() -> i64 {
    let mut s = seed;
    move || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 33) % (2 * a as u64 + 1)) as i64 - a
    }
}

/// A beam of one palace a row along `x = x0 + alpha y`, each cell moved by the jitter, but
/// never onto the column of one of the 4 cells above it: palaces on one column see each other
/// (a queen moves along it), and the beams of the game keep apart so (the dense beam of
/// k = 9999 has a candidate, not crowded, on each of 10590 consecutive rows,
/// `outputs/beams-k9999-40000.txt`). A jitter that brought two cells that close would make
/// them crowded, and the selection would drop them.
fn jittered_line(rows: u32, x0: f64, alpha: f64, mut j: impl FnMut() -> i64) -> BTreeSet<Cell> {
    let mut xs: Vec<i64> = Vec::new();
    for y in 0..rows {
        let base = (x0 + alpha * f64::from(y)).floor() as i64;
        let free = |x: &i64| xs.iter().rev().take(4).all(|p| p != x);
        let x = (0..8).map(|_| base + j()).chain([base, base + 1, base - 1]).find(free);
        xs.push(x.expect("a free column"));
    }
    xs.into_iter().enumerate().map(|(y, x)| (y as u32, x as u32)).collect()
}

/// The selection rule written out over the whole set: a cell is crowded when another lies
/// within 4 cells on its row or its column; a candidate is a cell that is not crowded with at
/// most 4 crowded cells in the 64 x 64 square of rows `y - 32..=y + 31`, columns
/// `x - 32..=x + 31`.
fn candidates(cells: &BTreeSet<Cell>) -> BTreeSet<Cell> {
    let crowded: BTreeSet<Cell> = cells
        .iter()
        .copied()
        .filter(|&(y, x)| {
            (1..=4u32).any(|d| {
                [(y, x + d), (y + d, x)].iter().any(|c| cells.contains(c))
                    || (d <= x && cells.contains(&(y, x - d)))
                    || (d <= y && cells.contains(&(y - d, x)))
            })
        })
        .collect();
    cells
        .iter()
        .copied()
        .filter(|c| !crowded.contains(c))
        .filter(|&(y, x)| {
            let n = crowded
                .iter()
                .filter(|&&(cy, cx)| cy + 32 >= y && cy < y + 32 && cx + 32 >= x && cx < x + 32)
                .count();
            n <= 4
        })
        .collect()
}

fn summary(t: &Tracked, i: usize) -> BeamSummary {
    BeamSummary::of(&t.beams[i], i as u32, "upper", Window::new(0, 0, 100_000, 100_000).unwrap(), 64, 28)
}

/// A digital line of 2.146 columns a row, every cell moved by up to 6 columns: every cell a
/// candidate, one beam with exactly those cells, one palace near its line on every followed
/// row, and the slope 1/2.146 to 1e-4; its step word is no digital line's.
#[test]
fn a_jittered_line_is_one_beam() {
    let alpha = 2.146;
    let cells = jittered_line(3000, 1000.0, alpha, jitter(7, 6));
    assert_eq!(candidates(&cells), cells);
    let t = trace(&rows_of(&cells, 3000));
    assert_eq!(t.beams.len(), 1);
    let got: BTreeSet<Cell> = t.beams[0].cells.iter().copied().collect();
    assert_eq!(got, cells);
    let s = summary(&t, 0);
    assert_eq!((s.per_row, s.run), (1.0, (0, 3000)));
    assert_eq!(s.near[0] + s.near[2] + s.near[3], 0, "{:?}", s.near);
    assert!((s.slope.unwrap() - 1.0 / alpha).abs() < 1e-4, "{:?}", s.slope);
    assert!(!s.balance.unwrap().sturmian);
    assert_eq!(s.period, None);
}

/// `x = floor(500 + phi y)`: a digital line of slope 1/phi rows per column. Its step word
/// (1s and 2s) is Sturmian, it has no period, and its slope's continued fraction begins with
/// the ones of 1/phi = [0; 1, 1, 1, ...]; 1/phi lies within the slope's uncertainty.
#[test]
fn a_digital_line_of_slope_one_over_phi() {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let cells = jittered_line(4000, 500.0, phi, || 0);
    let t = trace(&rows_of(&cells, 4000));
    assert_eq!(t.beams.len(), 1);
    assert_eq!(t.beams[0].cells.len(), 4000);
    let s = summary(&t, 0);
    let b = s.balance.unwrap();
    assert!(b.sturmian && b.values == 2 && b.imbalance == 1, "{b:?}");
    assert_eq!(s.period, None);
    assert!(s.continued_fraction.len() >= 8, "{:?}", s.continued_fraction);
    assert_eq!(s.continued_fraction[0], 0);
    assert!(s.continued_fraction[1..7].iter().all(|&a| a == 1), "{:?}", s.continued_fraction);
    assert!((s.slope.unwrap() - 1.0 / phi).abs() <= s.uncertainty.unwrap(), "{s:?}");
    assert!(s.quadratic.unwrap().within_tol >= 1);
}

/// A beam repeating the offsets 0, 2, 5 every 3 rows, 7 columns on: period 3, shift 7, the
/// slope 3/7 exactly with continued fraction [0; 2, 3]; moving one cell breaks the period
/// (it holds then up to that defect).
#[test]
fn a_periodic_beam() {
    let build = |defect: Option<u32>| -> BTreeSet<Cell> {
        (0..3000u32)
            .map(|y| (y, 100 + 7 * (y / 3) + [0, 2, 5][(y % 3) as usize] + u32::from(defect == Some(y))))
            .collect()
    };
    let t = trace(&rows_of(&build(None), 3000));
    assert_eq!(t.beams.len(), 1);
    let s = summary(&t, 0);
    let p = s.period.unwrap();
    assert_eq!((p.p, p.shift), (3, 7));
    assert_eq!(s.continued_fraction, [0, 2, 3]);
    assert!((s.slope.unwrap() - 3.0 / 7.0).abs() < 1e-4);
    let t = trace(&rows_of(&build(Some(1500)), 3000));
    let s = summary(&t, 0);
    assert_eq!(s.period, None);
    let near = s.near_period.unwrap();
    assert_eq!((near.period.p, near.period.shift), (3, 7));
    // The pairs (1497, 1500) and (1500, 1503) fail, of the 2997 pairs (i, i + 3).
    assert_eq!(near.matches, (2997 - 2, 2997));
}

/// Two jittered beams 20 columns apart, closer than the tolerance (28): two beams, each with
/// exactly its own cells.
#[test]
fn two_close_beams_stay_apart() {
    let a = jittered_line(2000, 1000.0, 2.146, jitter(1, 3));
    let b = jittered_line(2000, 1020.0, 2.146, jitter(2, 3));
    let all: BTreeSet<Cell> = a.union(&b).copied().collect();
    let t = trace(&rows_of(&all, 2000));
    assert_eq!(t.beams.len(), 2, "{:?}", t.beams.iter().map(|b| b.cells.len()).collect::<Vec<_>>());
    assert_eq!(candidates(&all), all);
    for beam in &t.beams {
        let got: BTreeSet<Cell> = beam.cells.iter().copied().collect();
        assert!(got == a || got == b, "a beam mixes the two");
    }
}

/// A thread of thickness 3 (1 column a row) and a thin line of one palace a row (1.5
/// columns a row) cross a jittered beam (2.146 columns a row): the thread's cells are in no
/// beam; the beam keeps only its own cells, all but those near the crossings, in one beam (its
/// pieces joined across the thread); the thin line is a beam of its own.
///
/// (A thread nearly parallel to a beam hides it much longer: the beam's cells whose square
/// holds the thread's palaces are dropped, and at 2.618 columns a row against the beam's
/// 2.146, that is about 500 rows, more than the pieces are joined across.)
#[test]
fn a_thread_and_a_crossing_line_are_not_glued_in() {
    let beam = jittered_line(2400, 1000.0, 2.146, jitter(3, 6));
    let thread: BTreeSet<Cell> =
        (0..2400u32).flat_map(|y| [(y, 1600 + y), (y, 1602 + y), (y, 1605 + y)]).collect();
    let thin: BTreeSet<Cell> = (0..2400u32).map(|y| (y, 2200 + y * 3 / 2)).collect();
    let all: BTreeSet<Cell> = beam.union(&thread).chain(&thin).copied().collect();
    let t = trace(&rows_of(&all, 2400));
    let beams: Vec<BTreeSet<Cell>> = t.beams.iter().map(|b| b.cells.iter().copied().collect()).collect();
    assert!(beams.iter().all(|b| b.is_disjoint(&thread)), "a thread cell in a beam");
    let on_beam: Vec<&BTreeSet<Cell>> = beams.iter().filter(|b| !b.is_disjoint(&beam)).collect();
    assert_eq!(on_beam.len(), 1, "the beam in one piece");
    assert!(on_beam[0].is_subset(&beam), "only the beam's cells");
    assert!(on_beam[0].len() * 10 >= beam.len() * 8, "{} of {}", on_beam[0].len(), beam.len());
    let on_thin: Vec<&BTreeSet<Cell>> = beams.iter().filter(|b| !b.is_disjoint(&thin)).collect();
    assert!(on_thin.iter().all(|b| b.is_subset(&thin)), "the thin line keeps to itself");
    assert!(!on_thin.is_empty());
}

/// The palaces of the rest in both halves of a board of game `k` by the direct definition,
/// traced by hand: each half's candidates and what its tracker finds.
fn hand_traced(k: u32, n: u32) -> ([BTreeSet<Cell>; 2], Tracked, Tracked) {
    let w = Window::new(0, 0, n, n).unwrap();
    let v = direct_values(k, n as usize, n as usize);
    let opts = EngineOptions { threads: 2, ..EngineOptions::default() };
    let (mut su, mut sl) = (Selector::default(), Selector::default());
    let (mut tu, mut tl) = (Tracker::default(), Tracker::default());
    let mut cand = [BTreeSet::new(), BTreeSet::new()];
    let feed = |s: &mut Selector, t: &mut Tracker, c: &mut BTreeSet<Cell>, y: Option<(u32, Vec<u32>)>| {
        let rows = match y {
            Some((y, p)) => s.push(y, p),
            None => s.finish(),
        };
        for r in rows {
            c.extend(r.candidates.iter().map(|&x| (r.y, x)));
            t.line(r.y, &r.palaces, &r.candidates);
        }
    };
    labels::label(
        k,
        w,
        &opts,
        &Silent,
        &[],
        |_| (),
        |r| {
            let y = r.y;
            let palace = |x: &u32| r.labels[*x as usize].is_rest() && v[(y * n + *x) as usize] < 0;
            let upper: Vec<u32> = (y + 1..n).filter(palace).collect();
            let lower: Vec<u32> = (0..y).filter(palace).collect();
            let [cu, cl] = &mut cand;
            feed(&mut su, &mut tu, cu, Some((y, upper)));
            feed(&mut sl, &mut tl, cl, Some((y, lower)));
            Ok(())
        },
    )
    .unwrap();
    let [cu, cl] = &mut cand;
    feed(&mut su, &mut tu, cu, None);
    feed(&mut sl, &mut tl, cl, None);
    (cand, tu.finish(), tl.finish())
}

/// On the k = 150 board of 900 x 900 cells (values by the direct definition of the game):
/// `beams::run` finds what a selector and tracker fed by hand find; the lower half's
/// candidates are the upper half's mirrored, and the beams (one a half) are mirror images,
/// cell for cell.
#[test]
fn run_traces_the_lone_palaces_of_a_board() {
    let (k, n) = (150, 900);
    let ([cu, cl], tu, tl) = hand_traced(k, n);
    let mirrored: BTreeSet<Cell> = cl.iter().map(|&(y, x)| (x, y)).collect();
    assert!(!cu.is_empty());
    assert_eq!(cu, mirrored, "candidates of the two halves are mirror images");
    let opts = EngineOptions { threads: 2, ..EngineOptions::default() };
    let w = Window::new(0, 0, n, n).unwrap();
    let (found, _) = beams::run(k, w, Params::default(), 1, None, false, &opts, &Silent).unwrap();
    assert_eq!(found.upper.beams, tu.beams);
    assert_eq!(found.lower.beams, tl.beams);
    assert_eq!(found.upper.beams.len(), 1, "the board has a beam");
    let report = BeamsReport::new(k, w, Params::default(), &found, 2, &Cancel::new()).unwrap();
    // Measured on one worker or several, the same report.
    for workers in [1, 3] {
        let other = BeamsReport::new(k, w, Params::default(), &found, workers, &Cancel::new()).unwrap();
        assert_eq!(serde_json::to_string(&other).unwrap(), serde_json::to_string(&report).unwrap());
    }
    let m = &report.mirrors[0];
    assert_eq!(m.lower, Some(1));
    assert_eq!(m.common, m.cells.0);
    assert_eq!(m.cells.0, m.cells.1);
    assert!((m.product.unwrap() - 1.0).abs() < 1e-2, "{m:?}");
    assert_eq!(report.centermost, (Some(0), Some(1)));
    // Measuring heeds the run's token: a cancelled run measures nothing.
    let stopped = Cancel::new();
    stopped.cancel();
    let r = BeamsReport::new(k, w, Params::default(), &found, 2, &stopped);
    assert!(matches!(r, Err(ref e) if e.is_interrupted()), "{r:?}");
}

/// The command end to end: the report, JSON, the CSV of the beams' cells, the picture with its
/// legend strip (the bare picture above it, pixel for pixel), and usage errors.
#[test]
fn command_writes_report_csv_and_picture() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, png, bare) = (dir.path().join("b.csv"), dir.path().join("b.png"), dir.path().join("bare.png"));
    let args = ["beams", "--k", "150", "--size", "900", "-q"];
    let out = Command::cargo_bin("palace")
        .unwrap()
        .args(args)
        .arg("--json")
        .arg("--csv")
        .arg(&csv)
        .arg("-o")
        .arg(&png)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let cells: u64 = ["upper", "lower"]
        .iter()
        .flat_map(|h| report[h]["beams"].as_array().unwrap().iter().map(|b| b["cells"].as_u64().unwrap()))
        .sum();
    assert!(cells > 0);
    assert!(report["weft"]["bands"].as_u64().unwrap() >= 1, "the centermost beams' weft: {}", report["weft"]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().next(), Some("beam,half,y,x"));
    assert_eq!(text.lines().count() as u64, cells + 1, "a header and one line per cell");
    // Upper beams' cells lie above the diagonal, lower ones' below.
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let (y, x): (u32, u32) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        assert_eq!(f[1] == "upper", x > y, "{l}");
    }
    let table =
        Command::cargo_bin("palace").unwrap().args(args).assert().success().get_output().stdout.clone();
    let table = String::from_utf8(table).unwrap();
    assert!(
        table.contains("centermost beams running to the window's edge: upper beam 0, lower beam 1"),
        "{table}"
    );
    Command::cargo_bin("palace")
        .unwrap()
        .args(args)
        .arg("-o")
        .arg(&bare)
        .arg("--no-legend")
        .assert()
        .success();
    let n = palace::analysis::threads::THREAD_RGB.len();
    assert_eq!(
        beams::legend_key(150, 1).entries.len(),
        n + 1 + 9,
        "the beams, the lone palaces, the picture's 9"
    );
    let dim = palace::output::palette::RGB[..9].iter().map(|c| c.map(|v| (u16::from(v) * 2 / 5) as u8));
    let swatches: Vec<[u8; 3]> = palace::analysis::threads::THREAD_RGB
        .iter()
        .copied()
        .chain([[0x90, 0x90, 0x90]])
        .chain(dim)
        .collect();
    common::assert_legend_below(&bare, &png, &swatches, "beams");
    let (_, _, px) = common::decode_rgb(&bare);
    assert!(px.contains(&palace::analysis::threads::THREAD_RGB[0]), "beam 0 drawn");
    Command::cargo_bin("palace")
        .unwrap()
        .args(["beams", "--k", "150", "--size", "300", "--gap", "0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--gap 0"));
    Command::cargo_bin("palace")
        .unwrap()
        .args(["beams", "--k", "150", "--size", "20000", "-o"])
        .arg(dir.path().join("big.png"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--scale 1").and(predicates::str::contains("--scale 2 or more")));
    assert!(!dir.path().join("big.png").exists(), "no output on a usage error");
}
