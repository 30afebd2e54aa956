//! Shards: one run cut into N parts that run anywhere (a Slurm job array, a Kubernetes Indexed
//! Job, N terminals), then merged into exactly the single-machine run's files.
//!
//! The partition. Every runner already plays its games or trials in chunks whose size depends only
//! on the number of games or trials ([`crate::game::run::chunk_size`],
//! [`crate::battle::runner::chunk_size`]), each game or trial on its own random stream. Number
//! the chunks of the whole run in order, case after case (variant, then sweep point) and chunk
//! after chunk within a case: global chunk `g = case × chunks_per_case + chunk`. Shard K of N
//! (K from 1 to N) plays the chunks with `g mod N = K − 1`, round robin, so every shard gets a
//! share of every case when cases have many chunks and a share of the cases when they have few.
//! A battle experiment whose points are answered exactly where possible (`method = "auto"` or
//! `"exact"`) is cut by whole points instead: point `g = variant × points + point` goes to shard
//! `(g mod N) + 1`, exact answer or Monte Carlo alike.
//!
//! What a shard writes, into `out/<name>/shards/K-of-N/` (a temporary folder renamed when
//! whole): `shard.json` (the manifest: experiment name, file, SHA-256, seed, K, N, the
//! command-line overrides, the alea version, the partition) and binary files of exact bits
//! ([`codec`]): a game run's per-case tallies (the 128-bit fixed-point sums) and its chunks' rows;
//! a battle run's per-chunk tallies (their floating-point sums are merged chunk by chunk in order,
//! as a single run merges them) or its points' answers; a ladder's chunks' win shares.
//!
//! The merge ([`load`]) checks that the shards belong together (same kind, file hash, hashes of
//! the scenario and policy files it names, seed, N, overrides and alea version; each K from 1 to
//! N once), reads the experiment file again (its hash, and its data files' hashes, must still
//! match) and runs the usual output code with the games read back from the shards
//! instead of played: tallies, parquet rows (fed to the same writer in the same chunk order, so
//! the row groups are the same) and tables come out byte for byte as a single run's.

pub mod battle;
pub mod codec;
pub mod game;
pub mod inputs;
pub mod ladder;

use crate::error::{AleaError, Result};
use crate::output::{ManifestSource, OutputDir};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file every finished shard folder holds.
pub const MANIFEST: &str = "shard.json";
/// The layout of a shard folder; a merge refuses any other.
const FORMAT: &str = "alea-shard-1";

/// Shard K of N, K counted from 1 (`--shard 1/4` is the first of four). Job arrays count from 0:
/// the scripts in deploy/ pass their index plus one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub k: u64,
    pub n: u64,
}

/// The most shards a run may be cut into.
pub const MAX_SHARDS: u64 = 100_000;

