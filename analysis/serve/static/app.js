// cardlab's page: builds a position document from clicks, runs the advisor and the review through /api/,
// and shows the answers. Everything shown comes from the API's JSON (the same as `cardlab ... --format json`).
"use strict";

const S = { games: {}, game: null, active: null, job: null, record: null, review: null, step: 0, advisorRows: null };
const SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function cardFace(c) {
  if (c === "BJ") return "Black joker";
  if (c === "RJ") return "Red joker";
  return (c[0] === "T" ? "10" : c[0]) + SUIT[c[1]];
}

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.body = JSON.stringify(body);
    opts.headers["content-type"] = "application/json";
  }
  const r = await fetch(url, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `the server answered ${r.status}` }; }
  return { status: r.status, data };
}

// the command line's flags in a message, named as the page's fields ("--cards-left" -> "cards left")
const unflag = (text) => text.replace(/--([a-z][a-z-]*)/g, (m, f) => `“${f.replaceAll("-", " ")}”`);

function notice(text) {  // one line beside the button of the visible tab
  for (const id of ["advisor-error", "review-error"]) {
    const n = $(id);
    const mine = !$(id.split("-")[0]).hidden;
    n.textContent = mine && text ? unflag(text) : "";
    n.hidden = !(mine && text);
  }
}

// ---- the game and its position form ------------------------------------------------------------------

function game() { return S.games[S.game]; }

function players() { return parseInt($("players").value, 10); }

function seatKeys(f) {
  if (f.keys === "teams") return ["NS", "EW"];
  return [...Array(players()).keys()].map(String);
}

function selectGame(id) {
  S.game = id;
  const g = game();
  location.hash = id;
  $("game").value = id;
  const pl = $("players");
  pl.replaceChildren();
  for (let n = g.players.min; n <= g.players.max; n++) {
    pl.append(el("option", { value: n, selected: n === g.players.default, text: String(n) }));
  }
  const m = $("model");
  m.replaceChildren(el("option", { value: "", text: "the advisor's default" }));
  for (const name of Object.keys(g.strategies)) m.append(el("option", { value: name, text: name }));
  const v = $("variants");
  v.replaceChildren();
  for (const [name, info] of Object.entries(g.variants)) {
    const sel = el("select", { "data-variant": name, title: info.rule || "" });
    for (const val of info.values) {
      sel.append(el("option", { value: String(val), selected: String(val) === String(info.default),
        text: String(val) + (String(val) === String(info.default) ? " (default)" : "") }));
    }
    v.append(el("label", {}, name + " ", sel));
  }
  buildFields();
  buildDeck();
  $("answer").hidden = true;
  // the review tab
  S.record = null;
  S.review = null;
  $("record-summary").textContent = "";
  $("review-result").hidden = true;
  $("review-run").disabled = true;
  const ro = $("record-options");
  ro.replaceChildren();
  for (const o of g.record_options) {
    ro.append(el("label", { title: o.help }, o.name + " ", el("input", { "data-record-option": o.name, size: 4 })));
  }
}

function buildFields() {
  const form = $("fields");
  form.replaceChildren();
  S.active = null;
  $("active-label").textContent = "(pick a field)";
  for (const f of game().fields) {
    const label = el("span", { class: "name", text: f.name.replaceAll("_", " ") });
    const help = el("span", { class: "help", text: unflag(f.help) });
    let input;
    if (f.kind === "choice") {
      input = el("select", { "data-field": f.name }, el("option", { value: "", text: "(default)" }),
        ...f.choices.map((c) => el("option", { value: c, text: c })));
    } else if (f.kind === "flag") {
      input = el("input", { type: "checkbox", "data-field": f.name });
    } else if (["seat_cards", "seat_number", "seat_seat"].includes(f.kind)) {
      input = el("span", { class: "seats" });
      for (const k of seatKeys(f)) {
        const one = f.kind === "seat_cards"
          ? cardInput(f, k)
          : el("input", { "data-field": f.name, "data-key": k, size: 3, inputmode: "numeric" });
        input.append(el("label", { class: "seat" }, (f.keys === "teams" ? k : "seat " + k) + " ", one));
      }
    } else if (f.kind === "tricks") {
      input = el("textarea", { "data-field": f.name, rows: 3, cols: 30, placeholder: "one trick a line" });
      input.addEventListener("focus", () => activate(input, f));
    } else if (f.kind === "cards") {
      input = cardInput(f, null);
    } else {
      input = el("input", { "data-field": f.name, size: f.kind === "number" ? 4 : 16,
        placeholder: f.kind === "seats" ? "seats, e.g. 2 0" : null });
    }
    form.append(el("div", { class: "field", "data-kind": f.kind }, el("label", {}, label, input), help));
  }
}

