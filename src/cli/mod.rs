//! The `alea` command line.

use crate::battle::experiment::Experiment;
use crate::battle::report::OddsAnswer;
use crate::battle::sweep::{loss_pmf, run, PointSummary, RunSettings};
use crate::battle::Estimates;
use crate::battle::McRun;
use crate::error::{AleaError, Result};
use crate::game::experiment::{load_any, AnyExperiment};
use crate::game::ladder::{ladder, LadderSettings};
use crate::game::replay::replay;
use crate::game::report::run_text;
use crate::game::sweep::{run_games, GameRunSettings};
use crate::game::tune::{tune, TuneSettings};
use crate::options::{OptionKind, RuleOption};
use crate::progress::Progress;
use crate::rulesets::{load_battle, RULESETS};
use crate::spec::{parse_assignments, parse_value, set_dotted};
use clap::{Args, Parser, Subcommand};
use serde_json::json;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;
use toml::{Table, Value};

const EXAMPLES: &str = "\
Examples:
  alea list
  alea odds mare-nostrum field --attacker infantry=10,cavalry=5,leader=1 --defender infantry=12,leader=0
  alea odds mare-nostrum field --attacker infantry=10,cavalry=5,leader=1 --defender infantry=12,leader=0 --trials 1000000 --json
  alea odds mare-nostrum naval --attacker fleets=20,ports=2 --defender fleets=15 --option port_modifier=floor-half
  alea odds mare-nostrum assault --attacker infantry=8 --defender garrison=4,ppu=6 --set orders=3
  alea odds republica-de-roma land --war \"2nd Punic War\" --legions 10 --veterans 2 --fleets 5 --commander \"P. Cornelius Scipio Africanus\"
  alea odds invasions basic -a infantry=6,heavy_cavalry=2,leader=2 -d nation=empire,rome=true,legion=2,auxiliary_infantry=2,leader=1 --set terrain=forest
  alea odds invasions advanced --file experiments/battles/invasions-advanced.toml --option forest_penalty=literal
  alea odds invasions siege --file experiments/battles/invasions-siege.toml --set turns=3
  alea odds --file experiments/battles/ms-field.toml --set defender.tactic=best-response
  alea odds --file experiments/battles/ms-field.toml --set resolution=10 --exact
  alea odds mediterraneo-sanguinolento assault --file experiments/battles/ms-assault.toml --set months_besieged=3
  alea odds --file experiments/battles/idm-expedition.toml --set arrival=landing
  alea odds --file experiments/battles/field.toml --chart out/odds
  alea run experiments/quickstart.toml
  alea run experiments/invasions-systems.toml
  alea run experiments/ms-tactics.toml
  alea run experiments/idm-assault-grid.toml
  alea run experiments/mare-nostrum-punic-balance.toml --games 20000 --threads 2
  alea run experiments/ror-treasury-sweep.toml --shard 1/4     (one of 4 shards, on any machine)
  alea merge out/ror-treasury-sweep/shards/*
  alea replay experiments/mare-nostrum-punic-balance.toml --game 17
  alea tune experiments/ror-competent.toml
  alea ladder experiments/mare-nostrum-ladder.toml";

#[derive(Parser)]
#[command(
    name = "alea",
    version,
    about = "Battle odds and game balance for five Spanish-language historical strategy games, exact and by Monte Carlo",
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the rulesets, their battles and battle-file keys, rule options and scenarios
    #[command(after_help = "Examples:\n  alea list\n  alea list mare-nostrum\n  alea list --json")]
    List {
        /// Only this ruleset
        ruleset: Option<String>,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Write the reference page of every ruleset (battles, keys, rule options, scenarios,
    /// policies) from the code's own declarations
    #[command(after_help = "Examples:\n  alea docs\n  alea docs --out /tmp/pages")]
    Docs {
        /// Where the pages go
        #[arg(long, default_value = crate::rulesets::reference::DOCS_DIR)]
        out: PathBuf,
    },
    /// The odds of one battle: outcome probabilities, expected losses, loss distributions
    #[command(after_help = EXAMPLES)]
    Odds(Box<OddsArgs>),
    /// Run an experiment file, written to out/<name>/ with tables and charts: a battle or a sweep
    /// of battles ([battle] table), or many automated games ([game] table)
    #[command(after_help = RUN_EXAMPLES)]
    Run(RunArgs),
    /// Replay one game of a game experiment with its turn-by-turn log: the same model, seed and
    /// random stream as `alea run`, so game N is the row `game = N` of games.parquet
    #[command(after_help = REPLAY_EXAMPLES)]
    Replay(ReplayArgs),
    /// Tune policy parameters seat by seat against the others' play (iterated best response):
    /// writes out/<name>/tuned-policies.toml, tuning.csv, a chart per round and summary.json
    #[command(after_help = TUNE_EXAMPLES)]
    Tune(CompeteArgs),
    /// Merge the shards of a run (`alea run --shard K/N`, `alea ladder --shard K/N`) into the
    /// usual out/<name>/, byte for byte what a single run writes
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
    /// The skill ladder: every pair of rungs (random < scripted < tuned < search) and every seat,
    /// the seat on the higher rung against the lower rung; writes ladder.csv and a matrix chart
    #[command(after_help = LADDER_EXAMPLES)]
    Ladder(CompeteArgs),
    /// The battle calculator as a local web page: a form per ruleset and battle, the answer with
    /// charts, a shareable URL; and the JSON API (POST /api/odds, GET /api/schema)
    #[command(after_help = SERVE_EXAMPLES)]
    Serve {
        /// The port to listen on (0: any free port)
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on (0.0.0.0 to be reachable from other machines)
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
    },
}

const SERVE_EXAMPLES: &str = "\
Examples:
  alea serve                      (then open http://127.0.0.1:8080/)
  alea serve --port 9000 --host 0.0.0.0
  curl -s --data-binary @experiments/battles/field.toml http://127.0.0.1:8080/api/odds
  curl -s -H 'Content-Type: application/json' -d '{\"ruleset\":\"mare-nostrum\",\"battle\":\"naval\",\"attacker\":{\"fleets\":5},\"defender\":{\"fleets\":4}}' 'http://127.0.0.1:8080/api/odds?trials=100000&seed=7'

POST /api/odds answers the JSON of `alea odds --json` for the battle file in the body (TOML, or
JSON by Content-Type or a body starting with `{`); ?trials=N&seed=S are --trials and --seed. Bad
input: HTTP 400 with the command line's message ({\"error\", \"field\"}). Each request is bounded
(a Monte Carlo default and cap on trials, a time budget checked by a timed pilot run, a body size);
the bounds are printed when the server starts. GET /api/schema is `alea list --json`.";

const TUNE_EXAMPLES: &str = "\
Examples:
  alea tune experiments/mare-nostrum-competent.toml
  alea tune experiments/ror-competent.toml --seed 7 --threads 2 --json

The file is a game experiment with a [tune] table:
  [tune]
  games = 2000                        # games per candidate (last halving rung)
  validation = 2000                   # fresh games each validation plays (default: games)
  candidates = 16                     # per seat and round, the incumbent among them
  rounds = 4                          # best-response rounds at most
  margin = 0.01                       # converged once no seat gains more than this
  converge_on = \"estimate\"            # the measured gains, or \"upper\": their 95% upper ends
  step = 1.0                          # share of the way an adopted seat moves to its best response
  ends = false                        # confirm convergence by moving one number at a time to an end
  objective = \"win\"                   # or \"score\", or { avoid = \"Rome falls (any cause)\" }
  [tune.players.rome]                 # a player's policy parameters
  policy = \"aggressor\"
  aggression = [0.0, 1.0]             # a range, or { values = [0.2, 0.5] }
  [tune.shared.senate]                # numbers of [game] no player owns
  objective = { avoid = \"Rome falls (any cause)\" }
  \"senate.reserve\" = [0, 100]

Load the result with [game] policies_from = \"out/<name>/tuned-policies.toml\" (or a copy of it).
Results do not depend on --threads. Tuning cannot be cut into shards (--shard): each round's
candidates depend on the results of the rounds before it; it uses every core of one machine.";

const LADDER_EXAMPLES: &str = "\
Examples:
  alea ladder experiments/mare-nostrum-ladder.toml
  alea ladder experiments/ror-ladder.toml --games 500 --json

The file is a game experiment with a [ladder] table, rungs lowest first:
  [ladder]
  games = 2000
  [[ladder.rungs]]
  name = \"random\"
  policy = \"random\"                   # every player
  [[ladder.rungs]]
  name = \"scripted\"                   # [game.policies] as written
  [[ladder.rungs]]
  name = \"tuned\"
  policies_from = \"experiments/tuned/mare-nostrum.toml\"
  [[ladder.rungs]]
  name = \"search\"
  policy = { policy = \"search\", budget = 32 }
  rollout_from = \"tuned\"

ladder.csv: game, higher_rung, lower_rung, seat, games, win_share, baseline_share, ratio, ci_low,
ci_high; the rows with seat = all pool the seats. A ratio whose CI lies above 1 means the higher
rung wins more than the lower one. Results do not depend on --threads.

On a cluster: `alea ladder FILE --shard K/N` plays shard K of N of every cell's games into
out/<name>/shards/K-of-N/; `alea merge out/<name>/shards/*` writes ladder.csv as a single run.";

#[derive(Args)]
struct CompeteArgs {
    /// The game experiment file (TOML) with a [tune] or [ladder] table
    experiment: PathBuf,
    /// Games per candidate (tune) or per seat and pair of rungs (ladder), instead of the file's
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games: Option<u64>,
    /// (--shard: ladder only; tune cannot be sharded, each round depends on the last one's results)
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    run: RunOutput,
}

const MERGE_EXAMPLES: &str = "\
Examples:
  alea run experiments/mare-nostrum-punic-balance.toml --shard 1/4    (and 2/4, 3/4, 4/4, anywhere)
  alea merge out/mare-nostrum-punic-balance/shards/*

The shards must be of one run: the same experiment file (SHA-256), seed, shard count, --games and
alea version, each K from 1 to N once; otherwise a one-line error names the shard, and nothing is
written. The experiment file must still be readable (and unchanged) where the shards ran it.
Scripts for Slurm job arrays and Kubernetes Indexed Jobs: deploy/README.md.";

const RUN_EXAMPLES: &str = "\
Examples:
  alea run experiments/quickstart.toml
  alea run experiments/naval-sweep.toml --out /tmp/results
  alea run experiments/winner-readings.toml --json
  alea run experiments/mare-nostrum-punic-balance.toml
  alea run experiments/mare-nostrum-punic-balance.toml --games 1000 --seed 7 --threads 2 --json

A game experiment writes games.parquet (one row per game), turns.parquet (with per_turn_rows = true),
summary.csv, endings.csv, turn-summary.csv, summary.json, manifest.json and the charts win-rates,
endings, game-length and score-over-turns (PNG + SVG). Results do not depend on --threads.

On a cluster: `--shard K/N` plays only shard K of N (K from 1) into out/<name>/shards/K-of-N/, a
fixed share of every case's chunks of games (or trials); `alea merge out/<name>/shards/*` then
writes out/<name>/ byte for byte as a single run would. A finished shard is not played again
unless --force. See `alea merge --help` and deploy/README.md.";

const REPLAY_EXAMPLES: &str = "\
Examples:
  alea replay experiments/mare-nostrum-punic-balance.toml --game 17
  alea replay experiments/mare-nostrum-punic-balance.toml --game 17 --variant \"no VP for investing at Optimal\" --point 2
  alea replay experiments/mare-nostrum-punic-balance.toml --game 17 --seed 7 --json

--variant and --point pick the case as the `variant` and `point` columns of games.parquet name it
(default: the first variant, point 0); give --seed when the run was made with --seed.";

#[derive(Args)]
struct OddsArgs {
    /// Ruleset slug (see `alea list`); optional with --file
    ruleset: Option<String>,
    /// Battle type, e.g. field, naval, assault, siege
    battle: Option<String>,
    /// The attacker, as key=value pairs: infantry=10,cavalry=5,leader=1
    #[arg(long, short = 'a', value_name = "SPEC")]
    attacker: Option<String>,
    /// The defender, as key=value pairs: infantry=12,leader=0
    #[arg(long, short = 'd', value_name = "SPEC")]
    defender: Option<String>,
    /// República de Roma: the war, by name from the data (= --set war.name=NAME)
    #[arg(long, value_name = "NAME", help_heading = "República de Roma")]
    war: Option<String>,
    /// República de Roma: regular legions (= --set rome.legions=N)
    #[arg(long, value_name = "N", help_heading = "República de Roma")]
    legions: Option<u32>,
    /// República de Roma: veteran legions (= --set rome.veteran_legions=N)
    #[arg(long, value_name = "N", help_heading = "República de Roma")]
    veterans: Option<u32>,
    /// República de Roma: fleets (= --set rome.fleets=N)
    #[arg(long, value_name = "N", help_heading = "República de Roma")]
    fleets: Option<u32>,
    /// República de Roma: the commander, a statesman or senator by name or id (= --set rome.commander=NAME)
    #[arg(long, value_name = "NAME", help_heading = "República de Roma")]
    commander: Option<String>,
    /// Any other battle key, e.g. --set orders=3 (repeatable)
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// A rule option, e.g. --option casualty_allocation=owner-choice (repeatable)
    #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
    option: Vec<String>,
    /// A battle file (TOML); command-line values override it
    #[arg(long, short = 'f', value_name = "FILE")]
    file: Option<PathBuf>,
    /// Exact odds only (an error when they are not tractable)
    #[arg(long, conflicts_with = "trials")]
    exact: bool,
    /// Monte Carlo with this many trials (default: exact where available, else 1,000,000 trials)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000_000))]
    trials: Option<u64>,
    /// Seed of the random streams
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON (schema in docs/battles.md)
    #[arg(long)]
    json: bool,
    /// Also draw the loss distributions to FILE.png and FILE.svg
    #[arg(long, value_name = "FILE")]
    chart: Option<PathBuf>,
    /// No progress bar
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Args)]
struct RunArgs {
    /// The experiment file (TOML)
    experiment: PathBuf,
    /// Games per case, instead of the file's `games` (game experiments only)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000_000))]
    games: Option<u64>,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    run: RunOutput,
}

/// Running one part of a run cut across machines.
#[derive(Args)]
struct ShardArgs {
    /// Play only shard K of N (K from 1 to N) into out/<name>/shards/K-of-N/; merge them with
    /// `alea merge out/<name>/shards/*` (see deploy/README.md)
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Play the shard again even if it is already finished
    #[arg(long, requires = "shard")]
    force: bool,
}

#[derive(Args)]
struct MergeArgs {
    /// Every shard folder of the run (out/<name>/shards/*)
    #[arg(required = true, value_name = "SHARD")]
    shards: Vec<PathBuf>,
    /// Where the merged <name>/ folder goes (default: beside the shards, i.e. the out folder
    /// holding <name>/shards/, else out)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the manifest (battles) or the summary (games, ladder) as JSON when done
    #[arg(long)]
    json: bool,
    /// No progress bar
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

/// What every command that plays and writes out/<name>/ takes: where, how it reports, its seed
/// and threads.
#[derive(Args)]
struct RunOutput {
    /// Where output folders go
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Print the manifest (battles) or the summary (games, tune, ladder) as JSON when done
    #[arg(long)]
    json: bool,
    /// No progress bar
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Seed of the random streams, instead of the file's `seed`
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Worker threads (default: one per core); results are the same for any number
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

impl RunOutput {
    /// A progress bar only for a person at a terminal.
    fn visible(&self) -> bool {
        !self.quiet && !self.json && std::io::stderr().is_terminal()
    }
}

#[derive(Args)]
struct ReplayArgs {
    /// The game experiment file (TOML)
    experiment: PathBuf,
    /// The game to replay: its index, from 0 (the `game` column of games.parquet)
    #[arg(long, value_name = "N")]
    game: u64,
    /// The variant, by name (default: the first)
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
    /// The sweep point, from 0 (the `point` column of games.parquet; default 0)
    #[arg(long, value_name = "K")]
    point: Option<usize>,
    /// The seed the run used, if not the file's (`alea run --seed`)
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Print JSON instead of text
    #[arg(long)]
    json: bool,
}

/// Writes to standard output; a reader that has gone away (`alea list | head`) ends the program
/// quietly instead of in a panic.
fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`emit`].
macro_rules! say {
    () => { emit("\n") };
    ($($arg:tt)*) => { emit(&format!("{}\n", format_args!($($arg)*))) };
}

/// Runs the command line; returns the process exit code.
pub(crate) mod list;
pub(crate) mod odds;
mod run;

use list::list;
use odds::odds;
use run::{compete, merge, replay_game, run_experiment, with_threads, Compete};

pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List { ruleset, json } => list(ruleset.as_deref(), json),
        Command::Docs { out } => crate::rulesets::reference::write_pages(&out).map(|written| {
            for path in written {
                say!("{}", path.display());
            }
        }),
        Command::Odds(args) => odds(&args),
        Command::Run(args) => with_threads(args.run.threads, || run_experiment(&args)),
        Command::Replay(args) => replay_game(&args),
        Command::Tune(args) => with_threads(args.run.threads, || compete(&args, Compete::Tune)),
        Command::Ladder(args) => with_threads(args.run.threads, || compete(&args, Compete::Ladder)),
        Command::Merge(args) => with_threads(args.threads, || merge(&args)),
        Command::Serve { port, host } => crate::serve::serve(&host, port, |addr| {
            say!("alea serve: http://{addr}/  (Ctrl-C stops it)");
            say!("{}", crate::serve::BUDGET.describe());
        }),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}
