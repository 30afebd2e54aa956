//! The tuner, the search player and the skill ladder on the toy dice race, where the best fixed
//! policy is known exactly.

use super::experiment::GameExperiment;
use super::ladder::{ladder, paired_ratio, LadderSettings};
use super::run::{play_games, NoSink};
use super::search::SearchSpec;
use super::toy::{self, Play, Toy};
use super::tune::{tune, TuneSettings};
use crate::progress::Progress;
use crate::stats::Z95;
use std::path::{Path, PathBuf};

fn load(dir: &Path, text: &str) -> crate::error::Result<GameExperiment> {
    let path = dir.join("exp.toml");
    std::fs::write(&path, text).unwrap();
    GameExperiment::load_with(&path, toy::lookup)
}

/// `alea tune` without a progress bar, writing under `out_root`.
fn quiet_tune(
    exp: &GameExperiment,
    out_root: PathBuf,
) -> crate::error::Result<super::tune::TuneResult> {
    tune(
        exp,
        &TuneSettings {
            out_root,
            show_progress: false,
        },
    )
}

/// `alea ladder` without a progress bar, writing under `out_root`.
fn quiet_ladder(
    exp: &GameExperiment,
    out_root: PathBuf,
) -> crate::error::Result<super::ladder::LadderResult> {
    ladder(
        exp,
        &LadderSettings {
            out_root,
            show_progress: false,
        },
    )
}

fn race(plays: [Play; 3]) -> Toy {
    Toy {
        source: "toy.toml".into(),
        players: ["Alpha", "Beta Team", "Gamma"].map(String::from).to_vec(),
        policies: vec!["".into(); 3],
        sides: vec![6, 6, 8],
        plays: plays.to_vec(),
        target: 20,
        cap: 8,
        ties_shared: true,
    }
}

/// Alpha's exact win share pushing `k` dice against two pushers of 3.
fn alpha_exact(k: u32) -> f64 {
    toy::exact(&race([
        Play::Push { dice: k },
        Play::Push { dice: 3 },
        Play::Push { dice: 3 },
    ]))
    .win[0]
}

fn best_fixed_dice() -> (u32, f64, f64) {
    let shares: Vec<f64> = (1..=toy::MAX_DICE).map(alpha_exact).collect();
    let best = (0..shares.len())
        .max_by(|&a, &b| shares[a].total_cmp(&shares[b]))
        .unwrap();
    let runner_up = (0..shares.len())
        .filter(|&k| k != best)
        .map(|k| shares[k])
        .fold(0.0, f64::max);
    (best as u32 + 1, shares[best], runner_up)
}

#[test]
fn new_toy_policies_match_their_exact_answer() {
    // Pushers and the random policy are fixed distributions: the engine's Monte Carlo must agree
    // with the dynamic programme within 5 standard errors.
    let model = race([
        Play::Push { dice: 4 },
        Play::Random,
        Play::Roll { bonus: 1 },
    ]);
    let exact = toy::exact(&model);
    let games = 40_000;
    let tally = play_games(&model, games, 3, 0, &Progress::hidden(), &mut NoSink).unwrap();
    for p in 0..3 {
        let (mean, sd) = (tally.win[p].mean(games), tally.win[p].sd(games));
        let se = sd / (games as f64).sqrt();
        assert!(
            (mean - exact.win[p]).abs() < 5.0 * se,
            "player {p}: {mean} vs exact {}",
            exact.win[p]
        );
    }
    let total: f64 = toy::gain_pmf(6, &Play::Push { dice: 3 })
        .iter()
        .map(|x| x.1)
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
}

/// The tuned file of a run and the dice it gives alpha.
fn tuned_alpha_dice(dir: &Path) -> (String, f64) {
    let tuned = std::fs::read_to_string(dir.join("tuned-policies.toml")).unwrap();
    let parsed: toml::Table = toml::from_str(&tuned).unwrap();
    let dice = &parsed["policies"]["alpha"]["dice"];
    let dice = dice
        .as_float()
        .or(dice.as_integer().map(|i| i as f64))
        .unwrap();
    (tuned, dice)
}