function cardInput(f, key) {
  const i = el("input", { "data-field": f.name, "data-key": key, "data-cards": "1", "data-one": f.one_card ? "1" : null,
    size: f.one_card ? 5 : key === null ? 36 : 14, placeholder: f.one_card ? "a card" : "click cards or type, e.g. AS KH" });
  i.addEventListener("focus", () => activate(i, f, key));
  return i;
}

function activate(input, f, key) {
  for (const x of document.querySelectorAll(".active-field")) x.classList.remove("active-field");
  S.active = input;
  input.classList.add("active-field");
  $("active-label").textContent = f.name.replaceAll("_", " ") + (key !== null && key !== undefined ? ` (${f.keys === "teams" ? key : "seat " + key})` : "");
  $("next-trick").hidden = f.kind !== "tricks";
  refreshDeck();
}

function buildDeck() {
  const d = $("deck");
  d.replaceChildren();
  let row = null;
  let suit = null;
  for (const c of game().deck) {
    const s = c.length === 2 && SUIT[c[1]] ? c[1] : "J";
    if (s !== suit) { row = el("div", { class: "deck-row" }); d.append(row); suit = s; }
    const red = s === "H" || s === "D" || c === "RJ";
    row.append(el("button", { type: "button", class: "card" + (red ? " red" : ""), "data-card": c,
      title: c, text: cardFace(c), onclick: () => toggleCard(c) }));
  }
  $("next-trick").onclick = () => {
    if (S.active && S.active.tagName === "TEXTAREA") { S.active.value = S.active.value.trimEnd() + "\n"; S.active.focus(); }
  };
  refreshDeck();
}

function tokens(text) { return text.split(/[\s,]+/).filter((t) => t); }

function toggleCard(c) {
  const i = S.active;
  if (!i) { notice("Pick a field first (your hand, the play on the table, ...), then click its cards."); return; }
  notice("");
  if (i.tagName === "TEXTAREA") {  // tricks: the card is added to (or taken from) the last line
    const lines = i.value.split("\n");
    const last = tokens(lines[lines.length - 1]);
    const at = last.indexOf(c);
    if (at >= 0) last.splice(at, 1); else last.push(c);
    lines[lines.length - 1] = last.join(" ");
    i.value = lines.join("\n");
  } else if (i.dataset.one) {  // a one-card field: the click replaces its card
    i.value = i.value.trim().toUpperCase() === c ? "" : c;
  } else {
    const t = tokens(i.value.toUpperCase());
    const at = t.indexOf(c);
    if (at >= 0) t.splice(at, 1); else t.push(c);
    i.value = t.join(" ");
  }
  refreshDeck();
}

// Bisko-Bobo's split deck (BB-1): a card the active field cannot hold at this player count is greyed out and
// marked (HIGH cards everywhere but in the LOW cards of the Bingo-Bango swap, and the other way round)
function offDeck(card) {
  const high = game().high_ranks;
  if (!high || !S.active) return false;
  const inHigh = (high[String(players())] || []).includes(card[0]);
  return S.active.dataset.field === "low" ? inHigh : !inHigh;
}

function refreshDeck() {
  const mine = new Set(S.active ? tokens(S.active.value.toUpperCase()) : []);
  const elsewhere = new Set();
  for (const i of document.querySelectorAll("#fields [data-cards], #fields textarea")) {
    if (i !== S.active) for (const t of tokens(i.value.toUpperCase())) elsewhere.add(t);
  }
  for (const b of document.querySelectorAll("#deck .card")) {
    b.classList.toggle("picked", mine.has(b.dataset.card));
    b.classList.toggle("used", !mine.has(b.dataset.card) && elsewhere.has(b.dataset.card));
    const off = offDeck(b.dataset.card);
    b.classList.toggle("off", off);
    b.title = off ? `${b.dataset.card}: not in the ${S.active.dataset.field === "low" ? "LOW" : "HIGH"} deck at ${players()} players (BB-1)` : b.dataset.card;
  }
}

