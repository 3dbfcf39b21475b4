//! The parallel PNG encoder behind [`crate::output::png::PngStream`] for large pictures.
//!
//! A PNG's image data is one zlib stream. Batches of scanlines (each with its filter byte) are
//! deflated independently by several threads with [`crate::output::deflate`], an encoder made for these
//! pictures (runs, matches with the row above, two literals per table lookup: on the k = 9999
//! picture it runs at 1.7 GB/s on one core, five times zlib-rs level 1, and its output is 30 %
//! smaller); each piece ends with a sync flush — an empty stored block that leaves it
//! byte-aligned and not final — so the pieces concatenate into one deflate stream, closed by an
//! empty final block. The writer puts the pieces in IDAT chunks in order and combines their
//! Adler-32 checksums (zlib's `adler32_combine`).

use crate::error::{Error, Result};
use crate::output::atomic::AtomicOutput;
use crate::output::deflate::PieceEncoder;
use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

const BASE: u64 = 65521;

/// Adler-32 of `a` followed by `b`, from their checksums and `b`'s length (zlib's
/// `adler32_combine`).
pub(crate) fn adler32_combine(a: u32, b: u32, len_b: u64) -> u32 {
    let rem = len_b % BASE;
    let mut sum1 = u64::from(a & 0xffff);
    let mut sum2 = (rem * sum1) % BASE;
    sum1 += u64::from(b & 0xffff) + BASE - 1;
    sum2 += u64::from(a >> 16) + u64::from(b >> 16) + BASE - rem;
    if sum1 >= BASE {
        sum1 -= BASE;
    }
    if sum1 >= BASE {
        sum1 -= BASE;
    }
    if sum2 >= 2 * BASE {
        sum2 -= 2 * BASE;
    }
    if sum2 >= BASE {
        sum2 -= BASE;
    }
    (sum1 | (sum2 << 16)) as u32
}

fn chunk(w: &mut impl Write, kind: &[u8; 4], data: &[&[u8]]) -> std::io::Result<()> {
    let len: usize = data.iter().map(|d| d.len()).sum();
    w.write_all(&(len as u32).to_be_bytes())?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    w.write_all(kind)?;
    for d in data {
        crc.update(d);
        w.write_all(d)?;
    }
    w.write_all(&crc.finalize().to_be_bytes())
}

/// A whole indexed PNG in memory, deflated in one piece by `encoder`: for small pictures such
/// as the tiles of a pyramid ([`crate::output::dzi`]), which the `png` crate's fast settings
/// compress about three times worse. `scanlines` are the rows of `depth`-bit palette indices,
/// each with its filter byte.
pub(crate) fn encode_in_memory(
    encoder: &mut PieceEncoder,
    width: u32,
    height: u32,
    depth: u8,
    plte: &[u8],
    scanlines: &[u8],
) -> Vec<u8> {
    let stride = (width as usize * usize::from(depth)).div_ceil(8) + 1;
    debug_assert_eq!(scanlines.len(), stride * height as usize);
    let mut w = Vec::with_capacity(scanlines.len() / 4 + 128);
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[depth, 3, 0, 0, 0]);
    // Writing into a Vec cannot fail.
    let ok = |r: std::io::Result<()>| r.expect("writing to memory");
    w.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    ok(chunk(&mut w, b"IHDR", &[&ihdr]));
    ok(chunk(&mut w, b"PLTE", &[plte]));
    // The zlib header, the piece, an empty final fixed-Huffman block, the checksum.
    let mut idat = vec![0x78, 0x01];
    idat = encoder.encode(scanlines, stride, idat);
    idat.extend_from_slice(&[0x03, 0x00]);
    idat.extend_from_slice(&simd_adler32::adler32(&scanlines).to_be_bytes());
    ok(chunk(&mut w, b"IDAT", &[&idat]));
    ok(chunk(&mut w, b"IEND", &[]));
    w
}

type Piece = (usize, Vec<u8>, u32, u64);

