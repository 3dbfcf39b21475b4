//! Every narrow kernel against the exact wide kernel, bit for bit, on random halos and tile
//! shapes. For any inputs within the narrow limit, a narrow kernel must either reproduce the
//! wide kernel exactly and report success, or report failure — and it must report failure
//! exactly when some exact value leaves the limit (never a silent wrong answer).

use palace_engine::kernel::wide::wide_tile;
use palace_engine::kernel::{Arrangement, KernelChoice, NARROW_LIMIT, TileBuf, available_kernels};
use proptest::prelude::*;

fn narrow_kernels() -> Vec<KernelChoice> {
    available_kernels().into_iter().filter(|k| *k != KernelChoice::Wide).collect()
}

fn check(top: &[i8], left: &[i8], w: usize, h: usize) -> Result<bool, TestCaseError> {
    let top64: Vec<i64> = top.iter().map(|&v| i64::from(v)).collect();
    let left64: Vec<i64> = left.iter().map(|&v| i64::from(v)).collect();
    let mut want = vec![0i64; w * h];
    wide_tile(&top64, &left64, w, h, &mut want);
    let lim = i64::from(NARROW_LIMIT);
    let in_range = want.iter().all(|v| (-lim..=lim).contains(v));
    for k in narrow_kernels() {
        let f = k.narrow_fn().unwrap();
        let arrangements =
            std::iter::once(Arrangement::Rows).chain(k.diagonal_lanes().map(Arrangement::Diagonal));
        for arr in arrangements {
            let mut out = TileBuf::arranged(w, h, arr);
            let ok = f(top, left, w, h, &mut out);
            prop_assert_eq!(ok, in_range, "kernel {:?} {:?} w={} h={}: flag", k, arr, w, h);
            if !ok {
                continue;
            }
            for r in 0..h {
                let got: Vec<i64> = out.row(r).iter().map(|&v| i64::from(v)).collect();
                prop_assert_eq!(
                    &got[..],
                    &want[r * w..(r + 1) * w],
                    "kernel {:?} {:?} w={} h={} row {}",
                    k,
                    arr,
                    w,
                    h,
                    r
                );
                for c in [0, w / 2, w - 1] {
                    prop_assert_eq!(i64::from(out.at(r, c)), want[r * w + c]);
                }
            }
            check_runs(&out, &want, w, h)?;
            // The last two rows (in one block or across two), as the tile below reads them.
            let r0 = h.saturating_sub(2);
            let got: Vec<i64> = out.bottom_rows().iter().map(|&v| i64::from(v)).collect();
            prop_assert_eq!(&got[..], &want[r0 * w..], "{:?} bottom rows", arr);
        }
    }
    Ok(in_range)
}

/// `for_each_run` covers every sub-rectangle exactly once: compare value counts.
fn check_runs(out: &TileBuf, want: &[i64], w: usize, h: usize) -> Result<(), TestCaseError> {
    for (r0, r1, c0, c1) in [
        (0, h, 0, w),
        (h / 3, h, w / 4, w),
        (0, h.div_ceil(2), 0, w.div_ceil(2)),
        (h / 2, h / 2 + 1, w / 3, w),
    ] {
        if r0 >= r1 || c0 >= c1 {
            continue;
        }
        let mut got = std::collections::BTreeMap::new();
        let mut cells = 0;
        out.for_each_run(r0, r1, c0, c1, |run| {
            let run = run.counted();
            cells += run.len();
            for &v in run {
                *got.entry(i64::from(v)).or_insert(0) += 1;
            }
        });
        let mut exp = std::collections::BTreeMap::new();
        for r in r0..r1 {
            for c in c0..c1 {
                *exp.entry(want[r * w + c]).or_insert(0) += 1;
            }
        }
        prop_assert_eq!(cells, (r1 - r0) * (c1 - c0), "{:?}: run cells", out.arrangement());
        prop_assert_eq!(got, exp, "{:?} rows {}..{} cols {}..{}", out.arrangement(), r0, r1, c0, c1);
    }
    Ok(())
}

