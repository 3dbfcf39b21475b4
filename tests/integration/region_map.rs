//! The region map's legend and junction markers (`palace regions -o`): the legend's swatches
//! are the regions' palette colours, for every region of `ALL` with cells; the rings sit on the
//! junctions' pixels at the map's scale; every other map pixel is the bare map's
//! (`--no-legend`), and no scratch file is left behind.

use crate::common;

use common::palace;
use palace::analysis::region_map;
use palace::analysis::regions::{self, RegionsReport};
use palace::engine::{EngineOptions, Silent};
use palace::labels::ALL;
use palace::model::geometry::Window;
use palace::output::atomic::AtomicOutput;
use palace::output::legend::MapOutput;
use std::collections::BTreeSet;
use std::path::Path;

struct Png {
    width: usize,
    height: usize,
    plte: Vec<u8>,
    px: Vec<u8>,
}

impl Png {
    fn at(&self, x: usize, y: usize) -> u8 {
        self.px[y * self.width + x]
    }
}

/// The map as indices, with its size in `usize` for indexing.
fn decode(path: &Path) -> Png {
    let png = common::decode_indexed(path);
    Png { width: png.width as usize, height: png.height as usize, plte: png.plte, px: png.px }
}

/// The map with and without its legend, and the report.
fn maps(k: u32, window: Window, scale: u32, dir: &Path) -> (RegionsReport, Png, Png) {
    let opts = EngineOptions { threads: 2, ..EngineOptions::default() };
    let out = |name: &str, legend: bool| {
        Some(MapOutput::new(AtomicOutput::create(&dir.join(name), "--output").unwrap(), legend))
    };
    let (report, with) = regions::run(k, window, scale, out("legend.png", true), &opts, &Silent).unwrap();
    let (bare_report, bare) = regions::run(k, window, scale, out("bare.png", false), &opts, &Silent).unwrap();
    assert_eq!(report.to_string(), bare_report.to_string());
    (report, decode(&with.unwrap()), decode(&bare.unwrap()))
}