#[test]
fn tuning_finds_the_known_optimum_of_the_toy() {
    let (best, share, runner_up) = best_fixed_dice();
    assert!(
        share - runner_up > 0.01,
        "the toy's optimum must stand out: {share} vs {runner_up}"
    );
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let text = "name = \"pusher\"\nseed = 3\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = { policy = \"pusher\", dice = 3 }\n\
                [tune]\ngames = 4000\ncandidates = 6\nrounds = 2\nmargin = 0.005\n[tune.players.alpha]\ndice = { values = [1, 2, 3, 4, 5, 6] }\n";
    let exp = load(dir, text).unwrap();
    let out = quiet_tune(&exp, dir.join("out")).unwrap();
    let (tuned, dice) = tuned_alpha_dice(&out.dir);
    assert_eq!(
        dice.floor() as u32,
        best,
        "exact optimum {best} dice ({share}); tuned:\n{tuned}"
    );
    let last = out.rounds.last().unwrap();
    assert!(
        (last.objective.0 - share).abs() < 5.0 * (last.objective.2 - last.objective.0) / Z95 + 1e-9,
        "{last:?} vs exact {share}"
    );
    for f in [
        "tuning.csv",
        "tuning.parquet",
        "tuning-rounds.png",
        "tuning-rounds.svg",
        "summary.json",
        "manifest.json",
    ] {
        assert!(out.dir.join(f).exists(), "{f}");
    }
    // The tuned file plugs into an experiment as it is.
    let with = format!(
        "name = \"tuned\"\ngames = 10\n[game]\nruleset = \"toy-dice\"\npolicies_from = \"{}\"\n[game.policies]\ndefault = {{ policy = \"pusher\", dice = 3 }}\n",
        out.dir.join("tuned-policies.toml").display()
    );
    let exp = load(dir, &with).unwrap();
    let note = exp.policies_note();
    assert!(
        note.contains("policies tuned by alea tune") || note.contains("NOT converged"),
        "{note}"
    );
    assert!(
        note.contains("margin") && !note.contains("overrides"),
        "{note}"
    );
    let overriding = with.replace("default = {", "alpha = \"steady\"\ndefault = {");
    let note = load(dir, &overriding).unwrap().policies_note();
    assert!(
        note.contains("overrides the tuned policy of alpha"),
        "{note}"
    );
    let model = exp.build(0, 0).unwrap();
    assert_eq!(model.player_policies()[0], format!("pusher(dice={best})"));
    assert_eq!(model.player_policies()[1], "pusher");
}

#[test]
fn local_moves_alone_walk_from_a_poor_start_to_the_known_optimum() {
    // Every candidate a local move (the first the policy's default of 3 dice), from 1 die.
    let (best, share, runner_up) = best_fixed_dice();
    assert!(share - runner_up > 0.01);
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let text = "name = \"local\"\nseed = 5\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = { policy = \"pusher\", dice = 3 }\nalpha = { policy = \"pusher\", dice = 1 }\n\
                [tune]\ngames = 3000\ncandidates = 4\nrounds = 6\nmargin = 0.0\nlocal = 1.0\nlocal_dims = 1\n[tune.players.alpha]\ndice = { values = [1, 2, 3, 4, 5, 6] }\n";
    let exp = load(dir, text).unwrap();
    let out = quiet_tune(&exp, dir.join("out")).unwrap();
    let (tuned, dice) = tuned_alpha_dice(&out.dir);
    let history = std::fs::read_to_string(out.dir.join("tuning.csv")).unwrap();
    assert_eq!(
        dice as u32, best,
        "exact optimum {best} dice; tuned:\n{tuned}\n{history}"
    );
    assert!(out.rounds.iter().any(|r| r.adopted), "{:?}", out.rounds);
}

