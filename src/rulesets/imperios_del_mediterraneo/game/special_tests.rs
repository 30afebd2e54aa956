//! Special Event (X) cards with an assumed text (digest §5.3: the real texts are printed on the
//! cards): the loader accepts one only as `provenance = "assumed"` with a label and combat dice,
//! `describe()` says so, the chain counts its die for the side it helps, and games play them
//! (attacker, defender, third parties) with every card conserved.

use super::game_tests::{check, game_with, options};
use super::load::load;
use super::military::{self, Defence, Plan};
use super::policy::{self, Policy};
use super::scenario::{CITY_ATTACK, SPECIAL, TROOP};
use super::state::NEUTRAL;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GameRecord, NoLog, NoObserver};
use std::path::{Path, PathBuf};

const SPECIAL_RING: &str =
    "scenarios/imperios-del-mediterraneo/game/mirror-ring-texts-special.toml";

fn shipped(file: &str) -> PathBuf {
    Path::new("scenarios/imperios-del-mediterraneo/game").join(file)
}

#[test]
fn an_x_card_loads_with_its_assumed_text_and_describe_says_so() {
    let s = load(Path::new(SPECIAL_RING), 3).unwrap();
    let deck = &s.decks[s.empires[0].deck];
    let x = deck.kinds.iter().find(|k| k.is(SPECIAL)).unwrap();
    assert_eq!((x.name.as_str(), x.dice), ("Presagio", 1));
    assert!(x.assumed.as_deref().unwrap().contains("+1 die"));
    let g = game_with(SPECIAL_RING, 3, policy::defaults("greedy"), &options());
    let lines = g.describe().join("\n");
    assert!(
        lines.contains("Presagio (Special Event, ASSUMED text:"),
        "{lines}"
    );
    assert!(lines.contains("Special Event (X) cards only with an assumed text"));
    // The vanilla ring holds no X card and says why.
    let g = game_with(
        "scenarios/imperios-del-mediterraneo/game/mirror-ring.toml",
        3,
        policy::defaults("greedy"),
        &options(),
    );
    let lines = g.describe().join("\n");
    assert!(lines.contains("§6.2 gives no placeholder: a vanilla deck holds none"));
    assert!(!lines.contains("ASSUMED"));
}

/// An X card without an assumed text, or with one the engine cannot play, is a one-line error
/// naming the file, the field, the value and what is allowed.
#[test]
fn an_x_card_needs_an_assumed_labelled_dice_text() {
    let dir = std::env::temp_dir().join(format!("alea-idm-special-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(shipped("mirror-ring.toml"), dir.join("mirror-ring.toml")).unwrap();
    std::fs::copy(shipped("tables.toml"), dir.join("tables.toml")).unwrap();
    let decks = std::fs::read_to_string(shipped("decks.toml")).unwrap();
    let x = decks.find("name = \"Presagio\"").unwrap();
    let with = |from: &str, to: &str| {
        let (head, tail) = decks.split_at(x);
        format!("{head}{}", tail.replacen(from, to, 1))
    };
    let field = "card[7]";
    let cases = [
        (
            with("provenance = \"assumed\"", "provenance = \"synthetic\""),
            "provenance",
            "\"synthetic\"",
        ),
        (with("provenance = \"assumed\"\n", ""), "provenance", "nothing"),
        (
            with("label = \"an omen", "label = \"  \"\ntext = \""),
            "label",
            "nothing",
        ),
        (
            with("effect = \"combat_dice\"", "effect = \"combat_bonus\""),
            "effects[0].timing",
            "combat_dice on a Special Event (X) card",
        ),
        (
            with(
                "effects = [\n    { effect = \"combat_dice\", amount = 1, timing = \"on_resolution\" },\n]",
                "effects = []",
            ),
            "effects",
            "0 effects",
        ),
        (with("copies = 3\n", "copies = 3\ndice = 2\n"), "dice", "a value"),
    ];
    for (i, (d, key, value)) in cases.into_iter().enumerate() {
        std::fs::write(dir.join("decks.toml"), &d).unwrap();
        let e = match load(&dir.join("mirror-ring.toml"), 3) {
            Ok(_) => panic!("case {i}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(!e.contains('\n'), "one line: {e}");
        for part in ["decks.toml", field, key, value] {
            assert!(e.contains(part), "case {i}: {e} lacks {part}");
        }
    }
    // A label on a card that is not X.
    std::fs::write(
        dir.join("decks.toml"),
        decks.replacen(
            "copies = 10\neffects = []",
            "copies = 10\nlabel = \"x\"\neffects = []",
            1,
        ),
    )
    .unwrap();
    let e = load(&dir.join("mirror-ring.toml"), 3)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("deck[0].card[0].label"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An X card in the attacker's assault is a die for it, as a City Attack card of one die is.
#[test]
fn the_chain_counts_an_x_card_as_a_die_of_its_side() {
    let g = game_with(SPECIAL_RING, 3, policy::defaults("greedy"), &options());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(4, 0, 0);
    play.setup(&mut dice);
    let target = (0..s.map.cities.len())
        .find(|&c| play.st.owner[c] == NEUTRAL)
        .unwrap();
    let mut plan = Plan {
        target,
        ..Plan::default()
    };
    let cards: Vec<u8> = (0..35).collect();
    for &c in &cards {
        if military::is(s, 0, c, TROOP) && plan.cards.len() < 3 {
            plan.cards.push(c);
        }
    }
    let pick = |t: u8| cards.iter().copied().find(|&c| military::is(s, 0, c, t));
    let (x, a) = (pick(SPECIAL).unwrap(), pick(CITY_ATTACK).unwrap());
    assert!(military::helps_assault(s, 0, x, true) && military::helps_assault(s, 0, x, false));
    let options = &g.rules.options;
    let none = Defence::default();
    let mut with_x = plan;
    with_x.attack.push(x);
    let mut with_a = plan;
    with_a.attack.push(a);
    let (px, _) = play.cache.chance(s, &play.st, options, 0, &with_x, &none);
    let (pa, _) = play.cache.chance(s, &play.st, options, 0, &with_a, &none);
    let (p0, _) = play.cache.chance(s, &play.st, options, 0, &plan, &none);
    assert_eq!(px, pa);
    assert!(px > p0);
}

/// Games on the ring with X cards: attackers, defenders and third parties play them, and every
/// card and marker is conserved.
#[test]
fn games_play_x_cards_with_cards_conserved() {
    let mut greedy = policy::defaults("greedy");
    if let Policy::Scripted(g) = &mut greedy {
        g.hinder = 0.0;
    }
    let (mut special, mut third) = (0, 0);
    for policy in [greedy, Policy::Random] {
        let g = game_with(SPECIAL_RING, 4, policy, &options());
        let mut play = Play::new(&g);
        let mut record = GameRecord::new(4, super::GAME_COLUMNS.len());
        for i in 0..150 {
            let mut dice = Dice::for_trial(17, 0, i);
            record.clear();
            play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
            check(&play, &record);
            special += play.st.counts.special_cards;
            third += play.st.counts.third_party_cards;
        }
    }
    assert!(special > 0 && third > 0, "{special} {third}");
}