function positionDocument() {
  const g = game();
  const doc = {};
  if (players() !== g.players.default) doc.players = players();
  for (const f of g.fields) {
    const inputs = [...document.querySelectorAll(`#fields [data-field="${f.name}"]`)];
    if (f.kind === "flag") { if (inputs[0].checked) doc[f.name] = true; continue; }
    if (["seat_cards", "seat_number", "seat_seat"].includes(f.kind)) {
      const m = {};
      for (const i of inputs) {
        const v = i.value.trim();
        if (!v) continue;
        m[i.dataset.key] = f.kind === "seat_cards" || !/^-?\d+$/.test(v) ? v : parseInt(v, 10);
      }
      if (Object.keys(m).length) doc[f.name] = m;
      continue;
    }
    const v = inputs[0].value.trim();
    if (!v) continue;
    if (f.kind === "tricks") doc[f.name] = v.split("\n").map((x) => x.trim()).filter((x) => x);
    else if (f.kind === "seats") doc[f.name] = tokens(v).map((x) => (/^\d+$/.test(x) ? parseInt(x, 10) : x));
    else if (f.kind === "number") doc[f.name] = /^-?\d+$/.test(v) ? parseInt(v, 10) : v;
    else doc[f.name] = v;
  }
  const variants = changedVariants();
  if (Object.keys(variants).length) doc.variants = variants;
  if ($("model").value) doc.models = $("model").value;
  return doc;
}

function changedVariants() {
  const g = game();
  const variants = {};
  for (const s of document.querySelectorAll("#variants [data-variant]")) {
    if (s.value !== String(g.variants[s.dataset.variant].default)) variants[s.dataset.variant] = s.value;
  }
  return variants;
}

function fillPosition(doc) {
  $("clear").click();
  if (doc.players) { $("players").value = doc.players; buildFields(); }
  for (const [name, v] of Object.entries(doc)) {
    const inputs = [...document.querySelectorAll(`#fields [data-field="${name}"]`)];
    if (!inputs.length) continue;
    if (typeof v === "object" && !Array.isArray(v)) {
      for (const i of inputs) if (v[i.dataset.key] !== undefined) i.value = String(v[i.dataset.key]);
    } else if (Array.isArray(v)) {
      inputs[0].value = v.map((x) => (typeof x === "object" ? x.cards : x)).join(inputs[0].tagName === "TEXTAREA" ? "\n" : " ");
    } else if (inputs[0].type === "checkbox") {
      inputs[0].checked = !!v;
    } else {
      inputs[0].value = String(v);
    }
  }
  refreshDeck();
}

// ---- jobs ---------------------------------------------------------------------------------------------

function progressText(job) {
  const p = job.progress || {};
  const secs = `${Math.round(job.elapsed_s)} s`;
  if (job.state === "queued") return "waiting for the analysis before it to finish...";
  if (p.stage === "compiling" && !p.trials) return `compiling the ${job.game} kernels (once, then cached; up to about a minute)... ${secs}`;
  let text = "";
  if (p.decisions) text = `decision ${p.decision + 1} of ${p.decisions}`;
  if (p.trials && p.stage !== "decision") {
    const n = Number(p.trials).toLocaleString("en");
    if (p.half_width && p.target) text += `${text ? ", " : ""}${n} layouts, ±${p.half_width.toPrecision(2)} of ±${p.target}`;
    else text += `${text ? ", " : ""}${n}${p.total ? " of " + Number(p.total).toLocaleString("en") : ""} layouts`;
  }
  return `${text || "starting"}... ${secs}`;
}

async function runJob(url, body, progressEl, cancelBtn) {
  const started = await api("POST", url, body);
  if (started.status !== 202) return started;
  let job = started.data;
  S.job = job.job;
  cancelBtn.hidden = false;
  cancelBtn.onclick = () => { progressEl.textContent = "cancelling (the run stops at its next batch)..."; api("DELETE", `/api/jobs/${job.job}`); };
  try {
    for (;;) {
      if (!progressEl.textContent.startsWith("cancelling")) progressEl.textContent = progressText(job);
      if (!["queued", "running"].includes(job.state)) break;
      await new Promise((r) => setTimeout(r, 250));
      const r = await api("GET", `/api/jobs/${job.job}`);
      if (r.status === 404) return r;
      job = r.data;
    }
  } finally {
    cancelBtn.hidden = true;
    S.job = null;
  }
  if (job.state === "done") { progressEl.textContent = `done in ${job.elapsed_s} s`; return { status: 200, data: job.result }; }
  progressEl.textContent = job.state === "cancelled" ? "cancelled" : "";
  return { status: 400, data: { error: job.error || job.state } };
}

