//! What a naval battle reports: the trial's columns for a finished battle, and the description and
//! notes printed with every answer.

use super::*;

impl NavalBattle {
    /// Everything reported about a finished battle.
    pub(super) fn record(&self, st: &State, fin: Fin, pursued: u32, out: &mut Trial) {
        self.record_path(st, fin, out);
        self.record_losses(&Ending::of(st, fin), pursued, out);
    }

    /// What depends on how the battle went, not on the ships left (added as it finishes).
    pub(super) fn record_path(&self, st: &State, fin: Fin, out: &mut Trial) {
        let c = &self.columns;
        let sc = &mut out.scalars;
        sc[c.boarding] = st.boarded as u32 as f64;
        sc[c.undecided] = fin.undecided as u32 as f64;
        sc[c.segments] = st.seg as f64;
        sc[c.days] = st.seg.div_ceil(3) as f64;
        for s in 0..2 {
            sc[c.retreat_tried[s]] = (st.retreat >> s & 1) as f64;
            sc[c.retreat_ok[s]] = (st.retreat >> (2 + s) & 1) as f64;
            sc[c.morale[s]] = self.morale(st, s, st.last_board) as f64 / 100.0;
        }
    }

    /// The outcome and what depends on the ships left, after `pursued` ships lost in pursuit.
    pub(super) fn record_losses(&self, e: &Ending, pursued: u32, out: &mut Trial) {
        let c = &self.columns;
        let fin = e.fin;
        out.outcome = fin.winner as usize;
        let mut rem = e.rem;
        if fin.winner < 2 {
            rem[1 - fin.winner as usize] -= pursued;
        }
        let sc = &mut out.scalars;
        for s in 0..2 {
            let side = &self.sides[s];
            let total = side.n * H;
            let lost_h = total - rem[s] as u64;
            let lost = if rem[s] == 0 { side.n } else { lost_h / H } as u32;
            let captured = (e.cap[s] as u64 / H) as u32;
            out.counts[c.losses[s]] = lost;
            out.counts[c.captured[s]] = captured;
            sc[c.men[s]] = (side.men * lost_h / total) as f64;
            let before = if e.rem[s] == 0 {
                side.n
            } else {
                (total - e.rem[s] as u64) / H
            } as u32;
            sc[c.pursuit[s]] = (lost - before) as f64;
            let rammed = (lost - captured.min(lost)) as f64;
            // A29: the losses of a fleet that survives are damaged (repairable); a destroyed fleet's
            // ships are lost.
            if rem[s] > 0 {
                sc[c.damaged[s]] = rammed;
                sc[c.sunk[s]] = 0.0;
            } else {
                sc[c.damaged[s]] = 0.0;
                sc[c.sunk[s]] = rammed;
            }
        }
    }
}

impl NavalBattle {
    fn side_line(&self, s: usize) -> String {
        let side = &self.sides[s];
        let fleets: Vec<String> = (0..7)
            .filter(|&t| side.ships[t] > 0)
            .map(|t| {
                let x = side.ships[t];
                if x.is_multiple_of(10) {
                    format!("{} {}", x / 10, FLEET_TYPES[t])
                } else {
                    format!("{}.{} {}", x / 10, x % 10, FLEET_TYPES[t])
                }
            })
            .collect();
        let mut extras = Vec::new();
        if !side.embarked.is_empty() {
            let e: Vec<String> = side
                .embarked
                .iter()
                .map(|(c, x)| format!("{x} {c}"))
                .collect();
            extras.push(format!("embarked {}", e.join(" + ")));
        }
        for (on, what) in [
            (side.barbarian, "barbarian (-1 ram die)"),
            (side.corvus, "corvus"),
            (side.greek, "Greek fire"),
        ] {
            if on {
                extras.push(what.to_string());
            }
        }
        format!(
            "{}: {} ({} ships), {} {} crews; ram {} factors, boarding {} factors; morale {:.2} (ram) / {:.2} (boarding); leader tactical {} (boarding {}); orders {}, matrix {}{}{}",
            SIDES[s],
            fleets.join(" + "),
            side.n,
            side.quality,
            side.morale_class,
            side.ram as f64 / RAM_DEN as f64,
            side.board as f64 / BOARD_DEN as f64,
            side.morale_ram as f64 / 100.0,
            side.morale_board as f64 / 100.0,
            side.naval_leader.map_or("none".to_string(), |t| t.to_string()),
            side.lead_board,
            if side.order_boarding { "boarding" } else { "ram" },
            side.matrix,
            if extras.is_empty() { "" } else { "; " },
            extras.join(", ")
        )
    }
}

impl BattleModel for NavalBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        self.solve()
    }

    fn describe(&self) -> Vec<String> {
        vec![self.side_line(0), self.side_line(1)]
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.boarding_battle {
            notes.push(format!(
                "boarding from the first segment, both sides on 3-3 ({})",
                self.combat_reason
            ));
        } else {
            let (a, d) = (self.sides[0].matrix, self.sides[1].matrix);
            match &self.cell {
                None => notes.push(format!(
                    "ram combat, matrices {a} (attacker) against {d} (defender): no combat (L2485-L2657)"
                )),
                Some(c) => {
                    let show = |v: &[Code; 3]| v.map(|x| x.show()).join("-");
                    notes.push(format!(
                        "ram combat ({}); cell defender {d} / attacker {a}: attacker fires {}, defender fires {} (\"*\" = boarding on 1D6 <= 3, \"A\" = boarding)",
                        self.combat_reason,
                        show(&c[0]),
                        show(&c[1])
                    ));
                }
            }
        }
        let mut conditions = vec![format!("weather {}", self.weather)];
        if self.winter {
            conditions.push("winter".into());
        }
        notes.push(format!(
            "{}: factors x{}{}; one 1D6 a side and segment; morale -0.25 a day; at most {} days",
            conditions.join(", "),
            self.weather_x4 as f64 / 4.0,
            if self.rain < 0 {
                ", -1 to every combat and pursuit roll"
            } else {
                ""
            },
            self.max_days
        ));
        let storm = storm_loss_chance(self.weather, self.winter, self.ocean, true);
        notes.push(format!(
            "sailing on after the battle (a fleet at sea{}): storm loss P = {:.4} per fleet, {:.2} ships expected (D14)",
            if self.ocean { ", on the ocean" } else { "" },
            storm,
            storm * 5.5
        ));
        notes.push(format!(
            "leadership modifiers on the casualty roll: attacker {:+} / defender {:+} in ram, {:+} / {:+} in boarding",
            self.lead[0][0], self.lead[1][0], self.lead[0][1], self.lead[1][1]
        ));
        if self
            .sides
            .iter()
            .any(|s| s.retreat_below.is_some() || s.retreat_losses.is_some())
        {
            notes.push(format!(
                "retreat attempt (A31): 1D6 >= {} (+1 with the better naval leader); on a failure the retreater fights 11 against 43-33-23 for three segments, then withdraws and is pursued",
                self.retreat_target
            ));
        }
        notes.push("pursuit after a rout or a forced withdrawal: the winner's current ram factors on the pursuit table (+1 on the row die with a naval leader); a successful retreat is not pursued".into());
        notes.push("losses spread over the ship types in proportion (one mass per side), counted in whole ships (floored each segment, L22); boarding casualties are ships captured; ram losses of a fleet that survives are damaged (repairable, A29)".into());
        notes
    }
}