#[test]
fn tuning_chooses_among_policies_by_name() {
    let opponents = || [Play::Push { dice: 3 }, Play::Push { dice: 3 }];
    let exact = |alpha: Play| {
        let [b, c] = opponents();
        toy::exact(&race([alpha, b, c])).win[0]
    };
    let choices = [
        ("steady", Play::Roll { bonus: 0 }),
        ("random", Play::Random),
        ("pusher", Play::Push { dice: 3 }),
    ];
    let shares: Vec<f64> = choices.iter().map(|c| exact(c.1.clone())).collect();
    let best = (0..3)
        .max_by(|&a, &b| shares[a].total_cmp(&shares[b]))
        .unwrap();
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let text = "name = \"names\"\nseed = 2\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = { policy = \"pusher\", dice = 3 }\nalpha = \"steady\"\n\
                [tune]\ngames = 3000\ncandidates = 6\nrounds = 1\n[tune.players.alpha]\npolicy = [\"steady\", \"random\", \"pusher\"]\n";
    let exp = load(dir, text).unwrap();
    let out = quiet_tune(&exp, dir.join("out")).unwrap();
    let tuned = std::fs::read_to_string(out.dir.join("tuned-policies.toml")).unwrap();
    assert!(
        tuned.contains(&format!("policy = \"{}\"", choices[best].0)),
        "exact {shares:?}; tuned:\n{tuned}"
    );
}

#[test]
fn tuning_a_range_and_every_seat_reaches_an_equilibrium() {
    // All three seats tuned over a continuous range (the policy cuts fractions): iterated best
    // response must stop with no seat gaining more than the margin, in plain and damped steps.
    for step in ["1.0", "0.5"] {
        let dir_guard = tempfile::tempdir().unwrap();
        let dir = dir_guard.path();
        let text = format!("name = \"all\"\nseed = 9\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = {{ policy = \"pusher\", dice = 1 }}\n\
                    [tune]\ngames = 2000\ncandidates = 8\nrounds = 6\nmargin = 0.02\nstep = {step}\n\
                    [tune.players.alpha]\ndice = [1, 6]\n[tune.players.beta_team]\ndice = [1, 6]\n[tune.players.gamma]\ndice = [1, 6]\n");
        let exp = load(dir, &text).unwrap();
        let out = quiet_tune(&exp, dir.join("out")).unwrap();
        assert!(out.converged, "step {step}: {:#?}", out.rounds);
        let first: Vec<_> = out.rounds.iter().filter(|r| r.round == 1).collect();
        assert!(
            first.iter().any(|r| r.adopted && r.gain.0 > 0.05),
            "step {step}: one die is far from best: {first:#?}"
        );
        for r in &out.rounds {
            // Only moves clear of noise are adopted (no tie on the objective here: dice win).
            assert_eq!(r.adopted, r.move_gain.1 > 0.0, "step {step}: {r:#?}");
            if step == "1.0" {
                assert_eq!(r.move_gain, r.gain, "{r:#?}");
            }
        }
    }
}

#[test]
fn search_beats_random_and_the_scripted_default_in_the_toy() {
    let scripted = Play::Push { dice: 3 };
    let search = Play::Search {
        spec: SearchSpec {
            budget: 400,
            horizon: 0,
            margin: None,
            confirm: 0,
        },
        rollout: Box::new(scripted.clone()),
    };
    let games = 3000;
    let share = |alpha: Play| {
        let model = race([alpha, scripted.clone(), scripted.clone()]);
        let tally = play_games(&model, games, 11, 0, &Progress::hidden(), &mut NoSink).unwrap();
        (
            tally.win[0].mean(games),
            tally.win[0].sd(games) / (games as f64).sqrt(),
        )
    };
    let (s, s_se) = share(search);
    let (r, r_se) = share(Play::Random);
    let (d, d_se) = share(scripted.clone());
    assert!(
        s - Z95 * s_se > d + Z95 * d_se,
        "search {s} vs scripted {d}"
    );
    assert!(s - Z95 * s_se > r + Z95 * r_se, "search {s} vs random {r}");
    // Rollouts of the scripted policy, yet it plays about as well as the best fixed number of
    // dice: one step of lookahead on the scripted policy improves on it that much.
    let (best, exact_best, _) = best_fixed_dice();
    assert!(
        s > exact_best - 5.0 * s_se,
        "search {s} vs the best fixed policy ({best} dice) {exact_best}"
    );
}

const LADDER: &str = "name = \"ladder\"\nseed = 5\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = { policy = \"pusher\", dice = 5 }\n\
    [ladder]\ngames = 1500\n\
    [[ladder.rungs]]\nname = \"random\"\npolicy = \"random\"\n\
    [[ladder.rungs]]\nname = \"scripted\"\n\
    [[ladder.rungs]]\nname = \"tuned\"\npolicies_from = \"TUNED\"\n\
    [[ladder.rungs]]\nname = \"search\"\npolicy = { policy = \"search\", budget = 400 }\nrollout_from = \"tuned\"\ngames = 900\n";

