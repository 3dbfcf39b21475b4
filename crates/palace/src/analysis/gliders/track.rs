//! The tracker: patches of one texture in the map (8-connected map cells of that texture),
//! each followed through the CA's time `t = x + y`. The CA evolves along anti-diagonals
//! (`docs/rule.md`), so a patch's state at time `t` is its cells on one anti-diagonal of the
//! map, a **slice**, at position `u = x - y` along it. A meta-glider is a patch whose slices
//! keep their width while their centre moves steadily: `u` a straight line in `t`, whose
//! slope is its velocity `du/dt` (cells of `x - y` per unit of `t`). In the picture it is a
//! streak in the direction `(1 + v, 1 - v)`; `v = 0` runs along the diagonal, `v = ±1` along
//! a row or a column.
//!
//! Map cell `(i, j)` has its centre at `t = x0 + y0 + 16 (i + j) + 16` and
//! `u = x0 - y0 + 16 (i - j)`: consecutive anti-diagonals of the map lie 16 apart in `t`, and
//! neighbours on one anti-diagonal 32 apart in `u`.

use super::classify::{ClassMap, NO_DATA, Texture};
use super::texture::CELL;
use serde::Serialize;
use std::collections::VecDeque;

/// The tracker's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackParams {
    /// A patch shorter-lived than this (in `t`) is not judged ([`Kind::Short`]).
    pub min_life: f64,
    /// A steady patch's slice centres lie this close to their fitted line (root mean square),
    /// as a fraction of its mean width.
    pub max_residual: f64,
    /// A steady patch's slice widths vary by at most this coefficient of variation.
    pub max_width_cv: f64,
    /// A steady patch slower than this is static.
    pub static_speed: f64,
}

/// The default least life of a judged patch, in `t`: 20 anti-diagonals of the map.
pub const MIN_LIFE: f64 = 320.0;

impl Default for TrackParams {
    fn default() -> Self {
        TrackParams { min_life: MIN_LIFE, max_residual: 0.25, max_width_cv: 0.5, static_speed: 0.05 }
    }
}

/// A patch's state at one time: its map cells on one anti-diagonal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slice {
    /// The time, `x + y` of the map cells' centres.
    pub t: f64,
    /// The centre, the mean `x - y` of the map cells' centres.
    pub u: f64,
    /// The width along the anti-diagonal, in `x - y`: from the first map cell's lower end to
    /// the last one's upper end (32 for a single map cell).
    pub width: f64,
    /// Map cells.
    pub cells: usize,
}

/// Where a patch is born or dies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// Within a window's reach of the fabric's outer edge (the rift or the fray above the
    /// diagonal, or the end of the map).
    Edge,
    /// Within a window's reach of the diagonal, where the fabric goes on into its mirror
    /// image.
    Diagonal,
    /// Inside the fabric.
    Inside,
}

impl Place {
    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Place::Edge => "edge",
            Place::Diagonal => "diagonal",
            Place::Inside => "inside",
        }
    }
}

/// A patch's first or last slice.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct End {
    /// The time.
    pub t: f64,
    /// The slice's centre.
    pub u: f64,
    /// The centre's column, `(t + u) / 2`.
    pub x: f64,
    /// The centre's row, `(t - u) / 2`.
    pub y: f64,
    /// Where it lies.
    pub place: Place,
}

/// What a patch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Steady and moving: a meta-glider.
    Glider,
    /// Steady and not moving (slower than [`TrackParams::static_speed`]).
    Static,
    /// Long-lived but not steady: its centre wanders from a line or its width changes.
    Irregular,
    /// Shorter-lived than [`TrackParams::min_life`].
    Short,
}

impl Kind {
    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Glider => "glider",
            Kind::Static => "static",
            Kind::Irregular => "irregular",
            Kind::Short => "short",
        }
    }
}

/// A patch followed through time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Patch {
    /// Its texture.
    pub texture: Texture,
    /// Map cells.
    pub cells: usize,
    /// Fabric cells in its map cells.
    pub fabric_cells: u64,
    /// The first slice.
    pub birth: End,
    /// The last slice.
    pub death: End,
    /// `t` from the first slice to the last, plus one step of the map (16).
    pub life: f64,
    /// The least-squares slope of the slices' centres `u` against `t`.
    pub velocity: f64,
    /// Its direction in the picture, degrees from the x axis towards the y axis (rows down):
    /// `atan2(1 - v, 1 + v)`; 45 along the diagonal.
    pub angle: f64,
    /// Root mean square distance (in `u`) of the slices' centres from the fitted line.
    pub residual: f64,
    /// The slices' mean width (in `u`).
    pub width: f64,
    /// The slices' widths' coefficient of variation.
    pub width_cv: f64,
    /// What it is under the tracker's settings.
    pub kind: Kind,
    /// Its slices, by time.
    #[serde(skip)]
    pub slices: Vec<Slice>,
    /// Its map cells `(i, j)`.
    #[serde(skip)]
    pub map_cells: Vec<(u32, u32)>,
}

