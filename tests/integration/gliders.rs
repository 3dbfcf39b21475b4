//! `palace gliders` end to end: the cells it classifies are the fabric cells `palace regions`
//! counts in the same window, the JSON report holds together (the patches' lives and angles,
//! the textures' counts, the shares), the picture has one pixel per map cell with a texture
//! and its legend below, and the usage errors name their flags. The classifier and the
//! tracker are tested on hand-built textures in `crates/palace/src/analysis/gliders/`.

use crate::common;

use common::{decode_rgb, json, palace};
use palace::analysis::gliders::plot::{GLIDER_RGB, RGB};

/// The window's fabric as `palace regions` counts it: (cells, cells with v = 0).
fn regions_fabric(k: u32, size: u32, window: &str) -> (u64, u64) {
    let r = json(&[
        "regions",
        "--k",
        &k.to_string(),
        "--size",
        &size.to_string(),
        "--window",
        window,
        "--json",
        "-q",
    ]);
    let fabric =
        r["regions"].as_array().unwrap().iter().find(|e| e[0] == "fabric").map(|e| e[1].clone()).unwrap();
    let black = fabric["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h[0] == 0)
        .map_or(0, |h| h[1].as_u64().unwrap());
    (fabric["cells"].as_u64().unwrap(), black)
}

#[test]
fn gliders_classifies_the_fabric_that_regions_labels() {
    // Wholly above the diagonal (x >= 900 > y), between the armpit and the prism for k = 1000.
    let window = "900,700,1300,880";
    let g = json(&["gliders", "--k", "1000", "--size", "1700", "--window", window, "--json", "-q"]);
    let (cells, black) = regions_fabric(1000, 1700, window);
    assert!(cells > 30_000, "{cells} fabric cells");
    assert_eq!(g["fabric_cells"].as_u64(), Some(cells));
    assert_eq!(g["black_cells"].as_u64(), Some(black));
}

#[test]
fn gliders_report_holds_together() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("slices.csv");
    // k = 3000: the small grid gives way to the large one about 1000 cells from the nose, and
    // the large grid's zone has patches to follow.
    let g =
        json(&["gliders", "--k", "3000", "--size", "4900", "--json", "-q", "--csv", csv.to_str().unwrap()]);
    assert_eq!(g["k"], 3000);
    assert_eq!(g["nose"], 999);
    assert_eq!((g["cell"].as_u64(), g["side"].as_u64()), (Some(16), Some(80)));
    let names: Vec<&str> =
        g["textures"].as_array().unwrap().iter().map(|t| t["texture"].as_str().unwrap()).collect();
    assert_eq!(names, ["small", "steep", "shallow", "neither"]);
    for t in g["textures"].as_array().unwrap() {
        let kinds: u64 = t["kinds"].as_array().unwrap().iter().map(|k| k.as_u64().unwrap()).sum();
        assert_eq!(Some(kinds), t["patches"].as_u64(), "{t}");
        let judged = kinds - t["kinds"][3].as_u64().unwrap();
        for place in ["born", "died"] {
            let n: u64 = t[place].as_array().unwrap().iter().map(|k| k.as_u64().unwrap()).sum();
            assert_eq!(n, judged, "{t}");
        }
        let listed = g["patches"].as_array().unwrap().iter().filter(|p| p["texture"] == t["texture"]).count();
        assert_eq!(listed as u64, judged, "{t}");
    }
    let lattices: Vec<&str> =
        g["lattices"].as_array().unwrap().iter().map(|t| t["texture"].as_str().unwrap()).collect();
    assert_eq!(lattices, ["small", "large", "steep", "shallow", "neither"]);
    let mut map_cells = 0;
    for r in g["profile"].as_array().unwrap() {
        let share: f64 = r["share"].as_array().unwrap().iter().map(|s| s.as_f64().unwrap()).sum();
        assert!((share - 1.0).abs() < 1e-9, "{r}");
        map_cells += r["cells"].as_u64().unwrap();
    }
    assert_eq!(g["map_cells"].as_u64(), Some(map_cells));
    // The small grid near the nose, then the large grid's zone.
    let zone = g["zone"].as_array().expect("a zone");
    assert!(zone[1].as_f64().unwrap() > 0.0);
    assert!(g["profile"][0]["share"][0].as_f64().unwrap() > 0.5);
    for p in g["patches"].as_array().unwrap() {
        let (t0, t1) = (p["birth"]["t"].as_f64().unwrap(), p["death"]["t"].as_f64().unwrap());
        assert!(t0 >= zone[0].as_f64().unwrap() && t0 <= t1, "{p}");
        assert_eq!(p["life"].as_f64(), Some(t1 - t0 + 16.0), "{p}");
        assert!(p["life"].as_f64().unwrap() >= 320.0);
        let v = p["velocity"].as_f64().unwrap();
        let angle = (1.0 - v).atan2(1.0 + v).to_degrees();
        assert!((p["angle"].as_f64().unwrap() - angle).abs() < 1e-9, "{p}");
        for end in ["birth", "death"] {
            let e = &p[end];
            let (t, u) = (e["t"].as_f64().unwrap(), e["u"].as_f64().unwrap());
            assert_eq!((e["x"].as_f64(), e["y"].as_f64()), (Some((t + u) / 2.0), Some((t - u) / 2.0)));
            assert!(["edge", "diagonal", "inside"].contains(&e["place"].as_str().unwrap()));
        }
        assert!(["glider", "static", "irregular"].contains(&p["kind"].as_str().unwrap()));
    }
    // The trajectories: each judged patch's slices, by time, from its birth to its death.
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("patch,texture,kind,t,u,width,cells"));
    let patches = g["patches"].as_array().unwrap();
    let mut slices: Vec<Vec<(f64, f64)>> = vec![Vec::new(); patches.len()];
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let id: usize = f[0].parse().unwrap();
        assert_eq!(f[1], patches[id]["texture"].as_str().unwrap());
        assert_eq!(f[2], patches[id]["kind"].as_str().unwrap());
        slices[id].push((f[3].parse().unwrap(), f[4].parse().unwrap()));
    }
    for (p, s) in patches.iter().zip(&slices) {
        assert!(s.windows(2).all(|w| w[0].0 < w[1].0), "{p}");
        assert_eq!(s.first().map(|x| x.0), p["birth"]["t"].as_f64());
        assert_eq!(s.last().map(|x| x.0), p["death"]["t"].as_f64());
        assert_eq!(s.first().map(|x| x.1), p["birth"]["u"].as_f64());
    }
    assert!(!patches.is_empty());
}

