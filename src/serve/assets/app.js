// connect4-ml's page: play, the solver's analysis, the models' views and pipeline runs.
// Plain JavaScript, no build step: the server embeds this file as it is.
"use strict";

const $ = (id) => document.getElementById(id);

const S = {
  width: 7,
  height: 6,
  moves: [],          // 1-based columns
  mode: "ai",         // ai | humans | edit
  human: "x",         // the human's side against the computer
  thinking: false,
  generation: 0,      // bumps on every change: stale answers are dropped
  models: [],
  kinds: [],
  selected: {},       // model name -> selected column (for its "why" bars)
  paused: false,      // browsing history or a review: the computer waits for a human move
  fromHistory: false, // the current change came from the URL (back, forward, a link)
  review: null,       // { moves, answer }: the game under review and the server's grades
};

// ---- rules (the server checks everything again) ----

function grid() {
  const g = Array.from({ length: S.width }, () => []);
  S.moves.forEach((c, i) => g[c - 1].push(i % 2 === 0 ? "x" : "o"));
  return g;
}

function winningCells(g) {
  const at = (c, r) => (c >= 0 && c < S.width && r >= 0 && r < S.height ? g[c][r] : undefined);
  for (let c = 0; c < S.width; c++) {
    for (let r = 0; r < S.height; r++) {
      const p = at(c, r);
      if (!p) continue;
      for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        const line = [0, 1, 2, 3].map((k) => [c + k * dc, r + k * dr]);
        if (line.every(([cc, rr]) => at(cc, rr) === p)) return { player: p, cells: line };
      }
    }
  }
  return null;
}

function state() {
  const g = grid();
  const win = winningCells(g);
  const full = S.moves.length >= S.width * S.height;
  return { g, win, over: !!win || full, toMove: S.moves.length % 2 === 0 ? "x" : "o" };
}

function legal(col) {
  return col >= 1 && col <= S.width && grid()[col - 1].length < S.height;
}

// ---- agent choice ----

const AGENT_CHOICES = [
  ["easy", "easy (open lines, depth 1)", false],
  ["hard", "hard (open lines, depth 5)", false],
  ["handtuned", "hand-tuned linear weights", true],
  ["gbt", "GBT model (models/gbt.bin)", true],
  ["lms", "LMS weights (models/lms.bin)", true],
  ["ntuple", "n-tuple network (models/ntuple.bin)", true],
  ["hybrid", "hybrid: model + rollouts", true],
  ["threat", "threat evaluator", true],
  ["window", "window score", true],
  ["openlines", "open lines", true],
  ["adaptive", "adaptive difficulty", true],
  ["rollouts", "Monte Carlo rollouts", true],
  ["mcts", "Monte Carlo tree search (1000 simulations)", false],
  ["perfect", "perfect (the solver)", false],
  ["random", "random", false],
];

function specFromControls() {
  const kind = $("agent-kind").value;
  const choice = AGENT_CHOICES.find((c) => c[0] === kind);
  const depth = Math.max(1, Math.min(20, parseInt($("depth").value, 10) || 1));
  return choice && choice[2] ? `${kind}:depth=${depth}` : kind;
}

function setupAgents() {
  const sel = $("agent-kind");
  for (const [value, label] of AGENT_CHOICES) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    sel.appendChild(o);
  }
  sel.value = "easy";
  $("agent-spec").value = specFromControls();
  const sync = () => {
    $("agent-spec").value = specFromControls();
    const choice = AGENT_CHOICES.find((c) => c[0] === sel.value);
    $("depth").disabled = !(choice && choice[2]);
  };
  sel.addEventListener("change", sync);
  $("depth").addEventListener("change", sync);
  sync();
}

// ---- server calls ----

async function api(path, options) {
  const res = await fetch(path, options);
  let body = null;
  try {
    body = await res.json();
  } catch (_) {
    body = { error: `HTTP ${res.status}` };
  }
  if (!res.ok) throw new Error(body && body.error ? body.error : `HTTP ${res.status}`);
  return body;
}

function sizeQuery() {
  return `width=${S.width}&height=${S.height}`;
}

function movesText() {
  return S.moves.join("");
}

// ---- drawing ----

