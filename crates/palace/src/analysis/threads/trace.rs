//! The thread tracer: follows the palace cells of a region scan line by scan line and cuts
//! them into threads (`docs/threads.md`, "Definition").
//!
//! Two palace cells of the region are *adjacent* when they lie on the same or on consecutive
//! scan lines and at most [`REACH`] cells apart along the line. The tracer is a sweep-line
//! connected-component labelling under that adjacency: each scan line's cells are grouped
//! with the threads of the line before that they touch. A group touching no thread begins a
//! *piece*; a group touching one thread continues it; a group touching several threads is a
//! *merge*, except that a *sprout* (a piece born within [`SPROUT_FACTOR`] times the reach of a thread: a strand
//! that drifted apart) meeting the thread it sprouted from *rejoins* it, and the thread goes
//! on. A piece that has lived fewer than [`MIN_ROWS`] lines is not yet a thread: where it
//! touches a thread it is absorbed (its cells count into that thread), and where it vanishes
//! it is a speck. Where two or more threads of at least [`MIN_ROWS`] lines meet, they end and
//! a new thread begins with them as parents, so every thread lies between two events and its
//! thickness (cells per scan line) can be compared before and after.
//!
//! The tracer knows nothing of the CA: it takes sorted cell positions per line, so it is
//! tested on hand-built bitmaps and against a flood fill (`tests/integration/threads.rs`).

use std::collections::{BTreeMap, VecDeque};

/// Cells on the same or consecutive scan lines at most this far apart along the line are
/// adjacent.
pub const REACH: u32 = 4;

/// A piece born within this many times the reach of a thread's cells on the line before is a
/// *sprout* of that thread: a strand that has drifted more than the reach away from the rest.
pub const SPROUT_FACTOR: u32 = 3;

/// Lines a piece must have lived to count as a thread (in a merge, and in the report).
pub const MIN_ROWS: u32 = 8;

/// Sections kept per thread for its tail (periods and slope are measured on them).
pub const TAIL: usize = 8192;

/// One scan line of one thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// The scan line.
    pub y: u32,
    /// The thread's first cell on the line.
    pub first: u32,
    /// Its last cell.
    pub last: u32,
    /// Its cells on the line: the thread's thickness there.
    pub count: u32,
    /// A hash of the cells' offsets from `first`: equal sections have equal hashes.
    pub shape: u64,
    /// Whether the section lies clear of the region's edges (only clear sections are
    /// measured).
    pub clear: bool,
}

/// How a thread ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Its last line was followed by a line without any of its cells.
    Vanished,
    /// It met other threads on line `row` and continues as thread `into`.
    Merged {
        /// The line of the merge.
        row: u32,
        /// The thread that continues.
        into: u32,
    },
    /// It still had cells on the last scan line.
    Open,
}

/// A traced thread.
#[derive(Debug, Clone)]
pub struct Thread {
    /// Its number, in order of birth.
    pub id: u32,
    /// Its first scan line.
    pub first_row: u32,
    /// Its last scan line.
    pub last_row: u32,
    /// Its first cell on its first line.
    pub start_x: u32,
    /// Its last cell on its last line.
    pub end_x: u32,
    /// The threads whose merge began it (empty for a thread born alone).
    pub parents: Vec<u32>,
    /// The thread it sprouted from, if it was born as a sprout.
    pub sprout_of: Option<u32>,
    /// Sprouts of its own that rejoined it, and the longest time one was apart (lines).
    pub rejoins: (u32, u32),
    /// How it ended.
    pub end: End,
    /// Pieces it absorbed.
    pub absorbed: u32,
    /// Whether its last section was clear of the region's edges (a thread that vanishes
    /// with an unclear last section ran into an edge).
    pub last_clear: bool,
    /// Clear lines per thickness.
    pub thickness: BTreeMap<u32, u64>,
    /// Its longest run of consecutive clear sections, at most the last [`TAIL`] of it.
    pub tail: Vec<Section>,
}