impl Part {
    /// Reads `K/N` (1 ≤ K ≤ N ≤ [`MAX_SHARDS`]).
    pub fn parse(text: &str) -> Result<Part> {
        let bad = || {
            AleaError::input(
                "command line",
                "--shard",
                text,
                format!("K/N with 1 ≤ K ≤ N ≤ {MAX_SHARDS}, e.g. 1/4 for the first of four shards (K counts from 1)"),
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || n > MAX_SHARDS || k == 0 || k > n {
            return Err(bad());
        }
        Ok(Part { k, n })
    }

    /// Whether global chunk (or point) `g` is this shard's.
    pub fn owns(&self, g: u64) -> bool {
        g % self.n == self.k - 1
    }

    /// The shard, 0-based, that owns global chunk `g` of an `n`-shard run.
    pub fn owner(g: u64, n: u64) -> usize {
        (g % n) as usize
    }

    /// The shard's folder name: `K-of-N`.
    pub fn folder(&self) -> String {
        format!("{}-of-{}", self.k, self.n)
    }
}

/// A shard's `shard.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub alea_version: String,
    /// "battle", "game" or "ladder".
    pub kind: String,
    pub experiment: String,
    /// The experiment file as the command line named it.
    pub experiment_file: String,
    /// The same file as an absolute path, in case the merge runs from another folder.
    pub experiment_path: String,
    pub experiment_sha256: String,
    /// The files the experiment names (scenario, policy files) with their SHA-256 ([`inputs`]).
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
    pub seed: u64,
    pub shard: u64,
    pub shards: u64,
    /// The command-line values given that change the results (`--games`, `--seed`), as given.
    pub overrides: Map<String, Json>,
    /// What the partition and the results depend on besides the file and seed, as run: the games
    /// per case (`games`) or trials per point (`trials`). Shards must agree on it.
    pub settings: Map<String, Json>,
    pub partition: String,
    #[serde(default)]
    pub wall_time_seconds: f64,
    #[serde(default)]
    pub threads: usize,
}

impl Manifest {
    /// Whether `other` is a shard of the same run: all but K, the timing, and the command line's
    /// wording (`--seed 1` where the file says `seed = 1` is the same run).
    fn same_run(&self, other: &Manifest) -> bool {
        self.kind == other.kind
            && self.experiment_sha256 == other.experiment_sha256
            && self.inputs == other.inputs
            && self.seed == other.seed
            && self.shards == other.shards
            && self.settings == other.settings
            && self.alea_version == other.alea_version
            && self.format == other.format
    }
}

/// How one shard of a run is to be played and where it goes.
pub struct Job {
    pub out_root: PathBuf,
    pub part: Part,
    /// Play it again even when it is finished.
    pub force: bool,
    pub overrides: Map<String, Json>,
    pub show_progress: bool,
}

/// What a shard run did.
pub enum Outcome {
    Played {
        dir: PathBuf,
        seconds: f64,
    },
    /// Finished before with the same experiment, seed and settings: nothing done.
    AlreadyDone {
        dir: PathBuf,
    },
}

impl Outcome {
    pub fn dir(&self) -> &Path {
        match self {
            Outcome::Played { dir, .. } | Outcome::AlreadyDone { dir } => dir,
        }
    }
}

/// A shard being written: its temporary folder and manifest.
pub struct Started {
    pub dir: OutputDir,
    manifest: Manifest,
    started: std::time::Instant,
}

impl Job {
    /// Starts the shard of `source`'s run, or [`Outcome::AlreadyDone`] when it is already
    /// finished with the same file, seed and settings (and `--force` was not given).
    pub fn start(
        &self,
        kind: &str,
        source: &ManifestSource,
        path: &Path,
        seed: u64,
        settings: Map<String, Json>,
        partition: String,
    ) -> Result<std::result::Result<Started, Outcome>> {
        let manifest = Manifest {
            format: FORMAT.into(),
            alea_version: env!("CARGO_PKG_VERSION").into(),
            kind: kind.into(),
            experiment: source.name.into(),
            experiment_file: source.file.into(),
            experiment_path: std::path::absolute(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .display()
                .to_string(),
            experiment_sha256: source.sha256.into(),
            inputs: inputs::hashed(path)?,
            seed,
            shard: self.part.k,
            shards: self.part.n,
            overrides: self.overrides.clone(),
            settings,
            partition,
            wall_time_seconds: 0.0,
            threads: rayon::current_num_threads(),
        };
        let shards = self.out_root.join(source.name).join("shards");
        let target = shards.join(self.part.folder());
        if !self.force {
            if let Ok(old) = read_manifest(&target) {
                if old.same_run(&manifest) && old.shard == manifest.shard {
                    return Ok(Err(Outcome::AlreadyDone { dir: target }));
                }
            }
        }
        let dir = OutputDir::create(&shards, &self.part.folder())?;
        Ok(Ok(Started {
            dir,
            manifest,
            started: std::time::Instant::now(),
        }))
    }
}

impl Started {
    /// Writes shard.json and puts the folder in place (replacing an older run of this shard).
    pub fn finish(mut self) -> Result<Outcome> {
        let seconds = self.started.elapsed().as_secs_f64();
        self.manifest.wall_time_seconds = (seconds * 1000.0).round() / 1000.0;
        let text = serde_json::to_string_pretty(&self.manifest)
            .map_err(|e| AleaError::Internal(e.to_string()))?;
        crate::output::write_atomic(&self.dir.path(MANIFEST), (text + "\n").as_bytes())?;
        let dir = self.dir.commit()?;
        Ok(Outcome::Played { dir, seconds })
    }
}

fn read_manifest(dir: &Path) -> Result<Manifest> {
    let path = dir.join(MANIFEST);
    let shown = dir.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|_| {
        AleaError::invalid(
            &shown,
            format!(
                "no readable {MANIFEST}: not a finished shard (run it, or rerun it with --force)"
            ),
        )
    })?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        AleaError::invalid(&shown, format!("{MANIFEST} is not a shard manifest ({e})"))
    })?;
    if manifest.format != FORMAT {
        return Err(AleaError::invalid(
            &shown,
            format!(
                "shard format \"{}\", but this alea merges \"{FORMAT}\"",
                manifest.format
            ),
        ));
    }
    Ok(manifest)
}