function setStatus(text, kind) {
  const el = $("status");
  el.textContent = text;
  el.className = kind || "";
  el.dataset.state = kind || "";
}

function renderBoard() {
  const { g, win, over, toMove } = state();
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${S.width}, 1fr)`;
  $("col-scores").style.gridTemplateColumns = `repeat(${S.width}, 1fr)`;
  board.innerHTML = "";
  const last = S.moves.length ? S.moves[S.moves.length - 1] - 1 : -1;
  const winSet = new Set(win ? win.cells.map(([c, r]) => `${c},${r}`) : []);
  const humanTurn = S.mode !== "ai" || toMove === S.human || S.paused;
  for (let c = 0; c < S.width; c++) {
    const col = document.createElement("button");
    col.type = "button";
    col.className = "col";
    col.dataset.col = String(c + 1);
    col.setAttribute("aria-label", `column ${c + 1}`);
    const full = g[c].length >= S.height;
    col.dataset.legal = String(!full && !over);
    col.disabled = full || over || S.thinking || !humanTurn;
    for (let r = S.height - 1; r >= 0; r--) {
      const cell = document.createElement("div");
      const p = g[c][r];
      cell.className = "cell" + (p ? ` ${p}` : "");
      if (p && c === last && r === g[c].length - 1) cell.classList.add("last");
      if (winSet.has(`${c},${r}`)) cell.classList.add("win");
      col.appendChild(cell);
    }
    col.addEventListener("click", () => humanPlay(c + 1));
    board.appendChild(col);
  }
  const result = $("result");
  if (over && S.mode !== "edit") {
    let text;
    let kind;
    if (!win) {
      text = "Draw: the board is full.";
      kind = "draw";
    } else if (S.mode === "ai") {
      const you = win.player === S.human;
      text = you ? "You win!" : "The computer wins.";
      kind = you ? "win" : "loss";
    } else {
      text = `${win.player} wins!`;
      kind = "win";
    }
    result.textContent = text;
    result.dataset.result = kind;
    result.hidden = false;
  } else {
    result.hidden = true;
    result.textContent = "";
    delete result.dataset.result;
  }
  if (!over) {
    if (S.thinking) setStatus("The computer is thinking…", "thinking");
    else if (S.mode === "ai" && S.paused && toMove !== S.human) setStatus(`${toMove} to move: the computer waits until you play a move.`, "your-turn");
    else if (S.mode === "ai") setStatus(toMove === S.human ? `Your move (${toMove}).` : "Computer to move.", "your-turn");
    else setStatus(`${toMove} to move.`, "your-turn");
  } else {
    setStatus("Game over.", "over");
  }
  $("moves-input").placeholder = movesText() || "e.g. 4453";
}

function scoreClass(low, high) {
  if (low !== high) {
    if (low > 0) return "win";
    if (high < 0) return "loss";
    return "open";
  }
  return low > 0 ? "win" : low < 0 ? "loss" : "draw";
}

function scoreText(c) {
  if (c.exact) return c.score > 0 ? `+${c.score}` : String(c.score);
  return `${c.low}…${c.high}`;
}

function renderAnalysis(a) {
  const row = $("col-scores");
  row.innerHTML = "";
  const byCol = new Map((a ? a.columns : []).map((c) => [c.column, c]));
  for (let c = 1; c <= S.width; c++) {
    const el = document.createElement("div");
    const info = byCol.get(c);
    el.className = "score";
    el.dataset.col = String(c);
    if (info) {
      el.textContent = scoreText(info);
      el.classList.add(scoreClass(info.low, info.high));
      if (a.best.includes(c)) el.classList.add("best");
      el.title = info.exact ? `column ${c}: ${info.score}` : `column ${c}: between ${info.low} and ${info.high}`;
    }
    row.appendChild(el);
  }
  const panel = $("analysis");
  if (!a) {
    panel.dataset.complete = "false";
    $("analysis-words").textContent = "";
    $("analysis-best").textContent = "";
    $("analysis-pv").textContent = "";
    $("analysis-meta").textContent = "";
    return;
  }
  panel.dataset.complete = String(a.complete);
  const who = a.to_move;
  $("analysis-words").textContent = a.result
    ? a.words
    : `${who} to move: ${a.words}${a.complete ? "" : " (still solving…)"}`;
  $("analysis-best").textContent = a.best.length ? `Best column${a.best.length > 1 ? "s" : ""}: ${a.best.join(", ")}` : "";
  $("analysis-pv").textContent = a.principal_variation.length ? `Best line: ${a.principal_variation.join(" ")}` : "";
  $("analysis-meta").textContent = `${a.stones} stones · ${a.nodes.toLocaleString()} positions searched in ${a.ms.toFixed(0)} ms`;
}

async function refreshAnalysis() {
  const gen = S.generation;
  renderAnalysis(null);
  $("analysis-words").textContent = "Solving…";
  // Early positions take long: ask with a short limit and ask again while not complete (the
  // server's solvers keep what they proved, so each round goes further).
  for (let round = 0; round < 40; round++) {
    let a;
    try {
      a = await api(`/api/analyze?moves=${movesText()}&${sizeQuery()}&ms=2000`);
    } catch (e) {
      if (gen === S.generation) $("analysis-words").textContent = `Analysis failed: ${e.message}`;
      return;
    }
    if (gen !== S.generation) return;
    renderAnalysis(a);
    // Exact: done once the best line also reaches the end of the game (a few rounds at most).
    if (a.complete && (a.principal_variation_complete || a.result || round >= 5)) return;
  }
}

function fmt(v, digits) {
  return (v >= 0 ? "+" : "") + v.toFixed(digits);
}

function whyBars(x) {
  const box = document.createElement("div");
  box.className = "why";
  const max = Math.max(1e-9, ...x.contributions.map((c) => Math.abs(c.contribution)));
  const head = document.createElement("div");
  head.className = "meta";
  head.textContent = `Contributions to the ${x.scale} (bias ${fmt(x.bias, 3)}, others ${fmt(x.rest, 3)}):`;
  box.appendChild(head);
  for (const c of x.contributions) {
    const row = document.createElement("div");
    row.className = "row";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${c.feature} = ${Number.isInteger(c.value) ? c.value : c.value.toFixed(2)}`;
    name.title = name.textContent;
    const track = document.createElement("span");
    track.className = "track";
    const bar = document.createElement("span");
    bar.className = "bar " + (c.contribution >= 0 ? "pos" : "neg");
    bar.style.width = `${(50 * Math.abs(c.contribution)) / max}%`;
    track.appendChild(bar);
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = fmt(c.contribution, 3);
    row.append(name, track, num);
    box.appendChild(row);
  }
  return box;
}

