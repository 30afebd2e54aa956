//! End-to-end tests of the `alea` binary: what a user types, what a script reads.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn alea(args: &[&str]) -> Output {
    alea_with(args, &[])
}

fn alea_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_alea"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the alea binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "alea failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON on stdout")
}

fn sum(v: &serde_json::Value) -> f64 {
    v.as_object()
        .unwrap()
        .values()
        .map(|p| p.as_f64().unwrap())
        .sum()
}

const FIELD_FILE: &str = "ruleset = \"mare-nostrum\"\nbattle = \"field\"\n[attacker]\ninfantry = 10\ncavalry = 5\nleader = 1\n[defender]\ninfantry = 12\nleader = 0\n";

#[test]
fn odds_from_a_battle_file_exact_and_monte_carlo() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = dir.join("battle.toml");
    std::fs::write(&file, FIELD_FILE).unwrap();
    let f = file.to_str().unwrap();
    let exact = json(&alea(&[
        "odds",
        "mare-nostrum",
        "field",
        "--file",
        f,
        "--json",
    ]));
    assert_eq!(exact["ruleset"], "mare-nostrum");
    assert_eq!(exact["battle"], "field");
    assert_eq!(exact["method"], "exact");
    assert!((sum(&exact["outcome"]) - 1.0).abs() < 1e-9);
    // Digest D3: 10 Inf + 5 Cav (+1) against 12 Inf (+0).
    assert!((exact["outcome"]["attacker"].as_f64().unwrap() - 0.822225).abs() < 2e-6);
    assert!((exact["attacker_losses"]["mean"].as_f64().unwrap() - 2.4).abs() < 1e-9);
    let pmf = exact["defender_losses"]["pmf"].as_array().unwrap();
    assert!((pmf.iter().map(|p| p.as_f64().unwrap()).sum::<f64>() - 1.0).abs() < 1e-9);
    assert!(exact.get("standard_error").is_none());

    let mc = json(&alea(&[
        "odds", "--file", f, "--trials", "200000", "--seed", "7", "--json",
    ]));
    assert_eq!(mc["method"], "monte-carlo");
    assert_eq!(mc["trials"], 200000);
    let (p, se) = (
        mc["outcome"]["attacker"].as_f64().unwrap(),
        mc["standard_error"]["outcome"]["attacker"]
            .as_f64()
            .unwrap(),
    );
    assert!(se > 0.0 && (p - 0.822225).abs() < 5.0 * se, "{p} ± {se}");
    assert!(
        mc["standard_error"]["attacker_losses"]["pmf"]
            .as_array()
            .unwrap()
            .len()
            == pmf.len() + 3
    );
    assert!((sum(&mc["outcome"]) - 1.0).abs() < 1e-9);
    // The same seed gives the same answer.
    let again = json(&alea(&[
        "odds", "--file", f, "--trials", "200000", "--seed", "7", "--json",
    ]));
    assert_eq!(mc["outcome"], again["outcome"]);
}

#[test]
fn odds_from_flags_and_city_fights_answer_in_their_own_words() {
    let out = alea(&[
        "odds",
        "mare-nostrum",
        "assault",
        "-a",
        "infantry=8",
        "-d",
        "garrison=4,ppu=6",
        "--set",
        "orders=3",
        "--json",
    ]);
    let doc = json(&out);
    // Digest D10: up to 3 assault orders take the city with probability 0.169820.
    assert!((doc["outcome"]["taken"].as_f64().unwrap() - 0.169820).abs() < 2e-6);
    assert!((doc["taken_by_order"]["3"].as_f64().unwrap() - 0.169820).abs() < 2e-6);
    assert!(doc["ppu_destroyed"]["pmf"].is_array());
    let text = alea(&[
        "odds",
        "mare-nostrum",
        "siege",
        "-a",
        "infantry=12",
        "-d",
        "garrison=4,ppu=6",
    ]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("city taken") && text.contains("only 10 of the 12 besiegers roll"),
        "{text}"
    );
}