function sizeQuery() {
  const kind = $("size-kind").value;
  const seed = $("seed").value.trim() || "0";
  return `${kind}=${encodeURIComponent($("size").value.trim())}&seed=${encodeURIComponent(seed)}`;
}

// ---- the advisor's answer -----------------------------------------------------------------------------

const fmt = (x, pct) => (x === null || x === undefined || Number.isNaN(x) ? "" : pct ? (100 * x).toFixed(1) + "%" : x.toFixed(2));
const PROB = new Set(["win", "sole_win", "last", "quota", "first_out", "p_win"]);

function cell(r, p) {
  if (!r) return "";
  const ci = r.ci_low === null || r.ci_low === undefined ? "" : ` (${fmt(r.ci_low, p)} to ${fmt(r.ci_high, p)})`;
  return fmt(r.estimate, p) + ci;
}

function isProb(measure, rows) {
  return PROB.has(measure) || rows.every((r) => r.measure !== measure || (r.ci_low >= -1e-9 && r.ci_high <= 1 + 1e-9 && r.estimate >= 0 && r.estimate <= 1));
}

async function askAdvisor() {
  notice("");
  $("answer").hidden = true;
  $("run").disabled = true;
  try {
    const r = await runJob(`/api/jobs/odds/${S.game}?${sizeQuery()}`, positionDocument(), $("progress"), $("cancel"));
    if (r.status !== 200) { notice(r.data.error || "the analysis failed"); return; }
    showAnswer(r.data);
  } finally {
    $("run").disabled = false;
  }
}