function renderModel(name, ev) {
  const card = document.createElement("div");
  card.className = "model";
  card.dataset.model = name;
  const h = document.createElement("h3");
  h.textContent = `${name} (${ev.kind}, ${ev.features})`;
  card.appendChild(h);
  const values = document.createElement("div");
  values.className = "values";
  values.style.gridTemplateColumns = `repeat(${S.width}, 1fr)`;
  const byCol = new Map(ev.columns.map((c) => [c.column, c]));
  const scored = ev.columns.map((c) => [c.column, c.result === "win" ? 2 : c.result === "draw" ? 0 : c.value]);
  const top = scored.length ? scored.reduce((a, b) => (b[1] > a[1] ? b : a))[0] : null;
  let sel = S.selected[name];
  if (!byCol.has(sel) || !byCol.get(sel).explanation) sel = top;
  if (sel && byCol.get(sel) && !byCol.get(sel).explanation) sel = ev.columns.find((c) => c.explanation)?.column;
  for (let c = 1; c <= S.width; c++) {
    const el = document.createElement("div");
    el.className = "value";
    const info = byCol.get(c);
    if (info) {
      el.textContent = info.result ? info.result : fmt(info.value, 2);
      if (c === top) el.classList.add("top");
      if (c === sel) el.classList.add("selected");
      const p = info.explanation && info.explanation.probabilities;
      if (p) {
        const bar = document.createElement("div");
        bar.className = "wdl";
        bar.title = `loss ${(100 * p[0]).toFixed(0)}% · draw ${(100 * p[1]).toFixed(0)}% · win ${(100 * p[2]).toFixed(0)}%`;
        for (const q of p) {
          const s = document.createElement("span");
          s.style.width = `${100 * q}%`;
          bar.appendChild(s);
        }
        el.appendChild(bar);
      }
      el.addEventListener("click", () => {
        S.selected[name] = c;
        card.replaceWith(renderModel(name, ev));
      });
    }
    values.appendChild(el);
  }
  card.appendChild(values);
  const chosen = sel && byCol.get(sel);
  if (chosen && chosen.explanation) {
    const label = document.createElement("div");
    label.className = "meta";
    label.textContent = `Why column ${sel}: value ${fmt(chosen.explanation.value, 3)} for ${state().toMove}.`;
    card.appendChild(label);
    card.appendChild(whyBars(chosen.explanation));
  }
  return card;
}