/// The map cells' distances (8-neighbour steps, up to `cap`) from the fabric's outer edge:
/// map cells without data above the diagonal (centre more than two map cells from it) and
/// the map's border.
pub(crate) fn edge_distance(m: &ClassMap, cap: u32) -> Vec<u32> {
    let g = m.geometry;
    let (mw, mh) = (g.mw, g.mh);
    let mut dist = vec![u32::MAX; mw * mh];
    let mut queue = VecDeque::new();
    for j in 0..mh {
        for i in 0..mw {
            let (cx, cy) = g.centre(i, j);
            let border = i == 0 || j == 0 || i + 1 == mw || j + 1 == mh;
            if (m.class[j * mw + i] == NO_DATA && cx - cy > 2.0 * CELL as f64) || border {
                dist[j * mw + i] = if m.class[j * mw + i] == NO_DATA { 0 } else { 1 };
                queue.push_back((i, j));
            }
        }
    }
    while let Some((i, j)) = queue.pop_front() {
        let d = dist[j * mw + i];
        if d >= cap {
            continue;
        }
        for (ni, nj) in neighbours(i, j, mw, mh) {
            if dist[nj * mw + ni] > d + 1 {
                dist[nj * mw + ni] = d + 1;
                queue.push_back((ni, nj));
            }
        }
    }
    dist
}

/// The 8 neighbours of `(i, j)` inside `mw x mh`.
fn neighbours(i: usize, j: usize, mw: usize, mh: usize) -> impl Iterator<Item = (usize, usize)> {
    (-1i64..=1).flat_map(move |dj| {
        (-1i64..=1).filter_map(move |di| {
            let (ni, nj) = (i as i64 + di, j as i64 + dj);
            ((di, dj) != (0, 0) && ni >= 0 && nj >= 0 && (ni as usize) < mw && (nj as usize) < mh)
                .then_some((ni as usize, nj as usize))
        })
    })
}

/// The patches of `texture` in the map (8-connected components of its map cells), each
/// followed through time and judged under `params`; in order of their first map cell
/// (row-major). `edge` is `edge_distance`'s map.
pub fn patches(m: &ClassMap, texture: Texture, edge: &[u32], params: &TrackParams) -> Vec<Patch> {
    let g = m.geometry;
    let (mw, mh) = (g.mw, g.mh);
    let want = texture.index();
    let mut seen = vec![false; mw * mh];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..mw * mh {
        if seen[start] || m.class[start] != want {
            continue;
        }
        seen[start] = true;
        stack.push((start % mw, start / mw));
        let mut cells = Vec::new();
        while let Some((i, j)) = stack.pop() {
            cells.push((i, j));
            for (ni, nj) in neighbours(i, j, mw, mh) {
                let q = nj * mw + ni;
                if !seen[q] && m.class[q] == want {
                    seen[q] = true;
                    stack.push((ni, nj));
                }
            }
        }
        out.push(follow(m, texture, &cells, edge, params));
    }
    out
}