#[test]
fn the_toy_ladder_puts_every_higher_rung_above_every_lower_one() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let (best, _, _) = best_fixed_dice();
    let tuned = dir.join("tuned.toml");
    std::fs::write(
        &tuned,
        format!("[policies]\ndefault = {{ policy = \"pusher\", dice = {best} }}\n"),
    )
    .unwrap();
    let exp = load(dir, &LADDER.replace("TUNED", &tuned.display().to_string())).unwrap();
    let out = quiet_ladder(&exp, dir.join("out")).unwrap();
    let all: Vec<_> = out.rows.iter().filter(|r| r.seat == "all").collect();
    assert_eq!(all.len(), 6);
    for r in &all {
        // In this toy the best fixed policy is nearly the best there is, so search only matches
        // the tuned rung; every other pair must be separated.
        if (r.higher.as_str(), r.lower.as_str()) == ("search", "tuned") {
            assert!(r.ratio.2 > 0.95, "search far below tuned: {:?}", r.ratio);
        } else {
            assert!(
                r.ratio.1 > 1.0,
                "{} over {}: {:?}",
                r.higher,
                r.lower,
                r.ratio
            );
        }
    }
    assert_eq!(out.rows.len(), 6 * 4);
    // The search rung plays its own number of games, paired with the baselines' first ones.
    for r in &out.rows {
        let per_seat = if r.higher == "search" { 900 } else { 1500 };
        let expected = if r.seat == "all" {
            3 * per_seat
        } else {
            per_seat
        };
        assert_eq!(r.games, expected, "{r:?}");
    }
    let csv = std::fs::read_to_string(out.dir.join("ladder.csv")).unwrap();
    assert!(
        csv.starts_with(
            "game,higher_rung,lower_rung,seat,games,win_share,baseline_share,ratio,ci_low,ci_high"
        ),
        "{csv}"
    );
    assert!(out.dir.join("ladder-matrix.png").exists());
}

#[test]
fn tune_and_ladder_do_not_depend_on_the_thread_count() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let tuned = dir.join("tuned.toml");
    std::fs::write(
        &tuned,
        "[policies]\ndefault = { policy = \"pusher\", dice = 4 }\n",
    )
    .unwrap();
    let text = LADDER.replace("TUNED", &tuned.display().to_string()).replace("games = 1500", "games = 300")
        + "[tune]\ngames = 400\ncandidates = 4\nrounds = 2\nstep = 0.5\n[tune.players.alpha]\ndice = [1, 6]\n[tune.players.gamma]\ndice = { values = [2, 5] }\n";
    let exp = load(dir, &text).unwrap();
    let files = |threads: usize| {
        let root = dir.join(format!("out-{threads}"));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let t = quiet_tune(&exp, root.join("tune")).unwrap();
            let l = quiet_ladder(&exp, root.join("ladder")).unwrap();
            ["tuned-policies.toml", "tuning.csv", "summary.json"]
                .iter()
                .map(|f| std::fs::read(t.dir.join(f)).unwrap())
                .chain(
                    ["ladder.csv", "summary.json"]
                        .iter()
                        .map(|f| std::fs::read(l.dir.join(f)).unwrap()),
                )
                .collect::<Vec<_>>()
        })
    };
    assert_eq!(files(1), files(2));
}

