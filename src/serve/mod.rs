//! `alea serve`: the battle calculator as a local web page and a small JSON API.
//!
//! `GET /api/schema` is `alea list --json`; `POST /api/odds` takes a battle file (TOML or JSON) and
//! answers the JSON of `alea odds --json`, through the same function. The page (`page.html`,
//! `page.js`, `page.css`, embedded) builds each battle's form from that schema, so a battle added
//! to the code appears on the page without page code.

use crate::cli::list::list_json;
use crate::cli::odds::{answer_battle, odds_json_text, OddsSettings};
use crate::error::{AleaError, Result};
use crate::rulesets::LoadedBattle;
use serde_json::json;
use std::io::Read;
use std::time::Instant;
use toml::Table;

/// What one request may cost, declared once: the server answers interactively, so a request that
/// would take longer is refused with a message saying what to ask instead.
pub struct Budget {
    /// Largest battle file accepted, in bytes.
    pub max_body_bytes: usize,
    /// Monte Carlo trials when exact odds are not tractable and none are asked for.
    pub default_trials: u64,
    /// Most Monte Carlo trials one request may ask for.
    pub max_trials: u64,
    /// Longest a simulation may be expected to take, from a timed pilot run.
    pub max_seconds: f64,
}

impl Budget {
    pub fn describe(&self) -> String {
        format!(
            "bounds per request: Monte Carlo {} trials where exact odds are not tractable, at most {} when asked (?trials=N), a simulation projected over {} s refused, battle files up to {} KiB",
            crate::output::thousands(self.default_trials),
            crate::output::thousands(self.max_trials),
            self.max_seconds,
            self.max_body_bytes / 1024
        )
    }
}

pub const BUDGET: Budget = Budget {
    max_body_bytes: 64 * 1024,
    default_trials: 100_000,
    max_trials: 1_000_000,
    max_seconds: 3.0,
};

/// Where the request's battle is named in error messages.
const SOURCE: &str = "request";

/// The pages and their assets, served by alea itself (nothing is fetched from the internet).
const PAGE_HTML: &str = include_str!("page.html");
const PAGE_JS: &str = include_str!("page.js");
const PAGE_CSS: &str = include_str!("page.css");

/// An HTTP answer: status, content type, body.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    fn ok(content_type: &'static str, body: String) -> Reply {
        Reply {
            status: 200,
            content_type,
            body,
        }
    }

    fn json(status: u16, body: String) -> Reply {
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body,
        }
    }

    /// Bad input: 400 with the command line's one-line message and, where it names one, the field.
    fn bad_input(e: &AleaError) -> Reply {
        let mut doc = json!({ "error": e.to_string() });
        if let Some(field) = error_field(e) {
            doc["field"] = json!(field);
        }
        let status = if e.exit_code() == 2 { 400 } else { 500 };
        Reply::json(status, odds_json_text(&doc))
    }
}

/// The field an error names: the field of a value not allowed, or an unknown field's name.
pub fn error_field(e: &AleaError) -> Option<String> {
    match e {
        AleaError::Input { field, .. } => Some(field.clone()),
        AleaError::Invalid { message, .. } => {
            let rest = message.strip_prefix("unknown field `")?;
            Some(rest[..rest.find('`')?].to_string())
        }
        _ => None,
    }
}

/// How the request asks for its answer: `trials` and `seed` from the query string, as
/// `alea odds --trials N --seed S`.
struct Query {
    trials: Option<u64>,
    seed: u64,
}

fn parse_query(query: &str) -> Result<Query> {
    let mut q = Query {
        trials: None,
        seed: 1,
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number = |allowed: &str| {
            value
                .parse::<u64>()
                .map_err(|_| AleaError::input(SOURCE, name, value, allowed))
        };
        match name {
            "trials" => {
                let allowed = format!(
                    "a whole number of Monte Carlo trials from 1 to {} on the server (more with `alea odds --trials N`)",
                    crate::output::thousands(BUDGET.max_trials)
                );
                let n = number(&allowed)?;
                if n == 0 || n > BUDGET.max_trials {
                    return Err(AleaError::input(SOURCE, name, n, allowed));
                }
                q.trials = Some(n);
            }
            "seed" => q.seed = number("a whole number from 0 to 2^64 - 1")?,
            _ => {
                return Err(AleaError::input(
                    SOURCE,
                    "query",
                    format!("`{name}`"),
                    "trials=N and seed=S",
                ))
            }
        }
    }
    Ok(q)
}

