//! The search player's directives: one overrule of a searching major's rollout policy for a turn
//! (`search.rs` offers them, [`Directive::apply`] turns one into the plan the turn plays).

use super::params::SCRIPTED;
use super::policy::Scripted;
use super::scenario::CountryId;

/// The gift of a [`Directive::Court`]: the smallest that gives the +10 cap.
pub const COURTING_GIFT: i64 = 1200;

/// What a [`Directive::Fleets`]`(true)` adds to the policy's fleets: one warfleet more per home
/// city and this many transports more (one army crossing's worth of units).
pub const MORE_TRANSPORTS: u8 = 2;

/// The lowest bid a unit of a [`Directive::Mercenaries`]`(true)`: twice the policy's, at least this
/// (twice the parameter's default) and at most [`HIGHEST_BID`].
pub const RAISED_BID: i64 = 600;
/// The parameter's range's top: a raised bid never exceeds it.
pub const HIGHEST_BID: i64 = 1000;

/// A searching major's overrule of its rollout policy for one turn. Every directive but
/// `Attack` moves numbers of the scripted policy (the random policy has none to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Directive {
    /// The rollout policy decides (the baseline every search compares against).
    #[default]
    Follow,
    /// No march this turn.
    Hold,
    /// March at lower odds: the P(win) threshold 0.2 lower, the factor-ratio gate halved.
    Bold,
    /// March on this country (a land neighbour held by another) whatever the odds.
    Attack(CountryId),
    /// No troops bought this turn.
    Save,
    /// Every troop bought this turn of the heavy (first) kind.
    Heavy,
    /// This turn's collection gives the whole gift cap (as far as the reserves allow), or none.
    Gifts(bool),
    /// The April collection of this turn sets this tax level (-2 ..= 2; no rebellion-index gate).
    Taxes(i8),
    /// This turn one envoy more than the policy's, each with the largest gift that counts (1,200
    /// DEN: +10), and treaties offered to the other majors; or no envoy and no offer.
    Court(bool),
    /// This turn trade all it may (the whole surplus sold, the whole spare DEN for what the
    /// purchases lack, at least one caravan), or not at all (caravans on the road go on).
    Trade(bool),
    /// This turn's fleet purchases: none at all (warfleets, transports, pirate fleets), or more
    /// than the policy keeps (one warfleet more per home city, [`MORE_TRANSPORTS`] transports
    /// more); pirate fleets as the policy's.
    Fleets(bool),
    /// This turn's sealed mercenary bid: none, or raised (twice the policy's, at least
    /// [`RAISED_BID`], at most [`HIGHEST_BID`] DEN a unit).
    Mercenaries(bool),
    /// This turn it hires its client and associated states' troops (as `partner_hire` 1), or not
    /// (as 0).
    Partners(bool),
    /// This turn's production improvements, new cities, enlargements (`works.rs`), road
    /// (`roads.rs`) and major construction (`major_works.rs`): none (the DEN kept for troops,
    /// gifts and the rest), or as many works as pay back within the game, the next road and the
    /// major construction (`works_share`, `works_payback`, `roads_share` and `major_works_share`
    /// at their ranges' tops).
    Works(bool),
}

/// The `works_share`, `roads_share` and `major_works_share` of a [`Directive::Works`]`(false)`: a share of the spare
/// DEN too small to pay any work or road, but not 0, so the policy still keeps its stone and wood
/// from the black market's buyers for the works and roads of the turns after (a share of 0 would
/// sell them this turn).
pub const WORKS_PAUSED: f64 = f64::MIN_POSITIVE;

/// The top of a scripted parameter's range (declared once, in [`SCRIPTED`]).
fn range_top(name: &str) -> f64 {
    SCRIPTED
        .iter()
        .find(|p| p.name == name)
        .map_or(0.0, |p| p.max)
}

impl Directive {
    /// The plan a country playing `own` follows this turn under this directive.
    pub fn apply(self, own: Scripted) -> Scripted {
        let mut p = own;
        match self {
            Directive::Follow => {}
            Directive::Hold => p.attack = 2.0,
            Directive::Bold => {
                p.attack = (p.attack - 0.2).max(0.0);
                p.min_ratio *= 0.5;
            }
            Directive::Attack(t) => p.target = Some(t),
            Directive::Save => p.recruit = 0.0,
            Directive::Heavy => (p.heavy_share, p.mounted_share) = (1.0, 0.0),
            Directive::Gifts(all) => p.gifts = if all { 1.0 } else { 0.0 },
            Directive::Taxes(level) => (p.taxes, p.tax_idr) = (level, i32::MIN),
            Directive::Court(true) => {
                p.envoys = p.envoys.saturating_add(1);
                p.envoy_gift = COURTING_GIFT;
                p.major_treaties = 1.0;
            }
            Directive::Court(false) => (p.envoys, p.major_treaties) = (0, 0.0),
            Directive::Trade(true) => {
                (p.market_sell, p.market_buy) = (1.0, 1.0);
                p.caravans = p.caravans.max(1);
            }
            Directive::Trade(false) => (p.market_sell, p.market_buy, p.caravans) = (0.0, 0.0, 0),
            Directive::Fleets(false) => {
                (p.warfleets_per_city, p.transports, p.pirate_fleets) = (0.0, 0, 0);
            }
            Directive::Fleets(true) => {
                p.warfleets_per_city += 1.0;
                p.transports = p.transports.saturating_add(MORE_TRANSPORTS);
            }
            Directive::Mercenaries(false) => p.mercenary_bid = 0,
            Directive::Mercenaries(true) => {
                p.mercenary_bid = (2 * p.mercenary_bid).clamp(RAISED_BID, HIGHEST_BID);
            }
            Directive::Partners(hire) => p.partner_hire = if hire { 1.0 } else { 0.0 },
            Directive::Works(false) => {
                (
                    p.works_share,
                    p.roads_share,
                    p.major_works_share,
                    p.walls_share,
                ) = (WORKS_PAUSED, WORKS_PAUSED, WORKS_PAUSED, WORKS_PAUSED)
            }
            Directive::Works(true) => {
                p.works_share = range_top("works_share");
                p.works_payback = range_top("works_payback");
                p.roads_share = range_top("roads_share");
                p.major_works_share = range_top("major_works_share");
                p.walls_share = range_top("walls_share");
            }
        }
        p
    }
}
