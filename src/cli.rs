//! The `alea` command line.

use crate::battle::Estimates;
use crate::error::{AleaError, Result};
use crate::experiment::Experiment;
use crate::game::experiment::{load_any, AnyExperiment};
use crate::game::ladder::{ladder, LadderSettings};
use crate::game::replay::replay;
use crate::game::report::run_text;
use crate::game::sweep::{run_games, GameRunSettings};
use crate::game::tune::{tune, TuneSettings};
use crate::options::{OptionKind, RuleOption};
use crate::progress::Progress;
use crate::report::OddsAnswer;
use crate::rulesets::{load_battle, McRun, RULESETS};
use crate::spec::{parse_assignments, parse_value, set_dotted};
use crate::sweep::{run, PointSummary, RunSettings};
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
    /// The skill ladder: every pair of rungs (random < scripted < tuned < search) and every seat,
    /// the seat on the higher rung against the lower rung; writes ladder.csv and a matrix chart
    #[command(after_help = LADDER_EXAMPLES)]
    Ladder(CompeteArgs),
}

const TUNE_EXAMPLES: &str = "\
Examples:
  alea tune experiments/mare-nostrum-competent.toml
  alea tune experiments/ror-competent.toml --seed 7 --threads 2 --json

The file is a game experiment with a [tune] table:
  [tune]
  games = 2000                        # games per candidate (last halving rung) and per validation
  candidates = 16                     # per seat and round, the incumbent among them
  rounds = 4                          # best-response rounds at most
  margin = 0.01                       # converged once no seat gains more than this
  converge_on = \"estimate\"            # the measured gains, or \"upper\": their 95% upper ends
  step = 1.0                          # share of the way an adopted seat moves to its best response
  objective = \"win\"                   # or \"score\", or { avoid = \"Rome falls (any cause)\" }
  [tune.players.rome]                 # a player's policy parameters
  policy = \"aggressor\"
  aggression = [0.0, 1.0]             # a range, or { values = [0.2, 0.5] }
  [tune.shared.senate]                # numbers of [game] no player owns
  objective = { avoid = \"Rome falls (any cause)\" }
  \"senate.reserve\" = [0, 100]

Load the result with [game] policies_from = \"out/<name>/tuned-policies.toml\" (or a copy of it).
Results do not depend on --threads.";

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
rung wins more than the lower one. Results do not depend on --threads.";

#[derive(Args)]
struct CompeteArgs {
    /// The game experiment file (TOML) with a [tune] or [ladder] table
    experiment: PathBuf,
    /// Games per candidate (tune) or per seat and pair of rungs (ladder), instead of the file's
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games: Option<u64>,
    #[command(flatten)]
    run: RunOutput,
}

const RUN_EXAMPLES: &str = "\
Examples:
  alea run experiments/quickstart.toml
  alea run experiments/naval-sweep.toml --out /tmp/results
  alea run experiments/casualty-readings.toml --json
  alea run experiments/mare-nostrum-punic-balance.toml
  alea run experiments/mare-nostrum-punic-balance.toml --games 1000 --seed 7 --threads 2 --json

A game experiment writes games.parquet (one row per game), turns.parquet (with per_turn_rows = true),
summary.csv, endings.csv, turn-summary.csv, summary.json, manifest.json and the charts win-rates,
endings, game-length and score-over-turns (PNG + SVG). Results do not depend on --threads.";

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
    run: RunOutput,
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
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List { ruleset, json } => list(ruleset.as_deref(), json),
        Command::Odds(args) => odds(&args),
        Command::Run(args) => with_threads(args.run.threads, || run_experiment(&args)),
        Command::Replay(args) => replay_game(&args),
        Command::Tune(args) => with_threads(args.run.threads, || compete(&args, Compete::Tune)),
        Command::Ladder(args) => with_threads(args.run.threads, || compete(&args, Compete::Ladder)),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn option_json(o: &RuleOption) -> serde_json::Value {
    let allowed = match o.kind {
        OptionKind::Choice(c) => json!(c),
        OptionKind::Bool => json!([true, false]),
        OptionKind::Int { min, max } => json!({"min": min, "max": max}),
    };
    json!({
        "name": o.name,
        "default": serde_json::from_str::<serde_json::Value>(&o.default.to_string()).unwrap_or_default(),
        "allowed": allowed,
        "reference": o.reference,
        "summary": o.summary,
        "battles": o.battles,
    })
}

fn scenarios(slug: &str) -> Vec<String> {
    let dir = Path::new("scenarios").join(slug);
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .map(|p| p.display().to_string())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn list(only: Option<&str>, as_json: bool) -> Result<()> {
    let rulesets: Vec<_> = match only {
        None => RULESETS.iter().collect(),
        Some(slug) => vec![crate::rulesets::find_ruleset(
            "command line",
            "ruleset",
            slug,
        )?],
    };
    if as_json {
        let doc: Vec<_> = rulesets
            .iter()
            .map(|r| {
                json!({
                    "slug": r.slug,
                    "title": r.title,
                    "digest": r.digest,
                    "battles": r.battles.iter().map(|b| json!({"name": b.name, "summary": b.summary, "outcomes": b.outcomes, "keys": b.keys})).collect::<Vec<_>>(),
                    "options": r.options.iter().map(option_json).collect::<Vec<_>>(),
                    "scenarios": scenarios(r.slug),
                    "policies": r.policy_help.map(|h| h()).unwrap_or_default(),
                })
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("JSON of plain values")
        );
        return Ok(());
    }
    for r in rulesets {
        say!("{} — {}  (rules: {})", r.slug, r.title, r.digest);
        if r.battles.is_empty() {
            say!("  battles: none yet");
        } else {
            say!("  battles:");
            for b in r.battles {
                say!("    {:<10} {}", b.name, b.summary);
                say!("               outcomes: {}", b.outcomes.join(", "));
                for k in b.keys {
                    say!("               {k}");
                }
            }
        }
        if !r.options.is_empty() {
            say!(
                "  rule options (default first; set under [options] or with --option name=value):"
            );
            for o in r.options {
                say!(
                    "    {} = {}  [{}]  {}",
                    o.name,
                    o.default,
                    o.kind.allowed(),
                    o.reference
                );
                say!("        {}", o.summary);
            }
        }
        let sc = scenarios(r.slug);
        say!(
            "  scenarios: {}",
            if sc.is_empty() {
                "none yet".to_string()
            } else {
                sc.join(", ")
            }
        );
        if let Some(help) = r.policy_help {
            say!("  game policies (under [game.policies]; each parameter's range and default):");
            for line in help() {
                say!("    {line}");
            }
        }
        say!();
    }
    Ok(())
}

/// Merges `key=value` assignments from the command line into a battle table.
fn merge_side(table: &mut Table, side: &str, spec: &str) -> Result<()> {
    let flag = format!("--{side}");
    let values = parse_assignments(&flag, spec)?;
    let entry = table
        .entry(side.to_string())
        .or_insert_with(|| Value::Table(Table::new()));
    let Value::Table(t) = entry else {
        return Err(AleaError::invalid(
            &flag,
            format!("`{side}` in the battle file is not a table"),
        ));
    };
    t.extend(values);
    Ok(())
}

fn battle_table(args: &OddsArgs) -> Result<(String, Table)> {
    let (source, mut table) = match &args.file {
        None => ("command line".to_string(), Table::new()),
        Some(path) => {
            let source = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| {
                AleaError::invalid(&source, format!("cannot read the battle file: {e}"))
            })?;
            let table: Table = text.parse().map_err(|e: toml::de::Error| {
                crate::spec::toml_error(&source, "battle file", &text, &e)
            })?;
            (source, table)
        }
    };
    for (key, given) in [("ruleset", &args.ruleset), ("battle", &args.battle)] {
        if let Some(v) = given {
            match table.get(key).and_then(Value::as_str) {
                Some(existing) if existing != v => {
                    return Err(AleaError::input(
                        "command line",
                        key,
                        format!("\"{v}\""),
                        format!("\"{existing}\", as the battle file says (or leave it out)"),
                    ));
                }
                _ => {
                    table.insert(key.into(), Value::String(v.clone()));
                }
            }
        }
    }
    if let Some(a) = &args.attacker {
        merge_side(&mut table, "attacker", a)?;
    }
    if let Some(d) = &args.defender {
        merge_side(&mut table, "defender", d)?;
    }
    let sugar = [
        ("war.name", args.war.clone().map(Value::String)),
        (
            "rome.legions",
            args.legions.map(|n| Value::Integer(n as i64)),
        ),
        (
            "rome.veteran_legions",
            args.veterans.map(|n| Value::Integer(n as i64)),
        ),
        ("rome.fleets", args.fleets.map(|n| Value::Integer(n as i64))),
        ("rome.commander", args.commander.clone().map(Value::String)),
    ];
    for (field, value) in sugar {
        if let Some(v) = value {
            set_dotted(&mut table, field, v).map_err(|m| AleaError::invalid("command line", m))?;
        }
    }
    for s in &args.set {
        let (k, v) = s.split_once('=').ok_or_else(|| {
            AleaError::invalid("--set", format!("`{s}` is not of the form key=value"))
        })?;
        set_dotted(&mut table, k.trim(), parse_value(v.trim()))
            .map_err(|m| AleaError::invalid("--set", m))?;
    }
    for o in &args.option {
        let (k, v) = o.split_once('=').ok_or_else(|| {
            AleaError::invalid("--option", format!("`{o}` is not of the form name=value"))
        })?;
        set_dotted(
            &mut table,
            &format!("options.{}", k.trim()),
            parse_value(v.trim()),
        )
        .map_err(|m| AleaError::invalid("--option", m))?;
    }
    Ok((source, table))
}

const DEFAULT_TRIALS: u64 = 1_000_000;

fn odds(args: &OddsArgs) -> Result<()> {
    let (source, table) = battle_table(args)?;
    let loaded = load_battle(&source, &table)?;
    let started = Instant::now();
    let visible = !args.quiet && !args.json && std::io::stderr().is_terminal();
    let simulate = |trials: u64| {
        let progress = Progress::new(trials, "battles", visible);
        let run = McRun {
            trials,
            seed: args.seed,
            stream: 0,
            progress: &progress,
        };
        let tally = loaded.model.monte_carlo(&run);
        progress.finish();
        Estimates::from_tally(&tally)
    };
    let (estimates, unavailable, seed) = match args.trials {
        Some(trials) => (simulate(trials), None, Some(args.seed)),
        None => match if args.exact {
            loaded.model.exact_patiently(visible)
        } else {
            loaded.model.exact()
        } {
            Ok(exact) => (Estimates::from_exact(&exact), None, None),
            Err(why) if args.exact => {
                return Err(AleaError::invalid(
                    &source,
                    format!(
                        "exact odds are not tractable here: {}; use --trials N",
                        why.0
                    ),
                ));
            }
            Err(why) => (simulate(DEFAULT_TRIALS), Some(why.0), Some(args.seed)),
        },
    };
    let answer = OddsAnswer {
        ruleset: loaded.ruleset,
        kind: loaded.kind,
        schema: loaded.model.schema(),
        options: &loaded.options,
        describe: loaded.model.describe(),
        notes: loaded.model.notes(),
        estimates,
        seed,
        exact_unavailable: unavailable,
        seconds: started.elapsed().as_secs_f64(),
    };
    let mut chart_files = Vec::new();
    if let Some(stem) = &args.chart {
        chart_files = draw_odds_chart(&answer, stem)?;
    }
    if args.json {
        let mut doc = answer.to_json();
        if !chart_files.is_empty() {
            doc["charts"] = json!(chart_files);
        }
        say!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("JSON of plain values")
        );
    } else {
        emit(&answer.to_text());
        for f in chart_files {
            say!("chart: {f}");
        }
    }
    Ok(())
}

fn draw_odds_chart(answer: &OddsAnswer, stem: &Path) -> Result<Vec<String>> {
    let stem = if matches!(
        stem.extension().and_then(|e| e.to_str()),
        Some("png" | "svg")
    ) {
        stem.with_extension("")
    } else {
        stem.to_path_buf()
    };
    if let Some(parent) = stem.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| AleaError::io(parent, e))?;
    }
    let schema = answer.schema;
    let pmf = |name: &str| {
        schema
            .count_index(name)
            .map(|k| {
                answer.estimates.counts[k]
                    .pmf
                    .iter()
                    .map(|x| x.value)
                    .collect()
            })
            .unwrap_or_default()
    };
    let summary = PointSummary {
        attacker_pmf: pmf("attacker_losses"),
        defender_pmf: pmf("defender_losses"),
        ..Default::default()
    };
    let outcomes: Vec<String> = schema
        .outcomes
        .iter()
        .zip(&answer.estimates.outcomes)
        .map(|(n, e)| {
            format!(
                "{} {:.1}%",
                crate::report::outcome_label(n),
                100.0 * e.value
            )
        })
        .collect();
    let title = format!(
        "{} {} battle: losses",
        answer.ruleset.title, answer.kind.name
    );
    let Some(mut chart) =
        crate::experiment_charts::loss_chart(&title, std::iter::once(("", &summary)))
    else {
        return Ok(Vec::new());
    };
    chart.subtitle = Some(format!(
        "{} · {}",
        answer.describe.join(" vs "),
        outcomes.join(", ")
    ));
    let files = crate::charts::draw_bar_chart(&chart, &stem)
        .map_err(|e| AleaError::Internal(format!("drawing a chart: {e}")))?;
    Ok(files.iter().map(|p| p.display().to_string()).collect())
}