/// The shards of one run, checked to belong together, in order of K.
pub struct ShardSet {
    pub manifest: Manifest,
    /// `dirs[k - 1]`: shard K's folder.
    pub dirs: Vec<PathBuf>,
}

/// What differs between two shards' manifests, said for the error.
fn difference(a: &Manifest, b: &Manifest) -> String {
    if a.kind != b.kind {
        format!("is a {} run, but {{other}} is a {} run", a.kind, b.kind)
    } else if a.experiment_sha256 != b.experiment_sha256 {
        format!(
            "ran {} (SHA-256 {}…), but {{other}} ran {} (SHA-256 {}…)",
            a.experiment_file,
            &a.experiment_sha256[..12.min(a.experiment_sha256.len())],
            b.experiment_file,
            &b.experiment_sha256[..12.min(b.experiment_sha256.len())]
        )
    } else if let Some(why) = inputs::difference(&b.inputs, &a.inputs) {
        format!("read other data than {{other}}: {why}")
    } else if a.seed != b.seed {
        format!("has seed {}, but {{other}} has seed {}", a.seed, b.seed)
    } else if a.shards != b.shards {
        format!(
            "is one of {} shards, but {{other}} is one of {}",
            a.shards, b.shards
        )
    } else if a.settings != b.settings {
        format!(
            "ran with {}, but {{other}} with {}",
            Json::Object(a.settings.clone()),
            Json::Object(b.settings.clone())
        )
    } else {
        format!(
            "was written by alea {}, but {{other}} by alea {}",
            a.alea_version, b.alea_version
        )
    }
}

/// Reads and checks the shard folders given to `alea merge`.
pub fn load(dirs: &[PathBuf]) -> Result<ShardSet> {
    let Some(first_dir) = dirs.first() else {
        return Err(AleaError::invalid(
            "alea merge",
            "no shard folders given (e.g. alea merge out/<name>/shards/*)",
        ));
    };
    let first = read_manifest(first_dir)?;
    let mut slots: Vec<Option<PathBuf>> = vec![None; first.shards as usize];
    for dir in dirs {
        let m = read_manifest(dir)?;
        let shown = dir.display().to_string();
        if !m.same_run(&first) {
            let why = difference(&m, &first).replace("{other}", &first_dir.display().to_string());
            return Err(AleaError::invalid(
                shown,
                format!("{why}: shards of one run share the file, seed, shard count, games or trials, and alea version"),
            ));
        }
        if m.shard == 0 || m.shard > m.shards {
            return Err(AleaError::invalid(
                shown,
                format!("claims to be shard {} of {}", m.shard, m.shards),
            ));
        }
        let slot = &mut slots[m.shard as usize - 1];
        if let Some(other) = slot {
            return Err(AleaError::invalid(
                shown,
                format!(
                    "shard {} of {} is given twice (also as {})",
                    m.shard,
                    m.shards,
                    other.display()
                ),
            ));
        }
        *slot = Some(dir.clone());
    }
    let missing: Vec<String> = (1..=first.shards)
        .filter(|k| slots[*k as usize - 1].is_none())
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(AleaError::invalid(
            "alea merge",
            format!(
                "shard(s) {} of {} missing (given {} folder(s), from {}): run them, then merge all {}",
                missing.join(", "),
                first.shards,
                dirs.len(),
                first_dir.display(),
                first.shards
            ),
        ));
    }
    Ok(ShardSet {
        manifest: first,
        dirs: slots
            .into_iter()
            .map(|d| d.expect("every slot checked"))
            .collect(),
    })
}

