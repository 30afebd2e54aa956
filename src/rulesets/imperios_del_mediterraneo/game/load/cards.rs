//! The decks file: each card's kind, values and (for synthetic decks) its text's effects, checked
//! with one-line errors like the rest of the loader.

use super::*;

fn cv(file: &str, field: &str, v: &Option<toml::Value>) -> Result<Cv> {
    match v {
        None => Ok(Cv::Dash),
        Some(x) => parse_cv(x).ok_or_else(|| bad(file, field, value_text(x), "a whole number of combat factors 0-99, \"Nd\" for N dice (1-20), or \"-\" for none")),
    }
}

fn load_card(file: &str, field: &str, c: &CardRow) -> Result<CardKind> {
    let mut types = 0u8;
    for (i, t) in c.types.iter().enumerate() {
        let bit = TYPE_LETTERS.iter().find(|(l, _)| l == t).map(|x| x.1).ok_or_else(|| {
            bad(file, format!("{field}.types[{i}]"), format!("\"{t}\""), "T, F, L, D, A, I or X (Troop, Fleet, Leader, City Defence, City Attack, Empire, Special Event)")
        })?;
        types |= bit;
    }
    if types == 0 {
        return Err(bad(
            file,
            format!("{field}.types"),
            "[]",
            "at least one type",
        ));
    }
    let dice = match c.dice {
        None => 0,
        Some(d) => int_in(file, &format!("{field}.dice"), d, 0, 10)? as u8,
    };
    let mut kind = CardKind {
        name: c.name.clone(),
        types,
        field: cv(file, &format!("{field}.field"), &c.field)?,
        naval: cv(file, &format!("{field}.naval"), &c.naval)?,
        assault: cv(file, &format!("{field}.assault"), &c.assault)?,
        dice,
        effects: Vec::new(),
        assumed: None,
    };
    for (i, e) in c.effects.iter().enumerate() {
        let effect = load_effect(file, &format!("{field}.effects[{i}]"), e, &kind)?;
        kind.effects.push(effect);
    }
    if kind.is(super::super::scenario::FLEET) && kind.naval.as_count() == 0 {
        return Err(bad(
            file,
            format!("{field}.naval"),
            value_text(c.naval.as_ref().unwrap_or(&toml::Value::from("-"))),
            "a fleet's naval value, its cargo capacity (1 or more)",
        ));
    }
    let played_as_action = kind
        .effects
        .iter()
        .any(|e| e.timing == Timing::EmpireEffect);
    if kind.is(SPECIAL) {
        special(file, field, c, &mut kind)?;
    } else if c.provenance.is_some() || c.label.is_some() {
        let key = if c.provenance.is_some() {
            "provenance"
        } else {
            "label"
        };
        return Err(bad(
            file,
            format!("{field}.{key}"),
            "a value",
            "nothing: only a Special Event (X) card carries an assumed text's provenance and label",
        ));
    }
    if kind.is(EMPIRE) && !played_as_action {
        return Err(bad(
            file,
            format!("{field}.types"),
            format!("{:?}", c.types),
            "T, F, L, D, A, X with an assumed text, or I with an empire_effect effect: other Empire cards need their texts (Layer C)",
        ));
    }
    Ok(kind)
}

/// A Special Event (X) card (§5.3: its text is printed on the card): accepted only with an
/// assumed text, `provenance = "assumed"`, a `label`, and combat dice at resolution as its only
/// effects (played for either side of an assault); those dice become its `dice`.
fn special(file: &str, field: &str, c: &CardRow, kind: &mut CardKind) -> Result<()> {
    let why = "an X card's text is printed on the card (§5.3): give it an assumed one, provenance = \"assumed\" with a label, effects = [{ effect = \"combat_dice\", amount = N, timing = \"on_resolution\" }]";
    match c.provenance.as_deref() {
        Some("assumed") => {}
        Some(p) => {
            return Err(bad(
                file,
                format!("{field}.provenance"),
                format!("\"{p}\""),
                why,
            ))
        }
        None => return Err(bad(file, format!("{field}.provenance"), "nothing", why)),
    }
    let label = c.label.as_deref().unwrap_or("").trim();
    if label.is_empty() {
        return Err(bad(
            file,
            format!("{field}.label"),
            "nothing",
            "what the assumed text stands for, e.g. \"a storm card: +1 die to the side it helps\"",
        ));
    }
    if kind.effects.is_empty()
        || kind
            .effects
            .iter()
            .any(|e| e.kind != EffectKind::CombatDice || e.timing != Timing::OnResolution)
    {
        return Err(bad(
            file,
            format!("{field}.effects"),
            format!("{} effects", kind.effects.len()),
            why,
        ));
    }
    if c.dice.is_some() {
        return Err(bad(
            file,
            format!("{field}.dice"),
            "a value",
            "nothing: an X card's dice are its combat_dice effect",
        ));
    }
    kind.dice = kind.effects.iter().map(|e| e.amount).sum();
    kind.assumed = Some(label.to_string());
    Ok(())
}

