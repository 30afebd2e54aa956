//! The engine against the toy dice race (`toy.rs`), whose exact answer is known.

use super::experiment::{load_any, AnyExperiment, GameExperiment};
use super::replay::replay;
use super::rows::{RowsWriter, Union};
use super::run::{play_chunk_for_tests, play_games, wave_bytes, ChunkRows, GameSink, NoSink};
use super::summary::{player_keys, CaseSummary};
use super::sweep::{run_games, GameRunSettings};
use super::tables::{key_cells, key_columns};
use super::tally::{GameTally, Shape};
use super::toy::{self, Toy};
use super::{GameLog, GameModel, GamePlay, GameRecord, TurnObserver};
use crate::dice::Dice;
use crate::error::AleaError;
use crate::output::OutputDir;
use crate::progress::Progress;
use crate::stats::Z95;
use polars::prelude::*;
use std::path::{Path, PathBuf};

fn toy() -> Toy {
    Toy {
        source: "toy.toml".into(),
        players: ["Alpha", "Beta Team", "Gamma"].map(String::from).to_vec(),
        policies: vec!["steady".into(); 3],
        sides: vec![6, 6, 8],
        plays: vec![toy::Play::Roll { bonus: 0 }; 3],
        target: 20,
        cap: 8,
        ties_shared: true,
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn load(dir: &Path, name: &str, text: &str) -> Result<GameExperiment, AleaError> {
    GameExperiment::load_with(&write(dir, name, text), toy::lookup)
}

fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// Plays a shipped experiment file with `games` games on `threads` threads into `out`: the
/// rulesets' tests that a game's results do not depend on the thread count.
pub(crate) fn run_shipped(
    path: &str,
    games: u64,
    threads: usize,
    out: &Path,
) -> crate::game::sweep::GameRunResult {
    let mut exp = GameExperiment::load(Path::new(path)).unwrap();
    exp.games = games;
    with_threads(threads, || run_games(&exp, &settings(out))).unwrap()
}

fn read_parquet(path: &Path) -> DataFrame {
    ParquetReader::new(std::fs::File::open(path).unwrap())
        .finish()
        .unwrap()
}

fn settings(out: &Path) -> GameRunSettings {
    GameRunSettings {
        out_root: out.to_path_buf(),
        show_progress: false,
    }
}

/// Keeps every row it is given, flattened, and the chunk boundaries.
#[derive(Default)]
struct Collect {
    chunks: Vec<(u64, usize)>,
    games: Vec<(u32, u32, Vec<u64>)>,
    turn_rows: usize,
}

impl GameSink for Collect {
    fn wants_turn_rows(&self) -> bool {
        true
    }
    fn chunk(&mut self, rows: &ChunkRows) -> crate::error::Result<()> {
        self.chunks.push((rows.first_game, rows.games()));
        for i in 0..rows.games() {
            let bits = rows.score[3 * i..3 * i + 3]
                .iter()
                .chain(&rows.win[3 * i..3 * i + 3])
                .map(|x| x.to_bits())
                .collect();
            self.games.push((rows.turns[i], rows.ending[i], bits));
        }
        self.turn_rows += rows.turn_rows.len();
        Ok(())
    }
}

#[test]
fn the_tally_matches_the_toys_exact_answer() {
    let model = toy();
    let exact = toy::exact(&model);
    assert!((exact.length.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((exact.win.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let n = 200_000;
    let tally = play_games(&model, n, 11, 0, &Progress::hidden(), &mut NoSink).unwrap();
    assert_eq!(tally.games, n);
    let within = |what: String, got: f64, want: f64, se: f64| {
        assert!(
            (got - want).abs() <= 5.0 * se.max(1e-12),
            "{what}: {got} vs exact {want} (se {se})"
        );
    };
    for p in 0..3 {
        let rate = tally.win[p].mean(n);
        let se = (tally.win[p].variance(n) / n as f64).sqrt();
        within(format!("win rate of player {p}"), rate, exact.win[p], se);
    }
    // The d8 player wins more often than the two d6 players.
    assert!(exact.win[2] > exact.win[0] + 0.1);
    let binomial_se = |p: f64| (p * (1.0 - p) / n as f64).sqrt();
    let mut cumulative = (0.0, 0.0);
    for t in 0..8 {
        let got = tally.length[t] as f64 / n as f64;
        within(
            format!("P(length = {})", t + 1),
            got,
            exact.length[t],
            binomial_se(exact.length[t]),
        );
        cumulative.0 += got;
        cumulative.1 += exact.length[t];
        within(
            format!("P(length ≤ {})", t + 1),
            cumulative.0,
            cumulative.1,
            binomial_se(cumulative.1),
        );
    }
    for e in 0..2 {
        let got = tally.endings[e] as f64 / n as f64;
        within(
            format!("P(ending {e})"),
            got,
            exact.endings[e],
            binomial_se(exact.endings[e]),
        );
    }
    // Every game plays turn 1: its points are one die.
    assert_eq!(tally.turns.running[0], n);
    let (_, mean, sd) = tally.turns.player_metric(1, 0, 0);
    within(
        "turn-1 mean of a d6".into(),
        mean,
        3.5,
        (35.0f64 / 12.0).sqrt() / (n as f64).sqrt(),
    );
    assert!((sd - (35.0f64 / 12.0).sqrt()).abs() < 0.02, "{sd}");
    let (_, mean, _) = tally.turns.player_metric(1, 2, 0);
    within(
        "turn-1 mean of a d8".into(),
        mean,
        4.5,
        (63.0f64 / 12.0).sqrt() / (n as f64).sqrt(),
    );
    // Games still running fall turn by turn, as the length histogram says.
    for t in 1..8 {
        let ended: u64 = tally.length[..t].iter().sum();
        assert_eq!(tally.turns.running[t], n - ended);
    }
    let summary = CaseSummary::new(&model, tally, (0, 0), "recommended", String::new(), 0);
    for p in &summary.players {
        assert!(p.ci_low < p.win_rate && p.win_rate < p.ci_high);
        // Wilson is at least as wide as the normal interval on the observed SE.
        assert!(p.ci_high - p.ci_low >= 2.0 * Z95 * p.win_se * 0.999);
    }
}

#[test]
fn one_and_two_threads_give_bit_identical_tallies_and_rows() {
    let model = toy();
    let run = |threads| {
        with_threads(threads, || {
            let mut sink = Collect::default();
            let tally = play_games(&model, 30_001, 5, 3, &Progress::hidden(), &mut sink).unwrap();
            (tally, sink)
        })
    };
    let (a, rows_a) = run(1);
    let (b, rows_b) = run(2);
    assert_eq!(a, b);
    assert_eq!(
        a.score_min.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        b.score_min.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(rows_a.games, rows_b.games);
    assert_eq!(rows_a.chunks, rows_b.chunks);
    assert_eq!(rows_a.games.len(), 30_001);
    let turns: u64 = a
        .length
        .iter()
        .enumerate()
        .map(|(t, &c)| (t as u64 + 1) * c)
        .sum();
    assert_eq!(rows_a.turn_rows as u64, turns);
}

#[test]
fn merging_is_exact_and_associative_in_chunk_order() {
    let model = toy();
    let chunk = |lo, hi| play_chunk_for_tests(&model, (lo, hi), (9, 1));
    let (a, b, c) = (chunk(0, 97), chunk(97, 250), chunk(250, 400));
    let mut left = a.clone();
    left.merge(&b);
    left.merge(&c);
    let mut right = b.clone();
    right.merge(&c);
    let mut right_first = a.clone();
    right_first.merge(&right);
    assert_eq!(left, right_first);
    // Any cut of the games gives the same tally, to the last bit.
    assert_eq!(left, chunk(0, 400));
    let whole = play_games(&model, 400, 9, 1, &Progress::hidden(), &mut NoSink).unwrap();
    assert_eq!(left, whole);
    let mut empty = GameTally::new(Shape::of(&model));
    empty.merge(&whole);
    assert_eq!(empty, whole);
}

#[test]
fn rows_stream_chunk_by_chunk_and_files_appear_only_on_commit() {
    let root_guard = tempfile::tempdir().unwrap();
    let root = root_guard.path();
    let model = toy();
    let mut sink = Collect::default();
    play_games(&model, 5_000, 1, 0, &Progress::hidden(), &mut sink).unwrap();
    assert!(sink.chunks.len() > 10, "{} chunks", sink.chunks.len());
    let mut next = 0;
    for (first, games) in &sink.chunks {
        assert_eq!(*first, next, "chunks arrive in game order");
        next += *games as u64;
    }
    assert_eq!(next, 5_000);

    let exp = load(
        root,
        "stream.toml",
        "per_turn_rows = true\n[game]\nruleset = \"toy-dice\"\n",
    )
    .unwrap();
    let dir = OutputDir::create(&root.join("out"), "stream").unwrap();
    let mut union = Union::default();
    union.add(&model);
    let mut rows = RowsWriter::create(&dir, &key_columns(&exp), union, true).unwrap();
    rows.start_case(key_cells(&exp, 0, 0), &model).unwrap();
    let tally = play_games(&model, 100_000, 1, 0, &Progress::hidden(), &mut rows).unwrap();
    let (games, turns) = rows.finish().unwrap();
    assert_eq!(games, 100_000);
    let played: u64 = tally
        .length
        .iter()
        .enumerate()
        .map(|(t, &c)| (t as u64 + 1) * c)
        .sum();
    assert_eq!(turns, Some(3 * played));
    assert!(dir.path("games.parquet").exists());
    assert!(
        !dir.target().exists(),
        "nothing under out/<name> before the commit"
    );
    let target = dir.commit().unwrap();
    let df = read_parquet(&target.join("games.parquet"));
    assert_eq!(df.height(), 100_000);
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "variant",
            "game",
            "turns",
            "ending",
            "winner",
            "score_alpha",
            "win_alpha",
            "score_beta_team",
            "win_beta_team",
            "score_gamma",
            "win_gamma",
            "total_points"
        ]
    );
    let t = read_parquet(&target.join("turns.parquet"));
    assert_eq!(t.height() as u64, 3 * played);
    assert!(t.column("global_lead").is_ok() && t.column("points").is_ok());
}

#[test]
fn waves_stay_far_under_a_gigabyte() {
    // A big game: 13 players, 5 metrics, 4 globals, 100 turns, a million games.
    let shape = Shape {
        players: 13,
        endings: 4,
        max_turns: 100,
        metrics: 5,
        globals: 4,
        extras: 6,
    };
    let off = wave_bytes(&shape, 1_000_000, true, false);
    let on = wave_bytes(&shape, 1_000_000, true, true);
    assert!(off < 64 << 20, "{off} bytes per wave without per-turn rows");
    assert!(on < 400 << 20, "{on} bytes per wave with per-turn rows");
}

const EXPERIMENT: &str = "name = \"race\"\ntitle = \"Dice race\"\ngames = 3000\nseed = 4\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ngamma = { policy = \"lucky\", bonus = 1 }\n[[sweep]]\nfield = \"target\"\nvalues = [12, 20]\n[[variants]]\nname = \"shared ties\"\n[[variants]]\nname = \"ties lose\"\noptions = { ties_shared = false }\n";

#[test]
fn a_whole_experiment_writes_tables_charts_and_replays_any_game() {
    let root_guard = tempfile::tempdir().unwrap();
    let root = root_guard.path();
    let exp = load(root, "race.toml", EXPERIMENT).unwrap();
    assert_eq!(exp.cases(), 4);
    let built = exp.build(1, 1).unwrap().describe();
    assert_eq!(
        built[1],
        format!("built from {}", exp.source),
        "the builder sees the file's path"
    );
    let streams: Vec<u64> = (0..2)
        .flat_map(|v| (0..2).map(move |p| (v, p)))
        .map(|(v, p)| exp.stream(v, p))
        .collect();
    assert_eq!(streams, vec![0, 1, 2, 3]);
    let result = run_games(&exp, &settings(&root.join("out"))).unwrap();
    let dir = root.join("out/race");
    for f in [
        "games.parquet",
        "summary.csv",
        "endings.csv",
        "turn-summary.csv",
        "summary.json",
        "manifest.json",
        "game-length.png",
        "game-length.svg",
    ] {
        assert!(dir.join(f).exists(), "{f} missing");
        assert!(result.files.iter().any(|g| g == f), "{f} not listed");
    }
    assert!(!dir.join("turns.parquet").exists());
    for prefix in [
        "win-rates-variant-shared-ties",
        "endings-variant-ties-lose",
        "score-over-turns-variant-ties-lose-target-20",
    ] {
        assert!(
            dir.join(format!("{prefix}.png")).exists(),
            "{prefix}.png missing"
        );
    }
    // Leftovers of the atomic output: none.
    let hidden: Vec<_> = std::fs::read_dir(root.join("out"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(hidden.is_empty());
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut lines = summary.lines();
    assert_eq!(
        lines.next().unwrap(),
        "variant,point,target,player,policy,games,win_rate,win_se,ci_low,ci_high,mean_score,sd_score,min_score,max_score,mean_turns,sd_turns"
    );
    assert_eq!(summary.lines().count(), 1 + 4 * 3);
    assert!(summary.contains("lucky"), "the policy label is reported");
    let endings = std::fs::read_to_string(dir.join("endings.csv")).unwrap();
    assert_eq!(endings.lines().count(), 1 + 4 * 2);
    // Longer races last longer; ties lose: some games are won by nobody.
    let mean = |i: usize| result.cases[i].mean_turns;
    assert!(mean(1) > mean(0));
    let games = read_parquet(&dir.join("games.parquet"));
    assert_eq!(games.height(), 4 * 3000);
    let text_column = |name: &str| -> Vec<String> {
        let c = games.column(name).unwrap().str().unwrap().clone();
        (0..c.len())
            .map(|i| c.get(i).unwrap_or("").to_string())
            .collect()
    };
    let (winners, variants) = (text_column("winner"), text_column("variant"));
    let none_in = |variant: &str| {
        winners
            .iter()
            .zip(&variants)
            .filter(|(w, v)| *w == "none" && *v == variant)
            .count()
    };
    assert_eq!(none_in("shared ties"), 0);
    assert!(none_in("ties lose") > 0);
    // Game 1234 of variant "ties lose" at target 20 (point 1), replayed.
    let r = replay(&exp, Some("ties lose"), Some(1), 1234).unwrap();
    assert_eq!(r.stream, 3);
    let idx = (0..games.height())
        .find(|&i| {
            variants[i] == "ties lose"
                && games.column("point").unwrap().i64().unwrap().get(i) == Some(1)
                && games.column("game").unwrap().i64().unwrap().get(i) == Some(1234)
        })
        .unwrap();
    let int = |c: &str| games.column(c).unwrap().i64().unwrap().get(idx).unwrap();
    let float = |c: &str| games.column(c).unwrap().f64().unwrap().get(idx).unwrap();
    assert_eq!(int("turns"), r.record.turns as i64);
    assert_eq!(winners[idx], r.winner());
    for (p, key) in player_keys(&r.players).iter().enumerate() {
        assert_eq!(float(&format!("score_{key}")), r.record.score[p]);
        assert_eq!(float(&format!("win_{key}")), r.record.win_share[p]);
    }
    assert_eq!(r.turns.len(), r.record.turns as usize);
    assert!(r.log.len() > 3 && r.log[0].starts_with("round 1: Alpha rolls"));
    let text = r.to_text();
    assert!(
        text.contains("game 1234") && text.contains("winner:"),
        "{text}"
    );
    let json = r.to_json();
    assert_eq!(json["record"]["turns"], r.record.turns);
    assert_eq!(
        json["turns"][0]["players"]["Gamma"]["points"],
        r.turns[0].per_player[4]
    );
    let printed = super::report::run_text(&exp, &result);
    assert!(
        printed.contains("95% CI (Wilson)")
            && printed.contains("variant \"ties lose\", target = 20"),
        "{printed}"
    );
}

#[test]
fn same_experiment_same_bytes_with_one_or_two_threads() {
    let root_guard = tempfile::tempdir().unwrap();
    let root = root_guard.path();
    let text = format!("per_turn_rows = true\n{EXPERIMENT}").replace("games = 3000", "games = 700");
    let exp = load(root, "race.toml", &text).unwrap();
    let mut outputs = Vec::new();
    for threads in [1, 2] {
        let out = root.join(format!("out{threads}"));
        with_threads(threads, || run_games(&exp, &settings(&out))).unwrap();
        outputs.push(
            [
                "games.parquet",
                "turns.parquet",
                "summary.csv",
                "endings.csv",
                "turn-summary.csv",
                "summary.json",
            ]
            .map(|f| std::fs::read(out.join("race").join(f)).unwrap()),
        );
    }
    assert_eq!(outputs[0], outputs[1]);
}

/// Every real ruleset has automated games now; this one has none, for the error a game
/// experiment naming such a ruleset gets.
static NO_GAME: crate::rulesets::Ruleset = crate::rulesets::Ruleset {
    slug: "toy-no-game",
    title: "Toy without games",
    digest: "none",
    battles: &[],
    sides: &[],
    options: &[],
    game: None,
    policies: None,
};

fn lookup_with_a_gameless_ruleset(
    source: &str,
    field: &str,
    slug: &str,
) -> crate::error::Result<&'static crate::rulesets::Ruleset> {
    if slug == NO_GAME.slug {
        Ok(&NO_GAME)
    } else {
        toy::lookup(source, field, slug)
    }
}

#[test]
fn bad_game_experiments_are_named_errors() {
    let root_guard = tempfile::tempdir().unwrap();
    let root = root_guard.path();
    let toy = "[game]\nruleset = \"toy-dice\"\n";
    let load_errors = [
        ("gmaes = 5\n[game]\nruleset = \"toy-dice\"\n", "gmaes"),
        ("[game]\nscenario = \"x.toml\"\n", "[game] has no `ruleset`"),
        ("[game]\nruleset = 3\n", "`game.ruleset` = 3"),
        ("[game]\nruleset = \"toy-no-game\"\n", "the toy-no-game ruleset has no automated games yet"),
        ("[game]\nruleset = \"mare-nostrun\"\n", "did you mean mare-nostrum"),
        ("games = 0\n[game]\nruleset = \"toy-dice\"\n", "`games` = 0"),
        ("seed = -1\n[game]\nruleset = \"toy-dice\"\n", "`seed` = -1"),
        (&format!("{toy}[[sweep]]\nfield = \"ruleset\"\nvalues = [\"x\"]\n"), "`sweep[0].field`"),
        (&format!("{toy}[[sweep]]\nfield = \"target\"\nfrom = 9\nto = 3\n"), "`sweep[0].to`"),
        (&format!("{toy}[[sweep]]\nfield = \"a\"\nvalues = [1]\n[[sweep]]\nfield = \"b\"\nvalues = [1]\n[[sweep]]\nfield = \"c\"\nvalues = [1]\n"), "at most 2 axes"),
        (&format!("{toy}[[variants]]\nname = \"x\"\nset = {{ ruleset = \"invasions\" }}\n"), "variants[0].set.ruleset"),
        (&format!("{toy}[[variants]]\nname = \"x\"\n[[variants]]\nname = \"x\"\n"), "variants[1].name"),
    ];
    for (i, (text, expect)) in load_errors.iter().enumerate() {
        let path = write(root, &format!("bad{i}.toml"), text);
        let err = GameExperiment::load_with(&path, lookup_with_a_gameless_ruleset)
            .err()
            .expect(text);
        assert_eq!(err.exit_code(), 2, "{text}: {err}");
        assert!(err.to_string().contains(expect), "{text}: {err}");
        assert!(err.to_string().contains(&format!("bad{i}.toml")), "{err}");
    }
    let run_errors = [
        ("[game]\nruleset = \"toy-dice\"\ntarget = 1\n", "`target` = 1"),
        ("[game]\nruleset = \"toy-dice\"\ntagret = 30\n", "unknown field `tagret`"),
        ("[game]\nruleset = \"toy-dice\"\n[game.policies]\nalpha = \"luky\"\n", "did you mean lucky"),
        ("[game]\nruleset = \"toy-dice\"\n[game.options]\nties_shared = 3\n", "`options.ties_shared` = 3"),
        ("[game]\nruleset = \"toy-dice\"\n[charts]\nmetric = \"vp\"\n", "one of the game's turn metrics: points, roll"),
        ("[game]\nruleset = \"toy-dice\"\n[[sweep]]\nfield = \"turn_cap\"\nvalues = [4, 0]\n", "[game] (turn_cap = 0): `turn_cap` = 0"),
        ("[game]\nruleset = \"toy-dice\"\n[[variants]]\nname = \"odd\"\noptions = { tie_shared = false }\n", "[game] (variant \"odd\")"),
    ];
    for (i, (text, expect)) in run_errors.iter().enumerate() {
        let exp = load(root, &format!("run{i}.toml"), text).unwrap();
        let err = run_games(&exp, &settings(&root.join("out")))
            .err()
            .expect(text);
        assert_eq!(err.exit_code(), 2, "{text}: {err}");
        assert!(err.to_string().contains(expect), "{text}: {err}");
        assert!(
            !root.join("out").join(&exp.name).exists(),
            "no output after an error"
        );
    }
    let exp = load(root, "replay.toml", EXPERIMENT).unwrap();
    let err = replay(&exp, Some("shared tie"), None, 0).err().unwrap();
    assert!(
        err.to_string().contains("\"shared ties\", \"ties lose\""),
        "{err}"
    );
    let err = replay(&exp, None, Some(2), 0).err().unwrap();
    assert!(err.to_string().contains("from 0 to 1"), "{err}");
    let both = write(
        root,
        "both.toml",
        "[battle]\nruleset = \"mare-nostrum\"\n[game]\nruleset = \"toy-dice\"\n",
    );
    let err = load_any(&both).err().unwrap();
    assert!(
        err.to_string().contains("not both") && err.exit_code() == 2,
        "{err}"
    );
    // A battle experiment still loads as one.
    let battle = write(root, "battle.toml", "[battle]\nruleset = \"mare-nostrum\"\nbattle = \"field\"\nattacker = { infantry = 5, leader = 0 }\ndefender = { infantry = 5, leader = 0 }\n");
    assert!(matches!(load_any(&battle), Ok(AnyExperiment::Battle(_))));
    let neither = write(root, "neither.toml", "name = \"x\"\n");
    assert!(load_any(&neither)
        .err()
        .unwrap()
        .to_string()
        .contains("[game] table"));
}

/// A model that breaks its contract: an ending that does not exist in its fifth game.
struct Broken(Toy);

struct BrokenWorker<'a>(Box<dyn GamePlay + 'a>);

impl GamePlay for BrokenWorker<'_> {
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        self.0.play(dice, record, observer, log);
        if record.score[0] == 7.0 {
            record.ending = 9;
        }
    }
}

impl GameModel for Broken {
    fn players(&self) -> &[String] {
        self.0.players()
    }
    fn player_policies(&self) -> &[String] {
        self.0.player_policies()
    }
    fn endings(&self) -> &[&'static str] {
        self.0.endings()
    }
    fn turn_metrics(&self) -> &[&'static str] {
        self.0.turn_metrics()
    }
    fn global_metrics(&self) -> &[&'static str] {
        self.0.global_metrics()
    }
    fn game_columns(&self) -> &[&'static str] {
        self.0.game_columns()
    }
    fn max_turns(&self) -> u32 {
        self.0.max_turns()
    }
    fn describe(&self) -> Vec<String> {
        self.0.describe()
    }
    fn worker(&self) -> Box<dyn GamePlay + '_> {
        Box::new(BrokenWorker(self.0.worker()))
    }
}

#[test]
fn a_model_that_breaks_its_contract_is_an_internal_error_naming_the_game() {
    let err = play_games(
        &Broken(toy()),
        2_000,
        1,
        0,
        &Progress::hidden(),
        &mut NoSink,
    )
    .err()
    .unwrap();
    assert_eq!(err.exit_code(), 1);
    let text = err.to_string();
    assert!(
        text.contains("broke its contract in game") && text.contains("ending 9"),
        "{text}"
    );
}

#[test]
fn thirteen_players_get_legends_beside_the_plot() {
    let root_guard = tempfile::tempdir().unwrap();
    let root = root_guard.path();
    let text = "name = \"crowd\"\ngames = 400\n[game]\nruleset = \"toy-dice\"\nplayers = 13\ntarget = 40\nturn_cap = 12\n[game.policies]\nnu = \"lucky\"\n";
    let exp = load(root, "crowd.toml", text).unwrap();
    let result = run_games(&exp, &settings(&root.join("out"))).unwrap();
    assert_eq!(result.cases[0].players.len(), 13);
    let dir = root.join("out/crowd");
    let svg = std::fs::read_to_string(dir.join("score-over-turns.svg")).unwrap();
    for name in ["Alpha", "Nu", "Lambda"] {
        assert!(svg.contains(name), "{name} in the legend");
    }
    let bars = std::fs::read_to_string(dir.join("win-rates.svg")).unwrap();
    assert!(
        bars.contains("(lucky)"),
        "players labelled with their policies"
    );
}

#[test]
fn a_sweep_over_names_draws_grouped_bars_and_variants_share_a_bar_chart() {
    let root_guard = tempfile::tempdir().unwrap();
    let root = root_guard.path();
    let text = "name = \"names\"\ngames = 500\n[game]\nruleset = \"toy-dice\"\n[[sweep]]\nfield = \"policies.gamma\"\nvalues = [\"steady\", \"lucky\"]\n";
    let exp = load(root, "names.toml", text).unwrap();
    run_games(&exp, &settings(&root.join("out"))).unwrap();
    let svg = std::fs::read_to_string(root.join("out/names/win-rates.svg")).unwrap();
    assert!(
        svg.contains("policies.gamma = lucky"),
        "one bar group per swept name"
    );
    let text = "name = \"variants\"\ngames = 500\n[game]\nruleset = \"toy-dice\"\n[[variants]]\nname = \"plain\"\n[[variants]]\nname = \"gamma lucky\"\nset = { policies = { gamma = \"lucky\" } }\n";
    let exp = load(root, "variants.toml", text).unwrap();
    let result = run_games(&exp, &settings(&root.join("out"))).unwrap();
    assert_eq!(result.cases[1].players[2].policy, "lucky");
    let svg = std::fs::read_to_string(root.join("out/variants/win-rates.svg")).unwrap();
    assert!(
        svg.contains("gamma lucky") && svg.contains("plain"),
        "a bar per variant"
    );
    assert!(root
        .join("out/variants/score-over-turns-variant-gamma-lucky.svg")
        .exists());
}
