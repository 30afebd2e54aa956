//! What an envoy carries to the first diplomacy roll besides his standing (digest §4.10, rules
//! L586-L654): the gifts (DEN, metal and food, other products, military material) and pressure
//! backed by other countries.
//!
//! Every judged range is mapped linearly onto the value given, as digest §6.2 proposes for the DEN
//! gift: a [`Band`] counts +1 per full 100 DEN of worth above its threshold, from its least to its
//! most. Goods are worth their black-market sale value (`Game::sale`, option black_market_sale,
//! A52; gifts are valued so, L664). The policy's amounts (`envoy_gift`, `envoy_food_metal`,
//! `envoy_goods`, `envoy_caravan`) come from what lies above what the nation keeps: the DEN
//! reserve and wages, the food for the next feeding (`economy::food_to_keep`) and what its troops,
//! walls, works and caravans use (`trade::kept`). The gift follows the envoy's reception
//! ([`settle`]): given on an audience, lost with a killed envoy, brought back otherwise.
//!
//! Not played: services (roads built for them) and loans (of ships), +2 to +10: the referee's
//! countries build nothing and make no moves a road or a lent ship would serve on the region graph;
//! bribes (L494-L528 give no numbers). Ties between competing bidders (the more generous wins) do
//! not arise: each proposal is rolled and settled alone, so no two majors' rolls meet.

use super::diplomacy::Reception;
use super::economy;
use super::policy::Scripted;
use super::scenario::{CountryId, CAB, CAM, COM, DEN, MAD, MAN, MET, PIE};
use super::state::{State, R};
use super::trade::{self, Caravan, Leg, CARAVAN_ANIMALS, CARAVAN_COST};
use super::Game;

/// A judged range mapped linearly onto a gift's worth (DEN at black-market sale value): nothing
/// below `from`, then `least` plus 1 per full [`PER_POINT`] above it, at most `most`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    pub from: i64,
    pub least: i32,
    pub most: i32,
}

/// DEN of worth per +1 in every band (digest §6.2's "+1 per full 100 DEN above 200").
pub const PER_POINT: i64 = 100;
/// "DEN from 200: 0 to +10".
pub const DEN_GIFT: Band = Band {
    from: 200,
    least: 0,
    most: 10,
};
/// "Metal and food worth 200 DEN or more: 0 to +10".
pub const FOOD_METAL_GIFT: Band = Band {
    from: 200,
    least: 0,
    most: 10,
};
/// "Other products worth 200 DEN or more: 0 to +9".
pub const GOODS_GIFT: Band = Band {
    from: 200,
    least: 0,
    most: 9,
};
/// "Military material (ships, caravans...): +1 to +15": +1 from the first 100 DEN of worth (the
/// text sets no threshold; a caravan, 350 DEN, is +3).
pub const MILITARY_GIFT: Band = Band {
    from: 100,
    least: 1,
    most: 15,
};

/// Metal and food, and the other products given, in the order the policy takes them.
pub const FOOD_METAL: [usize; 2] = [COM, MET];
pub const GOODS: [usize; 5] = [PIE, MAD, CAB, CAM, MAN];

impl Band {
    pub fn modifier(self, worth: i64) -> i32 {
        if worth < self.from {
            return 0;
        }
        (self.least + ((worth - self.from) / PER_POINT) as i32).min(self.most)
    }
}

/// "+1 to +20 with other countries' backing" (L600), and how much of it counts against at a
/// natural roll of 50 or less ("0 to -10").
pub const BACKED_MAX: i32 = 20;
pub const BACKED_AGAINST_MAX: i32 = 10;
/// Option `backed_pressure = "partners"`: points per backing partner (1 to 4 partners mapped
/// linearly onto +5 to +20).
pub const BACKED_PER_PARTNER: i32 = 5;
/// Option `backed_pressure = "armies"`: men of the backers' armies per point.
pub const BACKED_MEN_PER_POINT: f64 = 1000.0;

/// Which reading of backed pressure is played (option `backed_pressure`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backing {
    /// +5 per backing partner near the target.
    Partners,
    /// +1 per full 1,000 men of the backing partners near the target (+1 at least).
    Armies,
    /// Not played.
    Off,
}

impl Backing {
    pub fn from_option(value: &str) -> Backing {
        match value {
            "armies" => Backing::Armies,
            "none" => Backing::Off,
            _ => Backing::Partners,
        }
    }
}

/// What one envoy carries: goods by resource and caravans (military material).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gift {
    pub goods: [i64; R],
    /// Indices of the caravans given (at most one; `None`: none).
    pub caravan: Option<usize>,
}

/// A caravan's worth as military material: its printed cost at sale value (POB unpriced), its
/// 100 animals at the cheaper of horses and camels.
pub fn caravan_worth(g: &Game) -> i64 {
    let materials: f64 = CARAVAN_COST
        .iter()
        .map(|&(r, v)| v as f64 * g.sale[r])
        .sum();
    (materials + CARAVAN_ANIMALS as f64 * g.sale[CAB].min(g.sale[CAM])).floor() as i64
}

/// Worth of `units` of the resources in `of` at sale value.
fn worth(g: &Game, goods: &[i64; R], of: &[usize]) -> i64 {
    of.iter()
        .map(|&r| goods[r] as f64 * g.sale[r])
        .sum::<f64>()
        .floor() as i64
}