/// The battle table of a request body: JSON when the content type says so (or, without one,
/// when the body starts with `{`), else TOML.
pub fn battle_table(body: &str, content_type: Option<&str>) -> Result<Table> {
    let is_json = match content_type {
        Some(ct) if ct.contains("json") => true,
        Some(ct) if ct.contains("toml") => false,
        _ => body.trim_start().starts_with('{'),
    };
    if is_json {
        let value: serde_json::Value = serde_json::from_str(body).map_err(|e| {
            AleaError::invalid(
                SOURCE,
                format!(
                    "not a valid battle file (JSON) at line {}, column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )
        })?;
        // JSON has a null TOML lacks; every other value carries over as it is.
        serde_json::from_value::<Table>(value).map_err(|e| {
            AleaError::invalid(
                SOURCE,
                format!("not a battle file: {e} (a JSON object of TOML values, without null)"),
            )
        })
    } else {
        body.parse::<Table>()
            .map_err(|e| crate::spec::toml_error(SOURCE, "battle file", body, &e))
    }
}

/// Refuses a simulation expected to take longer than the budget. Pilot runs of growing size are
/// timed until one lasts long enough to time reliably (a few trials are mostly start-up cost), and
/// the whole run is projected from it.
fn admit(loaded: &LoadedBattle, trials: u64) -> Result<()> {
    admit_within(loaded, trials, BUDGET.max_seconds)
}

fn admit_within(loaded: &LoadedBattle, trials: u64, max_seconds: f64) -> Result<()> {
    const RELIABLE_SECONDS: f64 = 0.05;
    let progress = crate::progress::Progress::hidden();
    let mut pilot = 16;
    loop {
        let started = Instant::now();
        loaded.model.monte_carlo(&crate::battle::McRun {
            trials: pilot.min(trials),
            seed: 0,
            stream: u64::MAX,
            progress: &progress,
        });
        let seconds = started.elapsed().as_secs_f64();
        if pilot >= trials {
            return Ok(());
        }
        if seconds >= RELIABLE_SECONDS {
            let per_trial = seconds / pilot as f64;
            let projected = per_trial * trials as f64;
            if projected <= max_seconds {
                return Ok(());
            }
            let fits = ((max_seconds / per_trial) as u64).max(1);
            return Err(AleaError::input(
                SOURCE,
                "trials",
                crate::output::thousands(trials),
                format!(
                    "this battle would take about {projected:.0} s to simulate, and the server answers within {} s: ask for at most {} trials, or run `alea odds` on the command line",
                    max_seconds,
                    crate::output::thousands(fits)
                ),
            ));
        }
        pilot *= 8;
    }
}

/// `POST /api/odds`: the JSON of `alea odds --json` for the body's battle.
pub fn odds_reply(body: &str, content_type: Option<&str>, query: &str) -> Reply {
    let answer = || -> Result<String> {
        let q = parse_query(query)?;
        let table = battle_table(body, content_type)?;
        let settings = OddsSettings {
            trials: q.trials,
            fallback_trials: BUDGET.default_trials,
            seed: q.seed,
            exact: false,
            visible: false,
            admit: Some(&admit),
        };
        answer_battle(SOURCE, &table, &settings, |a| {
            Ok(odds_json_text(&a.to_json()) + "\n")
        })
    };
    match answer() {
        Ok(text) => Reply::json(200, text),
        Err(e) => Reply::bad_input(&e),
    }
}

/// Answers one request: a method, a path with its query, the content type and body.
pub fn route(method: &str, url: &str, content_type: Option<&str>, body: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    match (method, path) {
        ("GET", "/api/schema") => match list_json(None) {
            Ok(text) => Reply::json(200, text + "\n"),
            Err(e) => Reply::bad_input(&e),
        },
        ("POST", "/api/odds") => odds_reply(body, content_type, query),
        ("GET", "/page.js") => Reply::ok("text/javascript; charset=utf-8", PAGE_JS.into()),
        ("GET", "/page.css") => Reply::ok("text/css; charset=utf-8", PAGE_CSS.into()),
        // Every page is the same document; the script reads the ruleset, battle and the battle's
        // values from the URL, so a URL is a shareable battle.
        ("GET", p) if p == "/" || p.starts_with("/r/") => {
            Reply::ok("text/html; charset=utf-8", PAGE_HTML.into())
        }
        (_, "/api/odds" | "/api/schema") => Reply::json(
            405,
            odds_json_text(
                &json!({"error": format!("{method} {path}: use POST /api/odds or GET /api/schema")}),
            ),
        ),
        _ => Reply::json(
            404,
            odds_json_text(&json!({"error": format!("{path}: no such page (try /)")})),
        ),
    }
}

/// Worker threads answering requests; simulations themselves run on the rayon pool.
const WORKERS: usize = 4;

/// Starts the server on `host:port` and answers requests until the process ends. `ready` is
/// called with the address actually bound (port 0 picks a free one).
pub fn serve(host: &str, port: u16, ready: impl FnOnce(std::net::SocketAddr)) -> Result<()> {
    let cannot = |e: &dyn std::fmt::Display| {
        AleaError::invalid(
            "command line",
            format!("cannot listen on {host}:{port}: {e}"),
        )
    };
    let server =
        tiny_http::Server::from_listener(listener(host, port).map_err(|e| cannot(&e))?, None)
            .map_err(|e| cannot(&e))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| AleaError::Internal("the server has no IP address".into()))?;
    ready(addr);
    let server = std::sync::Arc::new(server);
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let server = server.clone();
            std::thread::spawn(move || loop {
                match server.recv() {
                    Ok(request) => handle(request),
                    Err(e) => eprintln!("alea serve: {e}"),
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// A listening socket whose connections send without Nagle's delay: tiny_http writes a response in
/// pieces, and a delayed last piece would wait for the client's delayed acknowledgement (40 ms on
/// Linux) on every keep-alive request. Accepted sockets inherit the option on Linux.
fn listener(host: &str, port: u16) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    use std::net::ToSocketAddrs;
    let addr = (host, port)
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such address"))?;
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    socket.set_tcp_nodelay(true)?;
    socket.bind(&addr.into())?;
    socket.listen(128)?;
    Ok(socket.into())
}

fn handle(mut request: tiny_http::Request) {
    let content_type = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Content-Type"))
        .map(|h| h.value.as_str().to_string());
    let mut body = String::new();
    let read = request
        .as_reader()
        .take(BUDGET.max_body_bytes as u64 + 1)
        .read_to_string(&mut body);
    let reply = match read {
        Err(e) => Reply::bad_input(&AleaError::invalid(
            SOURCE,
            format!("cannot read the request body as UTF-8 text: {e}"),
        )),
        Ok(n) if n > BUDGET.max_body_bytes => Reply::bad_input(&AleaError::invalid(
            SOURCE,
            format!(
                "the battle file is larger than the server's {} KiB",
                BUDGET.max_body_bytes / 1024
            ),
        )),
        Ok(_) => route(
            request.method().as_str(),
            request.url(),
            content_type.as_deref(),
            &body,
        ),
    };
    let header =
        tiny_http::Header::from_bytes("Content-Type", reply.content_type).expect("a valid header");
    let response = tiny_http::Response::from_string(reply.body)
        .with_status_code(reply.status)
        .with_chunked_threshold(usize::MAX)
        .with_header(header);
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str) -> LoadedBattle {
        crate::rulesets::load_battle("test", &text.parse::<Table>().unwrap()).unwrap()
    }

    const NAVAL: &str = "ruleset = \"mare-nostrum\"\nbattle = \"naval\"\n[attacker]\nfleets = 6\n[defender]\nfleets = 5\n";

    #[test]
    fn simulations_over_the_budget_are_refused_with_what_fits() {
        let battle = loaded(NAVAL);
        let e = admit_within(&battle, 1_000_000_000, 1e-3).unwrap_err();
        assert_eq!(error_field(&e).as_deref(), Some("trials"));
        let message = e.to_string();
        assert!(message.contains("ask for at most"), "{message}");
        // A few trials fit any budget a pilot can measure.
        assert!(admit_within(&battle, 10, 1e-3).is_ok());
        assert!(admit_within(&battle, 1_000, 60.0).is_ok());
    }

    #[test]
    fn bodies_are_toml_or_json_by_content_type_or_first_character() {
        let toml_table = battle_table(NAVAL, None).unwrap();
        let as_json = serde_json::to_string(&toml_table).unwrap();
        assert_eq!(battle_table(&as_json, None).unwrap(), toml_table);
        assert_eq!(
            battle_table(&as_json, Some("application/json")).unwrap(),
            toml_table
        );
        assert_eq!(
            battle_table(NAVAL, Some("application/toml")).unwrap(),
            toml_table
        );
        let null = battle_table("{\"ruleset\": null}", None)
            .unwrap_err()
            .to_string();
        assert!(null.contains("without null"), "{null}");
    }

    #[test]
    fn the_query_takes_trials_and_seed_within_bounds() {
        let q = parse_query("trials=500&seed=7").unwrap();
        assert_eq!((q.trials, q.seed), (Some(500), 7));
        for bad in [
            "trials=0",
            "trials=x",
            "trials=99999999999",
            "seed=-1",
            "exact=1",
        ] {
            assert!(parse_query(bad).is_err(), "{bad}");
        }
    }
}
