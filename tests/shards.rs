//! Shards end to end: `alea run --shard K/N` (and `alea ladder --shard`) on 1, 2 and 4 shards,
//! then `alea merge`, must give the very bytes of a single run; bad sets of shards are one-line
//! errors with exit code 2 that write nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn alea(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the alea binary runs")
}

fn ok(args: &[&str]) -> String {
    let o = alea(args);
    assert!(
        o.status.success(),
        "alea {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The one-line error of a command that must fail with exit code 2.
fn refused(args: &[&str]) -> String {
    let o = alea(args);
    assert_eq!(o.status.code(), Some(2), "alea {args:?}: {o:?}");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A game experiment with a sweep, two variants and per-turn rows: every output table a game run
/// writes, from cases of 19 chunks (300 games in chunks of 16).
const GAME: &str = r#"name = "sharded-game"
games = 300
seed = 5
per_turn_rows = true
[game]
ruleset = "republica-de-roma"
scenario = "scenarios/republica-de-roma/early-republic.toml"
turn_cap = 30
[game.policies]
default = "cooperative"
faction_4 = "competitive"
[[sweep]]
field = "starting_treasury"
values = [50, 150]
[[variants]]
name = "as written"
[[variants]]
name = "all competitive"
set = { policies = { default = "competitive" } }
"#;

/// A Monte Carlo battle sweep: 6 points of 30 chunks of trials each.
const BATTLE: &str = "name = \"sharded-battle\"\nmethod = \"monte-carlo\"\ntrials = 30000\nseed = 99\n[battle]\nruleset = \"mare-nostrum\"\nbattle = \"field\"\nattacker = { infantry = 6, cavalry = 2, leader = 1 }\ndefender = { infantry = 8, leader = 0 }\n[[sweep]]\nfield = \"attacker.infantry\"\nvalues = [2, 9, 17]\n[[variants]]\nname = \"recommended\"\n[[variants]]\nname = \"owner choice\"\noptions = { casualty_allocation = \"owner-choice\" }\n";

/// A Monte Carlo battle with real-valued quantities (VP, cards) as well as counts.
const RAID: &str = "name = \"sharded-raid\"\nmethod = \"monte-carlo\"\ntrials = 20000\nseed = 4\n[battle]\nruleset = \"imperios-del-mediterraneo\"\nbattle = \"raid\"\nraider = \"neutral\"\nfixed = 6\ndice = 1\nstraits = 1\n[battle.land_interception]\ntroops = [\"Hoplitas\"]\n[battle.city]\nsize = 2\nmarkers = 1\n[[sweep]]\nfield = \"fixed\"\nvalues = [4, 6]\n";

/// A battle sweep answered exactly where it can be: shards take whole points.
const EXACT: &str = "name = \"sharded-exact\"\nseed = 3\n[battle]\nruleset = \"mare-nostrum\"\nbattle = \"field\"\nattacker = { infantry = 6, leader = 1 }\ndefender = { infantry = 8, leader = 0 }\n[[sweep]]\nfield = \"attacker.infantry\"\nfrom = 1\nto = 7\n";

/// Runs `file` whole into `single/` and in 1, 2 and 4 shards merged into `n/`, and checks that
/// every file of `compare` has the same bytes.
fn shards_match_a_single_run(
    dir: &Path,
    file: &Path,
    name: &str,
    compare: &[&str],
    extra: &[&str],
) {
    let single = dir.join("single");
    let mut args = vec!["run", s(file), "--out", s(&single), "-q"];
    args.extend(extra);
    ok(&args);
    for n in [1, 2, 4] {
        let out = dir.join(format!("by{n}"));
        for k in 1..=n {
            let part = format!("{k}/{n}");
            let mut args = vec!["run", s(file), "--shard", &part, "--out", s(&out), "-q"];
            args.extend(extra);
            ok(&args);
        }
        let shards: Vec<PathBuf> = (1..=n)
            .map(|k| out.join(name).join("shards").join(format!("{k}-of-{n}")))
            .collect();
        let mut args = vec!["merge", "-q"];
        args.extend(shards.iter().map(|p| s(p)));
        ok(&args);
        for f in compare {
            let a = std::fs::read(single.join(name).join(f)).unwrap();
            let b = std::fs::read(out.join(name).join(f)).unwrap();
            assert!(a == b, "{name}/{f} differs with {n} shard(s)");
        }
        // The shards stay beside the merged files, for a rerun of the merge.
        assert!(shards.iter().all(|d| d.join("shard.json").exists()));
    }
}

#[test]
fn a_game_experiment_merged_from_1_2_and_4_shards_is_byte_identical() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = dir.join("game.toml");
    std::fs::write(&file, GAME).unwrap();
    shards_match_a_single_run(
        dir,
        &file,
        "sharded-game",
        &[
            "summary.json",
            "summary.csv",
            "endings.csv",
            "turn-summary.csv",
            "games.parquet",
            "turns.parquet",
        ],
        &["--games", "300"],
    );
    // The games are really spread: every shard of four played some, none all.
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("by4/sharded-game/shards/3-of-4/shard.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["shard"], 3);
    assert_eq!(manifest["shards"], 4);
    assert_eq!(manifest["seed"], 5);
    assert_eq!(manifest["overrides"]["games"], 300);
    assert_eq!(manifest["experiment_sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn battle_sweeps_merged_from_1_2_and_4_shards_are_byte_identical() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = dir.join("battle.toml");
    std::fs::write(&file, BATTLE).unwrap();
    let tables = ["summary.csv", "results.parquet", "distributions.parquet"];
    shards_match_a_single_run(&dir.join("mc"), &file, "sharded-battle", &tables, &[]);
    let file = dir.join("raid.toml");
    std::fs::write(&file, RAID).unwrap();
    shards_match_a_single_run(&dir.join("raid"), &file, "sharded-raid", &tables, &[]);
    let file = dir.join("exact.toml");
    std::fs::write(&file, EXACT).unwrap();
    shards_match_a_single_run(&dir.join("exact"), &file, "sharded-exact", &tables, &[]);
}

#[test]
fn a_ladder_merged_from_shards_writes_the_same_ladder_csv() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = "experiments/ror-ladder.toml";
    let (single, sharded) = (dir.join("single"), dir.join("sharded"));
    // Only the cheap rungs: a rung's own `games` (the search rung's) gives way to --games, so
    // drop the search rung by a copy of the file without it.
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let cut = text
        .find("[[ladder.rungs]]\nname = \"search\"")
        .expect("a search rung");
    let small = dir.join("ladder.toml");
    std::fs::write(&small, &text[..cut]).unwrap();
    ok(&[
        "ladder",
        s(&small),
        "--games",
        "120",
        "--out",
        s(&single),
        "-q",
    ]);
    for k in ["1/3", "2/3", "3/3"] {
        ok(&[
            "ladder",
            s(&small),
            "--games",
            "120",
            "--shard",
            k,
            "--out",
            s(&sharded),
            "-q",
        ]);
    }
    let shards = sharded.join("ror-ladder/shards");
    let list: Vec<PathBuf> = (1..=3).map(|k| shards.join(format!("{k}-of-3"))).collect();
    let mut args = vec!["merge", "-q"];
    args.extend(list.iter().map(|p| s(p)));
    ok(&args);
    for f in ["ladder.csv", "ladder.parquet", "summary.json"] {
        let a = std::fs::read(single.join("ror-ladder").join(f)).unwrap();
        let b = std::fs::read(sharded.join("ror-ladder").join(f)).unwrap();
        assert!(a == b, "ror-ladder/{f} differs");
    }
    // tune cannot be sharded, and says why.
    let err = refused(&[
        "tune",
        "experiments/ror-competent.toml",
        "--shard",
        "1/2",
        "--out",
        s(dir),
    ]);
    assert!(err.contains("cannot be cut into shards"), "{err}");
}

#[test]
fn bad_shards_are_one_line_errors_that_write_nothing() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = dir.join("battle.toml");
    std::fs::write(&file, BATTLE).unwrap();
    let out = dir.join("out");
    for bad in ["0/4", "5/4", "4", "a/b", "1/0"] {
        let err = refused(&["run", s(&file), "--shard", bad, "--out", s(&out)]);
        assert!(
            err.contains("--shard") && err.contains("1 ≤ K ≤ N"),
            "{err}"
        );
    }
    assert!(!out.exists(), "a refused shard wrote something");
    let shard = |k: u64, extra: &[&str], root: &Path| -> PathBuf {
        let part = format!("{k}/3");
        let mut args = vec!["run", s(&file), "--shard", &part, "--out", s(root), "-q"];
        args.extend(extra);
        ok(&args);
        root.join("sharded-battle/shards").join(format!("{k}-of-3"))
    };
    let good: Vec<PathBuf> = (1..=3).map(|k| shard(k, &[], &out)).collect();
    let other_seed = shard(2, &["--seed", "7"], &dir.join("seed7"));
    let merged = out.join("sharded-battle/summary.csv");
    let check = |dirs: Vec<&Path>, says: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(dirs.iter().map(|p| s(p)));
        let err = refused(&args);
        for word in says {
            assert!(err.contains(word), "{err} lacks {word}");
        }
        assert!(
            !merged.exists(),
            "a refused merge wrote {}",
            merged.display()
        );
    };
    check(vec![&good[0], &good[2]], &["missing", "2 of 3"]);
    check(
        vec![&good[0], &good[1], &good[1], &good[2]],
        &["2 of 3", "twice"],
    );
    check(
        vec![&good[0], &other_seed, &good[2]],
        &["seed 7", "seed 99", "2-of-3"],
    );
    // Shards of another file (same name, other content).
    let other_file = dir.join("other.toml");
    std::fs::write(
        &other_file,
        BATTLE.replace("values = [2, 9, 17]", "values = [3, 9, 17]"),
    )
    .unwrap();
    let other_root = dir.join("other");
    ok(&[
        "run",
        s(&other_file),
        "--shard",
        "3/3",
        "--out",
        s(&other_root),
        "-q",
    ]);
    let other = other_root.join("sharded-battle/shards/3-of-3");
    check(vec![&good[0], &good[1], &other], &["SHA-256", "other.toml"]);
    // A folder that is no shard.
    check(vec![&good[0], &good[1], dir], &["shard.json"]);
    // The experiment changed since the shards ran.
    let original = std::fs::read(&file).unwrap();
    std::fs::write(&file, BATTLE.replace("seed = 99", "seed = 98")).unwrap();
    check(
        good.iter().map(PathBuf::as_path).collect(),
        &["changed since the shards ran"],
    );
    std::fs::write(&file, original).unwrap();
    ok(&["merge", "-q", s(&good[0]), s(&good[1]), s(&good[2])]);
    assert!(merged.exists());
}

#[test]
fn a_merge_refuses_shards_whose_scenario_changed_since_they_ran() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let scenario = dir.join("early.toml");
    std::fs::copy("scenarios/republica-de-roma/early-republic.toml", &scenario).unwrap();
    let file = dir.join("game.toml");
    let text = format!(
        "name = \"scenario-hash\"\ngames = 64\nseed = 2\n[game]\nruleset = \"republica-de-roma\"\nscenario = \"{}\"\nturn_cap = 10\n",
        s(&scenario)
    );
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let shard = |k: u64| -> PathBuf {
        let part = format!("{k}/2");
        ok(&["run", s(&file), "--shard", &part, "--out", s(&out), "-q"]);
        out.join("scenario-hash/shards").join(format!("{k}-of-2"))
    };
    let first = shard(1);
    let manifest = std::fs::read_to_string(first.join("shard.json")).unwrap();
    assert!(manifest.contains("early.toml"), "{manifest}");
    let second = shard(2);
    let original = std::fs::read_to_string(&scenario).unwrap();
    std::fs::write(&scenario, format!("{original}\n# edited\n")).unwrap();
    let err = refused(&["merge", s(&first), s(&second)]);
    assert!(
        err.contains("data changed") && err.contains("early.toml differs"),
        "{err}"
    );
    assert!(!out.join("scenario-hash/summary.csv").exists());
    // A shard rerun on the edited scenario does not belong with one that ran on the original.
    let rerun = {
        let part = "2/2";
        let root = dir.join("edited");
        ok(&["run", s(&file), "--shard", part, "--out", s(&root), "-q"]);
        root.join("scenario-hash/shards/2-of-2")
    };
    let err = refused(&["merge", s(&first), s(&rerun)]);
    assert!(err.contains("read other data"), "{err}");
    std::fs::write(&scenario, original).unwrap();
    ok(&["merge", "-q", s(&first), s(&second)]);
    assert!(out.join("scenario-hash/summary.csv").exists());
}

#[test]
fn a_finished_shard_is_not_played_again_unless_forced() {
    let dir_guard = tempfile::tempdir().unwrap();
    let dir = dir_guard.path();
    let file = dir.join("battle.toml");
    std::fs::write(&file, BATTLE).unwrap();
    let out = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            s(&file),
            "--shard",
            "2/2",
            "--out",
            s(&out),
            "--json",
        ];
        args.extend(extra);
        serde_json::from_str::<serde_json::Value>(&ok(&args)).unwrap()
    };
    assert_eq!(run(&[])["played"], true);
    let data = out.join("sharded-battle/shards/2-of-2/points.bin");
    let first = std::fs::metadata(&data).unwrap().modified().unwrap();
    assert_eq!(run(&[])["played"], false);
    assert_eq!(std::fs::metadata(&data).unwrap().modified().unwrap(), first);
    // Another seed is another run: the shard is played again, as is any with --force.
    assert_eq!(run(&["--seed", "3"])["played"], true);
    assert_eq!(run(&["--seed", "3", "--force"])["played"], true);
}