/// Writes the PNG: header chunks, then the batches received on `rx` (scanlines of `depth`-bit
/// palette indices with their filter bytes, in order) deflated in parallel, then IEND.
#[allow(clippy::too_many_arguments)]
pub fn encode(
    mut out: AtomicOutput,
    width: u32,
    height: u32,
    depth: u8,
    plte: &[u8],
    text: &[(String, String)],
    rx: Receiver<Vec<u8>>,
    recycle: SyncSender<Vec<u8>>,
    workers: usize,
) -> Result<AtomicOutput> {
    let path = out.path().to_path_buf();
    let io = |e: std::io::Error| Error::io(&path, e);
    let workers = workers.max(1);
    // Vertically adjacent bytes are one scanline (and its filter byte) apart.
    let stride = (width as usize * usize::from(depth)).div_ceil(8) + 1;
    let (job_tx, job_rx) = sync_channel::<(usize, Vec<u8>)>(workers);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (res_tx, res_rx) = sync_channel::<Piece>(workers);
    // Written pieces' buffers go back to the workers: fresh ones would cost page faults.
    let (spare_tx, spare_rx) = sync_channel::<Vec<u8>>(2 * workers);
    let spare_rx = Arc::new(Mutex::new(spare_rx));
    let written: Result<()> = std::thread::scope(|s| {
        for _ in 0..workers {
            let (job_rx, res_tx, recycle) = (Arc::clone(&job_rx), res_tx.clone(), recycle.clone());
            let spare_rx = Arc::clone(&spare_rx);
            let named = std::thread::Builder::new().name("palace-deflate".into());
            named
                .spawn_scoped(s, move || {
                    let mut encoder = PieceEncoder::default();
                    loop {
                        let job = job_rx.lock().map_err(|_| ()).and_then(|q| q.recv().map_err(|_| ()));
                        let Ok((seq, mut data)) = job else { break };
                        let out = spare_rx.lock().ok().and_then(|q| q.try_recv().ok()).unwrap_or_default();
                        let piece = encoder.encode(&data, stride, out);
                        let adler = simd_adler32::adler32(&data.as_slice());
                        if res_tx.send((seq, piece, adler, data.len() as u64)).is_err() {
                            break;
                        }
                        data.clear();
                        let _ = recycle.try_send(data);
                    }
                })
                .map_err(|e| Error::io("PNG deflate worker", e))?;
        }
        // Only the workers hold the job queue and the result senders from here on: if the
        // writer fails, the workers stop, the queue closes, the feeder stops, and the stream's
        // sender sees it — nothing waits forever.
        drop(res_tx);
        drop(job_rx);
        s.spawn(move || {
            for job in rx.into_iter().enumerate() {
                if job_tx.send(job).is_err() {
                    break;
                }
            }
        });
        let mut w = BufWriter::with_capacity(1 << 20, out.file());
        w.write_all(b"\x89PNG\r\n\x1a\n").map_err(io)?;
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        // `depth` bits per pixel, indexed, deflate, no filter set, no interlace.
        ihdr.extend_from_slice(&[depth, 3, 0, 0, 0]);
        chunk(&mut w, b"IHDR", &[&ihdr]).map_err(io)?;
        chunk(&mut w, b"PLTE", &[plte]).map_err(io)?;
        for (k, v) in text {
            chunk(&mut w, b"tEXt", &[k.as_bytes(), &[0], v.as_bytes()]).map_err(io)?;
        }
        // The zlib header (deflate, 32 KiB window, fastest), then the pieces in order.
        chunk(&mut w, b"IDAT", &[&[0x78, 0x01]]).map_err(io)?;
        let mut adler = 1u32;
        let (mut next, mut pending) = (0usize, BTreeMap::new());
        for (seq, piece, a, len) in res_rx {
            pending.insert(seq, (piece, a, len));
            while let Some((mut piece, a, len)) = pending.remove(&next) {
                chunk(&mut w, b"IDAT", &[&piece]).map_err(io)?;
                piece.clear();
                let _ = spare_tx.try_send(piece);
                adler = adler32_combine(adler, a, len);
                next += 1;
            }
        }
        assert!(pending.is_empty(), "every piece written in order");
        // An empty final fixed-Huffman block, then the checksum of all scanlines.
        chunk(&mut w, b"IDAT", &[&[0x03, 0x00], &adler.to_be_bytes()]).map_err(io)?;
        chunk(&mut w, b"IEND", &[]).map_err(io)?;
        w.flush().map_err(io)
    });
    written?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adler_combines() {
        let a = b"the blocking queen".as_slice();
        let b = b" sees her palaces, again and again".as_slice();
        let whole = [a, b].concat();
        let c = adler32_combine(simd_adler32::adler32(&a), simd_adler32::adler32(&b), b.len() as u64);
        assert_eq!(c, simd_adler32::adler32(&whole.as_slice()));
        let big = vec![7u8; 100_000];
        assert_eq!(
            adler32_combine(
                simd_adler32::adler32(&big.as_slice()),
                simd_adler32::adler32(&big.as_slice()),
                100_000
            ),
            simd_adler32::adler32(&[big.as_slice(), big.as_slice()].concat().as_slice())
        );
    }
}