/// Halo values: mostly the small values the CA produces, sometimes up to the limit.
fn value() -> impl Strategy<Value = i8> {
    prop_oneof![8 => -2i8..=2, 1 => -NARROW_LIMIT..=NARROW_LIMIT]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn narrow_equals_wide(
        (w, h, top, left) in (1usize..150, 1usize..150).prop_flat_map(|(w, h)| {
            (Just(w), Just(h), prop::collection::vec(value(), 2 * (w + 2)), prop::collection::vec(value(), 2 * h))
        })
    ) {
        check(&top, &left, w, h)?;
    }
}

#[test]
fn quiet_and_sparse_halos_on_many_shapes() {
    // Deterministic sweep of shapes around the lane counts (32, 64) with sparse palaces.
    let mut in_range_seen = 0;
    for w in [1usize, 2, 3, 31, 32, 33, 63, 64, 65, 100, 257] {
        for h in [1usize, 2, 5, 31, 32, 33, 63, 64, 65, 128, 130] {
            let top: Vec<i8> = (0..2 * (w + 2)).map(|i| if i % 7 == 3 { -1 } else { 0 }).collect();
            let left: Vec<i8> = (0..2 * h)
                .map(|i| {
                    if i % 5 == 1 {
                        -1
                    } else if i % 11 == 0 {
                        1
                    } else {
                        0
                    }
                })
                .collect();
            if check(&top, &left, w, h).unwrap() {
                in_range_seen += 1;
            }
        }
    }
    assert!(in_range_seen > 50, "the deterministic cases should mostly stay in range");
}

/// Tiles whose upper 32 rows stay in range while rows 32..64 leave it, only in the middle
/// columns (the disturbance enters from the top halo at columns 42..60; out-of-range values
/// stay near it while the nonzero ones run to the row's end). The vector kernels' lower block
/// must flag them from its middle steps alone (AVX2 runs those in a separate lean loop).
/// Found by a seeded search; the test insists it finds some.
#[test]
fn out_of_range_only_below_the_first_block_is_flagged() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut found = 0;
    for _ in 0..1500 {
        let (w, h) = (260 + (rnd() % 60) as usize, 64);
        let amp = 1 + (rnd() % 8) as i64;
        let top: Vec<i8> = (0..2 * (w + 2))
            .map(|i| {
                let hit = (42..60).contains(&(i % (w + 2))) && rnd() % 3 == 0;
                if hit { ((rnd() % (2 * amp as u64 + 1)) as i64 - amp) as i8 } else { 0 }
            })
            .collect();
        let left = vec![0i8; 2 * h];
        let top64: Vec<i64> = top.iter().map(|&v| i64::from(v)).collect();
        let mut want = vec![0i64; w * h];
        wide_tile(&top64, &vec![0; 2 * h], w, h, &mut want);
        let out = |v: &i64| !(-i64::from(NARROW_LIMIT)..=i64::from(NARROW_LIMIT)).contains(v);
        let out_cols = || (32 * w..64 * w).filter(|&i| out(&want[i])).map(|i| i % w);
        if want[..32 * w].iter().any(out) || out_cols().next().is_none() || out_cols().max() >= Some(w - 64) {
            continue;
        }
        found += 1;
        assert!(!check(&top, &left, w, h).unwrap());
    }
    assert!(found >= 5, "the search found only {found} tiles out of range in rows 32..64 alone");
}

#[test]
fn out_of_range_is_flagged() {
    // A halo whose exact values leave the limit: every narrow kernel must say so.
    let (w, h) = (40usize, 40usize);
    let top = vec![NARROW_LIMIT; 2 * (w + 2)];
    let left = vec![-NARROW_LIMIT; 2 * h];
    assert!(!check(&top, &left, w, h).unwrap());
}
