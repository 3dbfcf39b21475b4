//! The MPI backend (cargo feature `mpi`): one counter sweep cut into column strips, one per
//! rank of an MPI world, each rank sweeping its strip band by band with the engine's
//! [`run_strip`] and handing its right edge ([`StripEdge::to_bytes`]) to the next rank
//! (`docs/cluster.md`; the strips are the engine's, `engine::strips`). What crosses a cut is a
//! few bytes a row, so rank `p` sweeps band `b` as soon as rank `p - 1` has finished it: a
//! pipeline with a start-up of `P - 1` bands.
//!
//! [`Joined`] is the world this process joined ([`super::World`] holds it); [`palace_count`]
//! the one distributed run so far. Every rank returns the same result, gathered from all of
//! them; which rank writes it is the front end's to say. A rank waiting for a message sleeps
//! between polls instead of spinning, so ranks that share cores leave them to the ones
//! computing, and heeds its cancel token.

use crate::analysis::stats::{PalaceCount, PalaceSum};
use crate::engine::strips::{StripEdge, StripPartition, StripSweep, Transport, run_strip};
use crate::engine::{Cancel, EngineOptions, Progress, SweepReport};
use crate::error::{EngineError, Error, Result};
use mpi::request::{Request, StaticScope};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The MPI world this process joined: initialised once, finalised when dropped.
pub struct Joined {
    universe: mpi::environment::Universe,
    rank: usize,
    size: usize,
}

impl Joined {
    /// Initialises MPI (with threads allowed to call it, so that a panicking worker may abort
    /// the job) and reads this process's rank and the world's size; `None` if MPI was already
    /// initialised.
    pub fn init() -> Option<Joined> {
        let (universe, _provided) = mpi::initialize_with_threading(mpi::Threading::Multiple)?;
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        Some(Joined { universe, rank, size })
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The world's size.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Stops every rank of the world with exit code `code` (`MPI_Abort`).
    pub fn abort(&self, code: i32) -> ! {
        self.universe.world().abort(code)
    }

    /// The MPI library, in one line.
    pub fn library(&self) -> String {
        let v = mpi::environment::library_version().unwrap_or_default();
        v.split([',', '\n']).next().unwrap_or("").trim().to_string()
    }
}

/// The tag of the edges: the sweep has a communicator of its own, and messages between two
/// ranks with one tag arrive in the order sent, so one tag serves every band (each edge also
/// names its band, which the strip checks).
const EDGE_TAG: mpi::Tag = 1;

/// Edges a rank may have in flight to the rank on its right before it waits for the oldest
/// (bounds the memory of the messages, as the in-process channels do).
const IN_FLIGHT: usize = 4;

/// The longest sleep between two polls of a rank that waits: short against a band's time.
const LONGEST_NAP: Duration = Duration::from_micros(500);

/// A [`Transport`] between neighbouring ranks: rank `p` sends its right edge to `p + 1`
/// without waiting (an immediate send, at most [`IN_FLIGHT`] outstanding) and receives its
/// left edge from `p - 1`, polling between naps.
struct MpiTransport<'c> {
    comm: &'c SimpleCommunicator,
    rank: usize,
    cancel: Cancel,
    /// The sends not yet known complete, oldest first; each owns its leaked buffer.
    in_flight: VecDeque<Request<'static, [u8]>>,
    /// Time spent waiting for a message or for room to send one.
    waited: Duration,
}

/// Frees the buffer of a completed send, leaked when it was posted.
fn reclaim(data: &'static [u8]) {
    // SAFETY: `data` is the `Box<[u8]>` leaked in `send_right`; its request has completed, so
    // MPI no longer reads it, and the request, the only other holder, is gone.
    drop(unsafe { Box::from_raw(std::ptr::from_ref(data).cast_mut()) });
}

impl<'c> MpiTransport<'c> {
    fn new(comm: &'c SimpleCommunicator, cancel: Cancel) -> Self {
        MpiTransport {
            comm,
            rank: comm.rank() as usize,
            cancel,
            in_flight: VecDeque::new(),
            waited: Duration::ZERO,
        }
    }