#[test]
fn gliders_draws_one_pixel_per_map_cell() {
    let dir = tempfile::tempdir().unwrap();
    let (bare, with) = (dir.path().join("bare.png"), dir.path().join("with.png"));
    let args = ["gliders", "--k", "1000", "--size", "1700", "--window", "300,300,1300,900", "-q"];
    let out = palace().args(args).arg("--json").arg("--no-legend").arg("-o").arg(&bare).assert().success();
    let g: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    palace().args(args).arg("-o").arg(&with).assert().success();
    let (w, h, px) = decode_rgb(&bare);
    assert_eq!((u64::from(w), u64::from(h)), (g["map"][2].as_u64().unwrap(), g["map"][3].as_u64().unwrap()));
    let coloured = px.iter().filter(|&&c| c != [255; 3]).count() as u64;
    assert_eq!(Some(coloured), g["map_cells"].as_u64());
    assert!(px.iter().all(|c| *c == [255; 3] || RGB.contains(c) || GLIDER_RGB.contains(c)));
    common::assert_legend_below(&bare, &with, &[RGB[0], RGB[1], [255; 3]], "gliders");
    // At 4 x 4 cells a pixel, each map cell is 4 x 4 pixels.
    let four = dir.path().join("four.png");
    palace().args(args).args(["--scale", "4", "--no-legend", "-o"]).arg(&four).assert().success();
    let (w4, h4, px4) = decode_rgb(&four);
    assert_eq!((w4, h4), (4 * w, 4 * h));
    for y in 0..h4 {
        for x in 0..w4 {
            assert_eq!(px4[(y * w4 + x) as usize], px[(y / 4 * w + x / 4) as usize]);
        }
    }
}

#[test]
fn gliders_names_bad_flags() {
    for (args, flag) in [
        (vec!["--k", "1000", "--size", "1700", "--side", "64"], "--side 64"),
        (vec!["--k", "1000", "--size", "1700", "--side", "160"], "--side 160"),
        (vec!["--k", "1000", "--size", "1700", "--scale", "3", "-o", "x.png"], "--scale 3"),
        (vec!["--k", "1000", "--size", "1700", "--threshold", "1.5"], "--threshold 1.5"),
        (vec!["--k", "1000", "--size", "1700", "--min-life=-5"], "--min-life -5"),
        (vec!["--k", "3", "--size", "100"], "--k 3"),
        (
            vec!["--k", "1000", "--size", "1700", "--window", "0,1000,200,1200"],
            "no cell of it is labelled fabric",
        ),
    ] {
        palace()
            .arg("gliders")
            .args(&args)
            .arg("-q")
            .assert()
            .code(2)
            .stderr(predicates::str::contains(flag));
    }
}
