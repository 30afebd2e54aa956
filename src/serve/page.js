// The battle calculator page. Everything on it comes from GET /api/schema (the declared battles,
// keys and rule options) and POST /api/odds (the JSON of `alea odds --json`): no battle is named
// here, so a battle added to the code appears without page code.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") e.textContent = v; else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
};

// The form's computation fields, named as the query string of POST /api/odds.
const COMPUTE = ["trials", "seed"];
let schema = [];
let current = null; // { ruleset, battle }

// A key's field name in the form, the URL and the command line: "table.key", or "key" at the top.
const fieldName = (table, key) => (table ? `${table}.${key}` : key);
const fieldId = (name) => "f-" + name.replace(/[^A-Za-z0-9_-]/g, "_");

// The TOML literal of what was typed into a key's field ("" when the field is left empty).
function literal(key, raw) {
  const v = raw.trim();
  if (v === "") return "";
  switch (key.type) {
    case "count": case "int": case "number": case "bool":
      return v;
    case "choice": case "text":
      return JSON.stringify(v);
    case "count_or_text":
      return /^-?\d+$/.test(v) ? v : JSON.stringify(v);
    default: // list, table, tables, value: written as TOML
      return v;
  }
}

// A family of keys (`<unit>`: infantry, alpine_archer, …) is one field of `member = value` pairs,
// separated by commas or new lines; each pair becomes a key of its table.
const isFamily = (key) => key.name.startsWith("<");
function familyPairs(key, raw) {
  return raw.split(/[,\n]/).map((p) => p.trim()).filter(Boolean).map((p) => {
    const [member, ...rest] = p.split("=");
    return [member.trim(), literal({ ...key, type: key.type }, rest.join("=").trim() || "")];
  });
}

function describeAllowed(key) {
  switch (key.type) {
    case "count": case "int": case "number": return `${key.min} to ${key.max}`;
    case "count_or_text": return `0 to ${key.max}, or ${key.format}, e.g. ${key.example}`;
    case "choice": return key.values.join(", ");
    case "bool": return "true or false";
    case "tables": return `a list of tables with ${key.keys.map((k) => k.name).join(", ")}`;
    default: return key.format ? `${key.format}, e.g. ${key.example}` : "";
  }
}

function defaultText(key) {
  if ("default" in key) return `default ${key.default}`;
  if (key.required) return "required";
  return key.absent ? `if left out: ${key.absent}` : "optional";
}

function control(key, name) {
  const id = fieldId(name);
  const common = { id, name, "aria-describedby": `${id}-help ${id}-err` };
  if (isFamily(key)) {
    return el("textarea", { ...common, rows: 2, spellcheck: "false", placeholder: `e.g. ${key.family_example} = 2, …  (member = number)` });
  }
  if (key.type === "choice" || key.type === "bool") {
    const values = key.type === "bool" ? ["true", "false"] : key.values;
    const s = el("select", common, el("option", { value: "", text: `(${defaultText(key)})` }));
    for (const v of values) s.append(el("option", { value: String(v), text: String(v) }));
    return s;
  }
  if (["count", "int", "number"].includes(key.type)) {
    return el("input", { ...common, type: "number", inputmode: key.type === "number" ? "decimal" : "numeric",
      min: key.min, max: key.max, step: key.type === "number" ? "any" : "1", placeholder: defaultText(key) });
  }
  if (["list", "table", "tables", "value"].includes(key.type)) {
    return el("textarea", { ...common, rows: 1, spellcheck: "false", placeholder: key.example ? `e.g. ${key.example}` : "TOML" });
  }
  return el("input", { ...common, type: "text", spellcheck: "false", placeholder: key.example ? `e.g. ${key.example}` : defaultText(key) });
}

function fieldBlock(label, help, ctl) {
  const id = ctl.id;
  return el("div", { class: "field", "data-field": ctl.name },
    el("label", { for: id, text: label }), ctl,
    el("span", { class: "help", id: `${id}-help`, text: help }),
    el("p", { class: "err", id: `${id}-err`, hidden: true }));
}