fn check(k: u32, window: Window, scale: u32) {
    let what = format!("k = {k}, window {window}, scale {scale}");
    let dir = tempfile::tempdir().unwrap();
    let (report, with, bare) = maps(k, window, scale, dir.path());
    let names: BTreeSet<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["bare.png", "legend.png"].map(String::from).into(), "{what}: no scratch file left");
    let (w, h) = (bare.width, bare.height);
    assert_eq!((w, h), {
        let (a, b) = palace::output::png::picture_size(window, scale);
        (a as usize, b as usize)
    });
    assert!(with.width >= w && with.height > h, "{what}: the legend is appended");
    // The palette: the regions' colours first, unchanged.
    let plte = regions::plte();
    assert_eq!(bare.plte, plte, "{what}");
    assert_eq!(&with.plte[..plte.len()], &plte[..], "{what}");
    assert_eq!(with.plte, region_map::palette(), "{what}");
    let inks = region_map::inks();
    let lay = region_map::layout(&report, window, scale);
    assert_eq!((lay.width as usize, lay.height as usize), (with.width, with.height), "{what}");

    // The junctions' pixels, at the map's scale, and how far a ring and its name reach.
    let junctions: Vec<(usize, usize)> = report
        .junctions
        .iter()
        .map(|j| {
            (
                ((j.x - u64::from(window.x0())) / u64::from(scale)) as usize,
                ((j.y - u64::from(window.y0())) / u64::from(scale)) as usize,
            )
        })
        .collect();
    assert!(!junctions.is_empty(), "{what}: some junction in the window");
    let r = lay.radius as usize;
    let s = lay.text_px as usize;
    let near = |x: usize, y: usize| {
        junctions.iter().any(|&(jx, jy)| x.abs_diff(jx) <= r + 4 + 20 * s && y.abs_diff(jy) <= r + 2 * s)
    };
    // Map pixels: the bare map's, but for rings and names near the junctions; padding is paper.
    let mut changed = 0;
    for y in 0..h {
        for x in 0..with.width {
            let got = with.at(x, y);
            if x >= w {
                assert_eq!(got, inks.paper, "{what}: padding at ({x}, {y})");
            } else if got != bare.at(x, y) {
                assert!(near(x, y), "{what}: map pixel ({x}, {y}) changed far from every junction");
                assert!(got >= plte.len() as u8 / 3, "{what}: ({x}, {y}) drawn in a legend colour");
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "{what}: markers drawn");
    // Each ring: the junction's own pixel untouched, white just inside the outer radius and
    // black on it, in all four directions that stay on the map.
    for &(jx, jy) in &junctions {
        assert_eq!(
            with.at(jx, jy),
            bare.at(jx, jy),
            "{what}: the junction's pixel ({jx}, {jy}) is uncovered"
        );
        let dirs: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let mut seen = 0;
        for (dx, dy) in dirs {
            let at = |d: usize| {
                let (x, y) = (jx as i64 + dx * d as i64, jy as i64 + dy * d as i64);
                ((0..w as i64).contains(&x) && (0..h as i64).contains(&y))
                    .then(|| with.at(x as usize, y as usize))
            };
            if let (Some(inside), Some(edge)) = (at(r - 1), at(r)) {
                // Rings are drawn over the names; another junction's ring may overlap this one.
                let (ex, ey) = (jx as i64 + dx * r as i64, jy as i64 + dy * r as i64);
                let crowded = junctions.iter().filter(|&&j| j != (jx, jy)).any(|&(ox, oy)| {
                    (ox as i64 - ex).pow(2) + (oy as i64 - ey).pow(2) <= ((r + 3) as i64).pow(2)
                });
                if !crowded {
                    assert_eq!(inside, inks.paper, "{what}: ring around ({jx}, {jy}) towards ({dx}, {dy})");
                    assert_eq!(edge, inks.ink, "{what}: ring edge around ({jx}, {jy}) towards ({dx}, {dy})");
                    seen += 1;
                }
            }
        }
        assert!(seen > 0, "{what}: the ring around ({jx}, {jy}) is seen");
    }
    // The legend strip: a black rule, then paper, text and swatches. The swatches' colours are
    // exactly the regions with cells, each region's colour in plte().
    assert!((0..with.width).all(|x| with.at(x, h) == inks.ink), "{what}: the rule under the map");
    let present: BTreeSet<u8> =
        report.regions.iter().filter(|(_, st)| st.cells > 0).map(|(reg, _)| reg.index() as u8).collect();
    let in_strip: BTreeSet<u8> = (h + 1..with.height)
        .flat_map(|y| (0..with.width).map(move |x| (x, y)))
        .map(|(x, y)| with.at(x, y))
        .filter(|&c| c < inks.ink)
        .collect();
    assert_eq!(in_strip, present, "{what}: the swatches are the regions with cells");
    for reg in ALL {
        let i = reg.index();
        let has_cells = report.regions.iter().any(|(r, st)| *r == reg && st.cells > 0);
        let swatch = lay.swatches.iter().find(|(c, _)| usize::from(*c) == i);
        assert_eq!(swatch.is_some(), has_cells, "{what}: {reg:?}");
        if let Some(&(_, (sx, sy, sw, sh))) = swatch {
            assert!(sw >= 8 && sh >= 8, "{what}: {reg:?} swatch {sw} x {sh}");
            for y in sy..sy + sh {
                for x in sx..sx + sw {
                    assert_eq!(
                        with.at(x as usize, y as usize),
                        i as u8,
                        "{what}: {reg:?} swatch at ({x}, {y})"
                    );
                }
            }
            assert_eq!(&with.plte[3 * i..3 * i + 3], &plte[3 * i..3 * i + 3], "{what}: {reg:?}'s colour");
            // Its name's text lies to the right of it, in ink.
            let text_ink = (sy..sy + sh)
                .flat_map(|y| {
                    (sx + sw + 2..(sx + sw + 2 + 4 * lay.text_px).min(with.width as u32)).map(move |x| (x, y))
                })
                .filter(|&(x, y)| with.at(x as usize, y as usize) == inks.ink)
                .count();
            assert!(text_ink > 0, "{what}: {reg:?} named");
        }
    }
}

/// The whole board at one pixel per cell: every region, every junction.
#[test]
fn legend_and_markers_on_a_whole_board() {
    check(120, Window::new(0, 0, 400, 400).unwrap(), 1);
}

/// A window off the corner, at scale 3: the junctions in it land on their scaled pixels; a
/// narrow map is padded to the legend's width.
#[test]
fn legend_and_markers_on_a_scaled_window() {
    check(150, Window::new(21, 9, 420, 330).unwrap(), 3);
    check(60, Window::new(0, 0, 150, 60).unwrap(), 2);
}

#[test]
fn no_legend_needs_an_output() {
    palace()
        .args(["regions", "--k", "20", "--size", "60", "--no-legend"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--output"));
}

/// The binary writes the map with its legend by default, the bare map with `--no-legend`.
#[test]
fn binary_draws_the_legend_unless_told_not_to() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.png"), dir.path().join("b.png"));
    palace().args(["regions", "--k", "40", "--size", "150", "-q", "-o"]).arg(&a).assert().success();
    palace()
        .args(["regions", "--k", "40", "--size", "150", "-q", "--no-legend", "-o"])
        .arg(&b)
        .assert()
        .success();
    let (a, b) = (decode(&a), decode(&b));
    assert_eq!((b.width, b.height), (150, 150));
    assert!(a.height > 150 && a.width >= 150);
    assert_eq!(b.plte, regions::plte());
    let entries = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(entries, 2, "no scratch file left");
}

/// A map over 2^24 pixels: the sweep writes its scratch file with the parallel encoder (4 bits
/// per pixel), which the second pass reads back.
#[test]
fn legend_on_a_map_from_the_parallel_encoder() {
    const { assert!(4100u64 * 4100 > palace::output::png::PARALLEL_PIXELS) };
    check(1000, Window::new(0, 0, 4100, 4100).unwrap(), 1);
}

/// Ctrl-C during the sweep of a map with a legend removes both the scratch file and the
/// output's temporary file, and leaves the earlier file at the output path untouched.
#[test]
fn ctrl_c_leaves_no_scratch_file() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("map.png");
    std::fs::write(&out, b"the earlier map").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_palace"))
        .args(["regions", "--k", "9999", "--size", "200000", "--scale", "100", "-q", "-o"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    assert!(
        Command::new("sh").args(["-c", &format!("kill -INT {}", child.id())]).status().unwrap().success()
    );
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["map.png"], "only the earlier file is left");
    assert_eq!(std::fs::read(&out).unwrap(), b"the earlier map");
}

/// `palace compare`'s picture: the bare mask above, the legend of its colours below (every
/// value's colour and white for no match, with the report's share), nothing else changed.
#[test]
fn compare_pictures_carry_a_legend_of_their_colours() {
    use palace::analysis::compare::{self, Comparison};
    use palace::output::{legend, palette};
    let dir = tempfile::tempdir().unwrap();
    let opts = EngineOptions { threads: 2, ..EngineOptions::default() };
    let c = Comparison { a: 47, b: 50, shift: (1, 1), offset: 3 };
    for (window, scale) in
        [(Window::new(0, 0, 150, 150).unwrap(), 1), (Window::new(10, 20, 300, 250).unwrap(), 3)]
    {
        let what = format!("window {window}, scale {scale}");
        let out = |name: &str, legend: bool| {
            Some(MapOutput::new(AtomicOutput::create(&dir.path().join(name), "--output").unwrap(), legend))
        };
        let (report, with) = compare::run(c, window, scale, out("legend.png", true), &opts, &Silent).unwrap();
        let (_, bare) = compare::run(c, window, scale, out("bare.png", false), &opts, &Silent).unwrap();
        let (with, bare) = (decode(&with.unwrap()), decode(&bare.unwrap()));
        assert_eq!(bare.plte, palette::plte(), "{what}");
        assert_eq!(with.plte, legend::palette(&palette::plte()), "{what}");
        let lay = legend::layout(&legend::MapKey::key(&report), &palette::plte(), window, scale);
        assert_eq!((with.width, with.height), (lay.width as usize, lay.height as usize), "{what}");
        assert!(with.height > bare.height, "{what}: the legend is appended");
        assert!(lay.points.is_empty() && lay.overlay.is_empty(), "{what}: nothing drawn over the picture");
        let inks = legend::inks(&palette::plte());
        for y in 0..bare.height {
            for x in 0..with.width {
                let want = if x < bare.width { bare.at(x, y) } else { inks.paper };
                assert_eq!(with.at(x, y), want, "{what}: picture pixel ({x}, {y})");
            }
        }
        // Both kinds of cell are in the picture, and every colour of the picture has its
        // swatch, filled with that colour.
        assert!(bare.px.contains(&palette::MASKED) && bare.px.contains(&palette::HOOD), "{what}");
        let swatched: BTreeSet<u8> = lay.swatches.iter().map(|s| s.0).collect();
        assert!(bare.px.iter().all(|p| swatched.contains(p)), "{what}: a colour without a swatch");
        for &(i, (l, t, w, h)) in &lay.swatches {
            for (x, y) in [(l, t), (l + w - 1, t + h - 1)] {
                assert_eq!(with.at(x as usize, y as usize), i, "{what}: swatch of colour {i}");
            }
        }
        let key = legend::MapKey::key(&report);
        let no_match = &key.entries.iter().find(|e| e.0 == palette::MASKED).unwrap().1;
        assert!(no_match.contains(&format!("{:.2}%", 100.0 * (1.0 - report.fraction))), "{what}: {no_match}");
    }
}