async function refreshModels() {
  const gen = S.generation;
  const body = $("models-body");
  const { over } = state();
  if (S.width !== 7 || S.height !== 6) {
    body.textContent = "The models are trained for 7 x 6 boards.";
    return;
  }
  if (over) {
    body.textContent = "The game is over.";
    return;
  }
  const cards = [];
  for (const m of S.models) {
    try {
      const ev = await api(`/api/evaluate?model=${encodeURIComponent(m.name)}&moves=${movesText()}&top=10`);
      cards.push(renderModel(m.name, ev));
    } catch (e) {
      const p = document.createElement("p");
      p.textContent = `${m.name}: ${e.message}`;
      cards.push(p);
    }
    if (gen !== S.generation) return;
  }
  body.replaceChildren(...cards);
}

// ---- play ----

function changed() {
  S.generation++;
  syncUrl();
  renderBoard();
  refreshAnalysis();
  refreshModels();
}

function humanPlay(col) {
  const { over, toMove } = state();
  if (S.thinking || over || !legal(col)) return;
  if (S.mode === "ai" && toMove !== S.human && !S.paused) return;
  S.paused = false;
  S.moves.push(col);
  changed();
  maybeComputer();
}

async function maybeComputer() {
  const { over, toMove } = state();
  if (S.mode !== "ai" || over || toMove === S.human || S.thinking || S.paused) return;
  S.thinking = true;
  const gen = S.generation;
  renderBoard();
  try {
    const spec = $("agent-spec").value.trim() || "easy";
    const r = await api("/api/move", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ agent: spec, moves: movesText(), width: S.width, height: S.height, seed: S.moves.length }),
    });
    S.thinking = false;
    if (gen !== S.generation) return;
    S.moves.push(r.column);
    changed();
    setStatusAfterMove(r);
  } catch (e) {
    S.thinking = false;
    renderBoard();
    setStatus(`The computer could not move: ${e.message}`, "error");
  }
}

function setStatusAfterMove(r) {
  if (!state().over) setStatus(`The computer played column ${r.column} (${r.ms.toFixed(1)} ms). Your move (${S.human}).`, "your-turn");
}

function newGame() {
  S.moves = [];
  S.thinking = false;
  S.paused = false;
  changed();
  maybeComputer();
}

function undo() {
  if (S.thinking || !S.moves.length) return;
  S.paused = false;
  S.moves.pop();
  // Against the computer, go back to the human's turn.
  if (S.mode === "ai" && state().toMove !== S.human && S.moves.length) S.moves.pop();
  changed();
  maybeComputer();
}

// Loads a move string; from a URL (a link, back or forward) the computer does not answer
// until the human plays.
function loadMoves(text, fromUrl) {
  const t = text.trim();
  const digits = t === "-" ? [] : t.split("").map((d) => parseInt(d, 10));
  const before = S.moves;
  S.moves = [];
  for (let i = 0; i < digits.length; i++) {
    const c = digits[i];
    if (!(c >= 1) || !legal(c) || state().over) {
      S.moves = before;
      setStatus(`Cannot load "${t}": move ${i + 1} ("${t[i]}") is not a legal column.`, "error");
      return;
    }
    S.moves.push(c);
  }
  if (fromUrl) S.paused = true;
  changed();
  maybeComputer();
}

// ---- shareable positions: #moves=4453[&width=W&height=H] ----

function hashFor(moves, width, height) {
  let h = `#moves=${moves.join("")}`;
  if (width !== 7 || height !== 6) h += `&width=${width}&height=${height}`;
  return h;
}