/// One patch, from its map cells.
fn follow(
    m: &ClassMap,
    texture: Texture,
    cells: &[(usize, usize)],
    edge: &[u32],
    params: &TrackParams,
) -> Patch {
    let g = m.geometry;
    let c = CELL as f64;
    let t_of = |s: usize| f64::from(g.x0) + f64::from(g.y0) + c * s as f64 + c;
    let u_of = |i: usize, j: usize| f64::from(g.x0) - f64::from(g.y0) + c * (i as f64 - j as f64);
    let s0 = cells.iter().map(|&(i, j)| i + j).min().expect("a patch has cells");
    let s1 = cells.iter().map(|&(i, j)| i + j).max().expect("a patch has cells");
    // Per anti-diagonal: cells, sum of u, least and largest u, nearest to the edge and to
    // the diagonal.
    let mut acc = vec![(0usize, 0.0f64, f64::MAX, f64::MIN, u32::MAX); s1 - s0 + 1];
    for &(i, j) in cells {
        let a = &mut acc[i + j - s0];
        let u = u_of(i, j);
        a.0 += 1;
        a.1 += u;
        a.2 = a.2.min(u);
        a.3 = a.3.max(u);
        a.4 = a.4.min(edge[j * g.mw + i]);
    }
    let slices: Vec<Slice> = acc
        .iter()
        .enumerate()
        .filter(|(_, a)| a.0 > 0)
        .map(|(k, a)| Slice { t: t_of(s0 + k), u: a.1 / a.0 as f64, width: a.3 - a.2 + 2.0 * c, cells: a.0 })
        .collect();
    let reach = m.w as u32;
    let end = |k: usize| {
        let a = acc[k];
        let (t, u) = (t_of(s0 + k), a.1 / a.0 as f64);
        let place = if a.4 <= reach {
            Place::Edge
        } else if a.2 <= c * m.w as f64 {
            Place::Diagonal
        } else {
            Place::Inside
        };
        End { t, u, x: (t + u) / 2.0, y: (t - u) / 2.0, place }
    };
    let (velocity, residual) = fit(&slices);
    let n = slices.len() as f64;
    let width = slices.iter().map(|s| s.width).sum::<f64>() / n;
    let width_cv = (slices.iter().map(|s| (s.width - width).powi(2)).sum::<f64>() / n).sqrt() / width;
    let life = t_of(s1) - t_of(s0) + c;
    let kind = if life < params.min_life {
        Kind::Short
    } else if residual > params.max_residual * width || width_cv > params.max_width_cv {
        Kind::Irregular
    } else if velocity.abs() < params.static_speed {
        Kind::Static
    } else {
        Kind::Glider
    };
    Patch {
        texture,
        cells: cells.len(),
        fabric_cells: cells.iter().map(|&(i, j)| u64::from(m.fabric[j * g.mw + i])).sum(),
        birth: end(0),
        death: end(s1 - s0),
        life,
        velocity,
        angle: (1.0 - velocity).atan2(1.0 + velocity).to_degrees(),
        residual,
        width,
        width_cv,
        kind,
        slices,
        map_cells: cells.iter().map(|&(i, j)| (i as u32, j as u32)).collect(),
    }
}