#[test]
fn quickstart_writes_tables_manifest_and_charts() {
    let out_root_guard = tempfile::tempdir().unwrap();
    let out_root = out_root_guard.path();
    let out = alea(&[
        "run",
        "experiments/quickstart.toml",
        "--out",
        out_root.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = out_root.join("quickstart");
    for f in [
        "results.parquet",
        "summary.csv",
        "distributions.parquet",
        "manifest.json",
        "heatmap.png",
        "heatmap.svg",
        "outcome-probability.png",
        "outcome-probability.svg",
        "expected-losses.png",
        "expected-losses.svg",
    ] {
        let meta = std::fs::metadata(dir.join(f)).unwrap_or_else(|_| panic!("{f} missing"));
        assert!(meta.len() > 100, "{f} is nearly empty");
    }
    let png = std::fs::read(dir.join("heatmap.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["points"], 3600);
    assert_eq!(manifest["experiment_sha256"].as_str().unwrap().len(), 64);
    let csv = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3601);
    assert!(csv.starts_with(
        "variant,attacker.infantry,defender.infantry,attacker.leader,method,trials,p_attacker"
    ));
    // Nothing temporary is left beside the output.
    let names: Vec<String> = std::fs::read_dir(out_root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["quickstart".to_string()]);
}

fn simulated_experiment(dir: &Path) -> PathBuf {
    let file = dir.join("threads.toml");
    std::fs::write(
        &file,
        "name = \"threads\"\nmethod = \"monte-carlo\"\ntrials = 30000\nseed = 99\n[battle]\nruleset = \"mare-nostrum\"\nbattle = \"field\"\nattacker = { infantry = 6, cavalry = 2, leader = 1 }\ndefender = { infantry = 8, leader = 0 }\n[[sweep]]\nfield = \"attacker.infantry\"\nvalues = [2, 9, 17]\n[[variants]]\nname = \"recommended\"\n[[variants]]\nname = \"owner choice\"\noptions = { casualty_allocation = \"owner-choice\" }\n",
    )
    .unwrap();
    file
}

#[test]
fn same_seed_same_bytes_whatever_the_thread_count() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = simulated_experiment(dir);
    let mut csvs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("out{threads}"));
        let o = alea_with(
            &[
                "run",
                file.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "-q",
            ],
            &[("RAYON_NUM_THREADS", threads)],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        csvs.push(std::fs::read(out.join("threads/summary.csv")).unwrap());
    }
    assert_eq!(csvs[0], csvs[1]);
    assert!(String::from_utf8_lossy(&csvs[0]).contains("monte-carlo,30000"));
}

#[test]
fn bad_input_is_one_line_exit_two_and_leaves_no_output() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let out_root = dir.join("out");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let base = "[battle]\nruleset = \"mare-nostrum\"\nbattle = \"field\"\nattacker = { infantry = 5, leader = 0 }\ndefender = { infantry = 5, leader = 0 }\n";
    let cases = [
        (write("inverted.toml", &format!("{base}[[sweep]]\nfield = \"attacker.infantry\"\nfrom = 9\nto = 3\n")), "sweep[0].to"),
        (write("range.toml", &format!("{base}[[sweep]]\nfield = \"attacker.leader\"\nfrom = 0\nto = 5\n")), "attacker.leader"),
        (write("malformed.toml", "[battle\n"), "not a valid experiment file"),
        (write("negative.toml", &base.replace("infantry = 5, leader = 0 }\ndefender", "infantry = -3, leader = 0 }\ndefender")), "attacker.infantry"),
        (write("unit.toml", &base.replace("infantry = 5, leader = 0 }\ndefender", "archers = 3, leader = 0 }\ndefender")), "archers"),
        (write("ruleset.toml", &base.replace("mare-nostrum", "mare-magnum")), "ruleset"),
        (write("option.toml", &format!("{base}[[variants]]\nname = \"x\"\noptions = {{ casualty_allocation = \"luck\" }}\n")), "casualty_allocation"),
    ];
    for (file, field) in cases {
        let out = alea(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out_root.to_str().unwrap(),
            "-q",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", file.display());
        assert!(err.contains(field), "{}: {err}", file.display());
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"));
        let left = std::fs::read_dir(&out_root).map(|d| d.count()).unwrap_or(0);
        assert_eq!(left, 0, "output left behind for {}", file.display());
    }
    for args in [
        vec![
            "odds",
            "mare-nostrum",
            "field",
            "-a",
            "infantry=1000001",
            "-d",
            "infantry=3",
        ],
        vec![
            "odds",
            "mare-nostrum",
            "field",
            "-a",
            "infantry=3,leader=4",
            "-d",
            "infantry=3",
        ],
        vec![
            "odds",
            "mare-nostrum",
            "field",
            "-a",
            "infantry=2.5",
            "-d",
            "infantry=3",
        ],
        vec![
            "odds",
            "mare-nostrum",
            "catapult",
            "-a",
            "infantry=2",
            "-d",
            "infantry=3",
        ],
        vec![
            "odds",
            "mare-nostrum",
            "field",
            "-a",
            "infantry=3",
            "-d",
            "infantry=3",
            "--trials",
            "0",
        ],
        vec!["odds", "--file", "/nonexistent/battle.toml"],
        // República de Roma's battles have no two sides for --attacker to name.
        vec!["odds", "republica-de-roma", "land", "-a", "legions=3"],
    ] {
        let out = alea(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn list_names_all_five_rulesets_and_help_shows_examples() {
    let out = alea(&["list"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for slug in [
        "mare-nostrum",
        "invasions",
        "republica-de-roma",
        "mediterraneo-sanguinolento",
        "imperios-del-mediterraneo",
    ] {
        assert!(text.contains(slug), "{slug} missing from alea list");
    }
    assert!(
        !text.contains("battles: none yet"),
        "every ruleset has its battles"
    );
    assert!(text.contains("casualty_allocation") && text.contains("bad_weather_wreck_ones"));
    let listed = json(&alea(&["list", "--json"]));
    assert_eq!(listed.as_array().unwrap().len(), 5);
    let help = String::from_utf8(alea(&["odds", "--help"]).stdout).unwrap();
    assert!(help.contains("Examples:") && help.contains("alea odds mare-nostrum field"));
}

#[test]
fn odds_chart_is_drawn() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let stem = dir.join("losses");
    let out = alea(&[
        "odds",
        "mare-nostrum",
        "field",
        "-a",
        "infantry=10,leader=1",
        "-d",
        "infantry=10,leader=0",
        "--chart",
        stem.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(std::fs::metadata(dir.join("losses.png")).unwrap().len() > 1000);
    assert!(std::fs::read_to_string(dir.join("losses.svg"))
        .unwrap()
        .contains("<svg"));
}

#[test]
fn a_reader_that_hangs_up_is_not_a_panic() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["list"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // like `alea list | head -0`
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn every_shipped_battle_and_experiment_file_loads() {
    for entry in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/battles"))
            .unwrap()
    {
        let path = entry.unwrap().path();
        let doc = json(&alea(&["odds", "--file", path.to_str().unwrap(), "--json"]));
        assert!(
            (sum(&doc["outcome"]) - 1.0).abs() < 1e-9,
            "{}",
            path.display()
        );
    }
    let mut experiments = 0;
    for entry in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments")).unwrap()
    {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            // Battle experiments and game experiments alike.
            alea::game::experiment::load_any(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            experiments += 1;
        }
    }
    assert!(experiments >= 4);
}

#[test]
fn invasions_basic_and_advanced_answer_from_the_command_line() {
    // Digest §7.5 B1: 4 Barbarian infantry against 3 Kingdom infantry in plain win with P = 46/81.
    let args = [
        "odds",
        "invasions",
        "basic",
        "-a",
        "infantry=4",
        "-d",
        "nation=kingdom,infantry=3",
        "--json",
    ];
    let exact = json(&alea(&args));
    let p = exact["outcome"]["attacker"].as_f64().unwrap();
    assert!((p - 46.0 / 81.0).abs() < 1e-9, "{p}");
    let mut simulated = args.to_vec();
    simulated.extend(["--trials", "200000", "-q"]);
    let mc = json(&alea(&simulated));
    let q = mc["outcome"]["attacker"].as_f64().unwrap();
    let se = (p * (1.0 - p) / 200000.0).sqrt();
    assert!((q - p).abs() < 5.0 * se, "exact {p}, simulated {q}");
    // The advanced system on the same armies, and a bad unit name naming the field.
    let mut advanced = args.to_vec();
    advanced[2] = "advanced";
    assert!((sum(&json(&alea(&advanced))["outcome"]) - 1.0).abs() < 1e-9);
    let bad = alea(&[
        "odds",
        "invasions",
        "basic",
        "-a",
        "legionz=2",
        "-d",
        "infantry=3",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("attacker.legionz") && err.contains("legion"),
        "{err}"
    );
}

#[test]
fn threads_and_seed_flags_override_the_file_without_changing_results() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = simulated_experiment(dir);
    let mut csvs = Vec::new();
    for (threads, seed) in [("1", "99"), ("2", "99"), ("2", "100")] {
        let out = dir.join(format!("out{threads}-{seed}"));
        let o = alea(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
            "--threads",
            threads,
            "--seed",
            seed,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        csvs.push(std::fs::read(out.join("threads/summary.csv")).unwrap());
    }
    assert_eq!(csvs[0], csvs[1], "the thread count changes nothing");
    assert_ne!(csvs[1], csvs[2], "the seed does");
}

#[test]
fn game_experiments_name_their_errors_and_replay_has_help() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let out_root = dir.join("out");
    let game = dir.join("game.toml");
    std::fs::write(
        &game,
        "games = 100\n[game]\nruleset = \"imperios-del-mediterraneo\"\nscenario = \"x.toml\"\nplayers = 9\n",
    )
    .unwrap();
    let battle = simulated_experiment(dir);
    let neither = dir.join("neither.toml");
    std::fs::write(&neither, "name = \"x\"\n").unwrap();
    let g = game.to_str().unwrap();
    let o = out_root.to_str().unwrap();
    let b = battle.to_str().unwrap();
    let n = neither.to_str().unwrap();
    for (args, expect) in [
        (
            vec!["run", g, "--out", o, "-q"],
            "[game]: `players` = 9 is not allowed",
        ),
        (
            vec!["replay", g, "--game", "3"],
            "[game]: `players` = 9 is not allowed",
        ),
        (vec!["run", b, "--out", o, "-q", "--games", "10"], "--games"),
        (vec!["replay", b, "--game", "0"], "no games to replay"),
        (vec!["run", n, "--out", o, "-q"], "[game] table"),
        (vec!["run", g, "--out", o, "--games", "0"], "--games"),
    ] {
        let out = alea(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert_eq!(
        std::fs::read_dir(&out_root).map(|d| d.count()).unwrap_or(0),
        0
    );
    let help = String::from_utf8(alea(&["replay", "--help"]).stdout).unwrap();
    assert!(help.contains("Examples:") && help.contains("--game") && help.contains("--variant"));
    let help = String::from_utf8(alea(&["run", "--help"]).stdout).unwrap();
    assert!(
        help.contains("--games") && help.contains("--threads") && help.contains("games.parquet")
    );
}

#[test]
fn tune_and_ladder_run_from_the_command_line_and_name_their_errors() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let tuned = json(&alea(&[
        "tune",
        "experiments/ror-competent.toml",
        "--games",
        "40",
        "--out",
        o,
        "--json",
    ]));
    assert!(tuned["rounds_played"].as_u64().unwrap() >= 1, "{tuned}");
    assert_eq!(
        tuned["seats"].as_array().unwrap().len(),
        6,
        "five factions and the Senate"
    );
    let file = std::fs::read_to_string(out.join("ror-competent/tuned-policies.toml")).unwrap();
    assert!(
        file.contains("[policies.faction_1]") && file.contains("Largest gain"),
        "{file}"
    );
    let ladder = json(&alea(&[
        "ladder",
        "experiments/ror-ladder.toml",
        "--games",
        "60",
        "--out",
        o,
        "--json",
    ]));
    assert_eq!(ladder["pairs"].as_array().unwrap().len(), 6, "{ladder}");
    let csv = std::fs::read_to_string(out.join("ror-ladder/ladder.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 6 * (5 + 1), "{csv}");
    // --games overrides the search rung's own count as well.
    assert!(
        csv.lines()
            .filter(|l| l.contains(",faction_1,"))
            .all(|l| l.contains(",60,")),
        "{csv}"
    );

    let bad = dir.join("bad.toml");
    let text = std::fs::read_to_string("experiments/ror-ladder.toml").unwrap()
        + "[tune]\n[tune.players.faction_9]\ngreed = [0, 1]\n";
    std::fs::write(&bad, text).unwrap();
    let r = alea(&["tune", bad.to_str().unwrap(), "--out", o]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`tune.players.faction_9`") && err.trim().lines().count() == 1,
        "{err}"
    );
    assert!(!out.join("bad").exists());
    let r = alea(&["ladder", "experiments/ror-competent.toml", "--out", o]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("no [ladder] table"));
    let list = String::from_utf8_lossy(&alea(&["list", "mare-nostrum"]).stdout).to_string();
    assert!(
        list.contains("game policies")
            && list.contains("army_share (0.1..1, default 0.8)")
            && list.contains("search: tries"),
        "{list}"
    );
    let help = alea(&["tune", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("Examples:"));
}

#[test]
fn every_file_the_help_examples_name_exists() {
    let mut named = 0;
    for command in [
        vec!["--help"],
        vec!["list", "--help"],
        vec!["docs", "--help"],
        vec!["odds", "--help"],
        vec!["run", "--help"],
        vec!["replay", "--help"],
        vec!["tune", "--help"],
        vec!["ladder", "--help"],
    ] {
        let out = alea(&command);
        assert!(out.status.success(), "{command:?}");
        let help = String::from_utf8_lossy(&out.stdout);
        for word in help.split_whitespace() {
            if (word.starts_with("experiments/") || word.starts_with("scenarios/"))
                && word.ends_with(".toml")
            {
                named += 1;
                assert!(
                    Path::new(env!("CARGO_MANIFEST_DIR")).join(word).exists(),
                    "`alea {}` names {word}, which does not exist",
                    command.join(" ")
                );
            }
        }
    }
    assert!(named > 10, "only {named} example files found in the help");
}

/// Runs `exp` for a few games, replays game 3 (its text must hold every `replayed`), and runs
/// `bad` (a game experiment's text), which must fail with one line holding every `rejected`.
fn a_game_runs_replays_and_rejects(
    exp: &str,
    games: &str,
    replayed: &[&str],
    bad: &str,
    rejected: &[&str],
) {
    let dir_guard = tempfile::tempdir().unwrap();
    let out = dir_guard.path().to_str().unwrap();
    let run = alea(&["run", exp, "--games", games, "--out", out, "-q"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let replay = alea(&["replay", exp, "--game", "3"]);
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(replayed.iter().all(|r| text.contains(r)), "{text}");
    let bad_file = dir_guard.path().join("bad.toml");
    std::fs::write(&bad_file, bad).unwrap();
    let e = alea(&["run", bad_file.to_str().unwrap(), "--out", out, "-q"]);
    let msg = String::from_utf8_lossy(&e.stderr);
    assert_eq!(e.status.code(), Some(2), "{msg}");
    assert!(rejected.iter().all(|r| msg.contains(r)), "{msg}");
    assert_eq!(msg.trim().lines().count(), 1, "{msg}");
}

#[test]
fn the_invasions_game_runs_replays_and_rejects_an_unknown_nation() {
    a_game_runs_replays_and_rejects(
        "experiments/invasions-scenario-1.toml",
        "40",
        &["WINNERS REST ON PLACEHOLDER VP", "== turn 12"],
        "games = 10\n[game]\nruleset = \"invasions\"\n[game.nation_policies]\nhunnii = \"random\"\n",
        &["nation_policies.hunnii", "hunni"],
    );
}

#[test]
fn the_mediterraneo_game_runs_replays_and_rejects_a_bad_option() {
    a_game_runs_replays_and_rejects(
        "experiments/mediterraneo-majors.toml",
        "20",
        &["WINNERS REST ON PLACEHOLDERS", "== turn 1 (", "== turn 30 ("],
        "games = 10\n[game]\nruleset = \"mediterraneo-sanguinolento\"\n[game.options]\ngame_turn_cap = 0\n",
        &["game_turn_cap", "600"],
    );
}

#[test]
fn the_imperios_game_runs_replays_and_rejects_a_bad_seat_count() {
    a_game_runs_replays_and_rejects(
        "experiments/imperios-mirror-ring.toml",
        "20",
        &["SYNTHETIC DATA — NOT THE REAL GAME"],
        "games = 10\n[game]\nruleset = \"imperios-del-mediterraneo\"\nscenario = \"scenarios/imperios-del-mediterraneo/game/mirror-ring.toml\"\nplayers = 1\n",
        &["players", "2 to 8"],
    );
}

/// An explicit Core-IDM map (the shipped 4-seat ring written out) runs like the ring; a map file
/// with an edge to an unknown area is a one-line error, exit 2, naming the file, field and value.
#[test]
fn an_explicit_imperios_map_runs_and_a_bad_one_is_rejected() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let out = dir.join("out");
    let scenarios =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/imperios-del-mediterraneo/game");
    for f in ["tables.toml", "decks.toml", "mirror-ring-4-explicit.toml"] {
        std::fs::copy(scenarios.join(f), dir.join(f)).unwrap();
    }
    let map = std::fs::read_to_string(dir.join("mirror-ring-4-explicit.toml")).unwrap();
    std::fs::write(
        dir.join("bad-map.toml"),
        map.replacen("b = \"tribe-1\"", "b = \"tribe-9\"", 1),
    )
    .unwrap();
    let experiment = |map: &str| {
        let p = dir.join(format!("exp-{map}"));
        let scenario = dir.join(map);
        std::fs::write(&p, format!("games = 30\n[game]\nruleset = \"imperios-del-mediterraneo\"\nscenario = \"{}\"\nplayers = 4\n[game.policies]\ndefault = \"greedy\"\n", scenario.display())).unwrap();
        p
    };
    let good = experiment("mirror-ring-4-explicit.toml");
    let run = alea(&[
        "run",
        good.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        text.contains("SYNTHETIC DATA — NOT THE REAL GAME"),
        "{text}"
    );
    let bad = experiment("bad-map.toml");
    let e = alea(&[
        "run",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    let msg = String::from_utf8_lossy(&e.stderr);
    assert_eq!(e.status.code(), Some(2), "{msg}");
    assert_eq!(msg.trim().lines().count(), 1, "{msg}");
    for part in ["bad-map.toml", "edge[16].b", "tribe-9"] {
        assert!(msg.contains(part), "{part}: {msg}");
    }
}