#[test]
fn bad_tune_tables_are_one_line_errors_naming_the_field() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let head = "[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = { policy = \"pusher\", dice = 3 }\n[tune]\n";
    for (body, expect) in [
        ("[tune.players.alpah]\ndice = [1, 6]\n", "`tune.players.alpah` = a player \"alpah\" (did you mean alpha?)"),
        ("[tune.players.alpha]\ndie = [1, 6]\n", "`tune.players.alpha.die`"),
        ("[tune.players.alpha]\ndice = [4, 4]\n", "`tune.players.alpha.dice` = [4, 4] is not allowed: a range [low, high] with low < high"),
        ("[tune.players.alpha]\ndice = { values = [] }\n", "`tune.players.alpha.dice`"),
        ("[tune.players.alpha]\ndice = [0, 6]\n", "`tune.players.alpha.dice` = 0 is not allowed: a number from 1 to 6"),
        ("rounds = 0\n[tune.players.alpha]\ndice = [1, 6]\n", "`tune.rounds` = 0"),
        ("step = 0\n[tune.players.alpha]\ndice = [1, 6]\n", "`tune.step` = 0 is not allowed: a number in (0, 1]"),
        ("local = 1.5\n[tune.players.alpha]\ndice = [1, 6]\n", "`tune.local` = 1.5 is not allowed: a number in [0, 1]"),
        ("local_dims = 0\n[tune.players.alpha]\ndice = [1, 6]\n", "`tune.local_dims` = 0 is not allowed: a whole number from 1"),
        ("validation = 5\n[tune.players.alpha]\ndice = [1, 6]\n", "`tune.validation` = 5 is not allowed: a whole number from 10"),
        ("converge_on = \"mean\"\n[tune.players.alpha]\ndice = [1, 6]\n", "`tune.converge_on` = \"mean\" is not allowed: \"estimate\""),
        ("objective = { avoid = \"turn capp\" }\n[tune.players.alpha]\ndice = [1, 6]\n", "did you mean turn cap"),
        ("games = 100\n", "names no seat"),
        ("[tune.players.alpha]\npolicy = [\"pusher\", \"steady\"]\ndice = [1, 6]\n", "`tune.players.alpha.dice` = 1 (with policy \"steady\") is not allowed: no parameters"),
        ("[tune.players.alpha]\npolicy = [\"pusher\", \"stedy\"]\n", "did you mean steady"),
    ] {
        let exp = load(dir, &format!("{head}{body}")).unwrap();
        let err = quiet_tune(&exp, dir.join("out")).err().unwrap_or_else(|| panic!("{body} was accepted"));
        let text = err.to_string();
        assert!(text.contains(expect), "{body}: {text}");
        assert!(!text.contains('\n'), "one line: {text}");
        assert_eq!(err.exit_code(), 2, "{text}");
        assert!(!dir.join("out").join("exp").exists(), "nothing written for {body}");
    }
}

#[test]
fn the_paired_ratio_and_its_interval() {
    let y = [0.0, 1.0, 0.5, 1.0, 0.0, 0.5];
    let x: Vec<f64> = y.iter().map(|v| 2.0 * v).collect();
    let (r, lo, hi) = paired_ratio(&x, &y);
    assert!(
        (r - 2.0).abs() < 1e-12 && (hi - lo).abs() < 1e-9,
        "{r} {lo} {hi}"
    );
    let (r, lo, hi) = paired_ratio(&[1.0, 0.0, 1.0, 1.0], &[0.0, 1.0, 1.0, 0.0]);
    assert!((r - 1.5).abs() < 1e-12 && lo < 1.5 && hi > 1.5);
    assert!(paired_ratio(&[1.0, 1.0], &[0.0, 0.0]).0.is_nan());
}

#[test]
fn validation_plays_its_own_number_of_fresh_games() {
    // The race is short (games = 200) and the validation long: the seat's objective interval is
    // the validation's, and its games are the race's plus the validation's.
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let validation = 3000u64;
    let text = format!("name = \"validation\"\nseed = 5\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = {{ policy = \"pusher\", dice = 3 }}\n\
                [tune]\ngames = 200\nvalidation = {validation}\ncandidates = 2\nrounds = 1\n[tune.players.alpha]\ndice = {{ values = [1, 6] }}\n");
    let exp = load(dir, &text).unwrap();
    let out = quiet_tune(&exp, dir.join("out")).unwrap();
    let r = &out.rounds[0];
    let race = 2 * 200;
    let validated = if r.gain == (0.0, 0.0, 0.0) { 1 } else { 2 };
    assert_eq!(r.games, race + validated * validation, "{r:?}");
    // A win share's interval over n games: its half-width is Z95 times sqrt(p(1 - p) / n).
    let (p, lo, hi) = r.objective;
    let half = Z95 * (p * (1.0 - p) / validation as f64).sqrt();
    assert!(
        ((hi - lo) / 2.0 - half).abs() < 0.05 * half,
        "{r:?}: half-width {} vs {half}",
        (hi - lo) / 2.0
    );
    let summary = std::fs::read_to_string(out.dir.join("summary.json")).unwrap();
    assert!(summary.contains("\"validation_games\": 3000"), "{summary}");
    let tuned = std::fs::read_to_string(out.dir.join("tuned-policies.toml")).unwrap();
    assert!(tuned.contains("validation = 3000"), "{tuned}");
}