// Every change of position is a step of the browser's history, so back and forward walk the
// game's moves; a change that came from the history only replaces the entry.
function syncUrl() {
  const want = hashFor(S.moves, S.width, S.height);
  if (location.hash === want) return;
  if (S.fromHistory || !location.hash) history.replaceState(null, "", want);
  else history.pushState(null, "", want);
}

function setBoardSize(width, height) {
  const value = `${width}x${height}`;
  const sel = $("board-size");
  if (![...sel.options].some((o) => o.value === value)) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = `${width} x ${height}`;
    sel.appendChild(o);
  }
  sel.value = value;
  S.width = width;
  S.height = height;
}

// Shows the position the URL names (on load, back and forward).
function applyHash() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (!p.has("moves")) return false;
  if (location.hash === hashFor(S.moves, S.width, S.height)) return true;
  const width = parseInt(p.get("width") || "7", 10);
  const height = parseInt(p.get("height") || "6", 10);
  if (!(width >= 4 && width <= 9 && height >= 4 && height <= 10)) {
    setStatus(`Cannot show the link's board of ${p.get("width")} x ${p.get("height")}.`, "error");
    return false;
  }
  S.fromHistory = true;
  try {
    setBoardSize(width, height);
    loadMoves(p.get("moves") || "", true);
  } finally {
    S.fromHistory = false;
  }
  return true;
}

async function share() {
  const link = location.href;
  $("share-text").textContent = link;
  try {
    await navigator.clipboard.writeText(link);
    $("share-text").textContent = `Copied: ${link}`;
  } catch (_) {
    // No clipboard (plain http or no permission): the link is shown to copy by hand.
  }
}

// ---- game review ----

const GRADE_WORDS = { best: "best", inaccuracy: "inaccuracy", mistake: "mistake", unknown: "not solved in time" };

function signed(v) {
  return v > 0 ? `+${v}` : String(v);
}

async function reviewGame() {
  const moves = S.moves.slice();
  if (!moves.length) {
    $("review-summary").textContent = "No moves to review yet.";
    return;
  }
  const review = { moves, width: S.width, height: S.height, answer: null };
  S.review = review;
  $("review").dataset.complete = "false";
  $("review-summary").textContent = "Reviewing…";
  // Early positions may take longer than one request: ask again while moves are ungraded
  // (the server's solvers keep what they proved).
  for (let round = 0; round < 30; round++) {
    let r;
    try {
      r = await api(`/api/review?moves=${moves.join("")}&width=${review.width}&height=${review.height}&ms=3000`);
    } catch (e) {
      if (S.review === review) $("review-summary").textContent = `Review failed: ${e.message}`;
      return;
    }
    if (S.review !== review) return;
    review.answer = r;
    renderReview();
    if (r.complete) return;
  }
}

// The game's value after each move from x's side (null where unknown); index 0 is the start.
function reviewSeries(r) {
  const xView = (player, v) => (v === null ? null : player === "x" ? v : -v);
  const first = r.reviews[0];
  const series = [first ? xView(first.player, first.best) : null];
  for (const m of r.reviews) series.push(xView(m.player, m.played));
  return series;
}

