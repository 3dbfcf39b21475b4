//! The column tables of `survey` and `threads`, built from the library's rows: one column per
//! column of the command's CSV, by the same names and in the same order (the tests compare
//! them with the CSV), each holding the typed values the CSV prints.

use crate::report::{Column, Table};
use palace::analysis::survey::{SurveyRow, region_slug};
use palace::analysis::threads::ThreadSummary;
use palace::analysis::threads::trace::{End, Traced};

fn int(v: impl TryInto<i64>) -> Option<i64> {
    Some(v.try_into().ok().expect("the survey's and the threads' numbers fit int64"))
}

fn opt(v: Option<impl TryInto<i64>>) -> Option<i64> {
    v.and_then(int)
}

/// The survey's rows as columns (`palace survey`'s CSV).
pub fn survey(rows: &[SurveyRow]) -> Table {
    let ints = |f: fn(&SurveyRow) -> Option<i64>| Column::Int(rows.iter().map(f).collect());
    Table::default()
        .column("k", ints(|r| int(r.k)))
        .column("min_v", ints(|r| int(r.min_v)))
        .column("max_v", ints(|r| int(r.max_v)))
        .column("max_x", ints(|r| int(r.max_x)))
        .column("max_y", ints(|r| int(r.max_y)))
        .column("states", ints(|r| int(r.states)))
        .column("size", ints(|r| int(r.size)))
        .column("max_cells", ints(|r| int(r.max_cells)))
        .column("max_clusters", ints(|r| int(r.max_clusters)))
        .column("max_spread", ints(|r| int(r.max_spread)))
        .column(
            "hot_region",
            Column::Text(rows.iter().map(|r| r.hot_region.map(|h| region_slug(h).to_string())).collect()),
        )
        .column("armpit_dist", ints(|r| opt(r.armpit_dist)))
        .column("prism", ints(|r| opt(r.prism)))
        .column("skin2_onset", ints(|r| opt(r.skin2)))
        .column("skin3_onset", ints(|r| opt(r.skin3)))
        .column("skin_span", ints(|r| int(r.skin_span)))
}

/// The threads as columns, one entry per thread (`palace threads`' CSV); `near_share` and
/// `slope` as computed, where the CSV rounds them to 4 and 12 decimals.
pub fn threads(traced: &Traced, summaries: &[ThreadSummary]) -> Table {
    let t = &traced.threads;
    assert_eq!(summaries.len(), t.len(), "one summary per thread");
    let s = summaries;
    let merged = |f: fn(u32, u32) -> u32| {
        Column::Int(
            t.iter()
                .map(|t| match t.end {
                    End::Merged { row, into } => int(f(row, into)),
                    End::Vanished | End::Open => None,
                })
                .collect(),
        )
    };
    let end = |e: &End| match e {
        End::Vanished => "vanished",
        End::Open => "open",
        End::Merged { .. } => "merged",
    };
    Table::default()
        .column("id", Column::Int(t.iter().map(|t| int(t.id)).collect()))
        .column("first_row", Column::Int(t.iter().map(|t| int(t.first_row)).collect()))
        .column("last_row", Column::Int(t.iter().map(|t| int(t.last_row)).collect()))
        .column("start_x", Column::Int(t.iter().map(|t| int(t.start_x)).collect()))
        .column("end_x", Column::Int(t.iter().map(|t| int(t.end_x)).collect()))
        .column("end", Column::Text(t.iter().map(|t| Some(end(&t.end).to_string())).collect()))
        .column("merge_row", merged(|row, _| row))
        .column("into", merged(|_, into| into))
        .column(
            "parents",
            Column::Ints(t.iter().map(|t| t.parents.iter().map(|&p| i64::from(p)).collect()).collect()),
        )
        .column("at_edge", Column::Bool(s.iter().map(|s| s.at_edge).collect()))
        .column("thickness", Column::Int(s.iter().map(|s| opt(s.thickness)).collect()))
        .column("clear_rows", Column::Int(s.iter().map(|s| int(s.clear_rows.0)).collect()))
        .column("steady_rows", Column::Int(s.iter().map(|s| int(s.clear_rows.1)).collect()))
        .column("tail_rows", Column::Int(s.iter().map(|s| int(s.tail_rows)).collect()))
        .column("period", Column::Int(s.iter().map(|s| s.period.and_then(|p| int(p.p))).collect()))
        .column("shift", Column::Int(s.iter().map(|s| s.period.map(|p| p.shift)).collect()))
        .column(
            "near_period",
            Column::Int(s.iter().map(|s| s.near_period.and_then(|n| int(n.period.p))).collect()),
        )
        .column("near_shift", Column::Int(s.iter().map(|s| s.near_period.map(|n| n.period.shift)).collect()))
        .column("near_share", Column::Float(s.iter().map(|s| s.near_period.map(|n| n.share())).collect()))
        .column("slope", Column::Float(s.iter().map(|s| s.slope).collect()))
}
