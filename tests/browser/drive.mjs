// Drives the `alea serve` page in headless Chromium through chromedriver's WebDriver API (plain
// HTTP, no client library): one battle of each ruleset filled in the form, submitted and compared
// with `alea odds --json`; a bad value's message next to its field; the shared URL reproducing the
// answer; screenshots under out/.
//   node tests/browser/drive.mjs SERVER_URL DRIVER_URL PROFILE_DIR
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const [server, driver, profile] = process.argv.slice(2);
const ALEA = "target/release/alea";
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

async function wd(method, path, body) {
  const r = await fetch(driver + path, { method, headers: { "Content-Type": "application/json" }, body: body && JSON.stringify(body) });
  const doc = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(doc.value).slice(0, 400)}`);
  return doc.value;
}

// One battle per ruleset: the form's values as typed (field name → text), and the same values as
// `alea odds --set` literals for the command line, written independently of the page.
const BATTLES = [
  { slug: "mare-nostrum", battle: "field", shot: "serve-mare-nostrum-field",
    fields: { "attacker.infantry": "10", "attacker.cavalry": "5", "attacker.leader": "1", "defender.infantry": "12", "defender.leader": "0" },
    set: ["attacker.infantry=10", "attacker.cavalry=5", "attacker.leader=1", "defender.infantry=12", "defender.leader=0"] },
  { slug: "invasions", battle: "basic", shot: "serve-invasions-basic-phone", phone: true,
    fields: { "terrain": "forest", "attacker.<unit>": "infantry = 6, heavy_cavalry = 2", "attacker.leader": "2",
      "defender.nation": "empire", "defender.rome": "true", "defender.<unit>": "legion = 2\nauxiliary_infantry = 2", "defender.leader": "1",
      "options.forest_penalty": "literal" },
    set: ["terrain=\"forest\"", "attacker.infantry=6", "attacker.heavy_cavalry=2", "attacker.leader=2", "defender.nation=\"empire\"",
      "defender.rome=true", "defender.legion=2", "defender.auxiliary_infantry=2", "defender.leader=1"],
    option: ["forest_penalty=\"literal\""] },
  { slug: "republica-de-roma", battle: "land",
    fields: { "war.name": "2nd Punic War", "rome.legions": "10", "rome.veteran_legions": "2", "rome.fleets": "5", "rome.commander": "P. Cornelius Scipio Africanus" },
    set: ["war.name=\"2nd Punic War\"", "rome.legions=10", "rome.veteran_legions=2", "rome.fleets=5", "rome.commander=\"P. Cornelius Scipio Africanus\""] },
  { slug: "mediterraneo-sanguinolento", battle: "siege", shot: "serve-mediterraneo-sanguinolento-siege",
    fields: { "fort_level": "3", "food": "3000", "city_pob": "2000", "months": "24", "attacker.units": "{ \"IM-RC\" = 12 }", "defender.units": "{ \"IM-RC\" = 6 }" },
    set: ["fort_level=3", "food=3000", "city_pob=2000", "months=24", "attacker.units={ \"IM-RC\" = 12 }", "defender.units={ \"IM-RC\" = 6 }"] },
  { slug: "imperios-del-mediterraneo", battle: "field",
    fields: { "attacker.troops": "[\"Legión\", \"Hoplitas\"]", "attacker.leaders": "[\"Estratega\"]", "defender.troops": "[\"Falange\"]", "defender.extra_dice": "1" },
    set: ["attacker.troops=[\"Legión\", \"Hoplitas\"]", "attacker.leaders=[\"Estratega\"]", "defender.troops=[\"Falange\"]", "defender.extra_dice=1"] },
];

const fieldId = (name) => "f-" + name.replace(/[^A-Za-z0-9_-]/g, "_");
let session;
const S = (p) => `/session/${session}${p}`;
const find = async (css) => (await wd("POST", S("/element"), { using: "css selector", value: css }))[ELEMENT];
const run = (script, ...args) => wd("POST", S("/execute/sync"), { script, args });

async function waitFor(script, what, seconds = 30) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await run(script)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function open(url) {
  await wd("POST", S("/url"), { url });
  await waitFor("return !!document.querySelector('#go')", `the form at ${url}`);
}

async function fill(fields) {
  for (const [name, value] of Object.entries(fields)) {
    const id = fieldId(name);
    const tag = await run(`const e = document.getElementById(arguments[0]); return e && e.tagName`, id);
    if (!tag) throw new Error(`no field ${name} on the page`);
    if (tag === "SELECT") {
      // Options of a rule option are in a closed <details>: open it as a user would.
      await run(`const d = document.getElementById(arguments[0]).closest('details'); if (d) d.open = true;`, id);
      await wd("POST", S(`/element/${await find(`#${id} option[value="${value}"]`)}/click`), {});
    } else {
      const e = await find(`#${id}`);
      await wd("POST", S(`/element/${e}/clear`), {});
      await wd("POST", S(`/element/${e}/value`), { text: value });
    }
  }
}

async function submitAndWait() {
  await run("document.getElementById('answer').dataset.state = ''");
  await wd("POST", S(`/element/${await find("#go")}/click`), {});
  await waitFor("const s = document.getElementById('answer').dataset.state; return s === 'done' || s === 'error'", "the answer");
}