impl ShardSet {
    /// The experiment file the shards ran: as they named it, else by its absolute path; its
    /// SHA-256 must still be the shards'.
    pub fn experiment_file(&self) -> Result<PathBuf> {
        let m = &self.manifest;
        let named = PathBuf::from(&m.experiment_file);
        let path = if named.exists() {
            named
        } else {
            PathBuf::from(&m.experiment_path)
        };
        let bytes = std::fs::read(&path).map_err(|e| {
            AleaError::invalid(
                &m.experiment_file,
                format!(
                    "cannot read the experiment file the shards ran (also tried {}): {e}",
                    m.experiment_path
                ),
            )
        })?;
        let sha = crate::output::sha256_hex(&bytes);
        if sha != m.experiment_sha256 {
            return Err(AleaError::invalid(
                path.display().to_string(),
                format!(
                    "changed since the shards ran (SHA-256 now {}…, the shards' {}…): rerun the shards",
                    &sha[..12],
                    &m.experiment_sha256[..12.min(m.experiment_sha256.len())]
                ),
            ));
        }
        if let Some(why) = inputs::difference(&m.inputs, &inputs::hashed(&path)?) {
            return Err(AleaError::invalid(
                path.display().to_string(),
                format!("its data changed since the shards ran: {why}; rerun the shards"),
            ));
        }
        Ok(path)
    }

    /// Where the merged `<name>/` goes when `--out` is not given: beside the shards when they sit
    /// in `<root>/<name>/shards/`, else `out`.
    pub fn default_out_root(&self) -> PathBuf {
        let dir = &self.dirs[0];
        let shards = dir.parent();
        let named = shards.and_then(Path::parent);
        match (shards, named) {
            (Some(s), Some(n))
                if s.file_name().is_some_and(|f| f == "shards")
                    && n.file_name()
                        .is_some_and(|f| f.to_str() == Some(&self.manifest.experiment)) =>
            {
                match n.parent() {
                    Some(root) if !root.as_os_str().is_empty() => root.to_path_buf(),
                    _ => PathBuf::from("."),
                }
            }
            _ => PathBuf::from("out"),
        }
    }

    /// Every shard's file `name`, opened, in order of K.
    pub fn open_all(&self, name: &str, magic: &str) -> Result<Vec<codec::Decoder>> {
        self.dirs
            .iter()
            .map(|d| codec::Decoder::open(&d.join(name), magic))
            .collect()
    }
}

/// A shard's `overrides`: the command-line values given that change results (recorded, not
/// compared: the seed and [`Manifest::settings`] are).
pub fn overrides(games: Option<u64>, seed: Option<u64>) -> Map<String, Json> {
    let mut map = Map::new();
    if let Some(g) = games {
        map.insert("games".into(), g.into());
    }
    if let Some(s) = seed {
        map.insert("seed".into(), s.into());
    }
    map
}

/// One setting as [`Manifest::settings`] holds it.
pub fn setting(name: &str, value: u64) -> Map<String, Json> {
    let mut map = Map::new();
    map.insert(name.into(), value.into());
    map
}

/// Checks that every decoder has nothing left: a shard with more than the run needs is damaged.
pub fn expect_end(decoders: &mut [codec::Decoder]) -> Result<()> {
    for d in decoders {
        if d.next_u64()?.is_some() {
            return Err(d.damaged("it holds more than the experiment has"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