impl Thread {
    /// The thickness of most of its clear lines (the smaller on a tie), if it has any.
    pub fn mode(&self) -> Option<u32> {
        let best = self.thickness.values().copied().max()?;
        self.thickness.iter().find(|&(_, &n)| n == best).map(|(&t, _)| t)
    }

    /// Its clear lines.
    pub fn clear_rows(&self) -> u64 {
        self.thickness.values().sum()
    }

    /// Its lines.
    pub fn rows(&self) -> u32 {
        self.last_row - self.first_row + 1
    }
}

/// A thread being traced.
struct Live {
    thread: Thread,
    /// The current run of clear sections, and the longest finished run.
    run: VecDeque<Section>,
    best: VecDeque<Section>,
}

impl Live {
    fn new(id: u32, y: u32, x: u32, parents: Vec<u32>) -> Self {
        Live {
            thread: Thread {
                id,
                first_row: y,
                last_row: y,
                start_x: x,
                end_x: x,
                parents,
                sprout_of: None,
                rejoins: (0, 0),
                end: End::Open,
                absorbed: 0,
                last_clear: false,
                thickness: BTreeMap::new(),
                tail: Vec::new(),
            },
            run: VecDeque::new(),
            best: VecDeque::new(),
        }
    }

    fn push(&mut self, s: Section) {
        self.thread.last_row = s.y;
        self.thread.end_x = s.last;
        self.thread.last_clear = s.clear;
        if s.clear {
            *self.thread.thickness.entry(s.count).or_insert(0) += 1;
            if self.run.len() == TAIL {
                self.run.pop_front();
            }
            self.run.push_back(s);
        } else if !self.run.is_empty() {
            if self.run.len() >= self.best.len() {
                std::mem::swap(&mut self.run, &mut self.best);
            }
            self.run.clear();
        }
    }

    fn finish(mut self, end: End) -> Thread {
        let tail = if self.run.len() >= self.best.len() { self.run } else { self.best };
        self.thread.tail = tail.into_iter().collect();
        self.thread.end = end;
        self.thread
    }

    fn age(&self, y: u32) -> u32 {
        y - self.thread.first_row
    }
}

/// A merge of threads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Merge {
    /// The scan line where they meet.
    pub row: u32,
    /// The first cell of the merged group on that line.
    pub x: u32,
    /// The threads that meet.
    pub inputs: Vec<u32>,
    /// The thread that continues.
    pub output: u32,
}

/// What the tracer found.
#[derive(Debug, Clone, Default)]
pub struct Traced {
    /// Every thread (pieces of at least [`MIN_ROWS`] lines), by id.
    pub threads: Vec<Thread>,
    /// Every merge, in order.
    pub merges: Vec<Merge>,
    /// Pieces that vanished before living [`MIN_ROWS`] lines.
    pub specks: u64,
    /// Sprouts that rejoined the thread they sprouted from: (sprout, thread, line). A
    /// rejoined sprout is listed, ended as merged into the thread, which goes on.
    pub rejoined: Vec<(u32, u32, u32)>,
    /// Pieces absorbed by a thread: (piece, thread, line). A piece absorbed is no thread and
    /// not listed, but its cells were labelled with its number on the lines before.
    pub absorbed: Vec<(u32, u32, u32)>,
}

/// The sweep-line tracer.
pub struct Tracer {
    reach: u32,
    next_id: u32,
    live: BTreeMap<u32, Live>,
    /// The previous line's cells with their thread, and its index.
    prev: Vec<(u32, u32)>,
    prev_y: Option<u32>,
    out: Traced,
    /// The current line's cells with their thread (for drawing).
    labels: Vec<(u32, u32)>,
    /// Where each merged thread went on.
    successor: BTreeMap<u32, u32>,
    /// [`Tracer::line`]'s buffers, kept from line to line.
    scratch: Scratch,
}