function renderReview() {
  const review = S.review;
  const list = $("review-list");
  const chart = $("review-chart");
  list.innerHTML = "";
  chart.innerHTML = "";
  if (!review || !review.answer) return;
  const r = review.answer;
  const c = r.counts;
  $("review").dataset.complete = String(r.complete);
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  $("review-summary").textContent = `${n(r.reviews.length, "move", "moves")}: ${c.best} best, ${n(c.inaccuracy, "inaccuracy", "inaccuracies")}, ${n(c.mistake, "mistake", "mistakes")}` +
    (c.unknown ? `, ${c.unknown} not solved in time (still solving…)` : "");
  for (const m of r.reviews) {
    const li = document.createElement("li");
    li.value = m.number;
    li.dataset.grade = m.grade;
    li.dataset.ply = String(m.number - 1);
    li.className = `grade-${m.grade}`;
    let text = `${m.player} played ${m.column}: ${GRADE_WORDS[m.grade]}`;
    if (m.played !== null && m.best !== null) {
      text += ` (${signed(m.played)}`;
      if (m.grade !== "best") text += `; best ${m.best_columns.join(" or ")}: ${signed(m.best)}`;
      text += ")";
    }
    li.textContent = text;
    li.title = "Show the position before this move";
    li.addEventListener("click", () => showReviewPly(m.number - 1));
    list.appendChild(li);
  }
  // Score by move, from x's side: up is good for x.
  const series = reviewSeries(r);
  const W = 420, H = 140, pad = 12;
  const top = Math.max(4, ...series.filter((v) => v !== null).map(Math.abs));
  const px = (i) => pad + (i * (W - 2 * pad)) / Math.max(1, series.length - 1);
  const py = (v) => H / 2 - (v * (H / 2 - pad)) / top;
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attrs) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    chart.appendChild(el);
    return el;
  };
  add("line", { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, class: "axis" });
  let path = "";
  series.forEach((v, i) => {
    if (v === null) return;
    path += `${path && series[i - 1] !== null ? "L" : "M"}${px(i).toFixed(1)},${py(v).toFixed(1)} `;
  });
  if (path) add("path", { d: path, class: "line" });
  series.forEach((v, i) => {
    if (v === null) return;
    const grade = i === 0 ? "best" : r.reviews[i - 1].grade;
    const dot = add("circle", { cx: px(i).toFixed(1), cy: py(v).toFixed(1), r: 3.5, class: `grade-${grade}`, "data-ply": i });
    const t = document.createElementNS(ns, "title");
    t.textContent = `after move ${i}: ${signed(v)} for x`;
    dot.appendChild(t);
    dot.addEventListener("click", () => showReviewPly(i));
  });
}

// Shows the reviewed game's position after `ply` moves (the one where move ply+1 was chosen).
function showReviewPly(ply) {
  const review = S.review;
  if (!review) return;
  if (review.width !== S.width || review.height !== S.height) setBoardSize(review.width, review.height);
  S.paused = true;
  S.moves = review.moves.slice(0, ply);
  changed();
  for (const li of $("review-list").children) li.classList.toggle("current", li.dataset.ply === String(ply));
  const m = review.answer && review.answer.reviews[ply];
  if (m) setStatus(`Move ${m.number}: ${m.player} played ${m.column}, ${GRADE_WORDS[m.grade]}.`, "review");
  else setStatus(`The position after the last move (${ply} stones).`, "review");
}

// ---- runs ----

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
}

