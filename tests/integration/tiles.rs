//! End-to-end tests of `palace tiles`: the pyramid's deepest level is `palace render` of the same
//! board, pixel for pixel in palette indices; each level above is the 2x reduction of the one
//! below (and so `render --scale 2^n`); the descriptor's sizes hold for boards that are not
//! multiples of the tile size; a window works; and, where Chromium is installed, the viewer page
//! opened from the file system shows the right colours, at the overview and zoomed in to single
//! cells (docs/tiles.md, "Testing the page").

use crate::common;

use common::palace;
use palace::output::palette;
use palace::output::png::{Aggregate, Downscale};
use predicates::prelude::*;
use std::path::{Path, PathBuf};

/// Width, height and palette indices of an indexed PNG in the paper's palette (or, under mean
/// aggregation, the mean palette, which begins with it).
fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let png = common::decode_indexed(path);
    assert!(
        png.plte == palette::plte()[..] || png.plte == palette::mean_plte()[..],
        "{}: the paper's palette or the mean palette",
        path.display()
    );
    (png.width, png.height, png.px)
}

/// The `<Size Width=".." Height=".."/>` and `TileSize` of a `.dzi`.
fn dzi_sizes(dir: &Path) -> (u32, u32, u32) {
    let xml = std::fs::read_to_string(dir.join("board.dzi")).unwrap();
    let attr = |name: &str| -> u32 {
        let at =
            xml.find(&format!("{name}=\"")).unwrap_or_else(|| panic!("no {name} in {xml}")) + name.len() + 2;
        xml[at..].split('"').next().unwrap().parse().unwrap()
    };
    assert!(xml.contains("Overlap=\"0\"") && xml.contains("Format=\"png\""), "{xml}");
    (attr("Width"), attr("Height"), attr("TileSize"))
}

/// One level of the pyramid stitched back together from its tiles, checking that every tile
/// is there with the size the DZI layout gives it and that there are no others.
fn stitch(dir: &Path, level: u32, w: u32, h: u32, ts: u32) -> Vec<u8> {
    let files = dir.join("board_files").join(level.to_string());
    let (cols, rows) = (w.div_ceil(ts), h.div_ceil(ts));
    let count = std::fs::read_dir(&files).unwrap().count();
    assert_eq!(count as u32, cols * rows, "tiles of level {level}");
    let mut px = vec![u8::MAX; (w * h) as usize];
    for r in 0..rows {
        for c in 0..cols {
            let (tw, th, tile) = decode(&files.join(format!("{c}_{r}.png")));
            assert_eq!((tw, th), (ts.min(w - c * ts), ts.min(h - r * ts)), "level {level} tile {c}_{r}");
            for y in 0..th {
                let at = ((r * ts + y) * w + c * ts) as usize;
                px[at..at + tw as usize].copy_from_slice(&tile[(y * tw) as usize..((y + 1) * tw) as usize]);
            }
        }
    }
    px
}

/// `palace render` of the same board (with `extra` flags such as `--scale 4`).
fn render(args: &[&str], extra: &[&str], dir: &Path, name: &str) -> (u32, u32, Vec<u8>) {
    let out = dir.join(name);
    palace()
        .arg("render")
        .args(args)
        .args(extra)
        .arg("--no-legend")
        .arg("-o")
        .arg(&out)
        .arg("-q")
        .assert()
        .success();
    decode(&out)
}

/// Writes the pyramid of `args` and checks it level by level against `render` and against
/// the reduction of the level below. Returns the pyramid's folder.
fn check_pyramid(args: &[&str], ts: u32, aggregate: Aggregate, work: &Path) -> PathBuf {
    let dir = work.join("pyramid");
    let agg = aggregate.name();
    palace()
        .arg("tiles")
        .args(args)
        .args(["--tile-size", &ts.to_string(), "--aggregate", agg, "-o"])
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("index.html"))
        .stderr(predicate::str::contains("tiles"));
    let (w, h, full) = render(args, &[], work, "full.png");
    assert_eq!(dzi_sizes(&dir), (w, h, ts), "the descriptor's sizes");
    let max_level = u32::BITS - (w.max(h) - 1).leading_zeros();
    let deepest = stitch(&dir, max_level, w, h, ts);
    assert!(deepest == full, "the deepest level differs from palace render of {args:?}");
    // Level by level up to 1 x 1: each the 2x reduction of the one below.
    let (mut below, mut bw, mut bh) = (deepest, w, h);
    for level in (0..max_level).rev() {
        let (lw, lh) = (bw.div_ceil(2), bh.div_ceil(2));
        let mut d = Downscale::new(2, aggregate, bw as usize);
        let mut want = Vec::new();
        for row in below.chunks_exact(bw as usize) {
            if let Some(r) = d.push(row) {
                want.extend_from_slice(r);
            }
        }
        if let Some(r) = d.flush() {
            want.extend_from_slice(r);
        }
        let got = stitch(&dir, level, lw, lh, ts);
        assert!(got == want, "level {level} is not the reduction of level {}", level + 1);
        (below, bw, bh) = (got, lw, lh);
    }
    assert_eq!((bw, bh), (1, 1), "level 0 is one pixel");
    // And so level max - 1 is `render --scale 2` of the board, and under min and max (which
    // nest) level max - 2 is `render --scale 4`; under mean it averages colours already rounded.
    let (sw, sh, scaled) = render(args, &["--scale", "2", "--aggregate", agg], work, "scale2.png");
    assert_eq!(stitch(&dir, max_level - 1, sw, sh, ts), scaled, "level max - 1 against render --scale 2");
    if aggregate != Aggregate::Mean {
        let (sw, sh, scaled) = render(args, &["--scale", "4", "--aggregate", agg], work, "scale4.png");
        assert_eq!(stitch(&dir, max_level - 2, sw, sh, ts), scaled, "level max - 2 against render --scale 4");
    }
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains("<title>palace: k = "), "the title names k");
    for f in ["openseadragon.min.js", "openseadragon-LICENSE.txt"] {
        assert!(dir.join(f).is_file(), "{f} copied beside the page");
    }
    dir
}