#[test]
fn a_runs_note_says_which_rounds_judged_the_tune() {
    let note = |converged: bool, ends_checked: bool, gain: f64| {
        let text = format!("converged = {converged}\nmargin = 0.02\nends = true\nends_checked = {ends_checked}\nlargest_gain = {gain}\nlargest_gain_seat = \"alpha\"\n");
        let tuning: toml::Table = toml::from_str(&text).unwrap();
        super::experiment::tuning_note("t.toml", Some(&tuning), &[])
    };
    let converged = note(true, true, 0.01);
    assert!(
        converged.contains("converged") && converged.contains("the last two rounds"),
        "{converged}"
    );
    // An ends round within the margin after ends moves still wants a sampled round's word.
    let unconfirmed = note(false, true, 0.01);
    assert!(
        unconfirmed.contains("NOT converged") && unconfirmed.contains("no sampled round after"),
        "{unconfirmed}"
    );
    let beyond = note(false, true, 0.05);
    assert!(
        beyond.contains("NOT converged") && beyond.contains("still gained 0.05"),
        "{beyond}"
    );
}

#[test]
fn an_ends_round_confirms_convergence_and_finds_a_one_number_gain_the_samples_missed() {
    // Alpha starts far from the known optimum; its one candidate a round is a local move, the
    // policy's default of 3 dice. The margin lets that first round pass as converged; the ends
    // round must then put alpha's dice at the optimum, an end of its list.
    let (best, _, _) = best_fixed_dice();
    let far = if best > 3 { 1 } else { toy::MAX_DICE };
    assert!(best != 3 && best != far, "the toy's optimum {best}");
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let text = |rounds: u32| {
        format!("name = \"ends\"\nseed = 4\n[game]\nruleset = \"toy-dice\"\n[game.policies]\ndefault = {{ policy = \"pusher\", dice = 3 }}\nalpha = {{ policy = \"pusher\", dice = {far} }}\n\
                [tune]\ngames = 8000\ncandidates = 2\nrounds = {rounds}\nmargin = 1.0\nlocal = 1.0\nends = true\n[tune.players.alpha]\ndice = {{ values = [{far}, {best}] }}\n")
    };
    let exp = load(dir, &text(2)).unwrap();
    let out = quiet_tune(&exp, dir.join("out")).unwrap();
    let (tuned, dice) = tuned_alpha_dice(&out.dir);
    let history = std::fs::read_to_string(out.dir.join("tuning.csv")).unwrap();
    assert!(out.converged, "{history}");
    let searches: Vec<(usize, &str)> = out.rounds.iter().map(|r| (r.round, r.search)).collect();
    assert_eq!(searches, [(1, "sampled"), (2, "ends")], "{history}");
    assert!(out.rounds[1].adopted, "{history}");
    assert_eq!(dice as u32, best, "{tuned}\n{history}");
    assert!(tuned.contains("ends_checked = true"), "{tuned}");
    assert!(
        history.lines().nth(2).unwrap().ends_with(",ends"),
        "{history}"
    );
    // Without a round left for the ends, the tuner does not say it converged.
    let exp = load(dir, &text(1)).unwrap();
    let out = quiet_tune(&exp, dir.join("out1")).unwrap();
    assert!(!out.converged);
    let tuned = std::fs::read_to_string(out.dir.join("tuned-policies.toml")).unwrap();
    assert!(tuned.contains("ends_checked = false"), "{tuned}");
    // Its runs say why: within the margin, but never confirmed by an ends round.
    let parsed: toml::Table = toml::from_str(&tuned).unwrap();
    let tuning = parsed["tuning"].as_table().unwrap();
    let note = super::experiment::tuning_note("t.toml", Some(tuning), &[]);
    assert!(
        note.contains("NOT converged") && note.contains("no round trying each number"),
        "{note}"
    );
}