    /// Tests the sends in flight, oldest first, and frees those done (drives MPI's progress).
    fn settle(&mut self) {
        while let Some(req) = self.in_flight.pop_front() {
            match req.test_with_data() {
                Ok((_, data)) => reclaim(data),
                Err(req) => {
                    self.in_flight.push_front(req);
                    break;
                }
            }
        }
    }

    /// Waits, napping between polls, until `done` says so; `done` drives MPI's progress.
    fn nap_until(&mut self, mut done: impl FnMut(&mut Self) -> bool) -> std::result::Result<(), EngineError> {
        let started = Instant::now();
        let mut nap = Duration::from_micros(5);
        while !done(self) {
            self.cancel.check()?;
            std::thread::sleep(nap);
            nap = (nap * 2).min(LONGEST_NAP);
        }
        self.waited += started.elapsed();
        Ok(())
    }

    /// Waits for every send in flight (the end of a successful sweep).
    fn finish(mut self) -> Result<Duration> {
        self.nap_until(|t| {
            t.settle();
            t.in_flight.is_empty()
        })?;
        Ok(self.waited)
    }
}

impl Transport for MpiTransport<'_> {
    fn send_right(&mut self, edge: &StripEdge) -> std::result::Result<(), EngineError> {
        self.settle();
        if self.in_flight.len() >= IN_FLIGHT {
            self.nap_until(|t| {
                t.settle();
                t.in_flight.len() < IN_FLIGHT
            })?;
        }
        let data: &'static [u8] = Box::leak(edge.to_bytes().into_boxed_slice());
        let right = self.comm.process_at_rank(self.rank as mpi::Rank + 1);
        self.in_flight.push_back(right.immediate_send_with_tag(StaticScope, data, EDGE_TAG));
        Ok(())
    }

    fn receive_left(&mut self) -> std::result::Result<StripEdge, EngineError> {
        let left = self.comm.process_at_rank(self.rank as mpi::Rank - 1);
        let mut got = None;
        self.nap_until(|t| {
            t.settle();
            if let Some(probed) = left.immediate_matched_probe_with_tag(EDGE_TAG) {
                got = Some(probed.matched_receive_vec::<u8>().0);
            }
            got.is_some()
        })?;
        let bytes = got.expect("received");
        StripEdge::from_bytes(&bytes).ok_or_else(|| EngineError::Strip {
            strip: self.rank,
            problem: format!("a malformed edge of {} bytes from rank {}", bytes.len(), self.rank - 1),
        })
    }
}

impl Drop for MpiTransport<'_> {
    /// A transport dropped with sends in flight (its sweep failed, and the job is being
    /// aborted): the buffers of the sends not done are leaked, since MPI may still read them,
    /// and their requests forgotten rather than waited for.
    fn drop(&mut self) {
        self.settle();
        for req in self.in_flight.drain(..) {
            std::mem::forget(req);
        }
    }
}

/// Gathers `mine` from every rank into one list, rank 0's first, napping between polls.
fn all_gather(comm: &SimpleCommunicator, mine: &[u64], cancel: &Cancel) -> Result<Vec<u64>> {
    let mut all = vec![0u64; mine.len() * comm.size() as usize];
    mpi::request::scope(|scope| {
        let mut req = comm.immediate_all_gather_into(scope, mine, &mut all[..]);
        let mut nap = Duration::from_micros(5);
        loop {
            match req.test() {
                Ok(_) => return Ok(()),
                Err(r) => req = r,
            }
            if cancel.is_cancelled() {
                // The job is aborted on this error; the request may not be dropped unfinished.
                std::mem::forget(req);
                return Err(Error::INTERRUPTED);
            }
            std::thread::sleep(nap);
            nap = (nap * 2).min(LONGEST_NAP);
        }
    })?;
    Ok(all)
}

