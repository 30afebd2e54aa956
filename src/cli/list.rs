//! `alea list`: the rulesets, their battles and keys, rule options, scenarios and policies.

use super::*;

fn option_json(o: &RuleOption) -> serde_json::Value {
    let allowed = match o.kind {
        OptionKind::Choice(c) => json!(c),
        OptionKind::Bool => json!([true, false]),
        OptionKind::Int { min, max } => json!({"min": min, "max": max}),
    };
    json!({
        "name": o.name,
        "default": serde_json::from_str::<serde_json::Value>(&o.default.to_string()).unwrap_or_default(),
        "allowed": allowed,
        "reference": o.reference,
        "summary": o.summary,
        "battles": o.battles,
    })
}

/// `alea list --json` (and the server's `GET /api/schema`): every ruleset, or only `only`.
pub(crate) fn list_json(only: Option<&str>) -> Result<String> {
    let rulesets = chosen(only)?;
    let doc: Vec<_> = rulesets
        .iter()
        .map(|r| {
            json!({
                "slug": r.slug,
                "title": r.title,
                "digest": r.digest,
                "battles": r.battles.iter().map(|b| json!({
                    "name": b.name,
                    "summary": b.summary,
                    "outcomes": b.outcomes,
                    "loss_unit": b.loss_unit,
                    "tables": b.keys.iter().flat_map(|k| k.at.iter()).fold(Vec::<&str>::new(), |mut v, t| { if !v.contains(t) { v.push(t) } v }),
                    "keys": b.keys.iter().map(|k| k.json()).collect::<Vec<_>>(),
                    "key_lines": b.doc_lines(),
                })).collect::<Vec<_>>(),
                "options": r.options.iter().map(option_json).collect::<Vec<_>>(),
                "scenarios": crate::rulesets::reference::scenario_files(r.slug),
                "policies": r.policies.map(|p| (p.help)()).unwrap_or_default(),
            })
        })
        .collect();
    Ok(serde_json::to_string_pretty(&doc).expect("JSON of plain values"))
}

fn chosen(only: Option<&str>) -> Result<Vec<&'static crate::rulesets::Ruleset>> {
    Ok(match only {
        None => RULESETS.iter().collect(),
        Some(slug) => vec![crate::rulesets::find_ruleset(
            "command line",
            "ruleset",
            slug,
        )?],
    })
}

pub(super) fn list(only: Option<&str>, as_json: bool) -> Result<()> {
    if as_json {
        say!("{}", list_json(only)?);
        return Ok(());
    }
    let rulesets = chosen(only)?;
    for r in rulesets {
        say!("{} — {}  (rules: {})", r.slug, r.title, r.digest);
        if r.battles.is_empty() {
            say!("  battles: none yet");
        } else {
            say!("  battles:");
            for b in r.battles {
                say!("    {:<10} {}", b.name, b.summary);
                say!("               outcomes: {}", b.outcomes.join(", "));
                for k in b.doc_lines() {
                    say!("               {k}");
                }
            }
        }
        if !r.options.is_empty() {
            say!(
                "  rule options (default first; set under [options] or with --option name=value):"
            );
            for o in r.options {
                say!(
                    "    {} = {}  [{}]  {}",
                    o.name,
                    o.default,
                    o.kind.allowed(),
                    o.reference
                );
                say!("        {}", o.summary);
            }
        }
        let sc = crate::rulesets::reference::scenario_files(r.slug);
        say!(
            "  scenarios: {}",
            if sc.is_empty() {
                "none yet".to_string()
            } else {
                sc.join(", ")
            }
        );
        if let Some(help) = r.policies.map(|p| p.help) {
            say!("  game policies (under [game.policies]; each parameter's range and default):");
            for line in help() {
                say!("    {line}");
            }
        }
        say!();
    }
    Ok(())
}
