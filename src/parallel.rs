//! The deterministic parallel loop both engines run on. Items `0..n` (battles, games) are cut into
//! chunks whose size the caller derives from `n` alone; chunks run on the rayon pool in waves, and
//! the calling thread takes each wave's results in chunk order. Every item seeds its own random
//! stream from its index, so a result never depends on the thread count, and memory is bounded by
//! one wave of chunk results, however many items run.

use rayon::prelude::*;
use std::ops::Range;

/// Runs `work` on every chunk of `0..items` (chunks of `chunk` items, `wave` chunks at a time) and
/// hands the results to `merge` in chunk order; stops at the first error `merge` returns.
pub fn in_chunks<P: Send, E>(
    items: u64,
    chunk: u64,
    wave: u64,
    work: impl Fn(Range<u64>) -> P + Sync,
    merge: impl FnMut(P) -> Result<(), E>,
) -> Result<(), E> {
    in_chosen_chunks(items, chunk, wave, |_| true, work, merge)
}

/// [`in_chunks`] over only the chunks `keep` accepts (by chunk index, from 0): what one shard of a
/// run plays. The chunks and their items are those of the whole run, so each kept chunk draws
/// exactly the random streams it draws in a single run.
pub fn in_chosen_chunks<P: Send, E>(
    items: u64,
    chunk: u64,
    wave: u64,
    keep: impl Fn(u64) -> bool,
    work: impl Fn(Range<u64>) -> P + Sync,
    mut merge: impl FnMut(P) -> Result<(), E>,
) -> Result<(), E> {
    let chunk = chunk.max(1);
    let chosen: Vec<u64> = (0..items.div_ceil(chunk)).filter(|&c| keep(c)).collect();
    for wave_chunks in chosen.chunks(wave.max(1) as usize) {
        let parts: Vec<P> = wave_chunks
            .par_iter()
            .map(|&c| work(c * chunk..((c + 1) * chunk).min(items)))
            .collect();
        for part in parts {
            merge(part)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_every_item_once_in_order_whatever_the_threads() {
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut seen = Vec::new();
            pool.install(|| {
                in_chunks::<_, ()>(
                    1_001,
                    64,
                    3,
                    |r| r.collect::<Vec<u64>>(),
                    |part| {
                        seen.extend(part);
                        Ok(())
                    },
                )
            })
            .unwrap();
            seen
        };
        let one = run(1);
        assert_eq!(one, (0..1_001).collect::<Vec<u64>>());
        assert_eq!(run(3), one);
    }

    #[test]
    fn chosen_chunks_are_the_whole_runs_chunks() {
        let mut seen = Vec::new();
        in_chosen_chunks::<_, ()>(
            100,
            30,
            2,
            |c| c % 2 == 1,
            |r| r,
            |r| {
                seen.push(r);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, vec![30..60, 90..100]);
    }

    #[test]
    fn a_merge_error_stops_the_loop() {
        let mut merged = 0;
        let result = in_chunks(
            100,
            10,
            2,
            |r| r.start,
            |start| {
                merged += 1;
                if start == 30 {
                    Err(start)
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!((result, merged), (Err(30), 4));
    }
}