// Every field of the battle: [name, key or option, kind] in form order.
function fieldsOf(ruleset, battle) {
  const out = [];
  const tables = ["", ...battle.tables];
  for (const t of tables)
    for (const k of battle.keys)
      if ((t === "" && k.tables.length === 0) || k.tables.includes(t)) out.push([fieldName(t, k.name), k, "key"]);
  for (const o of ruleset.options)
    if (o.battles.includes(battle.name)) out.push([`options.${o.name}`, optionAsKey(o), "option"]);
  return out;
}

// A rule option presented as a key: its allowed values, default and summary.
function optionAsKey(o) {
  if (Array.isArray(o.allowed)) {
    return typeof o.allowed[0] === "boolean"
      ? { name: o.name, type: "bool", default: o.default, help: o.summary }
      : { name: o.name, type: "choice", values: o.allowed, default: o.default, help: o.summary };
  }
  return { name: o.name, type: "int", min: o.allowed.min, max: o.allowed.max, default: o.default, help: o.summary };
}

function buildForm(ruleset, battle) {
  const form = $("battle");
  form.replaceChildren();
  const groups = new Map();
  const group = (title, wrap) => {
    if (!groups.has(title)) {
      const box = el("div", { class: "fields" });
      const outer = wrap === "details"
        ? el("details", {}, el("summary", { text: title }), box)
        : el("fieldset", {}, el("legend", { text: title }), box);
      groups.set(title, box);
      form.append(outer);
    }
    return groups.get(title);
  };
  for (const [name, key, kind] of fieldsOf(ruleset, battle)) {
    const table = kind === "option" ? "" : key.tables.find((t) => name.startsWith(t + ".")) || "";
    const title = kind === "option" ? "Rule options (default: the digest's recommended reading)"
      : table ? table.replace(/_/g, " ") : "Battle";
    const allowed = describeAllowed(key);
    const help = [key.help, allowed && `allowed: ${allowed}`, kind === "key" && defaultText(key)].filter(Boolean).join(" · ");
    const label = kind === "option" ? key.name : key.name.replace(/_/g, " ") + (key.required ? " *" : "");
    group(title, kind === "option" ? "details" : "fieldset").append(fieldBlock(label, help, control(key, name)));
  }
  const comp = group("Computation", "fieldset");
  comp.append(fieldBlock("trials", "Monte Carlo trials; leave empty for exact odds where tractable (the server bounds the work)",
    el("input", { id: "f-trials", name: "trials", type: "number", min: 1, inputmode: "numeric", placeholder: "exact", "aria-describedby": "f-trials-help f-trials-err" })));
  comp.append(fieldBlock("seed", "seed of the random streams (Monte Carlo only)",
    el("input", { id: "f-seed", name: "seed", type: "number", min: 0, inputmode: "numeric", placeholder: "1", "aria-describedby": "f-seed-help f-seed-err" })));
  form.append(el("p", {}, el("button", { type: "submit", id: "go", text: "Compute the odds" })));
}