/// The buffers of one line's grouping ([`Tracer::line`]).
#[derive(Default)]
struct Scratch {
    /// The previous line's threads, in order, and each previous cell's node.
    prev_ids: Vec<u32>,
    prev_node: Vec<usize>,
    /// The union-find over the line's cells, then the previous line's threads.
    dsu: Vec<usize>,
    /// Per cell: its group if it is its group's root (its first cell), else `NO_GROUP`.
    group_of: Vec<u32>,
    /// The groups' cells (cell indices) and threads, group after group: those of group `g`
    /// are `cells[cell_at[g]..cell_at[g + 1]]` and `threads[thread_at[g]..thread_at[g + 1]]`.
    cells: Vec<usize>,
    cell_at: Vec<usize>,
    threads: Vec<u32>,
    thread_at: Vec<usize>,
    /// Each group's thread once decided, and one section's cells.
    sections: Vec<u32>,
    xs: Vec<u32>,
}

/// No group (see [`Scratch::group_of`]).
const NO_GROUP: u32 = u32::MAX;

impl Scratch {
    /// Sorts the items `0..n` into the groups `group(i)` (`< groups`, each group's items in
    /// order) as `list[at[g]..at[g + 1]]`.
    fn bucket<T: Copy + Default>(
        n: usize,
        groups: usize,
        group: impl Fn(usize) -> Option<usize>,
        item: impl Fn(usize) -> T,
        list: &mut Vec<T>,
        at: &mut Vec<usize>,
    ) {
        at.clear();
        at.resize(groups + 1, 0);
        for i in 0..n {
            if let Some(g) = group(i) {
                at[g + 1] += 1;
            }
        }
        for g in 0..groups {
            at[g + 1] += at[g];
        }
        list.clear();
        list.resize(at[groups], T::default());
        // `at[g]` serves as group g's next free place; it ends at group g + 1's start, and
        // moving every entry one up restores the starts.
        for i in 0..n {
            if let Some(g) = group(i) {
                list[at[g]] = item(i);
                at[g] += 1;
            }
        }
        at.copy_within(0..groups, 1);
        at[0] = 0;
    }
}

/// A union-find's root of `i` (with path halving).
fn find(dsu: &mut [usize], mut i: usize) -> usize {
    while dsu[i] != i {
        dsu[i] = dsu[dsu[i]];
        i = dsu[i];
    }
    i
}

/// Joins the sets of `a` and `b` in a union-find: the smaller root stays the root, so a set's
/// root is its smallest node.
fn union(dsu: &mut [usize], a: usize, b: usize) {
    let (a, b) = (find(dsu, a), find(dsu, b));
    if a != b {
        dsu[a.max(b)] = a.min(b);
    }
}

