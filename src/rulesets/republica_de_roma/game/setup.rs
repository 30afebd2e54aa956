//! Dealing a scenario (digest §5.3-§5.6) as a five-faction game (the solitaire set-up, L1216).

use super::cards::{Card, Cards};
use super::state::*;
use super::turn::Game;
use crate::game_log;

pub fn shuffle<T>(dice: &mut crate::dice::Dice, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = dice.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// Whether a card of era `era` is still out of play (so it can go into a deck).
fn available(g: &Game, card: Card) -> bool {
    match card {
        Card::War(w) => g.s.wars[w as usize].status == WarStatus::Deck,
        Card::Leader(l) => g.s.leaders[l as usize] == LeaderStatus::Deck,
        Card::Statesman(i) => g.s.statesmen[i as usize] == StatesmanStatus::Deck,
        Card::Family(i) => g.s.senators[i as usize].place == Place::Deck,
        Card::Concession(c) => g.s.concessions[c as usize] == ConcessionStatus::Deck,
        Card::Law(l) => g.s.laws_in_force & (1 << l) == 0 && !g.s.laws_in_hand.contains(&l),
        Card::Intrigue(_) | Card::Forum(_) => true,
    }
}

pub fn deal(g: &mut Game) {
    let m = g.m;
    let c = &m.cards;
    let setup = &m.setup;
    let s = &mut *g.s;
    for x in s.senators.iter_mut() {
        *x = Senator::blank();
    }
    s.statesmen.fill(StatesmanStatus::Deck);
    s.wars.fill(War::IN_DECK);
    s.leaders.fill(LeaderStatus::Deck);
    s.provinces.fill(Province::NOT_CREATED);
    s.concessions.fill(ConcessionStatus::Deck);
    s.concession_destroyed.fill(false);
    s.laws_in_force = 0;
    s.laws_in_hand.clear();
    for l in s.legions.iter_mut() {
        *l = Legion {
            at: LegionAt::Unraised,
            veteran: false,
            loyal: NONE,
        };
    }
    for l in s.legions.iter_mut().take(setup.legions as usize) {
        l.at = LegionAt::Rome;
    }
    s.fleets_rome = setup.fleets;
    s.armies = [Army::empty(); MAX_ARMIES];
    s.factions = [Faction {
        alive: true,
        ..Faction::default()
    }; FACTIONS];
    s.treasury = setup.treasury;
    s.unrest = setup.unrest;
    s.env = Environment::default();
    s.land_bills = [0; 3];
    s.land_bill_passed_this_turn = false;
    s.era_ends = false;
    s.rebel = NONE;
    s.dominant = 0;
    s.perpetual_dictator = NONE;
    s.pd_elected = false;
    s.deck_ran_out = false;
    s.new_alliance = 0;
    s.owed_spoils = 0;
    s.ledger = Ledger::default();
    s.battles = 0;
    s.deaths = 0;
    s.persuasions = 0;
    s.prosecutions = 0;
    s.rebellions = 0;
    s.turn = 0;
    s.era = setup.decks[0];
    s.next_decks.clear();
    for &l in &setup.laws_in_force {
        s.laws_in_force |= 1 << l;
    }
    for &w in &setup.forum_inactive_wars {
        s.wars[w as usize].status = WarStatus::Inactive;
    }

    // The family cards dealt face up (step C).
    let mut pool: Vec<u8> = (0..c.families.len() as u8)
        .filter(|&i| setup.family_pool.contains(&c.families[i as usize].deck))
        .collect();
    shuffle(g.dice, &mut pool);
    let per = setup.families_per_player as usize;
    for f in 0..FACTIONS {
        for k in 0..per {
            let Some(&i) = pool.get(f * per + k) else {
                break;
            };
            g.reset_senator(i as usize);
            g.s.senators[i as usize].place = Place::Faction(f as u8);
        }
    }
    let leftover: Vec<u8> = pool.iter().skip(FACTIONS * per).copied().collect();

    // The deck: this scenario's era (or every era mixed), the leftover families, the cards added.
    let mut deck: Vec<Card> = Vec::with_capacity(200);
    let first_decks: Vec<u8> = if setup.mixed {
        setup.decks.clone()
    } else {
        vec![setup.decks[0]]
    };
    for &e in &first_decks {
        c.era_deck(e, &mut deck);
    }
    deck.retain(|card| {
        !matches!(card, Card::Family(_)) && available(g, *card) && !removed_law(g, *card)
    });
    deck.extend(leftover.iter().map(|&i| Card::Family(i)));
    if setup.concessions_added && first_decks[0] != 0 {
        deck.extend((0..c.concessions.len() as u8).map(Card::Concession));
    }
    if setup.added.count > 0 {
        let mut extra = Vec::new();
        for &e in &setup.added.from {
            c.era_deck(e, &mut extra);
        }
        extra.retain(|card| match card {
            Card::Statesman(_) => !setup.added.exclude_statesmen,
            Card::Concession(_) => !setup.added.exclude_concessions,
            Card::Law(_) => {
                !setup.added.exclude_laws && available(g, *card) && !removed_law(g, *card)
            }
            Card::Intrigue(_) => true,
            _ => false,
        });
        shuffle(g.dice, &mut extra);
        extra.truncate(setup.added.count as usize);
        deck.extend(extra);
    }
    let era = g.s.era;
    g.s.deck.clear();
    g.s.deck.extend(deck.iter().map(|&card| (card, era)));
    shuffle(g.dice, &mut g.s.deck[..]);

    // Three Faction cards each (step D): Forum cards dealt go back and are reshuffled.
    let mut back = Vec::new();
    for f in 0..FACTIONS {
        let mut got = 0;
        while got < setup.faction_cards_per_player {
            let Some((card, _)) = g.s.deck.pop() else {
                break;
            };
            if Cards::is_faction_card(card) {
                to_hand(g, f, card);
                got += 1;
            } else {
                back.push(card);
            }
        }
    }
    g.s.deck.extend(back.iter().map(|&card| (card, era)));
    shuffle(g.dice, &mut g.s.deck[..]);

    // The bottom packet with The Era Ends (step E), under the first deck unless more follow.
    if setup.mixed {
        let eoe = (Card::Forum(c.era_ends), era);
        let among = (setup.era_ends_among_last as usize).min(g.s.deck.len() + 1);
        let at = g.dice.below(among as u64) as usize;
        g.s.deck.insert(at, eoe);
    } else if setup.decks.len() > 1 {
        g.s.next_decks.extend_from_slice(&setup.decks[1..]);
    } else {
        place_bottom(g);
    }

    // Provinces dealt one per faction (Middle, Late).
    for (ids, developed) in &setup.provinces {
        let mut ids = ids.clone();
        shuffle(g.dice, &mut ids);
        for (k, &p) in ids.iter().enumerate() {
            let p = p as usize;
            g.s.provinces[p].developed = *developed;
            g.s.provinces[p].status = ProvinceStatus::Vacant;
            if k < FACTIONS {
                // The faction's senator without a post and with the fewest votes governs it.
                let gov = (0..g.s.senators.len())
                    .filter(|&i| {
                        g.s.senators[i].place == Place::Faction(k as u8)
                            && g.s.senators[i].at == At::Rome
                    })
                    .min_by_key(|&i| (g.s.senators[i].votes(), i));
                if let Some(i) = gov {
                    g.s.senators[i].at = At::Governor(p as u8);
                    g.s.provinces[p].status = ProvinceStatus::Governed(i as u8);
                    // Each player picks the term 1, 2 or 3 (L1153): the longest.
                    g.s.provinces[p].term = 3;
                }
            }
        }
    }

    // Faction Leaders: the senator with the most Influence (L1122).
    for f in 0..FACTIONS {
        let best = (0..g.s.senators.len())
            .filter(|&i| g.s.senators[i].place == Place::Faction(f as u8))
            .max_by_key(|&i| {
                (
                    g.s.senators[i].inf,
                    g.s.senators[i].ora,
                    std::cmp::Reverse(i),
                )
            });
        if let Some(i) = best {
            g.s.senators[i].leader = true;
        }
    }

    // The initial faction phase (L1126): statesmen and concessions from the hands.
    for f in 0..FACTIONS {
        super::revolution::play_cards(g, f);
    }

    // The Initial Rome Consul (L1120): chits until one names a senator in play.
    let mut ids: Vec<u8> = (0..30u8).collect();
    shuffle(g.dice, &mut ids);
    if let Some(&i) = ids
        .iter()
        .find(|&&i| (i as usize) < g.s.senators.len() && g.s.senators[i as usize].in_rome())
    {
        let i = i as usize;
        g.s.senators[i].office = Office::RomeConsul;
        g.s.senators[i].consular = true;
        g.gain_influence(i, setup.consul_influence);
        g.s.hrao_faction = g.s.senators[i].faction().unwrap_or(0) as u8;
        game_log!(
            g.log,
            "set-up: {} is the Initial Rome Consul (+{} Influence)",
            g.name(i),
            setup.consul_influence
        );
    }
    if g.log.on() {
        for f in 0..FACTIONS {
            let members: Vec<String> = (0..g.s.senators.len())
                .filter(|&i| g.s.senators[i].place == Place::Faction(f as u8))
                .map(|i| g.name(i))
                .collect();
            game_log!(
                g.log,
                "set-up: Faction {} ({}): {}",
                f + 1,
                g.m.labels[f],
                members.join(", ")
            );
        }
        game_log!(
            g.log,
            "set-up: deck of {} cards; Treasury {} T; {} legions",
            g.s.deck.len(),
            g.s.treasury,
            g.s.legions_raised()
        );
    }
}

fn removed_law(g: &Game, card: Card) -> bool {
    matches!(card, Card::Law(l) if g.m.setup.laws_removed.contains(&l))
}

pub fn to_hand(g: &mut Game, f: usize, card: Card) {
    match card {
        Card::Statesman(i) => g.s.statesmen[i as usize] = StatesmanStatus::Hand(f as u8),
        Card::Concession(i) => g.s.concessions[i as usize] = ConcessionStatus::Hand(f as u8),
        Card::Law(l) => g.s.laws_in_hand.push(l),
        Card::Intrigue(k) => {
            let k = (k as usize).min(15);
            g.s.factions[f].intrigue[k] += 1;
        }
        _ => {}
    }
}

/// The packet under the deck: random cards of the named decks and The Era Ends (step E, step H).
fn place_bottom(g: &mut Game) {
    let m = g.m;
    let era = g.s.era;
    let mut packet: Vec<(Card, u8)> = Vec::new();
    for &(deck, count) in &m.setup.bottom {
        if deck == era {
            // From the deck being played: its cards move to the bottom.
            let n = (count as usize).min(g.s.deck.len());
            let start = g.s.deck.len() - n;
            packet.extend(g.s.deck.drain(start..));
        } else {
            let mut cards = Vec::new();
            m.cards.era_deck(deck, &mut cards);
            cards.retain(|card| available(g, *card) && !removed_law(g, *card));
            shuffle(g.dice, &mut cards);
            cards.truncate(count as usize);
            // Tagged with the era being set up: only a new deck entering play changes the era.
            packet.extend(cards.iter().map(|&card| (card, era)));
        }
    }
    packet.push((Card::Forum(m.cards.era_ends), era));
    shuffle(g.dice, &mut packet);
    // Drawing takes the last card: the bottom of the deck is the front of the vector.
    let rest = std::mem::take(&mut g.s.deck);
    g.s.deck.extend(packet);
    g.s.deck.extend(rest);
}

/// The next era's deck enters the extended game when the current one runs out.
pub fn build_next_deck(g: &mut Game, era: u8, last: bool) {
    let mut cards = Vec::new();
    g.m.cards.era_deck(era, &mut cards);
    cards.retain(|card| available(g, *card) && !removed_law(g, *card));
    g.s.deck.extend(cards.iter().map(|&card| (card, era)));
    shuffle(g.dice, &mut g.s.deck[..]);
    if last {
        let saved = g.s.era;
        g.s.era = era;
        place_bottom(g);
        g.s.era = saved;
    }
    game_log!(
        g.log,
        "  the {} deck enters play ({} cards)",
        super::cards::ERAS[era as usize],
        g.s.deck.len()
    );
}