/// Refuses a run whose ranks were not all given `what` (the command's parameters): every rank
/// must sweep the same board.
fn agree(comm: &SimpleCommunicator, what: &[u64], words: &str, cancel: &Cancel) -> Result<()> {
    let all = all_gather(comm, what, cancel)?;
    for (rank, theirs) in all.chunks(what.len()).enumerate() {
        if theirs != what {
            return Err(Error::RanksDisagree {
                rank: comm.rank() as usize,
                other: rank,
                detail: format!("{words} {what:?} here, {theirs:?} there"),
            });
        }
    }
    Ok(())
}

/// Refuses to go on unless every rank of the world was given the same `bytes` (`words` says
/// what they are): a rank that ran something else would leave the others waiting for it.
pub fn agree_everywhere(joined: &Joined, bytes: &[u8], words: &str) -> Result<()> {
    let digest = [bytes.len() as u64, u64::from(crc32fast::hash(bytes))];
    agree(&joined.universe.world(), &digest, words, &Cancel::new()).map_err(|e| match e {
        Error::RanksDisagree { rank, other, .. } => {
            Error::RanksDisagree { rank, other, detail: format!("their {words} differ") }
        }
        e => e,
    })
}

/// The fields of a strip's report that add up over the ranks, as numbers.
fn report_numbers(palaces: u64, r: &SweepReport) -> [u64; 13] {
    let ns = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    let w = &r.workers;
    [
        palaces,
        r.region_cells,
        r.hood_filled,
        r.zero_filled,
        r.narrow_computed,
        r.wide_computed,
        r.counter_computed,
        r.tiles,
        ns(w.computing),
        ns(w.visiting),
        ns(w.waiting_above),
        ns(w.waiting_band),
        ns(w.serial),
    ]
}

/// The palace count of the `width x height` board of game `k` over the ranks of `joined`: rank
/// `p` sweeps strip `p` of [`StripPartition::balanced`] on one thread with `opts`'s kernel and
/// tiling, and every rank returns the count and report gathered from all (the report's
/// workers are the ranks; the time a rank waited for its neighbours counts as waiting for the
/// band above). Progress counts this rank's rows.
pub fn palace_count(
    joined: &Joined,
    k: u32,
    width: u32,
    height: u32,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(PalaceCount, SweepReport)> {
    let started = Instant::now();
    // A communicator of the sweep's own, so that its messages meet no others.
    let comm = joined.universe.world().duplicate();
    let cancel = &opts.cancel;
    agree(&comm, &[u64::from(k), u64::from(width), u64::from(height)], "k, width, height", cancel)?;
    let strips = StripPartition::balanced(k, width, height, joined.size)?;
    let sum = PalaceSum::default();
    let mut sweep = StripSweep::new(k, height, &strips, joined.rank, opts, false)?;
    progress.set_length(u64::from(height));
    let mut transport = MpiTransport::new(&comm, cancel.clone());
    let band_height = u64::from(sweep.band_rows(0).1);
    let mut band_done =
        |b: usize| progress.set_position(((b as u64 + 1) * band_height).min(u64::from(height)));
    run_strip(&mut sweep, &mut transport, &sum, &mut band_done)?;
    let waited = transport.finish()?;
    let mut mine = sweep.report(started.elapsed());
    mine.workers.waiting_above += waited;
    let all = all_gather(&comm, &report_numbers(sum.total(), &mine), cancel)?;
    let mut total = [0u64; 13];
    for r in all.chunks(total.len()) {
        for (t, v) in total.iter_mut().zip(r) {
            *t += v;
        }
    }
    let d = Duration::from_nanos;
    let mut report = mine;
    [
        report.region_cells,
        report.hood_filled,
        report.zero_filled,
        report.narrow_computed,
        report.wide_computed,
        report.counter_computed,
        report.tiles,
    ] = total[1..8].try_into().expect("seven counts");
    report.workers.computing = d(total[8]);
    report.workers.visiting = d(total[9]);
    report.workers.waiting_above = d(total[10]);
    report.workers.waiting_band = d(total[11]);
    report.workers.serial = d(total[12]);
    report.threads = joined.size;
    report.elapsed = started.elapsed();
    let cells = u64::from(width) * u64::from(height);
    Ok((PalaceCount { k, width, height, cells, palaces: total[0] }, report))
}
