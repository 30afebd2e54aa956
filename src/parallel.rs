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
    mut merge: impl FnMut(P) -> Result<(), E>,
) -> Result<(), E> {
    let chunk = chunk.max(1);
    let chunks = items.div_ceil(chunk);
    let mut first = 0;
    while first < chunks {
        let last = (first + wave.max(1)).min(chunks);
        let parts: Vec<P> = (first..last)
            .into_par_iter()
            .map(|c| work(c * chunk..((c + 1) * chunk).min(items)))
            .collect();
        for part in parts {
            merge(part)?;
        }
        first = last;
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