#[test]
fn levels_match_render_on_a_board_not_a_multiple_of_the_tile_size() {
    let work = tempfile::tempdir().unwrap();
    check_pyramid(&["--k", "37", "--width", "613", "--height", "389"], 128, Aggregate::Min, work.path());
}

#[test]
fn mean_aggregation_by_default() {
    let work = tempfile::tempdir().unwrap();
    check_pyramid(&["--k", "50", "--size", "333"], 64, Aggregate::Mean, work.path());
}

#[test]
fn a_window_and_max_aggregation() {
    let work = tempfile::tempdir().unwrap();
    let dir = check_pyramid(
        &["--k", "120", "--size", "900", "--window", "101,77,707,460"],
        64,
        Aggregate::Max,
        work.path(),
    );
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains("\"x0\":101") && html.contains("\"y0\":77"), "the page maps pixels to board cells");
}

#[test]
fn a_second_run_replaces_the_pyramid_and_bad_requests_write_nothing() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("p");
    for size in ["300", "200"] {
        palace().args(["tiles", "--k", "9", "--size", size, "-q", "-o"]).arg(&dir).assert().success();
    }
    assert_eq!(dzi_sizes(&dir), (200, 200, 256));
    assert_eq!(std::fs::read_dir(work.path()).unwrap().count(), 1, "no temporary folder left");
    palace()
        .args(["tiles", "--k", "9", "--size", "50", "--tile-size", "3", "-o"])
        .arg(work.path().join("q"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--tile-size 3"));
    palace()
        .args(["tiles", "--k", "9", "--width", "2000000", "--height", "10", "-o"])
        .arg(work.path().join("q"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--width 2000000 --height 10").and(predicate::str::contains("--window")),
        );
    let other = work.path().join("photos");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("cat.jpg"), b"").unwrap();
    palace()
        .args(["tiles", "--k", "9", "--size", "50", "-o"])
        .arg(&other)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--output").and(predicate::str::contains("not an earlier output")));
    let mut names: Vec<_> = std::fs::read_dir(work.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["p", "photos"], "nothing else written");
}

/// A Chromium-family browser: `PALACE_CHROMIUM`, else the first of the usual names on the
/// path.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PALACE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// Viewer size in test mode (the page's `body.test #viewer`) and where its readiness square is.
const VIEW: (u32, u32) = (640, 480);
const READY_AT: (u32, u32) = (666, 6);

/// A screenshot (RGBA) of the page `url`, taken once the page reports every tile in view drawn;
/// headless Chromium's virtual time runs the page until then, with longer budgets if needed.
fn screenshot(browser: &Path, url: &str, work: &Path) -> (u32, Vec<u8>) {
    let shot = work.join("shot.png");
    for budget in [5_000u32, 20_000, 60_000] {
        let _ = std::fs::remove_file(&shot);
        let mut child = std::process::Command::new(browser)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio"])
            .args(["--no-first-run", "--disable-extensions", "--window-size=800,600"])
            .arg(format!("--user-data-dir={}", work.join("profile").display()))
            .arg(format!("--virtual-time-budget={budget}"))
            .arg(format!("--screenshot={}", shot.display()))
            .arg(url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the browser");
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed().as_secs() > 120 {
                let _ = child.kill();
                panic!("the browser did not finish within 120 s: {url}");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        if !shot.is_file() {
            continue;
        }
        let mut reader = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        buf.truncate(frame.buffer_size());
        let rgba: Vec<u8> = match frame.color_type {
            png::ColorType::Rgba => buf,
            png::ColorType::Rgb => buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
            other => panic!("screenshot in {other:?}"),
        };
        let w = frame.width;
        let at = ((READY_AT.1 * w + READY_AT.0) * 4) as usize;
        if rgba[at..at + 3] == [0, 255, 0] {
            return (w, rgba);
        }
    }
    panic!("the page never reported its tiles loaded: {url}");
}

/// The RGB at screen pixel (x, y) of a screenshot `w` wide.
fn pixel(shot: &(u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let at = ((y * shot.0 + x) * 4) as usize;
    [shot.1[at], shot.1[at + 1], shot.1[at + 2]]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 2)
}

#[test]
fn the_page_shows_the_board_in_a_browser() {
    let Some(browser) = chromium() else {
        let required = std::env::var_os("PALACE_REQUIRE_CHROMIUM").is_some_and(|v| v == "1");
        assert!(!required, "PALACE_REQUIRE_CHROMIUM=1 but no chromium on the path (or set PALACE_CHROMIUM)");
        eprintln!(
            "SKIPPED the_page_shows_the_board_in_a_browser: no chromium on the path (Debian: apt-get install chromium; or set PALACE_CHROMIUM)"
        );
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("pyramid");
    let (k, n) = (50u32, 700u32);
    palace()
        .args(["tiles", "--k", &k.to_string(), "--size", &n.to_string(), "-q", "-o"])
        .arg(&dir)
        .assert()
        .success();
    // The engine's palette index of every cell, as `render` draws it.
    let out = work.path().join("full.png");
    palace()
        .args(["render", "--k", &k.to_string(), "--size", &n.to_string(), "--no-legend", "-q", "-o"])
        .arg(&out)
        .assert()
        .success();
    let (_, _, cells) = decode(&out);
    let index = |x: u32, y: u32| cells[(y * n + x) as usize];
    let rgb = |i: u8| palette::RGB[i as usize];
    let uniform = |cx: u32, cy: u32, r: u32| {
        let i = index(cx, cy);
        let all = (cy - r..=cy + r).all(|y| (cx - r..=cx + r).all(|x| index(x, y) == i));
        assert!(all, "the test needs a uniform patch around ({cx}, {cy})");
        i
    };
    let page = std::path::absolute(dir.join("index.html")).unwrap();
    let url = format!("file://{}", page.display());

    // The overview: the whole board fitted into the viewer, centred.
    let shot = screenshot(&browser, &format!("{url}?test=1"), work.path());
    let s = f64::from(VIEW.0.min(VIEW.1)) / f64::from(n);
    let left = (f64::from(VIEW.0) - f64::from(n) * s) / 2.0;
    let at =
        |cx: u32, cy: u32| ((left + (f64::from(cx) + 0.5) * s) as u32, ((f64::from(cy) + 0.5) * s) as u32);
    for (what, (cx, cy), want) in [
        ("the hood, top left", (3, 3), palette::HOOD),
        ("outer space, top right", (650, 40), 5),
        ("outer space, bottom left", (40, 650), 5),
    ] {
        assert_eq!(uniform(cx, cy, 3), want, "{what}: the engine's colour");
        let (px, py) = at(cx, cy);
        let got = pixel(&shot, px, py);
        assert!(
            close(got, rgb(want)),
            "overview, {what} at screen ({px}, {py}): {got:?}, want {:?}",
            rgb(want)
        );
    }
    // Outside the board: the page's grey.
    assert!(close(pixel(&shot, 20, 240), [0x80; 3]), "left of the board");

    // Zoomed in to 16 screen pixels a cell over a black cell beside a palace: the colours of
    // single cells, which no reduced level shows (its 2 x 2 block's minimum is the palace).
    let (cx, cy) = (40..n - 40)
        .flat_map(|y| (40..n - 40).map(move |x| (x, y)))
        .find(|&(x, y)| x > 200 && index(x, y) == 5 && index(x + 1, y) == 4)
        .expect("a black cell left of a yellow palace");
    let shot = screenshot(&browser, &format!("{url}?test=1&x={cx}&y={cy}&zoom=16"), work.path());
    let (mx, my) = (VIEW.0 / 2, VIEW.1 / 2);
    for (dx, dy) in [(0i32, 0i32), (1, 0), (-1, 0), (0, 1), (0, -1)] {
        let (x, y) = (cx.checked_add_signed(dx).unwrap(), cy.checked_add_signed(dy).unwrap());
        let (px, py) = (mx.checked_add_signed(16 * dx).unwrap(), my.checked_add_signed(16 * dy).unwrap());
        let got = pixel(&shot, px, py);
        let want = rgb(index(x, y));
        assert!(
            close(got, want),
            "zoomed on ({cx}, {cy}): cell ({x}, {y}) at screen ({px}, {py}) is {got:?}, want {want:?}"
        );
    }
}

/// SIGTERM stops a large pyramid: exit 143, "interrupted", the temporary folder removed and
/// the earlier pyramid at the path untouched.
#[cfg(unix)]
#[test]
fn a_signal_leaves_no_half_written_pyramid() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("p");
    palace().args(["tiles", "--k", "9", "--size", "100", "-q", "-o"]).arg(&dir).assert().success();
    let before = std::fs::read(dir.join("board.dzi")).unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("palace"))
        .args(["tiles", "--k", "9999", "--size", "100000", "-q", "-o"])
        .arg(&dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    let sent = std::process::Command::new("sh").args(["-c", &format!("kill -TERM {}", child.id())]).status();
    assert!(sent.is_ok_and(|s| s.success()));
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let names: Vec<_> = std::fs::read_dir(work.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["p"], "the temporary folder is removed");
    assert_eq!(std::fs::read(dir.join("board.dzi")).unwrap(), before, "the earlier pyramid is untouched");
}