// The numbers the page shows: every row with a quantity and a value, and its visible text.
const shown = () => run(`return [...document.querySelectorAll('#answer tr[data-quantity]')].map(tr => {
  const td = tr.querySelector('td[data-value]'); return [tr.dataset.quantity, Number(td.dataset.value), td.textContent]; })`);

function dig(doc, path) {
  return path.split("/").reduce((node, k) => node[k], doc);
}

function check(cond, message) {
  if (!cond) throw new Error(message);
}

async function checkAnswer(b, doc) {
  const rows = await shown();
  check(rows.length >= Object.keys(doc.outcome).length, `${b.slug}: no outcome rows`);
  let compared = 0;
  for (const [path, value, text] of rows) {
    const quantity = path.startsWith("outcome/") ? doc.outcome[path.slice(8)] : dig(doc, path);
    const expected = typeof quantity === "number" ? quantity : quantity.mean;
    check(value === expected, `${b.slug} ${path}: the page shows ${value}, alea odds --json says ${expected}`);
    if (path.startsWith("outcome/")) check(text === `${(100 * expected).toFixed(2)}%`, `${b.slug} ${path}: shown as ${text}`);
    compared++;
  }
  const method = await run("return document.getElementById('method').dataset.method");
  check(method === doc.method, `${b.slug}: method ${method} vs ${doc.method}`);
  return compared;
}

async function shot(name) {
  mkdirSync("out", { recursive: true });
  writeFileSync(`out/${name}.png`, Buffer.from(await wd("GET", S("/screenshot")), "base64"));
  console.log(`  screenshot out/${name}.png`);
}

async function main() {
  session = (await wd("POST", "/session", { capabilities: { alwaysMatch: { browserName: "chrome", "goog:chromeOptions": {
    binary: "/usr/bin/chromium",
    args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`, "--window-size=1200,2600"] } } } })).sessionId;
  try {
    for (const b of BATTLES) {
      const args = ["odds", b.slug, b.battle, ...b.set.flatMap((s) => ["--set", s]), ...(b.option || []).flatMap((o) => ["--option", o]), "--json"];
      const cli = JSON.parse(execFileSync(ALEA, args, { encoding: "utf8" }));
      await wd("POST", S("/window/rect"), b.phone ? { width: 400, height: 2600 } : { width: 1200, height: 2600 });
      await open(`${server}/r/${b.slug}/${b.battle}`);
      await fill(b.fields);
      await submitAndWait();
      const state = await run("return document.getElementById('answer').dataset.state");
      const errors = await run("return [...document.querySelectorAll('.err')].map(e => e.textContent).filter(Boolean).join(' | ')");
      const file = await run("return document.getElementById('share-file').textContent");
      check(state === "done", `${b.slug} ${b.battle}: the page shows an error: ${errors}\n${file}`);
      const n = await checkAnswer(b, cli);
      // The command line the page shows for copying gives the same answer.
      const shownCli = await run("return document.getElementById('share-cli').textContent");
      const again = JSON.parse(execFileSync("sh", ["-c", shownCli.replace(/^alea /, `${ALEA} `)], { encoding: "utf8" }));
      check(JSON.stringify(again) === JSON.stringify(cli), `${b.slug}: the page's command line answers differently: ${shownCli}`);
      console.log(`${b.slug} ${b.battle}: ${n} figures equal alea odds --json (${cli.method}); the shown command line agrees`);
      if (b.shot) await shot(b.shot);
      // The shared URL, opened afresh, reproduces the answer.
      const url = await run("return document.getElementById('share-url').value");
      await wd("POST", S("/url"), { url: "about:blank" });
      await wd("POST", S("/url"), { url });
      await waitFor("const s = document.getElementById('answer'); return s && s.dataset.state === 'done'", `the shared URL ${url}`);
      check((await checkAnswer(b, cli)) === n, `${b.slug}: the shared URL shows other figures`);
      console.log(`  shared URL reproduces it: ${url}`);
    }
    // A bad value: its message, the command line's, next to its field.
    await open(`${server}/r/mare-nostrum/field`);
    await fill({ "attacker.infantry": "10", "attacker.leader": "9", "defender.infantry": "12" });
    await submitAndWait();
    let cliError = "";
    try {
      execFileSync(ALEA, ["odds", "mare-nostrum", "field", "--set", "attacker.infantry=10", "--set", "attacker.leader=9", "--set", "defender.infantry=12", "--json"], { encoding: "utf8", stdio: "pipe" });
    } catch (e) { cliError = e.stderr.trim().replace(/^error: command line: /, ""); }
    check(cliError.includes("attacker.leader"), `the command line accepted leader = 9: ${cliError}`);
    const err = await run(`const e = document.getElementById('f-attacker_leader-err'); return [e.hidden, e.textContent,
      document.getElementById('f-attacker_leader').getAttribute('aria-invalid'), document.activeElement.id]`);
    check(!err[0] && err[1] === `request: ${cliError}`, `the message next to attacker.leader: ${JSON.stringify(err)} (the command line's: ${cliError})`);
    check(err[2] === "true" && err[3] === "f-attacker_leader", `the bad field is not marked and focused: ${JSON.stringify(err)}`);
    console.log(`a bad value's message is shown next to its field: ${err[1]}`);
    await shot("serve-bad-value");
  } finally {
    await wd("DELETE", S(""));
  }
}

main().then(() => console.log("browser test: ok"), (e) => { console.error(`browser test FAILED: ${e.message}`); process.exit(1); });