function inline(s) {
  return escapeHtml(s)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

// A small Markdown reader for the pipeline's report: headings, tables, lists, code, paragraphs.
function markdown(md) {
  const out = [];
  const lines = md.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      i++;
      out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, line.indexOf(" "));
      out.push(`<h${level}>${inline(line.replace(/^#+ /, ""))}</h${level}>`);
      i++;
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      const cells = (r) => r.replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const body = rows.filter((r) => !/^\|[\s:|-]+\|$/.test(r));
      const [head, ...rest] = body;
      out.push(
        "<table><thead><tr>" + cells(head).map((c) => `<th>${inline(c)}</th>`).join("") + "</tr></thead><tbody>" +
          rest.map((r) => "<tr>" + cells(r).map((c) => `<td>${inline(c)}</td>`).join("") + "</tr>").join("") +
          "</tbody></table>",
      );
    } else if (/^\s*[-*] /.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*[-*] /.test(lines[i])) items.push(lines[i++].replace(/^\s*[-*] /, ""));
      out.push("<ul>" + items.map((t) => `<li>${inline(t)}</li>`).join("") + "</ul>");
    } else if (line.trim() === "") {
      i++;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() !== "" && !/^(#|\||```|\s*[-*] )/.test(lines[i])) para.push(lines[i++]);
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}

function table(headers, rows) {
  return (
    "<table><thead><tr>" + headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("") + "</tr></thead><tbody>" +
    rows.map((r) => "<tr>" + r.map((c) => `<td>${escapeHtml(String(c))}</td>`).join("") + "</tr>").join("") +
    "</tbody></table>"
  );
}

async function showRun(name) {
  const view = $("run-view");
  view.hidden = false;
  view.textContent = "Loading…";
  let r;
  try {
    r = await api(`/api/runs/${encodeURIComponent(name)}`);
  } catch (e) {
    view.textContent = e.message;
    return;
  }
  const parts = [`<h2>${escapeHtml(r.name)}</h2>`];
  if (r.ladder && Array.isArray(r.ladder.elo)) {
    parts.push("<h3>Elo (ladder)</h3>");
    parts.push(table(["agent", "Elo", "95% interval", "games", "score %"],
      r.ladder.elo.map((e) => [e.agent, e.elo.toFixed(0), `${e.low.toFixed(0)} … ${e.high.toFixed(0)}`, e.games, e.score_pct.toFixed(1)])));
  }
  if (Array.isArray(r.error_rates) && r.error_rates.length) {
    parts.push("<h3>Error rates against the solver</h3>");
    parts.push(table(["agent", "set", "positions", "errors", "error rate %", "optimal %"],
      r.error_rates.map((e) => [e.agent, e.set, e.positions, e.errors, (100 * e.error_rate).toFixed(1), (100 * e.optimal_rate).toFixed(1)])));
  }
  if (r.plots.length) {
    parts.push("<h3>Plots</h3><div class=\"plots\">");
    for (const p of r.plots) {
      const src = `/runs/${encodeURIComponent(r.name)}/${p.split("/").map(encodeURIComponent).join("/")}`;
      parts.push(`<figure><img loading="lazy" src="${src}" alt="${escapeHtml(p)}"><figcaption>${escapeHtml(p)}</figcaption></figure>`);
    }
    parts.push("</div>");
  }
  if (r.report) parts.push(`<h3>Report</h3><div class="report">${markdown(r.report)}</div>`);
  parts.push(`<p class="meta">${r.files.length} files.</p>`);
  view.innerHTML = parts.join("\n");
}

async function loadRuns() {
  const list = $("run-list");
  list.textContent = "Loading…";
  try {
    const r = await api("/api/runs");
    $("runs-folder").textContent = `Run folders under ${r.folder}.`;
    list.innerHTML = "";
    if (!r.runs.length) list.textContent = "No runs yet: `c4 pipeline --out runs/NAME` makes one.";
    for (const run of r.runs) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = run.name;
      b.addEventListener("click", () => showRun(run.name));
      li.appendChild(b);
      const when = new Date(run.modified * 1000);
      li.append(` · ${when.toLocaleString()}${run.report ? "" : " · no report"}`);
      list.appendChild(li);
    }
  } catch (e) {
    list.textContent = e.message;
  }
}

// ---- wiring ----

function setMode(mode) {
  S.mode = mode;
  document.body.classList.remove("mode-ai", "mode-humans", "mode-edit");
  document.body.classList.add(`mode-${mode}`);
  renderBoard();
  maybeComputer();
}

function showTab(tab) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === tab);
  $("tab-play").hidden = tab !== "play";
  $("tab-runs").hidden = tab !== "runs";
  if (tab === "runs") loadRuns();
}

async function init() {
  setupAgents();
  document.body.classList.add("mode-ai");
  $("mode").addEventListener("change", (e) => setMode(e.target.value));
  $("human-side").addEventListener("change", (e) => {
    S.human = e.target.value;
    newGame();
  });
  $("board-size").addEventListener("change", (e) => {
    const [w, h] = e.target.value.split("x").map(Number);
    S.width = w;
    S.height = h;
    newGame();
  });
  $("share-button").addEventListener("click", share);
  $("review-button").addEventListener("click", reviewGame);
  window.addEventListener("popstate", applyHash);
  window.addEventListener("hashchange", applyHash);
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("paste").addEventListener("submit", (e) => {
    e.preventDefault();
    loadMoves($("moves-input").value);
  });
  $("show-hints").addEventListener("change", (e) => document.body.classList.toggle("hints-off", !e.target.checked));
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[1-9]$/.test(e.key)) humanPlay(parseInt(e.key, 10));
    else if (e.key === "u") undo();
    else if (e.key === "n") newGame();
  });
  try {
    S.models = (await api("/api/models")).models;
  } catch (_) {
    S.models = [];
  }
  if (!applyHash()) changed();
}

init();