/// A hash of the offsets of `cells` from the first (FNV-1a over the offsets' bytes).
fn shape(cells: &[u32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in cells {
        for b in (x - cells[0]).to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

impl Default for Tracer {
    fn default() -> Self {
        Self::new(REACH)
    }
}

impl Tracer {
    /// A tracer with adjacency reach `reach` along the line.
    pub fn new(reach: u32) -> Self {
        Tracer {
            reach,
            next_id: 0,
            live: BTreeMap::new(),
            prev: Vec::new(),
            prev_y: None,
            out: Traced::default(),
            labels: Vec::new(),
            successor: BTreeMap::new(),
            scratch: Scratch::default(),
        }
    }

    /// The thread that `id` goes on as (through merges).
    fn current(&self, mut id: u32) -> u32 {
        while let Some(&next) = self.successor.get(&id) {
            id = next;
        }
        id
    }

    /// The thread on the previous line nearest to `first..=last` within [`SPROUT_FACTOR`] times
    /// the reach, if any.
    fn sprout_parent(&self, first: u32, last: u32) -> Option<u32> {
        let d = SPROUT_FACTOR * self.reach;
        let lo = first.saturating_sub(d);
        let i = self.prev.partition_point(|&(x, _)| x < lo);
        self.prev[i..]
            .iter()
            .take_while(|&&(x, _)| x <= last + d)
            .min_by_key(|&&(x, _)| if x < first { first - x } else { x.saturating_sub(last) })
            .map(|&(_, t)| t)
    }

    fn end_thread(&mut self, id: u32, end: End) {
        let l = self.live.remove(&id).expect("live thread");
        if l.thread.rows() >= MIN_ROWS || !matches!(end, End::Vanished) {
            self.out.threads.push(l.finish(end));
        } else {
            self.out.specks += 1;
        }
    }

    /// Traces scan line `y`: `cells` are the region's palace cells on it, in increasing order;
    /// `clear(first, last)` tells whether a section spanning `first..=last` lies clear of the
    /// region's edges. Lines must come in increasing order; a line skipped ends every thread.
    /// Returns the line's cells with the thread each now belongs to.
    pub fn line(&mut self, y: u32, cells: &[u32], clear: impl Fn(u32, u32) -> bool) -> &[(u32, u32)] {
        debug_assert!(cells.windows(2).all(|w| w[0] < w[1]), "cells in increasing order");
        if self.prev_y.is_some_and(|p| p + 1 != y) {
            let ids: Vec<u32> = self.live.keys().copied().collect();
            for id in ids {
                self.end_thread(id, End::Vanished);
            }
            self.prev.clear();
        }
        let n = cells.len();
        let mut sc = std::mem::take(&mut self.scratch);
        // Nodes: the line's cells, then the previous line's threads (by their index here).
        sc.prev_ids.clear();
        sc.prev_ids.extend(self.prev.iter().map(|&(_, t)| t));
        sc.prev_ids.sort_unstable();
        sc.prev_ids.dedup();
        let ids = &sc.prev_ids;
        sc.prev_node.clear();
        sc.prev_node
            .extend(self.prev.iter().map(|&(_, t)| n + ids.binary_search(&t).expect("previous thread")));
        sc.dsu.clear();
        sc.dsu.extend(0..n + sc.prev_ids.len());
        let r = self.reach;
        let mut j = 0;
        for (i, &x) in cells.iter().enumerate() {
            if i > 0 && x - cells[i - 1] <= r {
                union(&mut sc.dsu, i, i - 1);
            }
            while j < self.prev.len() && self.prev[j].0 + r < x {
                j += 1;
            }
            let mut k = j;
            while k < self.prev.len() && self.prev[k].0 <= x + r {
                union(&mut sc.dsu, i, sc.prev_node[k]);
                k += 1;
            }
        }
        // Groups: cells and the threads they touch, in the order of their first cells (a
        // group's root is its smallest node, its first cell).
        for i in 0..n + sc.prev_ids.len() {
            find(&mut sc.dsu, i);
        }
        sc.group_of.clear();
        sc.group_of.resize(n, NO_GROUP);
        let mut groups = 0;
        for i in 0..n {
            if sc.dsu[i] == i {
                sc.group_of[i] = groups;
                groups += 1;
            }
        }
        let groups = groups as usize;
        let (dsu, group_of) = (&sc.dsu, &sc.group_of);
        Scratch::bucket(
            n,
            groups,
            |i| Some(group_of[dsu[i]] as usize),
            |i| i,
            &mut sc.cells,
            &mut sc.cell_at,
        );
        // A thread whose set holds no cell (its root is no cell) is touched by none.
        let group_of_thread = |p: usize| (dsu[n + p] < n).then(|| group_of[dsu[n + p]] as usize);
        let ids = &sc.prev_ids;
        Scratch::bucket(ids.len(), groups, group_of_thread, |p| ids[p], &mut sc.threads, &mut sc.thread_at);
        for p in 0..sc.prev_ids.len() {
            if group_of_thread(p).is_none() {
                self.end_thread(sc.prev_ids[p], End::Vanished);
            }
        }
        self.labels.clear();
        self.labels.reserve(n);
        sc.sections.clear();
        for g in 0..groups {
            let idx = &sc.cells[sc.cell_at[g]..sc.cell_at[g + 1]];
            let threads = &sc.threads[sc.thread_at[g]..sc.thread_at[g + 1]];
            let x = cells[idx[0]];
            let id = match threads.len() {
                0 => {
                    let id = self.next_id;
                    self.next_id += 1;
                    let mut l = Live::new(id, y, x, Vec::new());
                    l.thread.sprout_of = self.sprout_parent(x, cells[idx[idx.len() - 1]]);
                    self.live.insert(id, l);
                    id
                }
                1 => threads[0],
                _ => {
                    let (mut mature, young): (Vec<u32>, Vec<u32>) =
                        threads.iter().partition(|t| self.live[t].age(y) >= MIN_ROWS);
                    // Mature sprouts meeting the thread they sprouted from rejoin it.
                    let mut i = 0;
                    while i < mature.len() {
                        let s = mature[i];
                        let home = mature.iter().copied().find(|&t| {
                            t != s && self.live[&s].thread.sprout_of.is_some_and(|p| self.current(p) == t)
                        });
                        if let Some(t) = home {
                            let apart = y - self.live[&s].thread.first_row;
                            self.end_thread(s, End::Merged { row: y, into: t });
                            let r = &mut self.live.get_mut(&t).expect("home").thread.rejoins;
                            *r = (r.0 + 1, r.1.max(apart));
                            self.out.rejoined.push((s, t, y));
                            mature.remove(i);
                        } else {
                            i += 1;
                        }
                    }
                    if mature.len() >= 2 {
                        let id = self.next_id;
                        self.next_id += 1;
                        for &t in &mature {
                            self.end_thread(t, End::Merged { row: y, into: id });
                            self.successor.insert(t, id);
                        }
                        let mut l = Live::new(id, y, x, mature.clone());
                        for &t in &young {
                            self.live.remove(&t);
                            l.thread.absorbed += 1;
                            self.out.absorbed.push((t, id, y));
                        }
                        self.live.insert(id, l);
                        self.out.merges.push(Merge { row: y, x, inputs: mature, output: id });
                        id
                    } else {
                        // The oldest survives and absorbs the rest.
                        let rest: Vec<u32> =
                            threads.iter().copied().filter(|t| self.live.contains_key(t)).collect();
                        let keep = *rest
                            .iter()
                            .min_by_key(|t| (self.live[t].thread.first_row, **t))
                            .expect("threads");
                        for &t in &rest {
                            if t != keep {
                                self.live.remove(&t);
                                self.live.get_mut(&keep).expect("kept").thread.absorbed += 1;
                                self.out.absorbed.push((t, keep, y));
                            }
                        }
                        keep
                    }
                }
            };
            sc.sections.push(id);
        }
        for (g, &id) in sc.sections.iter().enumerate() {
            sc.xs.clear();
            sc.xs.extend(sc.cells[sc.cell_at[g]..sc.cell_at[g + 1]].iter().map(|&i| cells[i]));
            let xs = &sc.xs;
            let (first, last) = (xs[0], xs[xs.len() - 1]);
            let s = Section {
                y,
                first,
                last,
                count: xs.len() as u32,
                shape: shape(xs),
                clear: clear(first, last),
            };
            self.live.get_mut(&id).expect("live").push(s);
            self.labels.extend(xs.iter().map(|&x| (x, id)));
        }
        self.scratch = sc;
        self.labels.sort_unstable();
        self.prev.clear();
        self.prev.extend_from_slice(&self.labels);
        self.prev_y = Some(y);
        &self.labels
    }

    /// Ends the tracing: threads still alive are [`End::Open`]. Threads come sorted by id.
    pub fn finish(mut self) -> Traced {
        let ids: Vec<u32> = self.live.keys().copied().collect();
        for id in ids {
            let l = self.live.remove(&id).expect("live");
            self.out.threads.push(l.finish(End::Open));
        }
        self.out.threads.sort_by_key(|t| t.id);
        self.out
    }
}
