//! The exact scalar tile kernel: the rule of `docs/rule.md` cell by cell in row order, in 64-bit
//! arithmetic. It is correct for every tile (hood, initial condition, any k) and is the
//! reference beside the fast narrow kernels.

use crate::model::rule::rule;

/// Computes a `w x h` tile.
///
/// * `top` holds the two rows above the tile, `y0 - 2` then `y0 - 1`, each over the columns
///   `x0 - 2 .. x0 + w` (so `w + 2` values per row);
/// * `left` holds, for each tile row, the two cells to its left (`x0 - 2`, `x0 - 1`);
/// * `out` receives the tile row-major (`w * h` values).
pub fn wide_tile(top: &[i64], left: &[i64], w: usize, h: usize, out: &mut [i64]) {
    assert_eq!(top.len(), 2 * (w + 2), "top halo size");
    assert_eq!(left.len(), 2 * h, "left halo size");
    assert_eq!(out.len(), w * h, "tile size");
    let mut up2 = top[..w + 2].to_vec();
    let mut up1 = top[w + 2..].to_vec();
    let mut cur = vec![0i64; w + 2];
    for r in 0..h {
        cur[0] = left[2 * r];
        cur[1] = left[2 * r + 1];
        for i in 2..w + 2 {
            cur[i] = rule(up2[i - 2], up2[i - 1], up1[i - 2], up1[i - 1], cur[i - 1], up1[i]);
        }
        out[r * w..(r + 1) * w].copy_from_slice(&cur[2..]);
        std::mem::swap(&mut up2, &mut up1);
        std::mem::swap(&mut up1, &mut cur);
    }
}

/// Like [`wide_tile`], for the tile whose top-left cell is `(x0, y0)` in game `k`, writing the
/// engine's 8-bit store directly: hood cells are taken from the closed form (`docs/rule.md`, "The hood") and stored
/// as their clamped stand-in, and only the cells outside the hood go through the rule. Used for
/// the tiles along the casing, about half of whose cells are hood.
///
/// Returns the first cell outside the hood whose value does not fit `i8`, as `(column, row,
/// value)` within the tile.
pub(crate) fn casing_tile(
    k: u32,
    x0: u64,
    y0: u64,
    top: &[i64],
    left: &[i64],
    out: &mut super::buf::TileBuf,
) -> Result<(), (usize, usize, i64)> {
    use crate::model::rule::{hood_len, hood_value};
    let (w, h) = (out.width(), out.height());
    assert_eq!(top.len(), 2 * (w + 2), "top halo size");
    assert_eq!(left.len(), 2 * h, "left halo size");
    let mut up2 = top[..w + 2].to_vec();
    let mut up1 = top[w + 2..].to_vec();
    let mut cur = vec![0i64; w + 2];
    for r in 0..h {
        let y = y0 + r as u64;
        let hood = (hood_len(k, y).saturating_sub(x0) as usize).min(w);
        cur[0] = left[2 * r];
        cur[1] = left[2 * r + 1];
        let dst = out.row_mut(r);
        // Along a row the hood's values rise by 1 or 2 per column up to -1, so all but its
        // last 128 cells are below -128 (stored as -128), and the rule reads back only its
        // last few cells (the neighbourhood reaches two columns left and two rows up, and the
        // hood's edge moves at most two columns per row).
        let deep = hood.saturating_sub(128);
        dst[..deep].fill(i8::MIN);
        for i in deep..hood {
            let v = hood_value(k, x0 + i as u64, y);
            dst[i] = v.max(i64::from(i8::MIN)) as i8;
            if i + 8 >= hood {
                cur[i + 2] = v;
            }
        }
        for i in hood..w {
            let v = rule(up2[i], up2[i + 1], up1[i], up1[i + 1], cur[i + 1], up1[i + 2]);
            cur[i + 2] = v;
            dst[i] = i8::try_from(v).map_err(|_| (i, r, v))?;
        }
        std::mem::swap(&mut up2, &mut up1);
        std::mem::swap(&mut up1, &mut cur);
    }
    Ok(())
}