// The battle as the form has it: TOML text, command line, URL query.
function collect() {
  const { ruleset, battle } = current;
  const sections = new Map([["", []]]);
  const sets = [], opts = [], query = new URLSearchParams();
  for (const [name, key, kind] of fieldsOf(ruleset, battle)) {
    const raw = document.getElementById(fieldId(name)).value;
    if (raw.trim() === "") continue;
    query.set(name, raw.trim());
    const dot = name.lastIndexOf(".");
    const table = dot < 0 ? "" : name.slice(0, dot), leaf = name.slice(dot + 1);
    const pairs = isFamily(key) ? familyPairs(key, raw) : [[leaf, literal(key, raw)]];
    if (!sections.has(table)) sections.set(table, []);
    for (const [k, lit] of pairs) {
      sections.get(table).push(`${k} = ${lit}`);
      (kind === "option" ? opts : sets).push(kind === "option" ? `${k}=${lit}` : `${fieldName(table, k)}=${lit}`);
    }
  }
  let toml = `ruleset = "${ruleset.slug}"\nbattle = "${battle.name}"\n`;
  for (const [table, lines] of sections) {
    if (table === "") { toml += lines.map((l) => l + "\n").join(""); continue; }
    if (lines.length) toml += `\n[${table}]\n` + lines.map((l) => l + "\n").join("");
  }
  const api = new URLSearchParams();
  for (const c of COMPUTE) {
    const v = $(`f-${c}`).value.trim();
    if (v !== "") { api.set(c, v); query.set(c, v); }
  }
  const sh = (s) => (/^[A-Za-z0-9_.,=\/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const cli = ["alea", "odds", ruleset.slug, battle.name,
    ...sets.flatMap((s) => ["--set", sh(s)]), ...opts.flatMap((s) => ["--option", sh(s)]),
    ...(api.has("trials") ? ["--trials", api.get("trials")] : []),
    ...(api.has("seed") ? ["--seed", api.get("seed")] : []), "--json"].join(" ");
  const url = `${location.origin}/r/${ruleset.slug}/${battle.name}${query.toString() ? "?" + query : ""}`;
  return { toml, cli, url, api };
}

function clearErrors() {
  $("page-error").hidden = true;
  for (const e of document.querySelectorAll("#battle .err")) { e.hidden = true; e.textContent = ""; }
  for (const c of document.querySelectorAll("#battle [aria-invalid]")) c.removeAttribute("aria-invalid");
}

// The control an error's field belongs to: the field itself, or its table's family of keys
// (`attacker.alpine_archer` → `attacker.<unit>`).
function controlOf(field) {
  if (!field) return null;
  const exact = document.getElementById(fieldId(field));
  if (exact) return exact;
  const dot = field.lastIndexOf(".");
  const table = dot < 0 ? "" : field.slice(0, dot);
  const family = current.battle.keys.find((k) => isFamily(k) && (table ? k.tables.includes(table) : !k.tables.length));
  return family ? document.getElementById(fieldId(fieldName(table, family.name))) : null;
}

function showError(err) {
  const ctl = controlOf(err.field);
  if (ctl) {
    ctl.setAttribute("aria-invalid", "true");
    const box = $(`${ctl.id}-err`);
    box.textContent = err.error;
    box.hidden = false;
    const details = ctl.closest("details");
    if (details) details.open = true;
    ctl.focus();
  } else {
    $("page-error").textContent = err.error;
    $("page-error").hidden = false;
  }
}

async function submit(ev) {
  if (ev) ev.preventDefault();
  clearErrors();
  const { toml, cli, url, api } = collect();
  history.replaceState(null, "", url);
  $("share-url").value = url;
  $("share-cli").textContent = cli;
  $("share-file").textContent = toml;
  $("share").hidden = false;
  const answer = $("answer");
  answer.setAttribute("aria-busy", "true");
  $("go").disabled = true;
  try {
    const r = await fetch(`/api/odds${api.toString() ? "?" + api : ""}`,
      { method: "POST", headers: { "Content-Type": "application/toml" }, body: toml });
    const doc = await r.json();
    if (!r.ok) { answer.replaceChildren(); answer.dataset.state = "error"; showError(doc); return; }
    render(doc);
    answer.dataset.state = "done";
    // Keyboard and screen-reader users land on the answer (and the page scrolls to it).
    $("answer-title").focus();
  } catch (e) {
    showError({ error: `the server did not answer: ${e}` });
  } finally {
    answer.setAttribute("aria-busy", "false");
    $("go").disabled = false;
  }
}

const pct = (p) => `${(100 * p).toFixed(2)}%`;
const RESERVED = new Set(["ruleset", "battle", "method", "trials", "seed", "input", "options", "notes", "exact_unavailable", "outcome", "standard_error", "charts"]);

// Walks the answer's quantities: distributions ({mean, pmf}) and scalars, by their path.
function quantities(doc, se) {
  const dists = [], scalars = [];
  const walk = (node, errNode, path) => {
    for (const [k, v] of Object.entries(node)) {
      if (!path.length && RESERVED.has(k)) continue;
      const p = [...path, k], e = errNode ? errNode[k] : undefined;
      if (typeof v === "number") scalars.push({ path: p.join("/"), value: v, se: e });
      else if (v && Array.isArray(v.pmf)) dists.push({ path: p.join("/"), mean: v.mean, pmf: v.pmf, se: e });
      else if (v && typeof v === "object") walk(v, e, p);
    }
  };
  walk(doc, se, []);
  return { dists, scalars };
}

function barChart(title, pmf, errs) {
  const shown = Math.max(1, pmf.length - [...pmf].reverse().findIndex((p) => p >= 5e-5));
  const n = Math.min(pmf.length, pmf.every((p) => p < 5e-5) ? 1 : shown);
  const W = 320, H = 160, left = 34, bottom = 20, top = 8;
  const max = Math.max(...pmf.slice(0, n), 1e-9);
  const bw = (W - left - 4) / n;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", title);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  add("line", { x1: left, y1: H - bottom, x2: W, y2: H - bottom, stroke: "#888" });
  add("text", { x: 2, y: top + 8 }, pct(max).replace(".00", ""));
  add("text", { x: 2, y: H - bottom }, "0%");
  const every = Math.ceil(n / 16);
  for (let k = 0; k < n; k++) {
    const h = ((H - bottom - top) * pmf[k]) / max;
    const bar = add("rect", { class: "bar", x: left + k * bw + 1, y: H - bottom - h, width: Math.max(1, bw - 2), height: h });
    const e = errs && errs[k] ? ` ± ${pct(errs[k])}` : "";
    const t = document.createElementNS(ns, "title");
    t.textContent = `${k}: ${pct(pmf[k])}${e}`;
    bar.append(t);
    if (k % every === 0) add("text", { x: left + k * bw + bw / 2, y: H - 6, "text-anchor": "middle" }, String(k));
  }
  return svg;
}

function numCell(value, se, fmt) {
  const td = el("td", { class: "num", "data-value": String(value), text: fmt(value) + (se !== undefined ? ` ± ${fmt(se)}` : "") });
  if (se !== undefined) td.dataset.se = String(se);
  return td;
}

function render(doc) {
  const { ruleset, battle } = current;
  const se = doc.standard_error;
  const out = $("answer");
  out.replaceChildren();
  out.append(el("h2", { id: "answer-title", tabindex: "-1", text: `${ruleset.title}: ${battle.summary}` }));
  const method = doc.method === "exact"
    ? "Exact odds: the battle's full probability distribution, computed; no sampling error."
    : `Monte Carlo: ${doc.trials.toLocaleString("en")} simulated battles, seed ${doc.seed}; each figure ± its standard error. ` +
      (doc.exact_unavailable ? `Exact odds were not computed: ${doc.exact_unavailable}.` : "You asked for this many trials.");
  out.append(el("p", { class: "method", id: "method", "data-method": doc.method, text: method }));
  if (doc.input.length) out.append(el("ul", { class: "input" }, ...doc.input.map((l) => el("li", { text: l }))));

  const outcomes = el("table", { id: "outcomes" }, el("caption", { text: "Outcome" }));
  for (const [name, p] of Object.entries(doc.outcome)) {
    const tr = el("tr", { "data-quantity": `outcome/${name}` }, el("th", { scope: "row", text: name.replace(/_/g, " ") }),
      numCell(p, se ? se.outcome[name] : undefined, pct));
    outcomes.append(tr);
  }
  out.append(outcomes);

  const { dists, scalars } = quantities(doc, se);
  if (dists.length) {
    const means = el("table", { id: "means" }, el("caption", { text: "Expected values (losses and other counts)" }));
    for (const d of dists)
      means.append(el("tr", { "data-quantity": d.path }, el("th", { scope: "row", text: d.path.replace(/\//g, " · ").replace(/_/g, " ") }),
        numCell(d.mean, d.se ? d.se.mean : undefined, (x) => x.toFixed(3))));
    out.append(means);
    const charts = el("div", { class: "charts" });
    for (const d of dists.filter((d) => d.pmf.length > 1)) {
      const title = `${d.path.replace(/\//g, " · ").replace(/_/g, " ")}: distribution (mean ${d.mean.toFixed(3)})`;
      charts.append(el("figure", { "data-quantity": d.path }, barChart(title, d.pmf, d.se && d.se.pmf), el("figcaption", { text: title })));
    }
    out.append(el("h3", { text: "Distributions" }), charts);
  }
  if (scalars.length) {
    const t = el("table", { id: "extras" }, el("caption", { text: "After the battle (expectations; a probability for yes/no events)" }));
    for (const s of scalars)
      t.append(el("tr", { "data-quantity": s.path }, el("th", { scope: "row", text: s.path.replace(/\//g, " · ").replace(/_/g, " ") }),
        numCell(s.value, s.se, (x) => x.toFixed(4))));
    out.append(t);
  }
  if (doc.notes.length) out.append(el("h3", { text: "Notes" }), el("ul", {}, ...doc.notes.map((n) => el("li", { text: n }))));
  const defaults = Object.fromEntries(ruleset.options.map((o) => [o.name, o.default]));
  const opts = Object.entries(doc.options);
  if (opts.length) {
    const t = el("table", { id: "options-in-force" }, el("caption", { text: "Rule options in force (changed ones in bold)" }));
    for (const [k, v] of opts) {
      const changed = JSON.stringify(defaults[k]) !== JSON.stringify(v);
      t.append(el("tr", { class: changed ? "changed" : null }, el("th", { scope: "row", text: k }), el("td", { text: String(v) })));
    }
    out.append(el("details", {}, el("summary", { text: "Rule options in force" }), t));
  }
}

function fillFromUrl(params) {
  let any = false;
  for (const [name, value] of params) {
    const ctl = document.getElementById(fieldId(name));
    if (ctl) { ctl.value = value; any = true; const d = ctl.closest("details"); if (d) d.open = true; }
  }
  return any;
}

function choose(slug, name, params) {
  const ruleset = schema.find((r) => r.slug === slug) || schema.find((r) => r.battles.length);
  const battle = ruleset.battles.find((b) => b.name === name) || ruleset.battles[0];
  current = { ruleset, battle };
  $("pick-ruleset").value = ruleset.slug;
  $("pick-battle").replaceChildren(...ruleset.battles.map((b) => el("option", { value: b.name, text: b.name })));
  $("pick-battle").value = battle.name;
  $("summary").textContent = `${ruleset.title} · ${battle.summary}. Outcomes: ${battle.outcomes.join(", ")}. Rules digest: ${ruleset.digest}.`;
  document.title = `alea · ${ruleset.title} ${battle.name} battle odds`;
  buildForm(ruleset, battle);
  $("answer").replaceChildren();
  $("share").hidden = true;
  const wanted = `/r/${ruleset.slug}/${battle.name}`;
  if (location.pathname !== wanted) history.replaceState(null, "", wanted);
  if (params && fillFromUrl(params)) submit();
}

async function start() {
  try {
    schema = await (await fetch("/api/schema")).json();
  } catch (e) {
    $("page-error").textContent = `cannot load the battle schema: ${e}`;
    $("page-error").hidden = false;
    return;
  }
  const rs = $("pick-ruleset");
  for (const r of schema.filter((r) => r.battles.length)) rs.append(el("option", { value: r.slug, text: r.title }));
  rs.addEventListener("change", () => choose(rs.value, null, null));
  $("pick-battle").addEventListener("change", () => choose(current.ruleset.slug, $("pick-battle").value, null));
  $("battle").addEventListener("submit", submit);
  $("share-url").addEventListener("focus", (e) => e.target.select());
  const m = location.pathname.match(/^\/r\/([^/]+)\/([^/]+)/);
  choose(m && decodeURIComponent(m[1]), m && decodeURIComponent(m[2]), new URLSearchParams(location.search));
}

start();
