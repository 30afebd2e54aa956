//! `alea serve`'s API against the command line: the server is started in this process on a free
//! port, and its answers are compared with what the `alea` binary prints for the same battle.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            alea::serve::serve("127.0.0.1", 0, |addr| tx.send(addr).unwrap()).unwrap();
        });
        rx.recv().expect("the server starts")
    })
}

/// One HTTP/1.1 request over a fresh connection: the status and the body.
fn request(method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(server()).unwrap();
    let ct = content_type
        .map(|c| format!("Content-Type: {c}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\n{ct}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("headers, then a body");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

fn post(path: &str, content_type: Option<&str>, body: &str) -> (u16, String) {
    request("POST", path, content_type, body.as_bytes())
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// `alea ARGS`: its standard output when it succeeds, its standard error when it fails.
fn alea(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = if out.status.success() {
        out.stdout
    } else {
        out.stderr
    };
    (out.status.success(), String::from_utf8(text).unwrap())
}

/// The message of a failed `alea odds --file PATH` with its source (the path) taken off, to compare
/// with the server's, whose source is the request.
fn cli_message(path: &Path) -> String {
    let (ok, err) = alea(&["odds", "--file", path.to_str().unwrap(), "--json"]);
    assert!(!ok, "the command line accepted {}", path.display());
    let line = err.trim().strip_prefix("error: ").unwrap().to_string();
    line.strip_prefix(&format!("{}: ", path.display()))
        .unwrap()
        .to_string()
}

fn server_message(reply: &(u16, String)) -> (String, Option<String>) {
    assert_eq!(reply.0, 400, "{}", reply.1);
    let doc = json(&reply.1);
    let error = doc["error"].as_str().unwrap();
    let message = error.strip_prefix("request: ").unwrap().to_string();
    (message, doc["field"].as_str().map(String::from))
}

#[test]
fn schema_is_alea_list_json() {
    let (status, body) = request("GET", "/api/schema", None, b"");
    assert_eq!(status, 200);
    let (ok, cli) = alea(&["list", "--json"]);
    assert!(ok);
    assert_eq!(body, cli);
}

#[test]
fn every_shipped_battle_file_answers_as_the_command_line() {
    let mut files: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/battles"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
    files.sort();
    assert!(files.len() >= 20, "the shipped battle files: {files:?}");
    for path in files {
        let file = path.to_str().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let (status, body) = post("/api/odds", Some("application/toml"), &text);
        assert_eq!(status, 200, "{file}: {body}");
        let answer = json(&body);
        if answer["method"] == "exact" {
            let (ok, cli) = alea(&["odds", "--file", file, "--json"]);
            assert!(ok, "{file}: {cli}");
            assert_eq!(body, cli, "{file}");
        } else {
            // Exact odds not tractable: the server simulates its bounded number of trials, which
            // is the command line's answer with --trials N, the reason aside.
            let trials = answer["trials"].as_u64().unwrap();
            assert_eq!(trials, alea::serve::BUDGET.default_trials, "{file}");
            assert!(answer["exact_unavailable"].is_string(), "{file}");
            let (ok, cli) = alea(&[
                "odds",
                "--file",
                file,
                "--json",
                "--trials",
                &trials.to_string(),
            ]);
            assert!(ok, "{file}: {cli}");
            let (status, asked) = post(&format!("/api/odds?trials={trials}&seed=1"), None, &text);
            assert_eq!(status, 200, "{file}: {asked}");
            assert_eq!(asked, cli, "{file}");
            let mut without_reason = answer.clone();
            without_reason
                .as_object_mut()
                .unwrap()
                .remove("exact_unavailable");
            assert_eq!(without_reason, json(&cli), "{file}");
        }
    }
}

#[test]
fn json_bodies_answer_as_toml_ones() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/battles/field.toml");
    let table: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
    let as_json = serde_json::to_string(&table).unwrap();
    let (ok, cli) = alea(&["odds", "--file", path.to_str().unwrap(), "--json"]);
    assert!(ok);
    // By content type, and sniffed from the body without one.
    assert_eq!(
        post("/api/odds", Some("application/json"), &as_json),
        (200, cli.clone())
    );
    assert_eq!(post("/api/odds", None, &as_json), (200, cli));
}

#[test]
fn trials_and_seed_are_the_command_line_flags() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/battles/field.toml");
    let file = path.to_str().unwrap();
    let (ok, cli) = alea(&[
        "odds", "--file", file, "--json", "--trials", "20000", "--seed", "9",
    ]);
    assert!(ok);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        post("/api/odds?trials=20000&seed=9", None, &text),
        (200, cli)
    );
}

/// Writes `text` to a battle file for the command line and posts it to the server; both must fail
/// with the same message.
fn same_error(name: &str, text: &str) -> (String, Option<String>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let cli = cli_message(&path);
    let (message, field) = server_message(&post("/api/odds", Some("application/toml"), text));
    assert_eq!(message, cli);
    (message, field)
}

#[test]
fn malformed_toml_is_refused_with_the_command_line_message() {
    let (message, field) = same_error(
        "bad.toml",
        "ruleset = \"mare-nostrum\"\nbattle = \"field\"\n[attacker\ninfantry = 3\n",
    );
    assert!(message.contains("line 3"), "{message}");
    assert_eq!(field, None);
    let (status, body) = post("/api/odds", Some("application/json"), "{\"ruleset\": ");
    assert_eq!(status, 400);
    assert!(
        json(&body)["error"].as_str().unwrap().contains("JSON"),
        "{body}"
    );
}

#[test]
fn unknown_keys_are_refused_naming_the_field() {
    let (message, field) = same_error(
        "typo.toml",
        "ruleset = \"mare-nostrum\"\nbattle = \"field\"\n[attacker]\ninfantri = 3\nleader = 1\n[defender]\ninfantry = 2\n",
    );
    assert!(message.contains("did you mean infantry"), "{message}");
    assert_eq!(field.as_deref(), Some("attacker.infantri"));
}

#[test]
fn values_out_of_range_are_refused_naming_the_field() {
    let (message, field) = same_error(
        "leader.toml",
        "ruleset = \"mare-nostrum\"\nbattle = \"field\"\n[attacker]\ninfantry = 3\nleader = 9\n[defender]\ninfantry = 2\n",
    );
    assert!(message.contains("from 0 to 3"), "{message}");
    assert_eq!(field.as_deref(), Some("attacker.leader"));
}

#[test]
fn huge_counts_are_refused() {
    // Beyond what a battle file allows at all: the command line's message.
    let (_, field) = same_error(
        "huge.toml",
        "ruleset = \"mare-nostrum\"\nbattle = \"field\"\n[attacker]\ninfantry = 5000000\nleader = 1\n[defender]\ninfantry = 2\n",
    );
    assert_eq!(field.as_deref(), Some("attacker.infantry"));
    let (_, field) = same_error(
        "huge-ms.toml",
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/battles/ms-field.toml"),
        )
        .unwrap()
        .replace("\"IML-RC\" = 10", "\"IML-RC\" = 50000"),
    );
    assert_eq!(field.as_deref(), Some("attacker.units.IML-RC"));
    // More trials than a request may ask for, and no trials at all. (The time budget's refusal
    // is tested in src/serve with a budget small enough to be certain.)
    let field_toml = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/battles/field.toml"),
    )
    .unwrap();
    for trials in ["1000000000", "0", "many"] {
        let (message, field) = server_message(&post(
            &format!("/api/odds?trials={trials}"),
            None,
            &field_toml,
        ));
        assert_eq!(field.as_deref(), Some("trials"), "{message}");
    }
}

#[test]
fn oversized_bodies_are_refused() {
    let body = format!("# {}\n", "x".repeat(alea::serve::BUDGET.max_body_bytes));
    let (status, reply) = post("/api/odds", None, &body);
    assert_eq!(status, 400);
    assert!(
        json(&reply)["error"]
            .as_str()
            .unwrap()
            .contains("larger than"),
        "{reply}"
    );
}

#[test]
fn the_page_and_its_assets_are_served_by_alea_alone() {
    for path in ["/", "/r/mare-nostrum/field?attacker.infantry=3"] {
        let (status, html) = request("GET", path, None, b"");
        assert_eq!(status, 200);
        assert!(html.contains("<script src=\"/page.js\">"), "{html}");
    }
    for asset in ["/page.js", "/page.css"] {
        let (status, text) = request("GET", asset, None, b"");
        assert_eq!(status, 200);
        // Nothing from the internet: the only absolute URL is the SVG namespace's name.
        let outside = text.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !outside.contains("http://") && !outside.contains("https://"),
            "{asset}"
        );
    }
    assert_eq!(request("GET", "/nowhere", None, b"").0, 404);
    assert_eq!(request("GET", "/api/odds", None, b"").0, 405);
}
