//! The binary files a shard writes: every number as its exact bits (little-endian integers, `f64`
//! by `to_bits`, the 128-bit fixed-point sums whole), so a merge reads back exactly what the
//! shard computed. A list is its length then its items. A file starts with a magic line naming
//! what it holds; a reader that finds anything else, or a file cut short, says so in one line.

use crate::battle::{Est, Estimates, Method, PmfEst, Schema, Tally};
use crate::error::{AleaError, Result};
use crate::game::run::{ChunkRows, TurnRows};
use crate::game::tally::{ExactSum, GameTally, Moments, Shape};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

pub struct Encoder {
    out: BufWriter<File>,
    path: PathBuf,
}

impl Encoder {
    pub fn create(path: &Path, magic: &str) -> Result<Encoder> {
        let file = File::create(path).map_err(|e| AleaError::io(path, e))?;
        let mut enc = Encoder {
            out: BufWriter::with_capacity(1 << 20, file),
            path: path.to_path_buf(),
        };
        enc.bytes(magic.as_bytes())?;
        Ok(enc)
    }

    fn bytes(&mut self, b: &[u8]) -> Result<()> {
        self.out
            .write_all(b)
            .map_err(|e| AleaError::io(&self.path, e))
    }

    pub fn u64(&mut self, x: u64) -> Result<()> {
        self.bytes(&x.to_le_bytes())
    }

    fn f64(&mut self, x: f64) -> Result<()> {
        self.u64(x.to_bits())
    }

    fn len(&mut self, n: usize) -> Result<()> {
        self.u64(n as u64)
    }

    fn u64s(&mut self, xs: &[u64]) -> Result<()> {
        self.len(xs.len())?;
        xs.iter().try_for_each(|&x| self.u64(x))
    }

    fn u32s(&mut self, xs: &[u32]) -> Result<()> {
        self.len(xs.len())?;
        xs.iter().try_for_each(|&x| self.bytes(&x.to_le_bytes()))
    }

    pub fn f64s(&mut self, xs: &[f64]) -> Result<()> {
        self.len(xs.len())?;
        xs.iter().try_for_each(|&x| self.f64(x))
    }

    fn moments(&mut self, xs: &[Moments]) -> Result<()> {
        self.len(xs.len())?;
        for m in xs {
            self.bytes(&m.sum.bits().to_le_bytes())?;
            self.bytes(&m.squares.bits().to_le_bytes())?;
        }
        Ok(())
    }

    fn est(&mut self, e: &Est) -> Result<()> {
        self.f64(e.value)?;
        match e.se {
            None => self.bytes(&[0]),
            Some(se) => {
                self.bytes(&[1])?;
                self.f64(se)
            }
        }
    }

    fn ests(&mut self, xs: &[Est]) -> Result<()> {
        self.len(xs.len())?;
        xs.iter().try_for_each(|e| self.est(e))
    }

    pub fn game_tally(&mut self, t: &GameTally) -> Result<()> {
        self.u64(t.games)?;
        self.moments(&t.win)?;
        self.moments(&t.score)?;
        self.f64s(&t.score_min)?;
        self.f64s(&t.score_max)?;
        self.u64s(&t.endings)?;
        self.u64s(&t.length)?;
        self.moments(&t.extra)?;
        self.u64s(&t.turns.running)?;
        self.moments(&t.turns.player)?;
        self.moments(&t.turns.global)
    }

    pub fn chunk_rows(&mut self, r: &ChunkRows) -> Result<()> {
        self.u64(r.first_game)?;
        self.u32s(&r.turns)?;
        self.u32s(&r.ending)?;
        self.f64s(&r.win)?;
        self.f64s(&r.score)?;
        self.f64s(&r.extra)?;
        let t = &r.turn_rows;
        self.u64s(&t.game)?;
        self.u32s(&t.turn)?;
        self.f64s(&t.per_player)?;
        self.f64s(&t.global)
    }