function showAnswer(res) {
  const { meta, rows } = res;
  $("verdict").textContent = meta.answer || "";
  const m = meta.models || meta.strategies || [];
  const models = Array.isArray(m) ? m.join(", ") : Object.entries(m).map(([k, v]) => `seat ${k} ${v}`).join(", ");
  const rankBy = meta.rank_by || "win";
  // Zheng Shangyou once the Winner is out: the lowest chance to end last is the best
  const rankNoun = rankBy === "last" ? "the chance to end last" : rankBy;
  const lower = rankBy === "last" ? " (the lower the better)" : "";
  let line = `${Number(meta.trials).toLocaleString("en")} sampled layouts, every action on each; seed ${meta.seed}; the rest played by: ${models}. Ranked by ${rankNoun}${lower}; "worse" is clearly worse than the best in ${rankNoun} (95%), "uncertain" not separated from it, "equal" the same as the best on every layout.`;
  if (meta.quota) {
    line += ` Quota: ${meta.quota}.`;
  }
  if (meta.unseen) {  // what the layouts take for the cards the position does not place (the played cards unnamed)
    line += ` Unseen cards: ${meta.unseen}.`;
  }
  if (meta.assumed) {  // what a doubtful input was taken to mean (a Biscuits --passed card still in the hand)
    line += ` Assumed: ${meta.assumed}.`;
  }
  if (meta.precision_target !== undefined) {
    line += meta.precision_reached ? ` Precision ±${meta.precision_target} reached.` : ` Precision ±${meta.precision_target} NOT reached (the cap stopped the run).`;
  }
  $("answer-meta").textContent = line;
  const measures = [...new Set(rows.map((r) => r.measure))].filter((m) => !m.startsWith("diff_"));
  const actions = [...new Set(rows.map((r) => r.action))];
  const by = {};
  for (const r of rows) by[`${r.measure}|${r.action}`] = r;
  const t = $("result-table");
  t.replaceChildren();
  const head = el("tr", {}, el("th", { text: "action" }), el("th", { text: "verdict" }),
    ...measures.map((m) => el("th", { text: m + " (95% interval)" })));
  const diff = [`diff_${rankBy}`, ...measures.map((x) => `diff_${x}`)].find((d) => rows.some((r) => r.measure === d));
  if (diff) head.append(el("th", { text: `${diff.slice(5)} vs the best` }));
  t.append(el("thead", {}, head));
  const ranked = measures.includes(rankBy) ? rankBy : measures[0];
  // the chart and the table as the command line's table (tables.Result._best_actions): every action not clearly
  // worse than the best, and the best of the others up to the server's advisor_rows (a Biscuits pass has 78); a
  // button under the table shows the rest
  const charted = actions.filter((a, i) => i < S.advisorRows || (by[`${ranked}|${a}`] || {}).verdict !== "worse");
  const shown = new Set(charted);
  const body = el("tbody");
  for (const a of actions) {
    const any = by[`${measures[0]}|${a}`] || rows.find((r) => r.action === a);
    const tr = el("tr", { class: "verdict-" + any.verdict, "data-action": a, hidden: !shown.has(a) },
      el("td", { text: a }), el("td", { text: any.verdict || "" }));
    for (const m of measures) {
      const r = by[`${m}|${a}`];
      const p = isProb(m, rows);
      tr.append(el("td", { text: cell(r, p) }));
    }
    if (diff) {
      const r = by[`${diff}|${a}`];
      const p = isProb(diff.slice(5), rows);
      tr.append(el("td", { text: r ? (any.verdict === "best" ? "best" : cell(r, p)) : "" }));
    }
    body.append(tr);
  }
  t.append(body);
  const rest = actions.length - charted.length;
  if (rest) {
    const more = el("button", { type: "button", id: "more-actions", text: rest === 1 ? "show the other action (clearly worse than the best)" : `show the other ${rest} actions (each clearly worse than the best)` });
    more.addEventListener("click", () => {
      for (const tr of body.querySelectorAll("tr[hidden]")) tr.hidden = false;
      foot.remove();
    });
    const foot = el("tfoot", {}, el("tr", {}, el("td", { colspan: head.children.length }, more)));
    t.append(foot);
  }
  $("chart").replaceChildren(barChart(charted.map((a) => by[`${ranked}|${a}`]).filter((r) => r), ranked,
    isProb(ranked, rows), actions.length - charted.length));
  $("answer").hidden = false;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function barChart(rows, measure, prob, left_out = 0) {
  const W = 640, left = 110, right = 70, bar = 22, gap = 8;
  const H = rows.length * (bar + gap) + 40;
  const lo = Math.min(0, ...rows.map((r) => r.ci_low));
  const hi = Math.max(...rows.map((r) => r.ci_high), prob ? 0.05 : 0.1);
  const x = (v) => left + ((v - lo) / (hi - lo || 1)) * (W - left - right);
  const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${measure} of each action` });
  const more = left_out ? ` (${left_out} more, each clearly worse: under the table)` : "";
  s.append(svg("text", { x: left, y: 14, class: "axis" }, `${measure} by action, with 95% intervals${more}`));
  rows.forEach((r, i) => {
    const y = 24 + i * (bar + gap);
    s.append(svg("text", { x: left - 6, y: y + bar * 0.7, "text-anchor": "end", class: "label" }, r.action));
    s.append(svg("rect", { x: x(Math.min(0, r.estimate)), y, width: Math.abs(x(r.estimate) - x(0)), height: bar,
      class: "bar " + (r.verdict === "best" ? "best" : r.verdict === "worse" ? "worse" : "close") }));
    s.append(svg("line", { x1: x(r.ci_low), x2: x(r.ci_high), y1: y + bar / 2, y2: y + bar / 2, class: "whisker" }));
    s.append(svg("text", { x: x(Math.max(r.ci_high, 0)) + 6, y: y + bar * 0.7, class: "value" }, fmt(r.estimate, prob)));
  });
  return s;
}

// ---- records and reviews ------------------------------------------------------------------------------

function setRecord(doc) {
  S.record = doc;
  S.review = null;
  $("review-result").hidden = true;
  // a record may leave out its players (the game's default count) and its hands (a Bismarck hand is its events, a
  // Zheng Shangyou record may give only your own)
  const g = S.games[doc.game || S.game] || game();
  const P = doc.players || g.players.default;
  const r = doc.result || {};
  const first = r.winner ?? r.first_out;
  const res = first !== undefined ? ` Seat ${first} went out first.` : r.winners ? ` Won by seat ${r.winners.join(" and ")}.` : "";
  $("record-summary").textContent = `A ${doc.game || S.game} record: ${P} players, ${(doc.events || []).length} events.${res}`;
  const seat = $("review-seat");
  seat.replaceChildren(el("option", { value: "", text: "every seat" }));
  for (let i = 0; i < P; i++) seat.append(el("option", { value: i, text: `seat ${i}` }));
  $("review-run").disabled = false;
}

async function makeRecord() {
  notice("");
  const body = { seed: parseInt($("record-seed").value, 10) || 0 };
  if (players() !== game().players.default) body.players = players();
  const variants = changedVariants();
  if (Object.keys(variants).length) body.variants = variants;
  for (const i of document.querySelectorAll("[data-record-option]")) {
    if (i.value.trim()) body[i.dataset.recordOption] = parseInt(i.value, 10);
  }
  $("record-make").disabled = true;
  $("review-progress").textContent = "simulating a game...";
  const r = await api("POST", `/api/record/${S.game}`, body);
  $("record-make").disabled = false;
  $("review-progress").textContent = "";
  if (r.status !== 200) { notice(r.data.error); return; }
  setRecord(r.data);
}

async function loadRecordFile(file) {
  notice("");
  try {
    const doc = JSON.parse(await file.text());
    if (doc.game && doc.game !== S.game && S.games[doc.game]) selectGame(doc.game);
    setRecord(doc);
  } catch (e) {
    notice(`${file.name} is not a JSON record: ${e.message}`);
  }
}

async function runReview() {
  notice("");
  $("review-run").disabled = true;
  const seat = $("review-seat").value;
  const q = `precision=${encodeURIComponent($("review-precision").value.trim())}&seed=${encodeURIComponent($("seed").value.trim() || "0")}` + (seat !== "" ? `&seat=${seat}` : "");
  try {
    const r = await runJob(`/api/jobs/review/${S.game}?${q}`, S.record, $("review-progress"), $("review-cancel"));
    if (r.status !== 200) { notice(r.data.error || "the review failed"); return; }
    S.review = r.data;
    S.step = 0;
    $("review-summary").textContent = r.data.meta.summary || "";
    $("review-result").hidden = false;
    showStep();
  } finally {
    $("review-run").disabled = false;
  }
}

function pts(x) { return (100 * x).toFixed(1); }

function showStep() {
  const rows = S.review.rows;
  const d = $("decision");
  d.replaceChildren();
  if (!rows.length) { $("step-label").textContent = "no decisions to review"; $("review-chart").replaceChildren(); return; }
  S.step = Math.max(0, Math.min(S.step, rows.length - 1));
  const r = rows[S.step];
  $("step-label").textContent = `decision ${S.step + 1} of ${rows.length} (event ${r.event})`;
  $("prev").disabled = S.step === 0;
  $("next").disabled = S.step === rows.length - 1;
  const kv = (k, v) => el("tr", {}, el("th", { text: k }), el("td", { text: v === undefined || v === null ? "" : String(v) }));
  const t = el("table", { class: "kv" });
  t.append(kv("event", r.event), kv("seat", r.seat));
  if (r.decision) t.append(kv("decision", r.decision));
  if (r.hand) t.append(kv("hand", r.hand));
  if (r.on_table) t.append(kv("on the table", r.on_table));
  t.append(kv("legal actions", r.actions), kv("taken", r.taken), kv("best", r.best), kv("verdict", r.verdict));
  if (r.win_taken !== undefined) t.append(kv("win chance after the action taken", pts(r.win_taken) + "%"));
  if (r.dd_taken !== undefined && r.dd_taken !== null) t.append(kv("double dummy: taken / best", `${r.dd_taken} / ${r.dd_best}`));
  d.append(t);
  const lost = r.loss_win > 0;
  const score = !r.loss_score ? "." : r.loss_score > 0 ? `, and ${r.loss_score.toFixed(2)} points of score.` : `, though it scores ${(-r.loss_score).toFixed(2)} more.`;
  // Zheng Shangyou after the Winner went out: the scores are settled, the chance to end last is what is left
  const late = r.loss_last !== undefined && r.loss_last !== null;
  const lostLast = late && r.loss_last > 0;
  d.append(el("p", { id: "loss", class: lost || lostLast ? "loss" : "ok", text: lost
    ? `Lost ${pts(r.loss_win)} percentage points of win chance against ${r.best} (95%: ${pts(r.loss_win_low)} to ${pts(r.loss_win_high)})` + score
    : lostLast
    ? `The Winner is out and the scores are settled: ${pts(r.loss_last)} percentage points more likely to end last (the Loser) than with ${r.best} (${pts(r.last_taken)}% against ${pts(r.last_best)}%).`
    : (r.verdict === "best" ? "The best action (or as good as it)."
      : late ? `Ranked below ${r.best}, but its chance to end last is not clearly higher: no loss counted.`
      : `Ranked below ${r.best}, but its win chance is not separated from the best's at 95%: no loss counted.`) }));
  $("review-chart").replaceChildren(winChart(rows, S.step));
}

function winChart(all, currentIndex) {
  // one seat's decisions: the current decision's seat (every seat's in one line would mix their chances)
  const seat = all[currentIndex].seat;
  const idx = all.map((r, i) => i).filter((i) => all[i].seat === seat);
  const rows = idx.map((i) => all[i]);
  const current = idx.indexOf(currentIndex);
  const W = 640, H = 200, l = 44, r = 12, t = 20, b = 28;
  const x = (i) => l + (rows.length > 1 ? (i / (rows.length - 1)) * (W - l - r) : (W - l - r) / 2);
  const y = (v) => t + (1 - v) * (H - t - b);
  const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "win chance through the game" });
  s.append(svg("text", { x: l, y: 12, class: "axis" }, `seat ${seat}'s win chance after each of its decisions (the action taken); the current one ringed, red where a loss was counted`));
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    s.append(svg("line", { x1: l, x2: W - r, y1: y(v), y2: y(v), class: "grid" }));
    s.append(svg("text", { x: l - 4, y: y(v) + 4, "text-anchor": "end", class: "label" }, `${v * 100}%`));
  }
  const pts_ = rows.map((row, i) => `${x(i)},${y(row.win_taken ?? 0)}`).join(" ");
  s.append(svg("polyline", { points: pts_, class: "series" }));
  rows.forEach((row, i) => {
    const c = svg("circle", { cx: x(i), cy: y(row.win_taken ?? 0), r: i === current ? 7 : 4,
      class: (row.loss_win > 0 || row.loss_last > 0 ? "lost" : "kept") + (i === current ? " current" : "") });
    c.addEventListener("click", () => { S.step = idx[i]; showStep(); });
    s.append(c);
  });
  return s;
}