/// Runs `f` on a rayon pool of `threads` threads (the global pool when `None`).
fn with_threads(threads: Option<u64>, f: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    match threads {
        None => f(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build()
            .map_err(|e| AleaError::Internal(format!("starting {n} threads: {e}")))?
            .install(f),
    }
}

fn run_experiment(args: &RunArgs) -> Result<()> {
    let visible = args.run.visible();
    match load_any(&args.experiment)? {
        AnyExperiment::Battle(mut exp) => {
            if let Some(n) = args.games {
                return Err(AleaError::input(
                    "command line",
                    "--games",
                    n,
                    "only with a game experiment ([game] table); a battle experiment sets `trials`",
                ));
            }
            if let Some(seed) = args.run.seed {
                exp.seed = seed;
            }
            run_battle_experiment(&exp, args, visible)
        }
        AnyExperiment::Game(mut exp) => {
            if let Some(n) = args.games {
                exp.games = n;
            }
            if let Some(seed) = args.run.seed {
                exp.seed = seed;
            }
            let result = run_games(
                &exp,
                &GameRunSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            if args.run.json {
                say!(
                    "{}",
                    serde_json::to_string_pretty(&result.to_json()).expect("JSON of plain values")
                );
            } else {
                emit(&run_text(&exp, &result));
            }
            Ok(())
        }
    }
}

fn run_battle_experiment(exp: &Experiment, args: &RunArgs, visible: bool) -> Result<()> {
    let result = run(
        exp,
        &RunSettings {
            out_root: args.run.out.clone(),
            show_progress: visible,
        },
    )?;
    if args.run.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&result.manifest).expect("JSON of plain values")
        );
    } else {
        say!(
            "{}: {} points ({} exact, {} simulated) in {:.2} s → {}",
            exp.name,
            result.points,
            result.exact_points,
            result.simulated_points,
            result.seconds,
            result.dir.display()
        );
        for f in &result.files {
            say!("  {}", result.dir.join(f).display());
        }
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq)]
enum Compete {
    Tune,
    Ladder,
}