/// The least-squares line `u = a + v t` through the slices' centres (unweighted): `v` and the
/// root mean square residual. One slice: `v = 0`.
pub fn fit(slices: &[Slice]) -> (f64, f64) {
    let n = slices.len() as f64;
    let tm = slices.iter().map(|s| s.t).sum::<f64>() / n;
    let um = slices.iter().map(|s| s.u).sum::<f64>() / n;
    let stt: f64 = slices.iter().map(|s| (s.t - tm).powi(2)).sum();
    let stu: f64 = slices.iter().map(|s| (s.t - tm) * (s.u - um)).sum();
    let v = if stt > 0.0 { stu / stt } else { 0.0 };
    let res = (slices.iter().map(|s| (s.u - um - v * (s.t - tm)).powi(2)).sum::<f64>() / n).sqrt();
    (v, res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::gliders::classify::{NO_DATA, Scores};
    use crate::analysis::gliders::texture::MapGeometry;

    /// A map of `side x side` map cells from (0, 0), large grid but for `cells` of the small
    /// grid.
    fn map_with(side: usize, cells: &[(usize, usize)]) -> ClassMap {
        let mut class = vec![Texture::Large.index(); side * side];
        for &(i, j) in cells {
            class[j * side + i] = Texture::Small.index();
        }
        ClassMap {
            geometry: MapGeometry { x0: 0, y0: 0, mw: side, mh: side },
            w: 5,
            threshold: 0.08,
            class,
            scores: vec![Scores { small: 0.0, shallow: 0.0, steep: 0.0 }; side * side],
            fabric: vec![256; side * side],
        }
    }

    fn one_patch(side: usize, cells: &[(usize, usize)]) -> Patch {
        let m = map_with(side, cells);
        let edge = edge_distance(&m, 6);
        let mut ps = patches(&m, Texture::Small, &edge, &TrackParams::default());
        assert_eq!(ps.len(), 1);
        ps.remove(0)
    }

    /// Straight streaks whose velocities, widths and lives follow from the map's geometry: a
    /// column of map cells (u falls by 16 as t grows by 16: v = -1), a row (v = +1), a band
    /// along the diagonal (v = 0).
    #[test]
    fn straight_streaks_have_their_velocity() {
        // Column i = 10, rows 5..=25: t = 16 (i + j) + 16 from 256 to 576, u = 16 (i - j).
        let col: Vec<(usize, usize)> = (5..=25).map(|j| (10, j)).collect();
        let p = one_patch(40, &col);
        assert_eq!((p.velocity, p.residual, p.width, p.width_cv), (-1.0, 0.0, 32.0, 0.0));
        assert_eq!((p.birth.t, p.death.t, p.life), (256.0, 576.0, 336.0));
        assert_eq!((p.birth.u, p.death.u), (80.0, -240.0));
        assert_eq!((p.birth.x, p.birth.y), (168.0, 88.0));
        assert_eq!(p.kind, Kind::Glider);
        assert!((p.angle - 90.0).abs() < 1e-9);
        let row: Vec<(usize, usize)> = (5..=25).map(|i| (i, 10)).collect();
        let p = one_patch(40, &row);
        assert_eq!((p.velocity, p.kind), (1.0, Kind::Glider));
        assert!(p.angle.abs() < 1e-9);
        // |i - j| <= 1: slices alternate one map cell at u = 0 and two at u = -16, 16.
        let band: Vec<(usize, usize)> = (5..=25usize)
            .flat_map(|i| (5..=25usize).map(move |j| (i, j)))
            .filter(|&(i, j)| i.abs_diff(j) <= 1)
            .collect();
        let p = one_patch(40, &band);
        assert_eq!((p.velocity, p.residual), (0.0, 0.0));
        assert_eq!(p.width, (21.0 * 32.0 + 20.0 * 64.0) / 41.0);
        assert_eq!((p.kind, p.angle), (Kind::Static, 45.0));
        assert_eq!(p.cells, 61);
    }

    /// A streak that turns is irregular; a short one is not judged.
    #[test]
    fn turning_and_short_patches() {
        let mut l: Vec<(usize, usize)> = (5..=15).map(|j| (10, j)).collect();
        l.extend((11..=30).map(|i| (i, 15)));
        let p = one_patch(40, &l);
        assert_eq!(p.kind, Kind::Irregular);
        assert!(p.residual > 0.25 * p.width);
        let p = one_patch(40, &(5..=13).map(|j| (10, j)).collect::<Vec<_>>());
        assert_eq!((p.life, p.kind), (144.0, Kind::Short));
    }

    /// Map cells touching only at a corner are one patch; two apart are two.
    #[test]
    fn patches_are_eight_connected() {
        let m = map_with(20, &[(3, 3), (4, 4), (5, 3), (10, 10), (12, 10)]);
        let edge = edge_distance(&m, 6);
        let ps = patches(&m, Texture::Small, &edge, &TrackParams::default());
        assert_eq!(ps.iter().map(|p| p.cells).collect::<Vec<_>>(), vec![3, 1, 1]);
        assert!(patches(&m, Texture::Steep, &edge, &TrackParams::default()).is_empty());
    }

    /// The distance from the edge is the 8-neighbour distance to the nearest map cell without
    /// data above the diagonal, or one more than to the nearest map cell on the map's border;
    /// checked against that minimum taken over all such cells.
    #[test]
    fn edge_distance_is_the_nearest_edge() {
        let side = 24;
        let mut m = map_with(side, &[]);
        for j in 0..side {
            for i in 0..side {
                // No data far above the diagonal, and a hole on it (which is no edge).
                if i >= j + 9 || (i == j && (11..14).contains(&i)) {
                    m.class[j * side + i] = NO_DATA;
                }
            }
        }
        let cap = 5;
        let d = edge_distance(&m, cap);
        for j in 0..side {
            for i in 0..side {
                let cheb = |a: usize, b: usize| (i.abs_diff(a)).max(j.abs_diff(b)) as u32;
                let mut want = u32::MAX;
                for b in 0..side {
                    for a in 0..side {
                        let (cx, cy) = m.geometry.centre(a, b);
                        if m.class[b * side + a] == NO_DATA && cx - cy > 32.0 {
                            want = want.min(cheb(a, b));
                        }
                        let border = a == 0 || b == 0 || a + 1 == side || b + 1 == side;
                        if border && m.class[b * side + a] != NO_DATA {
                            want = want.min(1 + cheb(a, b));
                        }
                    }
                }
                let got = d[j * side + i];
                if want <= cap {
                    assert_eq!(got, want, "({i}, {j})");
                } else {
                    assert!(got > cap, "({i}, {j}): {got}");
                }
            }
        }
    }
}