// ---- reports and start-up -----------------------------------------------------------------------------

async function loadReports() {
  const r = await api("GET", "/api/reports");
  const ul = $("report-list");
  ul.replaceChildren();
  const files = (r.data.files || []).filter((f) => f.endsWith(".html"));
  if (!files.length) { ul.append(el("li", { text: `No reports in ${r.data.folder} yet: make report writes them.` })); return; }
  for (const f of files) ul.append(el("li", {}, el("a", { href: `/reports/${f}`, target: "_blank", text: f })));
}

function showTab(name) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of ["advisor", "review", "reports"]) $(p).hidden = p !== name;
  if (name === "reports") loadReports();
}

async function start() {
  const r = await api("GET", "/api/games");
  S.advisorRows = r.data.advisor_rows;
  for (const g of r.data.games) {
    S.games[g.game] = g;
    $("game").append(el("option", { value: g.game, text: g.name }));
  }
  $("game").onchange = () => selectGame($("game").value);
  for (const b of document.querySelectorAll(".tab")) b.onclick = () => showTab(b.dataset.tab);
  $("run").onclick = askAdvisor;
  $("fields").addEventListener("input", refreshDeck);
  $("players").onchange = () => { buildFields(); refreshDeck(); };
  $("example").onclick = () => { const ex = game().example_position; if (ex) fillPosition(ex); };
  $("clear").onclick = () => { for (const i of document.querySelectorAll("#fields input, #fields textarea, #fields select")) { if (i.type === "checkbox") i.checked = false; else i.value = ""; } refreshDeck(); };
  $("size-kind").onchange = () => { $("size").value = $("size-kind").value === "trials" ? "20000" : "0.02"; };
  $("record-make").onclick = makeRecord;
  $("record-file").onchange = (e) => { if (e.target.files[0]) loadRecordFile(e.target.files[0]); };
  $("review-run").onclick = runReview;
  $("prev").onclick = () => { S.step--; showStep(); };
  $("next").onclick = () => { S.step++; showStep(); };
  const want = location.hash.slice(1);
  selectGame(S.games[want] ? want : Object.keys(S.games)[0]);
  document.body.dataset.ready = "1";
}

start();
