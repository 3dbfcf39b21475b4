//! `palace gliders`: the fabric's meta-gliders (§3.2 of Cook, Larsson and Neary: "Regions of
//! the small-grid pattern appear to travel through the large grid like meta-gliders", Fig. 5).
//!
//! The upper fabric (cells that `palace regions` labels fabric, above the diagonal; the lower
//! one is its mirror image) is cut into map cells of 16 x 16 cells ([`texture`]). Each map
//! cell gets the texture of the window of `w x w` map cells around it ([`classify`]): the
//! exact autocorrelation of the black cells (`v = 0`) at the small grid's vectors (13, 9),
//! (9, 13) and at the large grid's two families, (31, 13) and (13, 31), counted on bitsets as
//! `palace grid` counts it. The patches of one texture are followed through the CA's time
//! `t = x + y` and judged: gliders, static, irregular or short-lived ([`track`]). The picture
//! is the map of textures ([`plot`]). Method and findings: `docs/fabric-grid.md`,
//! "Meta-gliders".

pub mod classify;
pub mod plot;
pub mod texture;
pub mod track;

mod report;

use report::{POOL_CELLS, POOL_REACH, VELOCITY_BIN};

pub use report::{GlidersReport, Params, ProfileRow, TextureLattice, TextureSummary, write_csv};

use crate::analysis::grid;
use crate::engine::{Cancel, EngineOptions, Progress};
use crate::error::Result;
use crate::labels::{self, Region};
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use classify::{ClassMap, NO_DATA, TEXTURES, Texture};
use texture::{CELL, Planes};
use track::{Kind, Patch};

/// The upper fabric's cells (`palace regions` labels them fabric, `x > y`, from the nose's row
/// `y >= (k - 1) / 3` down) inside `window` of game `k`'s board `[0, x1) x [0, y1)` (the
/// window's far corner), with their black cells. The upper fabric runs from the nose down to
/// the prism; the few cells above the nose's row that the labels call fabric lie at the
/// shoulder (`docs/regions.md`), not in it.
pub fn gather(k: u32, window: Window, opts: &EngineOptions, progress: &dyn Progress) -> Result<Planes> {
    let fab = Region::Fabric.index() as u8;
    let nose = (k - 1) / 3;
    let parts = labels::label_tiles(
        k,
        Window::new(0, 0, window.x1(), window.y1())?,
        opts,
        progress,
        &[],
        || Planes::new(window),
        |planes, t| {
            let (xa, xb) = (t.x0.max(window.x0()), t.x1.min(window.x1()));
            let (ya, yb) = (t.y0.max(window.y0()).max(nose), t.y1.min(window.y1()));
            for y in ya..yb {
                let (cells, labels) = (t.cells(y), t.labels(y));
                for x in xa.max(y + 1)..xb {
                    let i = (x - t.x0) as usize;
                    if labels[i] == fab {
                        planes.set(x, y, cells[i] == 0);
                    }
                }
            }
        },
    )?;
    let mut all = Planes::new(window);
    for p in parts {
        all.merge(p);
    }
    Ok(all)
}

/// with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled (polled before each texture).
pub(crate) fn texture_lattices(
    planes: &Planes,
    map: &ClassMap,
    cancel: &Cancel,
) -> Result<Vec<TextureLattice>> {
    let shifts: Vec<(i64, i64)> =
        (0..=POOL_REACH).flat_map(|dy| (-POOL_REACH..=POOL_REACH).map(move |dx| (dx, dy))).collect();
    let side = (2 * POOL_REACH + 1) as usize;
    let g = map.geometry;
    TEXTURES
        .iter()
        .map(|&tex| {
            cancel.check()?;
            let cells: Vec<(usize, usize)> = (0..g.mh)
                .flat_map(|j| (0..g.mw).map(move |i| (i, j)))
                .filter(|&(i, j)| map.class[j * g.mw + i] == tex.index())
                .collect();
            let step = cells.len().div_ceil(POOL_CELLS).max(1);
            let sample: Vec<(usize, usize)> = cells.iter().copied().step_by(step).collect();
            let counts = texture::pooled_counts(planes, &sample, &shifts);
            let c = grid::Correlation::from_fn(POOL_REACH, |dx, dy| {
                let [n, n1, n2, n11] = counts[dy as usize * side + (dx + POOL_REACH) as usize];
                if n == 0 { 0.0 } else { grid::pearson(n, n1, n2, n11) }
            });
            let peaks = grid::peaks(&c, grid::MIN_LEN);
            Ok(TextureLattice {
                texture: tex,
                map_cells: cells.len(),
                pooled: sample.len(),
                lattices: grid::band_lattices(&peaks),
                peaks: peaks.into_iter().take(grid::LISTED).collect(),
            })
        })
        .collect()
}