/// One card text, `{ effect, amount, timing }`: a known effect, at a timing it can fire at,
/// with an amount in its range, on a card that can carry it (combat effects on a Troop or
/// Fleet, an Empire card's effect on an I card).
fn load_effect(file: &str, field: &str, v: &toml::Value, kind: &CardKind) -> Result<CardEffect> {
    let shape = "a table { effect = \"...\", amount = N, timing = \"...\" }";
    let t = v
        .as_table()
        .ok_or_else(|| bad(file, field, value_text(v), shape))?;
    if let Some(k) = t
        .keys()
        .find(|k| !["effect", "amount", "timing"].contains(&k.as_str()))
    {
        return Err(bad(
            file,
            format!("{field}.{k}"),
            "a key",
            format!("only effect, amount, timing in {shape}"),
        ));
    }
    let text = |key: &str| -> Result<&str> {
        let x = t
            .get(key)
            .ok_or_else(|| bad(file, format!("{field}.{key}"), "nothing", shape))?;
        x.as_str().ok_or_else(|| {
            bad(
                file,
                format!("{field}.{key}"),
                value_text(x),
                "a name in quotes",
            )
        })
    };
    let name = text("effect")?;
    let effect = EffectKind::parse(name).ok_or_else(|| {
        bad(
            file,
            format!("{field}.effect"),
            format!("\"{name}\"{}", did_you_mean(name, EffectKind::NAMES)),
            format!("one of {}", EffectKind::NAMES.join(", ")),
        )
    })?;
    let tname = text("timing")?;
    let allowed: Vec<&str> = effect.timings().iter().map(|t| t.name()).collect();
    let timing = Timing::ALL
        .iter()
        .copied()
        .find(|t| t.name() == tname && effect.timings().contains(t))
        .ok_or_else(|| {
            bad(
                file,
                format!("{field}.timing"),
                format!("\"{tname}\""),
                format!(
                    "a timing {} can fire at: {} (the timing points: {})",
                    effect.name(),
                    allowed.join(", "),
                    Timing::NAMES.join(", ")
                ),
            )
        })?;
    let (lo, hi) = effect.amounts();
    let amount = match t.get("amount") {
        None => {
            return Err(bad(
                file,
                format!("{field}.amount"),
                "nothing",
                format!("a whole number {lo}-{hi}"),
            ))
        }
        Some(x) => match x.as_integer() {
            Some(n) => int_in(file, &format!("{field}.amount"), n, lo as i64, hi as i64)? as u8,
            None => {
                return Err(bad(
                    file,
                    format!("{field}.amount"),
                    value_text(x),
                    format!("a whole number {lo}-{hi}"),
                ))
            }
        },
    };
    let carrier_ok = if timing == Timing::EmpireEffect {
        kind.is(EMPIRE)
    } else {
        kind.is(TROOP | FLEET) || (kind.is(SPECIAL) && effect == EffectKind::CombatDice)
    };
    if !carrier_ok {
        return Err(bad(
            file,
            format!("{field}.timing"),
            format!("\"{tname}\""),
            if timing == Timing::EmpireEffect {
                "empire_effect only on an Empire (I) card, played as an action"
            } else {
                "a combat timing only on a Troop or Fleet card (the cards an expedition or interception carries), or combat_dice on a Special Event (X) card"
            },
        ));
    }
    Ok(CardEffect {
        kind: effect,
        amount,
        timing,
    })
}

pub(super) fn load_decks(file: &str, d: &DecksFile) -> Result<Vec<Deck>> {
    let mut out: Vec<Deck> = Vec::new();
    for (i, row) in d.deck.iter().enumerate() {
        if out.iter().any(|x| x.name == row.name) {
            return Err(bad(
                file,
                format!("deck[{i}].name"),
                format!("\"{}\"", row.name),
                "a name no other deck has",
            ));
        }
        let mut kinds = Vec::new();
        let mut cards = Vec::new();
        if row.card.len() > super::super::military::MAX_KINDS {
            return Err(bad(
                file,
                format!("deck[{i}].card"),
                format!("{} cards", row.card.len()),
                format!(
                    "at most {} different cards per deck (use copies)",
                    super::super::military::MAX_KINDS
                ),
            ));
        }
        for (j, c) in row.card.iter().enumerate() {
            let field = format!("deck[{i}].card[{j}]");
            let copies = int_in(
                file,
                &format!("{field}.copies"),
                c.copies,
                1,
                MAX_DECK as i64,
            )?;
            cards.extend(std::iter::repeat_n(kinds.len() as u8, copies as usize));
            kinds.push(load_card(file, &field, c)?);
        }
        if cards.len() > MAX_DECK || cards.is_empty() {
            return Err(bad(
                file,
                format!("deck[{i}]"),
                format!("{} cards", cards.len()),
                format!("1-{MAX_DECK} cards (a real deck holds 35, L149-L150)"),
            ));
        }
        out.push(Deck::new(row.name.clone(), kinds, cards));
    }
    Ok(out)
}