/// The first roll's modifier for everything `gift` carries (DEN, metal and food, other
/// products, military material: cumulative, L652).
pub fn modifier(g: &Game, gift: &Gift) -> i32 {
    let military = if gift.caravan.is_some() {
        caravan_worth(g)
    } else {
        0
    };
    DEN_GIFT.modifier(gift.goods[DEN])
        + FOOD_METAL_GIFT.modifier(worth(g, &gift.goods, &FOOD_METAL))
        + GOODS_GIFT.modifier(worth(g, &gift.goods, &GOODS))
        + MILITARY_GIFT.modifier(military)
}

/// What `c`'s envoy takes with him under `plan` in calendar month `cal`: the DEN above its
/// reserve and wages, food beyond its next feeding, other goods beyond what it keeps, each kind
/// up to the policy's worth; an idle empty caravan at home if the policy gives one.
pub fn choose(g: &Game, st: &State, c: CountryId, plan: &Scripted, cal: u32) -> Gift {
    let stock = &st.nations[c as usize].stock;
    let mut gift = Gift::default();
    let keep_den = economy::den_to_keep(g, st, c, plan);
    gift.goods[DEN] = plan.envoy_gift.min(stock[DEN] - keep_den).max(0);
    for (of, wanted) in [
        (&FOOD_METAL[..], plan.envoy_food_metal),
        (&GOODS[..], plan.envoy_goods),
    ] {
        let mut left = wanted as f64;
        for &r in of {
            if left <= 0.0 || g.sale[r] <= 0.0 {
                continue;
            }
            let keep = if r == COM {
                economy::food_to_keep(g, st, c, plan, cal)
            } else {
                trade::kept(g, st, c, plan, r)
            };
            let spare = if keep == i64::MAX {
                0
            } else {
                (stock[r] - keep).max(0)
            };
            let units = ((left / g.sale[r]).ceil() as i64).min(spare);
            gift.goods[r] = units;
            left -= units as f64 * g.sale[r];
        }
    }
    if plan.envoy_caravan >= 0.5 {
        gift.caravan = st.nations[c as usize]
            .caravans
            .iter()
            .position(|v| v.leg == Leg::Home && v.man == 0 && v.den == 0 && v.goods == 0);
    }
    gift
}

/// The gift's fate: on an audience `t` receives the goods (the caravan leaves `c`'s trade for
/// good: the referee's countries run none), with a killed envoy everything is lost (L438), on any
/// other reception it comes back.
pub fn settle(g: &Game, st: &mut State, c: CountryId, t: CountryId, gift: &Gift, fate: Fate) {
    match fate {
        Fate::Brought => return,
        Fate::Given => {
            for (r, &v) in gift.goods.iter().enumerate() {
                st.nations[c as usize].stock[r] -= v;
                st.nations[t as usize].stock[r] += v;
            }
            st.counts.envoy_goods_given +=
                (worth(g, &gift.goods, &FOOD_METAL) + worth(g, &gift.goods, &GOODS)) as f64;
        }
        Fate::Lost => {
            for (r, &v) in gift.goods.iter().enumerate() {
                st.spend(c, r, v);
            }
        }
    }
    if let Some(i) = gift.caravan {
        st.nations[c as usize].caravans[i] = Caravan::default();
        st.counts.caravans_given += 1;
    }
}

/// What becomes of a gift on a reception.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Given,
    Lost,
    Brought,
}

/// The gift's fate on the first roll's reception: given on an audience, gone with a killed envoy
/// (L438), brought back from any other.
pub fn fate(got: Reception) -> Fate {
    match got {
        Reception::Audience => Fate::Given,
        Reception::Killed => Fate::Lost,
        _ => Fate::Brought,
    }
}

/// The countries backing major `p` (`c`) against `t`: its treaty partners from a defensive
/// military treaty up (defensive, client, associated; majors bound to it by `major_defence`
/// hold a defensive treaty with it), holding their homes, that border `t` or reach it by a sea
/// lane from home.
pub fn backers(g: &Game, st: &State, p: usize, c: CountryId, t: CountryId) -> Vec<CountryId> {
    use super::diplomacy::{at, borders, ASSOCIATED, DEFENSIVE};
    (0..st.lands.len() as CountryId)
        .filter(|&x| {
            let level = st.relations[at(st, p, x)].level;
            x != c
                && x != t
                && (DEFENSIVE..=ASSOCIATED).contains(&level)
                && st.lands[x as usize].owner == x
                && (borders(g, st, x, t) || g.scenario.links(x).iter().any(|l| l.sea && l.to == t))
        })
        .collect()
}

/// Backed pressure's points (0: no backer) under the option's reading, before the roll.
pub fn backing_points(g: &Game, st: &State, p: usize, c: CountryId, t: CountryId) -> i32 {
    if g.backing == Backing::Off {
        return 0;
    }
    let who = backers(g, st, p, c, t);
    if who.is_empty() {
        return 0;
    }
    let points = match g.backing {
        Backing::Partners => BACKED_PER_PARTNER * who.len() as i32,
        _ => {
            let men: f64 = who
                .iter()
                .map(|&x| {
                    let n = &st.nations[x as usize];
                    let mpu = g.men_per_unit(x);
                    State::men(&n.field, &mpu) + State::men(&n.garrison, &mpu)
                })
                .sum();
            ((men / BACKED_MEN_PER_POINT) as i32).max(1)
        }
    };
    points.min(BACKED_MAX)
}

/// Backed pressure's modifier: +points, or up to 10 against when the natural roll is 50 or
/// less (the threshold of plain pressure, `diplomacy::PRESSURE_FLIPS_AT`).
pub fn backed_modifier(points: i32, natural: i32) -> i32 {
    let p = points.clamp(0, BACKED_MAX);
    if natural <= super::diplomacy::PRESSURE_FLIPS_AT {
        -p.min(BACKED_AGAINST_MAX)
    } else {
        p
    }
}