/// Measures the meta-gliders of game `k`'s upper fabric in `window` (see the module header):
/// gathers the fabric on the sweep's workers, classifies, tracks; `out` gets the map of
/// textures at `scale` cells a pixel ([`plot`]), returned written but not committed: the
/// caller commits it ([`AtomicOutput::commit`]) with the run's other outputs, so that a run
/// stopped before then leaves no picture behind.
pub fn run(
    k: u32,
    window: Window,
    params: &Params,
    out: Option<(AtomicOutput, u32, bool)>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(GlidersReport, Option<AtomicOutput>)> {
    let planes = gather(k, window, opts, progress)?.trimmed();
    opts.cancel.check()?;
    if planes.fabric_cells() == 0 {
        let n = (k - 1) / 3;
        return Err(crate::error::ParameterError::new(crate::error::Param::Window, window)
            .text(format!(
                ": no cell of it is labelled fabric above the diagonal; the fabric lies along the diagonal from the nose ({n}, {n}) to about 1.6 k (give a window that reaches it, or a larger "
            ))
            .name(crate::error::Param::Size)
            .text(")")
            .into());
    }
    progress.message("classifying");
    let cancel = &opts.cancel;
    let map = classify::classify(&planes, params.w, params.threshold, cancel)?;
    progress.message("tracking");
    let mut report = analyse(k, &planes, &map, params, cancel)?;
    progress.message("pooling each texture's autocorrelation");
    report.lattices = texture_lattices(&planes, &map, cancel)?;
    let path = match out {
        Some((o, scale, legend)) => Some(plot::draw(&report, &map, scale, legend, o, opts)?),
        None => None,
    };
    Ok((report, path))
}

/// Where the large grid's zone begins, from the map cells of each texture on each
/// anti-diagonal of the map (`per[s][texture]`): the anti-diagonal `s` that splits the map best
/// into the small grid before it and the other textures from it on, the fewest map cells on
/// the wrong side (of the other textures before `s`, of the small grid from `s` on); the first
/// such `s` on a tie. 0 where the map holds no small grid.
pub(crate) fn zone_start(per: &[[usize; 5]]) -> usize {
    let small = Texture::Small as usize;
    let mut wrong: usize = per.iter().map(|p| p[small]).sum();
    let (mut best, mut at) = (wrong, 0);
    for (s, p) in per.iter().enumerate() {
        // Moving the split past anti-diagonal s puts its small grid right, the rest wrong.
        wrong = wrong + p.iter().sum::<usize>() - 2 * p[small];
        if wrong < best {
            (best, at) = (wrong, s + 1);
        }
    }
    at
}

/// The report from the classified map (see [`run`]), but for the textures' lattices
/// (`texture_lattices`); stops with [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled
/// (polled before each texture's tracking).
pub fn analyse(
    k: u32,
    planes: &Planes,
    map: &ClassMap,
    params: &Params,
    cancel: &Cancel,
) -> Result<GlidersReport> {
    let g = map.geometry;
    let nose = (k - 1) / 3;
    let c = CELL as f64;
    let t_of = |s: usize| f64::from(g.x0) + f64::from(g.y0) + c * s as f64 + c;
    // Per anti-diagonal of the map: cells of each texture.
    let diagonals = g.mw + g.mh - 1;
    let mut per = vec![[0usize; 5]; diagonals];
    for j in 0..g.mh {
        for i in 0..g.mw {
            let cl = map.class[j * g.mw + i];
            if cl != NO_DATA {
                per[i + j][usize::from(cl)] += 1;
            }
        }
    }
    let zone_s = zone_start(&per);
    let zone_t = t_of(zone_s);
    let zone = per[..zone_s]
        .iter()
        .any(|p| p.iter().sum::<usize>() > 0)
        .then(|| [zone_t, zone_t / 2.0 - f64::from(nose)]);
    let zone_fabric_cells: u64 = (0..g.mh)
        .flat_map(|j| (0..g.mw).map(move |i| (i, j)))
        .filter(|&(i, j)| i + j >= zone_s)
        .map(|(i, j)| u64::from(map.fabric[j * g.mw + i]))
        .sum();
    let zone_cells: Vec<usize> = (0..5).map(|x| per[zone_s..].iter().map(|p| p[x]).sum()).collect();
    let zone_total: usize = zone_cells.iter().sum();
    let edge = track::edge_distance(map, params.w as u32 + 1);
    let mut listed = Vec::new();
    let mut textures = Vec::new();
    for tex in TEXTURES {
        if tex == Texture::Large {
            continue;
        }
        cancel.check()?;
        let all: Vec<Patch> = track::patches(map, tex, &edge, &params.track)
            .into_iter()
            .filter(|p| p.birth.t >= zone_t)
            .collect();
        let mut kinds = [0usize; 4];
        let (mut born, mut died) = ([0usize; 3], [0usize; 3]);
        for p in &all {
            kinds[p.kind as usize] += 1;
            if p.kind != Kind::Short {
                born[p.birth.place as usize] += 1;
                died[p.death.place as usize] += 1;
            }
        }
        let judged = all.len() - kinds[Kind::Short as usize];
        let gliders: Vec<&Patch> = all.iter().filter(|p| p.kind == Kind::Glider).collect();
        let mut vs: Vec<f64> = gliders.iter().map(|p| p.velocity).collect();
        let mut lives: Vec<f64> = gliders.iter().map(|p| p.life).collect();
        vs.sort_by(f64::total_cmp);
        lives.sort_by(f64::total_cmp);
        let velocity = if vs.is_empty() {
            Vec::new()
        } else {
            let n = vs.len() as f64;
            let mean = vs.iter().sum::<f64>() / n;
            let sd = (vs.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
            vec![vs[0], vs[vs.len() / 2], vs[vs.len() - 1], mean, sd]
        };
        let mut histogram: Vec<(f64, usize)> = Vec::new();
        for &v in &vs {
            let lo = ((v / VELOCITY_BIN).floor() * VELOCITY_BIN * 1e6).round() / 1e6;
            match histogram.last_mut() {
                Some((b, n)) if *b == lo => *n += 1,
                _ => histogram.push((lo, 1)),
            }
        }
        let life = if lives.is_empty() {
            Vec::new()
        } else {
            vec![lives[0], lives[lives.len() / 2], lives[lives.len() - 1]]
        };
        textures.push(TextureSummary {
            texture: tex,
            zone_cells: zone_cells[tex as usize],
            zone_share: if zone_total > 0 {
                zone_cells[tex as usize] as f64 / zone_total as f64
            } else {
                0.0
            },
            patches: all.len(),
            kinds,
            per_million: if zone_fabric_cells > 0 {
                judged as f64 * 1e6 / zone_fabric_cells as f64
            } else {
                0.0
            },
            born,
            died,
            velocity,
            life,
            histogram,
        });
        let mut long: Vec<Patch> = all.into_iter().filter(|p| p.kind != Kind::Short).collect();
        long.sort_by(|a, b| b.life.total_cmp(&a.life).then(a.birth.t.total_cmp(&b.birth.t)));
        listed.extend(long);
    }
    Ok(GlidersReport {
        k,
        nose,
        window: [planes.window().x0(), planes.window().y0(), planes.window().x1(), planes.window().y1()],
        map: [g.x0, g.y0, g.mw as u32, g.mh as u32],
        cell: CELL,
        side: CELL * params.w,
        threshold: params.threshold,
        min_life: params.track.min_life,
        vectors: [classify::SMALL, classify::SHALLOW, classify::STEEP],
        fabric_cells: planes.fabric_cells(),
        black_cells: planes.black_cells(),
        map_cells: map.class.iter().filter(|&&c| c != NO_DATA).count(),
        zone,
        zone_fabric_cells,
        profile: profile(map, nose, 25),
        lattices: Vec::new(),
        textures,
        patches: listed,
    })
}

/// The textures' shares in about `rows` bands of the distance from the nose (a multiple of
/// 250 cells each).
fn profile(map: &ClassMap, nose: u32, rows: usize) -> Vec<ProfileRow> {
    let g = map.geometry;
    let d_of = |i: usize, j: usize| {
        let (x, y) = g.centre(i, j);
        (x + y) / 2.0 - f64::from(nose)
    };
    let cells: Vec<(usize, usize)> = (0..g.mh)
        .flat_map(|j| (0..g.mw).map(move |i| (i, j)))
        .filter(|&(i, j)| map.class[j * g.mw + i] != NO_DATA)
        .collect();
    let Some(d_max) = cells.iter().map(|&(i, j)| d_of(i, j)).max_by(f64::total_cmp) else {
        return Vec::new();
    };
    let d_min = cells.iter().map(|&(i, j)| d_of(i, j)).min_by(f64::total_cmp).unwrap_or(0.0);
    let bin = (((d_max - d_min) / rows as f64 / 250.0).ceil() * 250.0).max(250.0);
    let first = (d_min / bin).floor();
    let n = ((d_max / bin).floor() - first) as usize + 1;
    let mut acc = vec![([0usize; 5], [0f64; 3]); n];
    for &(i, j) in &cells {
        let b = ((d_of(i, j) / bin).floor() - first) as usize;
        let q = j * g.mw + i;
        acc[b].0[usize::from(map.class[q])] += 1;
        let s = map.scores[q];
        for (a, v) in acc[b].1.iter_mut().zip([s.small, s.shallow, s.steep]) {
            *a += f64::from(v);
        }
    }
    acc.iter()
        .enumerate()
        .filter(|(_, a)| a.0.iter().sum::<usize>() > 0)
        .map(|(b, (counts, scores))| {
            let total: usize = counts.iter().sum();
            let lo = (first + b as f64) * bin;
            ProfileRow {
                d: [lo, lo + bin],
                cells: total,
                share: counts.map(|c| c as f64 / total as f64),
                scores: scores.map(|s| s / total as f64),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::gliders::classify::tests::on_lattice;

    /// A `side x side` board, all fabric, black on the large grid's lattice ((31, 13),
    /// (13, 31)) except in a band of the small grid's ((13, 9), (9, 13)): the cells with
    /// `|u - v (t - t_mid)| <= half` (`u = x - y`, `t = x + y`) and `t0 <= t < t1`, a patch of
    /// the small grid moving at velocity `v` from `t0` to `t1`.
    fn moving_patch(side: u32, v: f64, half: f64, t0: u32, t1: u32) -> Planes {
        let t_mid = f64::from(t0 + t1) / 2.0;
        Planes::from_fn(Window::new(0, 0, side, side).unwrap(), |x, y| {
            let (t, u) = (f64::from(x + y), f64::from(x) - f64::from(y));
            let inside = (t0..t1).contains(&(x + y)) && (u - v * (t - t_mid)).abs() <= half;
            let (x, y) = (i64::from(x), i64::from(y));
            Some(if inside {
                on_lattice((13, 9), (9, 13), x, y)
            } else {
                on_lattice((31, 13), (13, 31), x, y)
            })
        })
    }

    /// The classifier and the tracker recover a small-grid patch moving through the large
    /// grid: one patch of the small grid, judged a glider (or static), whose velocity is the
    /// band's within 0.02 and whose first and last slices lie within a window's reach of the
    /// band's ends (the 80 x 80 window reaches 80 along t).
    #[test]
    fn a_moving_patch_is_found_with_its_velocity() {
        for (v, kind) in [(0.3, Kind::Glider), (-0.25, Kind::Glider), (0.0, Kind::Static)] {
            let (t0, t1) = (400, 1600);
            let p = moving_patch(1024, v, 56.0, t0, t1);
            let params = Params::default();
            let map = classify::classify(&p, params.w, params.threshold, &Cancel::new()).unwrap();
            let report = analyse(1000, &p, &map, &params, &Cancel::new()).unwrap();
            let small = &report.textures[0];
            assert_eq!(small.texture, Texture::Small);
            assert_eq!(small.kinds[..3].iter().sum::<usize>(), 1, "v = {v}: {small:?}");
            let g = report.patches.iter().find(|q| q.texture == Texture::Small).expect("the patch");
            assert_eq!(g.kind, kind, "v = {v}: {g:?}");
            assert!((g.velocity - v).abs() < 0.02, "v = {v}: measured {}", g.velocity);
            assert!((g.birth.t - f64::from(t0)).abs() <= 80.0, "v = {v}: born at {}", g.birth.t);
            assert!((g.death.t - f64::from(t1)).abs() <= 80.0, "v = {v}: dies at {}", g.death.t);
            // The band's middle: u = 0 at t = 1000.
            let mid = g.slices.iter().find(|s| (s.t - 1000.0).abs() <= 8.0).expect("a slice at t = 1000");
            assert!(mid.u.abs() <= 16.0, "v = {v}: {mid:?}");
            // Everything else is the large grid.
            let others: usize = report.textures[1..].iter().map(|s| s.zone_cells).sum();
            assert_eq!(others, 0, "v = {v}");
            if kind == Kind::Glider {
                assert_eq!(small.velocity[1], g.velocity);
            }
        }
    }

    /// The zone begins where the fewest map cells lie on the wrong side of the split, not after
    /// a late anti-diagonal of a few small-grid cells.
    #[test]
    fn the_zone_splits_the_small_grid_off() {
        let d = |small: usize, large: usize| [small, large, 0, 0, 0];
        // Small, small, mixed, large, large, then two small cells alone near the end.
        let per = [d(9, 1), d(8, 0), d(4, 5), d(1, 9), d(0, 9), d(2, 0), d(0, 3)];
        // Map cells on the wrong side of a split before anti-diagonal s (other textures before
        // it + small grid from it on): s = 0: 0 + 24; 1: 1 + 15; 2: 1 + 7; 3: 6 + 3;
        // 4: 15 + 2; 5: 24 + 2; 6: 24 + 0; 7: 27 + 0. The last anti-diagonal where the small
        // grid holds half is s = 5.
        assert_eq!(zone_start(&per), 2);
        assert_eq!(zone_start(&[d(0, 5), d(0, 5)]), 0);
        assert_eq!(zone_start(&[d(5, 0), d(5, 0)]), 2);
        assert_eq!(zone_start(&[]), 0);
    }

    /// Each step after the sweep (classifying, tracking, pooling) heeds the run's token: a
    /// cancelled run stops with `Interrupted`.
    #[test]
    fn the_steps_after_the_sweep_stop_once_cancelled() {
        let p = moving_patch(480, 0.0, 100.0, 200, 760);
        let params = Params::default();
        let stopped = Cancel::new();
        stopped.cancel();
        let r = classify::classify(&p, params.w, params.threshold, &stopped);
        assert!(matches!(r, Err(ref e) if e.is_interrupted()), "classify");
        let map = classify::classify(&p, params.w, params.threshold, &Cancel::new()).unwrap();
        let r = analyse(1000, &p, &map, &params, &stopped);
        assert!(matches!(r, Err(ref e) if e.is_interrupted()), "analyse");
        assert!(matches!(texture_lattices(&p, &map, &stopped), Err(ref e) if e.is_interrupted()), "pooling");
    }

    /// Each texture's pooled lattice is the lattice it was built from: a basis of it (two of
    /// its points spanning a cell of its area).
    #[test]
    fn pooled_lattices_are_the_built_ones() {
        let p = moving_patch(480, 0.0, 100.0, 200, 760);
        let map = classify::classify(&p, 5, classify::THRESHOLD, &Cancel::new()).unwrap();
        let ls = texture_lattices(&p, &map, &Cancel::new()).unwrap();
        for (t, band, a, b) in
            [(Texture::Small, 0, (13, 9), (9, 13)), (Texture::Large, 1, (31, 13), (13, 31))]
        {
            let l = ls[t as usize].lattices[band].lattice.as_ref().expect("a lattice");
            assert_eq!(l.area, a.0 * b.1 - a.1 * b.0, "{t:?}: {l:?}");
            for v in [&l.v1, &l.v2] {
                assert!(on_lattice(a, b, v.dx, v.dy), "{t:?}: {v:?}");
                assert!(v.r > 0.5, "{t:?}: {v:?}");
            }
            assert!(ls[t as usize].pooled > 0 && ls[t as usize].pooled <= POOL_CELLS);
        }
        assert_eq!(ls[Texture::Steep as usize].map_cells, 0);
    }
}
