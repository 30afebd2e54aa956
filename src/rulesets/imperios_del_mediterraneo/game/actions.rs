//! The action phase (digest §4.3): a player's expeditions or pass, and the defender's answer
//! to an expedition or a raid (its interception, its City Defence cards, the straits of its
//! route).

use super::military::{self, Cards, Defence, Plan};
use super::policy::{Policy, Style, NEVER_HINDER};
use super::scenario::{EffectKind, Event, Timing, EMPIRE, FLEET, SPECIAL, TROOP};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::rulesets::imperios_del_mediterraneo::strait::roll_strait;

impl Play<'_> {
    /// One action phase; returns whether the player did anything but pass.
    /// `given`: the first expedition (or a pass) already chosen (a search rollout's candidate).
    pub(super) fn action_phase(
        &mut self,
        p: usize,
        given: Option<Option<Plan>>,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        if self.st.players[p].hand.is_empty() {
            return false;
        }
        let ems = match self.st.event {
            Event::TimeForDiplomacy => 0,
            Event::CampaignSeason => 2,
            _ => 1,
        };
        if self.st.event == Event::TimeForDiplomacy && self.has_texts(p) {
            // Up to two Empire cards, one after the other; the random player flips a
            // coin for each.
            let mut acted = false;
            for _ in 0..2 {
                if !self.wants_empire_card(p, dice) || !self.play_empire_card(p) {
                    break;
                }
                acted = true;
            }
            return acted;
        }
        let mut acted = false;
        for k in 0..ems {
            let chosen = match given {
                Some(choice) if k == 0 => Some(choice),
                _ if k == 0 => self.search_choice(p, dice),
                _ => None,
            };
            let plan = match (chosen, self.pol[p]) {
                (Some(choice), _) => choice,
                (None, Policy::Scripted(g)) => self.greedy_plan(p, &g),
                (None, _) => self.random_plan(p, dice),
            };
            match plan {
                Some(plan) => {
                    acted = true;
                    let wrecked = self.expedition(p, plan, dice, log);
                    if self.st.sudden_winner.is_some()
                        || (wrecked && self.game.rules.wreck_ends_phase)
                    {
                        return true;
                    }
                }
                None => {
                    // No expedition: play an Empire card instead (not in Campaign season).
                    if k == 0
                        && ems == 1
                        && self.has_texts(p)
                        && self.wants_empire_card(p, dice)
                        && self.play_empire_card(p)
                    {
                        return true;
                    }
                    if k == 0
                        && chosen.is_none()
                        && self.pol[p] == Policy::Random
                        && dice.below(2) == 0
                    {
                        // Change one card: discard one, draw one (the draw is optional, A-18).
                        let len = self.st.players[p].hand.len();
                        let i = dice.below(len as u64) as usize;
                        self.st.discard_at(p, i);
                        self.st.draw(p, 1);
                        return true;
                    }
                    break;
                }
            }
        }
        acted
    }

    /// Whether `p`'s deck has card texts (the hooks are skipped for a vanilla deck).
    fn has_texts(&self, p: usize) -> bool {
        let s = self.s();
        s.decks[s.empires[p].deck].has_effects
    }

    /// Whether player `p` plays an Empire card now: it holds one, and (the random player) its
    /// coin says so; the scripted players always do, as their text is all it can give.
    fn wants_empire_card(&self, p: usize, dice: &mut Dice) -> bool {
        self.best_empire_card(p).is_some()
            && (matches!(self.pol[p], Policy::Scripted(_)) || dice.below(2) == 0)
    }

    /// The Empire card (by hand position) of `p`'s hand whose effect gives the most (a card
    /// drawn counted as the scripted player's card worth, else 1 VP).
    fn best_empire_card(&self, p: usize) -> Option<usize> {
        let s = self.s();
        let d = &s.decks[s.empires[p].deck];
        let hand = &self.st.players[p].hand;
        let worth = match self.pol[p] {
            Policy::Scripted(g) => g.card_worth(hand.len()),
            _ => 1.0,
        };
        let value = |c: u8| {
            let k = &d.kinds[d.cards[c as usize] as usize];
            k.effect(EffectKind::VictoryPoints, Timing::EmpireEffect) as f64
                + worth * k.effect(EffectKind::DrawCards, Timing::EmpireEffect) as f64
        };
        (0..hand.len())
            .filter(|&i| military::is(s, p, hand[i], EMPIRE))
            .max_by(|&a, &b| value(hand[a]).total_cmp(&value(hand[b])).then(b.cmp(&a)))
    }

    /// The empire_effect hook: the action "play one Empire card" (§4.3): its VP and draws,
    /// then it is discarded. False if `p` holds none.
    pub(super) fn play_empire_card(&mut self, p: usize) -> bool {
        let Some(i) = self.best_empire_card(p) else {
            return false;
        };
        let s = self.s();
        let d = &s.decks[s.empires[p].deck];
        let k = &d.kinds[d.cards[self.st.players[p].hand[i] as usize] as usize];
        let vp = k.effect(EffectKind::VictoryPoints, Timing::EmpireEffect) as i32;
        let draws = k.effect(EffectKind::DrawCards, Timing::EmpireEffect) as usize;
        self.st.discard_at(p, i);
        self.st.add_vp(p, vp);
        self.st.draw(p, draws);
        self.st.counts.empire_cards += 1;
        true
    }

    /// Removes these cards from the player's hand (they are in play).
    pub(super) fn take_from_hand(&mut self, p: usize, cards: &Cards) {
        let hand = &mut self.st.players[p].hand;
        for &c in cards.as_slice() {
            if let Some(i) = hand.iter().position(|&x| x == c) {
                hand.swap_remove(i);
            }
        }
    }

    /// A card player `r` committed to an expedition's card window, after it: a Special Event
    /// (X) card whose dice joined an interception battle (`special_battle`: 0 naval, 1 land;
    /// option special_event_window) is discarded in that battle and rolls for recovery (§3.0:
    /// every card discarded since the start of the battle, third parties' too, A-31; its
    /// recovery text's roll, else a 6); the rest are discarded if the expedition reached its
    /// assault or pacification (no recovery after an assault), else go back to the hand.
    pub(super) fn window_card_done(
        &mut self,
        r: usize,
        c: u8,
        reached: bool,
        special_battle: Option<usize>,
        dice: &mut Dice,
    ) {
        let s = self.s();
        match special_battle {
            Some(slot) if military::is(s, r, c, SPECIAL) => {
                let d = &s.decks[s.empires[r].deck];
                let from = military::card_text(&d.kinds[d.cards[c as usize] as usize]).recover_from;
                let back = dice.d(6) >= from;
                let counts = &mut self.st.counts;
                counts.battle_special_cards += 1;
                counts.naval_special_cards += (slot == 0) as u32;
                counts.special_recovered += back as u32;
                self.return_or_discard(r, c, back);
            }
            _ => self.return_or_discard(r, c, !reached),
        }
    }

    pub(super) fn return_or_discard(&mut self, p: usize, c: u8, back: bool) {
        let pl = &mut self.st.players[p];
        if back {
            pl.hand.push(c);
        } else {
            pl.discard.push(c);
        }
    }

    /// Player `p`'s land reach from its capital, into `self.reach`, its departure port and its
    /// marches from its other ports (kept while the map version is unchanged: no city changed
    /// hands and no area's pacification changed).
    pub(super) fn compute_reach(&mut self, p: usize) {
        self.compute_departure(p);
        if self.march_fresh[p] {
            return;
        }
        self.march_fresh[p] = true;
        let s = self.s();
        let nodes = s.map.nodes();
        let from = (self.sea_from[p], self.departure[p]);
        let march = &mut self.march[p * nodes..(p + 1) * nodes];
        march.fill((u8::MAX, 0));
        if from.0 == u8::MAX {
            return;
        }
        for c in 0..s.map.cities.len() {
            // A march from a port reached by land with no more straits than the departure
            // port's never beats the land route through that port: skip the search.
            let by_land = self.reach[p * nodes + c];
            if !s.map.cities[c].port || self.st.owner[c] as usize != p || by_land <= from.0 {
                continue;
            }
            self.st.land_reach(s, p, c);
            for n in 0..nodes {
                let r = self.st.reach[n];
                if r < march[n].0 {
                    march[n] = (r, c as u16);
                }
            }
        }
    }

    /// [`Self::compute_reach`] without the marches: the land reach and the departure port
    /// (what a defender's naval interception needs).
    pub(super) fn compute_departure(&mut self, p: usize) {
        let s = self.s();
        let nodes = s.map.nodes();
        let version = self.st.map_version;
        // Kept while the map version is the one it was computed at (test builds compute it
        // anyway and check that the kept answer is the map's).
        let kept = self.reach_from[p] == version;
        if kept && !cfg!(test) {
            return;
        }
        self.st.land_reach(s, p, s.empires[p].capital);
        // By sea: the departure port (an own port reached by land, fewest straits, then
        // lowest), and from every own port a march by land (§3.1 combined route).
        let mut from = (u8::MAX, 0u16);
        for c in 0..s.map.cities.len() {
            let r = self.st.reach[c];
            if s.map.cities[c].port && self.st.owner[c] as usize == p && r < from.0 {
                from = (r, c as u16);
            }
        }
        let reach = &mut self.reach[p * nodes..(p + 1) * nodes];
        if kept {
            assert_eq!(
                *reach, self.st.reach,
                "seat {p}: map version {version} kept a stale reach"
            );
            assert_eq!(
                (self.sea_from[p], self.departure[p]),
                from,
                "seat {p}: stale port"
            );
            return;
        }
        self.reach_from[p] = version;
        self.march_fresh[p] = false;
        reach.copy_from_slice(&self.st.reach);
        self.sea_from[p] = from.0;
        self.departure[p] = from.1;
    }

    /// The defender's choice against an attack on its city (§3.3): a land interception (at
    /// the city, or by sea at the attacker's departure port before the naval battle, or at a
    /// march's arrival port), a naval interception when the attack comes by sea, and its City
    /// Defence cards for the assault. It must hold its capital and reach the point (or,
    /// at sea, one of its ports) by a legal route. The random player flips a coin for each
    /// interception, each card and the place; the scripted players send their strongest cards
    /// (at most `max_cards` of each role) and choose the place whose exact chance for the
    /// attacker is lower; P2 intercepts only when that lowers the attacker's chance by its delta.
    pub(super) fn choose_defence(
        &mut self,
        q: usize,
        city: usize,
        attack: Option<(usize, &Plan)>,
        dice: &mut Dice,
    ) -> Defence {
        let s = self.s();
        let mut d = Defence {
            defence: self.defence_cards(q, dice),
            ..Defence::default()
        };
        let Some((after, before, sea)) = self.interception_reach(q, city, attack, dice) else {
            return d;
        };
        let hand = &self.st.players[q].hand;
        match self.pol[q] {
            Policy::Random | Policy::Mixture | Policy::Search(..) => {
                if (after != u8::MAX || before != u8::MAX) && dice.below(2) == 0 {
                    for &c in hand {
                        if military::is(s, q, c, TROOP) && dice.below(2) == 0 {
                            d.intercept.push(c);
                        }
                    }
                    d.land_first = after == u8::MAX || (before != u8::MAX && dice.below(2) == 0);
                }
                if sea != u8::MAX && dice.below(2) == 0 {
                    for &c in hand {
                        if military::is(s, q, c, FLEET) && dice.below(2) == 0 {
                            d.naval.push(c);
                        }
                    }
                }
            }
            Policy::Scripted(g) => {
                if after != u8::MAX || before != u8::MAX {
                    let mut troops = Cards::default();
                    military::strongest_first(s, q, hand, TROOP, false, &mut troops);
                    for &c in troops.as_slice().iter().take(g.max_cards as usize) {
                        d.intercept.push(c);
                    }
                }
                if sea != u8::MAX {
                    let mut fleets = Cards::default();
                    military::strongest_at_sea(s, q, hand, &mut fleets);
                    for &c in fleets.as_slice().iter().take(g.max_cards as usize) {
                        d.naval.push(c);
                    }
                }
                d.land_first = after == u8::MAX;
                if let Some((a, plan)) = attack {
                    if !d.intercept.is_empty() && after != u8::MAX && before != u8::MAX {
                        // Where: the place with the lower exact chance for the attacker (its
                        // cards as the defender can estimate them), ties to fewer straits.
                        let seen = self.seen_plan(a, plan);
                        let first = Defence {
                            land_first: true,
                            ..d
                        };
                        let options = &self.game.rules.options;
                        let (at_arrival, _) = self.cache.chance(s, &self.st, options, a, &seen, &d);
                        let (at_departure, _) =
                            self.cache.chance(s, &self.st, options, a, &seen, &first);
                        d.land_first = at_departure < at_arrival
                            || (at_departure == at_arrival && before < after);
                    }
                    if let Style::Turtle { delta, .. } = g.style {
                        let any = !d.intercept.is_empty() || !d.naval.is_empty();
                        if any && !self.interception_pays(a, plan, &d, delta) {
                            d.intercept = Cards::default();
                            d.naval = Cards::default();
                        }
                    }
                }
            }
        }
        d.straits = if d.land_first { before } else { after };
        d.naval_straits = sea;
        if d.intercept.is_empty() {
            d.land_first = false;
            d.straits = 0;
        }
        if d.naval.is_empty() {
            d.naval_straits = 0;
        }
        d
    }

    /// Where defender `q` may intercept an attack on its city (§3.3): the straits of its
    /// route to the land point after the naval leg (the city, or a march's arrival port), to the
    /// land point before it (the attacker's departure port), and to a port of its own for the
    /// naval interception; u8::MAX where it cannot. None: no interception at all (it does not
    /// hold its capital, A-21, or reaches no point). Under 8.3 the owners of the cities its land
    /// route passes are asked here.
    pub(super) fn interception_reach(
        &mut self,
        q: usize,
        city: usize,
        attack: Option<(usize, &Plan)>,
        dice: &mut Dice,
    ) -> Option<(u8, u8, u8)> {
        let s = self.s();
        if !self.st.holds_capital(s, q) {
            return None; // no interception without the capital.
        }
        self.compute_departure(q);
        let nodes = s.map.nodes();
        let reach = |n: usize| self.reach[q * nodes + n];
        // The land points: after the naval leg (the city, or a march's arrival port: the
        // fewer straits), and before it (the departure port).
        let mut after = reach(city);
        let mut before = u8::MAX;
        let mut sea = u8::MAX;
        if let Some((_, plan)) = attack.filter(|(_, plan)| plan.naval) {
            if plan.march {
                after = after.min(reach(plan.arrive as usize));
            }
            before = reach(plan.from as usize);
            sea = self.sea_from[q];
        }
        if after == u8::MAX && before == u8::MAX && self.game.rules.free_passage {
            // 8.3: by land through other players' cities, each owner asked in route order;
            // refused, the interceptor never attacks: it stays home.
            self.passage_reach(q, s.empires[q].capital);
            if let Some(t) = self.passage_path(q, city) {
                let mut asked = 0u32;
                let mut granted = true;
                for &c in &t.cities[..t.n as usize] {
                    let o = self.st.owner[c as usize] as usize;
                    if o == q || asked & (1 << o) != 0 {
                        continue;
                    }
                    asked |= 1 << o;
                    granted = self.grants_passage(o, q, dice);
                    if !granted {
                        break;
                    }
                }
                if granted {
                    after = self.via[city];
                } else {
                    self.st.counts.interceptions_refused += 1;
                }
            }
        }
        if after == u8::MAX && before == u8::MAX && sea == u8::MAX {
            return None;
        }
        Some((after, before, sea))
    }

    /// The card window of an assault on `city` by `p` (defended by `defender`, if an empire's):
    /// the other players, in seat order from the one after the attacker (§3.0), may add City
    /// Defence or City Attack cards for either side (§4.9). They commit them with the defender,
    /// when the expedition is declared (as the two sides' own), into `self.third`, out of their
    /// hands; their dice go into `d`. A scripted player plays against a side that leads it by
    /// at least its `hinder` VP (the side further ahead if both do; the attacker on a tie), all
    /// its cards of the type that helps the other side while its hand keeps `reserve` cards.
    /// The random and search players' own choices do not play here (a searcher's rollouts
    /// play its rollout policy's).
    /// In a pacification (`battle`: a field battle, §3.8) only their Special Event cards.
    pub(super) fn third_parties(
        &mut self,
        p: usize,
        defender: Option<usize>,
        d: &mut Defence,
        battle: bool,
    ) {
        let s = self.s();
        let n = self.n();
        let seats = &self.game.seats;
        let from = seats.iter().position(|&x| x == p).unwrap_or(0);
        for k in 1..n {
            let r = seats[(from + k) % n];
            self.third[r] = Cards::default();
            let Policy::Scripted(g) = self.pol[r] else {
                continue;
            };
            if Some(r) == defender || g.hinder >= NEVER_HINDER {
                continue;
            }
            let vp = |x: usize| self.st.players[x].vp as f64 - self.st.players[r].vp as f64;
            let attacker_lead = vp(p);
            let defender_lead = defender.map_or(f64::NEG_INFINITY, vp);
            let for_attack = if attacker_lead >= g.hinder && attacker_lead >= defender_lead {
                false
            } else if defender_lead >= g.hinder {
                true
            } else {
                continue;
            };
            let hand = &mut self.st.players[r].hand;
            let d_deck = &s.decks[s.empires[r].deck];
            let mut i = 0;
            while i < hand.len() && hand.len() > g.reserve as usize {
                let c = hand[i];
                let helps = if battle {
                    military::helps_battle(s, r, c)
                } else {
                    military::helps_assault(s, r, c, for_attack)
                };
                if !helps {
                    i += 1;
                    continue;
                }
                let kd = &d_deck.kinds[d_deck.cards[c as usize] as usize];
                hand.swap_remove(i);
                self.third[r].push(c);
                // X dice go to the expedition's card window (option special_event_window),
                // City Defence and City Attack dice to the assault.
                let dice = match (kd.is(SPECIAL), for_attack) {
                    (true, true) => &mut d.special_attack,
                    (true, false) => &mut d.special_defence,
                    (false, true) => &mut d.third_attack,
                    (false, false) => &mut d.third_defence,
                };
                *dice += kd.dice;
            }
            self.st.counts.third_party_cards += self.third[r].len() as u32;
        }
    }

    /// The third parties' cards after the expedition ([`Self::window_card_done`]).
    pub(super) fn third_parties_done(
        &mut self,
        p: usize,
        assaulted: bool,
        special_battle: Option<usize>,
        dice: &mut Dice,
    ) {
        for r in 0..self.n() {
            if r == p {
                continue;
            }
            let cards = std::mem::take(&mut self.third[r]);
            for &c in cards.as_slice() {
                self.window_card_done(r, c, assaulted, special_battle, dice);
            }
        }
    }

    pub(super) fn defence_cards(&self, q: usize, dice: &mut Dice) -> Cards {
        let s = self.s();
        let mut out = Cards::default();
        for &c in &self.st.players[q].hand {
            if military::helps_assault(s, q, c, false)
                && (matches!(self.pol[q], Policy::Scripted(_)) || dice.below(2) == 0)
            {
                out.push(c);
            }
        }
        out
    }

    /// Each interceptor rolls for the straits of its own route, the land one first:
    /// lost cards are discarded.
    pub(super) fn interceptor_straits(&mut self, q: usize, d: &mut Defence, dice: &mut Dice) {
        let straits = d.straits;
        self.roll_route(q, &mut d.intercept, straits, dice);
        let straits = d.naval_straits;
        self.roll_route(q, &mut d.naval, straits, dice);
    }

    /// One interceptor's strait rolls over `cards` (the capacity of a naval interceptor made of
    /// fleets alone never binds).
    pub(super) fn roll_route(&mut self, q: usize, cards: &mut Cards, straits: u8, dice: &mut Dice) {
        let d = cards;
        for _ in 0..straits {
            if d.is_empty() {
                return;
            }
            match roll_strait(
                dice,
                self.st.weather,
                self.game.rules.options.int("bad_weather_wreck_ones") as u32,
            ) {
                None => {
                    for &c in d.as_slice() {
                        self.st.players[q].discard.push(c);
                    }
                    *d = Cards::default();
                }
                Some(lost) => {
                    for _ in 0..lost {
                        if d.is_empty() {
                            break;
                        }
                        let i = dice.below(d.len() as u64) as usize;
                        let c = d.ids[i];
                        d.ids[i] = d.ids[d.len() - 1];
                        d.n -= 1;
                        self.st.players[q].discard.push(c);
                    }
                }
            }
        }
    }
}