    pub fn battle_tally(&mut self, t: &Tally) -> Result<()> {
        self.u64(t.trials)?;
        self.u64s(&t.outcomes)?;
        self.u64s(t.bins())?;
        self.f64s(&t.sums)?;
        self.f64s(&t.sums_sq)
    }

    pub fn estimates(&mut self, e: &Estimates) -> Result<()> {
        self.u64(match e.method {
            Method::Exact => 0,
            Method::MonteCarlo => 1,
        })?;
        match e.trials {
            None => self.bytes(&[0])?,
            Some(n) => {
                self.bytes(&[1])?;
                self.u64(n)?;
            }
        }
        self.ests(&e.outcomes)?;
        self.len(e.counts.len())?;
        for c in &e.counts {
            self.est(&c.mean)?;
            self.ests(&c.pmf)?;
        }
        self.ests(&e.scalars)
    }

    pub fn finish(mut self) -> Result<()> {
        self.out.flush().map_err(|e| AleaError::io(&self.path, e))
    }
}

pub struct Decoder {
    input: BufReader<File>,
    path: PathBuf,
}

/// Lists longer than this are a damaged file, not data (a guard before allocating).
const MAX_LEN: u64 = 1 << 36;

impl Decoder {
    pub fn open(path: &Path, magic: &str) -> Result<Decoder> {
        let file = File::open(path).map_err(|e| AleaError::io(path, e))?;
        let mut dec = Decoder {
            input: BufReader::with_capacity(1 << 20, file),
            path: path.to_path_buf(),
        };
        let mut head = vec![0; magic.len()];
        if dec.input.read_exact(&mut head).is_err() || head != magic.as_bytes() {
            return Err(dec.damaged(&format!("it does not start with `{}`", magic.trim())));
        }
        Ok(dec)
    }

    pub fn damaged(&self, why: &str) -> AleaError {
        AleaError::invalid(
            self.path.display().to_string(),
            format!("not a whole shard file ({why}): rerun that shard with --force"),
        )
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut b = [0; N];
        self.input
            .read_exact(&mut b)
            .map_err(|_| self.damaged("it ends too early"))?;
        Ok(b)
    }

    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// The next u64, or `None` at the very end of the file.
    pub fn next_u64(&mut self) -> Result<Option<u64>> {
        let mut b = [0u8; 8];
        let mut got = 0;
        while got < 8 {
            match self.input.read(&mut b[got..]) {
                Ok(0) if got == 0 => return Ok(None),
                Ok(0) => return Err(self.damaged("it ends too early")),
                Ok(n) => got += n,
                Err(e) => return Err(AleaError::io(&self.path, e)),
            }
        }
        Ok(Some(u64::from_le_bytes(b)))
    }

    fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }

    fn len(&mut self) -> Result<usize> {
        let n = self.u64()?;
        if n > MAX_LEN {
            return Err(self.damaged(&format!("a list of {n} items")));
        }
        Ok(n as usize)
    }

    /// A list of exactly `want` items (the length the schema or shape gives).
    fn len_of(&mut self, want: usize, what: &str) -> Result<usize> {
        let n = self.len()?;
        if n != want {
            return Err(self.damaged(&format!("{n} {what} where the experiment has {want}")));
        }
        Ok(n)
    }

    fn u64s(&mut self) -> Result<Vec<u64>> {
        let n = self.len()?;
        (0..n).map(|_| self.u64()).collect()
    }

    fn u32s(&mut self) -> Result<Vec<u32>> {
        let n = self.len()?;
        (0..n)
            .map(|_| Ok(u32::from_le_bytes(self.array()?)))
            .collect()
    }

    pub fn f64s(&mut self) -> Result<Vec<f64>> {
        let n = self.len()?;
        (0..n).map(|_| self.f64()).collect()
    }

    fn fill_u64s(&mut self, into: &mut [u64], what: &str) -> Result<()> {
        self.len_of(into.len(), what)?;
        into.iter_mut().try_for_each(|x| {
            *x = self.u64()?;
            Ok(())
        })
    }

    fn fill_f64s(&mut self, into: &mut [f64], what: &str) -> Result<()> {
        self.len_of(into.len(), what)?;
        into.iter_mut().try_for_each(|x| {
            *x = self.f64()?;
            Ok(())
        })
    }

    fn fill_moments(&mut self, into: &mut [Moments], what: &str) -> Result<()> {
        self.len_of(into.len(), what)?;
        for m in into {
            m.sum = ExactSum::from_bits(i128::from_le_bytes(self.array()?));
            m.squares = ExactSum::from_bits(i128::from_le_bytes(self.array()?));
        }
        Ok(())
    }

    fn est(&mut self) -> Result<Est> {
        let value = self.f64()?;
        let se = match self.array::<1>()?[0] {
            0 => None,
            1 => Some(self.f64()?),
            b => return Err(self.damaged(&format!("a flag byte {b}"))),
        };
        Ok(Est { value, se })
    }

    fn ests(&mut self) -> Result<Vec<Est>> {
        let n = self.len()?;
        (0..n).map(|_| self.est()).collect()
    }

    pub fn game_tally(&mut self, shape: Shape) -> Result<GameTally> {
        let mut t = GameTally::new(shape);
        t.games = self.u64()?;
        self.fill_moments(&mut t.win, "players")?;
        self.fill_moments(&mut t.score, "players")?;
        self.fill_f64s(&mut t.score_min, "players")?;
        self.fill_f64s(&mut t.score_max, "players")?;
        self.fill_u64s(&mut t.endings, "endings")?;
        self.fill_u64s(&mut t.length, "turns")?;
        self.fill_moments(&mut t.extra, "extra columns")?;
        self.fill_u64s(&mut t.turns.running, "turns")?;
        self.fill_moments(&mut t.turns.player, "per-player turn cells")?;
        self.fill_moments(&mut t.turns.global, "global turn cells")?;
        Ok(t)
    }

    pub fn chunk_rows(&mut self) -> Result<ChunkRows> {
        Ok(ChunkRows {
            first_game: self.u64()?,
            turns: self.u32s()?,
            ending: self.u32s()?,
            win: self.f64s()?,
            score: self.f64s()?,
            extra: self.f64s()?,
            turn_rows: TurnRows {
                game: self.u64s()?,
                turn: self.u32s()?,
                per_player: self.f64s()?,
                global: self.f64s()?,
            },
        })
    }

    pub fn battle_tally(&mut self, schema: &Schema) -> Result<Tally> {
        let mut t = Tally::new(schema);
        t.trials = self.u64()?;
        self.fill_u64s(&mut t.outcomes, "outcomes")?;
        let bins = t.bins().len();
        self.len_of(bins, "histogram bins")?;
        for i in 0..bins {
            t.bins_mut()[i] = self.u64()?;
        }
        self.fill_f64s(&mut t.sums, "scalars")?;
        self.fill_f64s(&mut t.sums_sq, "scalars")?;
        Ok(t)
    }

    pub fn estimates(&mut self) -> Result<Estimates> {
        let method = match self.u64()? {
            0 => Method::Exact,
            1 => Method::MonteCarlo,
            m => return Err(self.damaged(&format!("method {m}"))),
        };
        let trials = match self.array::<1>()?[0] {
            0 => None,
            1 => Some(self.u64()?),
            b => return Err(self.damaged(&format!("a flag byte {b}"))),
        };
        let outcomes = self.ests()?;
        let n = self.len()?;
        let counts = (0..n)
            .map(|_| {
                Ok(PmfEst {
                    mean: self.est()?,
                    pmf: self.ests()?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Estimates {
            method,
            trials,
            outcomes,
            counts,
            scalars: self.ests()?,
        })
    }
}