/// `alea tune` and `alea ladder`: load the game experiment, apply the command line, run, report.
fn compete(args: &CompeteArgs, what: Compete) -> Result<()> {
    let visible = args.run.visible();
    let source = args.experiment.display().to_string();
    let mut exp = match load_any(&args.experiment)? {
        AnyExperiment::Game(exp) => exp,
        AnyExperiment::Battle(_) => {
            return Err(AleaError::invalid(
                source,
                "a battle experiment has no players to tune or rank (this command takes a file with a [game] table)",
            ))
        }
    };
    if let Some(seed) = args.run.seed {
        exp.seed = seed;
    }
    let table = if what == Compete::Tune {
        &mut exp.tune
    } else {
        &mut exp.ladder
    };
    if let (Some(n), Some(t)) = (args.games, table.as_mut()) {
        t.insert("games".into(), Value::Integer(n as i64));
        // --games is every cell's count: a rung's own `games` gives way to it too.
        if let Some(Value::Array(rungs)) = t.get_mut("rungs") {
            for rung in rungs.iter_mut().filter_map(Value::as_table_mut) {
                rung.remove("games");
            }
        }
    }
    let (summary, dir, files, seconds) = match what {
        Compete::Tune => {
            let r = tune(
                &exp,
                &TuneSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            (r.summary, r.dir, r.files, r.seconds)
        }
        Compete::Ladder => {
            let r = ladder(
                &exp,
                &LadderSettings {
                    out_root: args.run.out.clone(),
                    show_progress: visible,
                },
            )?;
            (r.summary, r.dir, r.files, r.seconds)
        }
    };
    if args.run.json {
        let mut doc = summary;
        doc["dir"] = json!(dir.display().to_string());
        doc["files"] = json!(files);
        doc["wall_time_seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        say!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("JSON of plain values")
        );
        return Ok(());
    }
    match what {
        Compete::Tune => {
            say!(
                "{}: {} round(s) in {:.1} s, {}",
                exp.name,
                summary["rounds_played"],
                seconds,
                if summary["converged"] == true {
                    format!("converged (no seat gains more than {})", summary["margin"])
                } else {
                    "NOT converged: more rounds, games or candidates may help".into()
                }
            );
            if let Some(g) = summary["last_round_largest_gain"].as_object() {
                say!(
                    "largest gain a single seat still found in the last round: {} ({}; 95% CI {} to {})",
                    num(&g["gain"], 4),
                    g["seat"].as_str().unwrap_or(""),
                    num(&g["ci_low"], 4),
                    num(&g["ci_high"], 4)
                );
            }
            for seat in summary["seats"].as_array().into_iter().flatten() {
                say!(
                    "  {:<16} {} = {} [{}, {}]  {}",
                    seat["seat"].as_str().unwrap_or(""),
                    seat["objective"].as_str().unwrap_or(""),
                    num(&seat["value"], 3),
                    num(&seat["ci_low"], 3),
                    num(&seat["ci_high"], 3),
                    seat["policy"].as_str().unwrap_or("")
                );
            }
        }
        Compete::Ladder => {
            say!(
                "{}: skill ladder in {:.1} s ({} games per seat and pair)",
                exp.name,
                seconds,
                summary["games_per_cell"]
            );
            for p in summary["pairs"].as_array().into_iter().flatten() {
                say!(
                    "  {:>10} over {:<10} ratio {} [{}, {}] {}",
                    p["higher"].as_str().unwrap_or(""),
                    p["lower"].as_str().unwrap_or(""),
                    num(&p["ratio"], 3),
                    num(&p["ci_low"], 3),
                    num(&p["ci_high"], 3),
                    if p["higher_beats_lower"] == true {
                        "higher rung wins more"
                    } else {
                        "NOT separated"
                    }
                );
            }
        }
    }
    say!("→ {}", dir.display());
    for f in &files {
        say!("  {}", dir.join(f).display());
    }
    Ok(())
}

/// A JSON number with `digits` decimals, or a dash where there is none.
fn num(v: &serde_json::Value, digits: usize) -> String {
    v.as_f64().map_or("–".into(), |x| format!("{x:.digits$}"))
}

fn replay_game(args: &ReplayArgs) -> Result<()> {
    let mut exp = match load_any(&args.experiment)? {
        AnyExperiment::Game(exp) => exp,
        AnyExperiment::Battle(_) => {
            return Err(AleaError::invalid(
                args.experiment.display().to_string(),
                "a battle experiment has no games to replay (`alea replay` takes a file with a [game] table)",
            ))
        }
    };
    if let Some(seed) = args.seed {
        exp.seed = seed;
    }
    let game = replay(&exp, args.variant.as_deref(), args.point, args.game)?;
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&game.to_json()).expect("JSON of plain values")
        );
    } else {
        emit(&game.to_text());
    }
    Ok(())
}
