// connect4-ml's page: play, the solver's analysis, the models' views and pipeline runs.
// Plain JavaScript modules, no build step: `c4 serve` embeds the files as they are, and
// `c4 site` writes them with the WebAssembly engine as a static site (see backend.js).
import { chooseBackend } from "./backend.js";
import { makeRuns } from "./runs.js";
import { makeReview } from "./review.js";
import { $, S, computerPlays, legal, other, someComputer, state } from "./state.js";
import { STATE_KEY, dialElo, dialSpec, estimateText, isAdaptive, loadState } from "./adaptive.js";
import { controlsForSpec, plural, presetLabel, presetsFor, scoresShownByDefault, specForControls, thinkingText } from "./view.js";

const backend = chooseBackend();

const { showRun, loadRuns, enlarge } = makeRuns($, api);
const { reviewGame, renderReview, showReviewPly } = makeReview({ api, setStatus, setBoardSize, renderBoard, changed });

// ---- agent choice ----

// Strength presets (from the back end, each with its measured Elo; only those whose models
// fit the board) and a custom spec.
function fillPresets() {
  const sel = $("preset");
  const before = sel.value;
  sel.innerHTML = "";
  const fit = presetsFor(S.presets, S.width, S.height);
  for (const p of fit) {
    const o = document.createElement("option");
    o.value = p.agent;
    o.textContent = presetLabel(p);
    o.title = `${p.agent}: ${p.about}` + (p.games ? ` (${p.games} ladder games, 95% interval ${Math.round(p.low)}…${Math.round(p.high)})` : "");
    sel.appendChild(o);
  }
  const dial = document.createElement("option");
  dial.value = "level";
  dial.textContent = "Strength dial (Elo)…";
  dial.title = "level:elo=E: any Elo from the random player's to the perfect player's";
  sel.appendChild(dial);
  const custom = document.createElement("option");
  custom.value = "custom";
  custom.textContent = "Custom agent…";
  sel.appendChild(custom);
  sel.value = [...sel.options].some((o) => o.value === before) ? before : fit.length ? fit[0].agent : "custom";
  applyPreset();
}

function applyPreset() {
  const sel = $("preset");
  document.body.classList.toggle("custom", sel.value === "custom");
  document.body.classList.toggle("dial", sel.value === "level");
  $("agent-spec").value = sel.value === "custom" ? specFromControls() : sel.value === "level" ? dialSpec($("elo").value) : sel.value;
  showEstimate(null);
  syncControlsToSpec();
  retryComputer();
}

function specFromControls() {
  return specForControls($("agent-kind").value, $("depth").value, S.kinds);
}

// The Agent and Depth controls follow the spec when they can show it.
function syncControlsToSpec() {
  const c = controlsForSpec($("agent-spec").value, S.kinds);
  if (!c) return;
  $("agent-kind").value = c.kind;
  if (c.depth !== null) $("depth").value = c.depth;
  const kind = S.kinds.find((k) => k.name === c.kind);
  $("depth").disabled = !(kind && kind.keys.includes("depth"));
}

// The agent kinds come from the back end (its /api/agents), never from a list of our own.
function setupAgents() {
  const sel = $("agent-kind");
  sel.innerHTML = "";
  for (const k of S.kinds) {
    const o = document.createElement("option");
    o.value = k.name;
    o.textContent = k.name;
    o.title = `${k.usage}: ${k.summary}`;
    sel.appendChild(o);
  }
  sel.value = S.kinds.some((k) => k.name === "easy") ? "easy" : (S.kinds[0] || {}).name;
  const sync = () => {
    $("agent-spec").value = specFromControls();
    syncControlsToSpec();
    retryComputer();
  };
  sel.addEventListener("change", sync);
  $("depth").addEventListener("change", sync);
  // A typed spec is a custom agent; fixing a bad one retries the computer's move.
  $("agent-spec").addEventListener("change", () => {
    const preset = $("preset");
    const typed = $("agent-spec").value.trim();
    if ([...preset.options].some((o) => o.value === typed)) preset.value = typed;
    else if (dialElo(typed) !== null) {
      preset.value = "level";
      $("elo").value = String(dialElo(typed));
      $("elo-value").textContent = $("elo").value;
    } else preset.value = "custom";
    document.body.classList.toggle("custom", preset.value === "custom");
    document.body.classList.toggle("dial", preset.value === "level");
    showEstimate(null);
    syncControlsToSpec();
    retryComputer();
  });
  $("preset").addEventListener("change", applyPreset);
  $("elo").addEventListener("input", () => {
    $("elo-value").textContent = $("elo").value;
    $("agent-spec").value = dialSpec($("elo").value);
    retryComputer();
  });
}

// ---- the adaptive agent and the dial ----

// The slider spans the dial's range as the back end reports it.
function setupDial(range) {
  if (!range) return;
  const el = $("elo");
  el.min = String(Math.ceil(range.low / 10) * 10);
  el.max = String(Math.floor(range.high / 10) * 10);
  el.value = String(Math.round((range.low + range.high) / 20) * 10);
  $("elo-value").textContent = el.value;
}

// The adaptive agent's estimate of the player, under the strength list; with no answer yet,
// the one saved from earlier games (when the adaptive agent plays).
function showEstimate(answer) {
  const el = $("adaptive-estimate");
  const on = isAdaptive($("agent-spec").value);
  el.hidden = !on;
  if (!on) return;
  if (answer) el.textContent = estimateText(answer);
  else if (!loadState(localStorage)) el.textContent = "Your Elo: the adaptive agent learns it as you play.";
}

// When a game against the adaptive agent ends, the agent reads it: the state it kept from
// the game's start becomes the state after the game, saved for the next one (and page loads).
async function adaptiveGameOver() {
  const spec = $("agent-spec").value.trim();
  const sides = ["x", "o"].filter(computerPlays);
  if (!isAdaptive(spec) || sides.length !== 1 || S.adaptiveRead === movesText()) return;
  S.adaptiveRead = movesText();
  try {
    const r = await api("/api/adaptive", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ agent: spec, moves: movesText(), width: S.width, height: S.height, side: sides[0], state: loadState(localStorage) ?? undefined }),
    });
    if (r.finished) localStorage.setItem(STATE_KEY, r.state);
    showEstimate(r);
  } catch (e) {
    $("adaptive-estimate").textContent = `The adaptive agent could not read the game: ${e.message}`;
  }
}

// ---- server calls ----

// Every question goes to the back end: `c4 serve`'s API, or the engine in a worker.
function api(path, options) {
  return backend.call(path, options);
}

// Stops the computer's move or an analysis under way (Undo, New game): their answers are
// dropped, and the back end stops computing.
function cancelWork() {
  S.generation++;
  S.thinking = false;
  backend.cancel();
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
  // A human may play for the side to move unless the computer is about to (or is) moving.
  const humanTurn = S.mode === "edit" || !computerPlays(toMove) || S.paused;
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
    if (S.marked && S.marked.col === c + 1) col.classList.add(S.marked.kind);
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
    } else if (S.lastBy && someComputer() && !(computerPlays("x") && computerPlays("o"))) {
      // A game played here against the computer: say who won in those terms.
      const you = !computerPlays(win.player);
      text = you ? "You win!" : "The computer wins.";
      kind = you ? "win" : "loss";
    } else {
      // Two humans, the computer against itself, or a finished game opened from a link.
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
  if (S.keepStatus) {
    // A message about the last load or move stays until the next change.
  } else if (!over) {
    if (S.thinking) setStatus(thinkingText(toMove, performance.now() - S.thinkingSince), "thinking");
    else if (S.mode === "edit") setStatus(`Editing: ${toMove} to move. Click columns to add stones; the computer waits.`, "your-turn");
    else if (computerPlays(toMove) && S.paused) setStatus(`${toMove} to move (the computer's side): press Computer move, or play a column for it.`, "your-turn");
    else if (computerPlays(toMove)) setStatus(`Computer to move (${toMove}).`, "your-turn");
    else setStatus(someComputer() ? `Your move (${toMove}).` : `${toMove} to move.`, "your-turn");
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

// A column's score chip: the exact score, else what the bounds already decide ("≥+3": a
// win at least that fast, "≤-2": a loss, "≥0": at least a draw, "?": anything), short enough
// for nine columns (the title has the bounds).
function scoreText(c) {
  if (c.exact) return c.score > 0 ? `+${c.score}` : String(c.score);
  if (c.low > 0) return `≥+${c.low}`;
  if (c.high < 0) return `≤${c.high}`;
  if (c.low === 0) return "≥0";
  if (c.high === 0) return "≤0";
  return "?";
}

function ordinal(k) {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][k % 10] || "th";
  return `${k}${suffix}`;
}

// An exact score of the side to move in words from the board's point of view: who wins and
// with which of their own stones, or a draw.
function scoreWords(score, toMove, width, height) {
  const half = Math.ceil((width * height) / 2);
  if (score > 0) return `${toMove} wins with its ${ordinal(half + 1 - score)} stone`;
  if (score < 0) return `${other(toMove)} wins with its ${ordinal(half + 1 + score)} stone`;
  return "a draw with best play (each side can hold it)";
}

function analysisWords(a) {
  if (a.result) return a.words;
  if (a.score !== null && a.score !== undefined) return `${a.to_move} to move: ${scoreWords(a.score, a.to_move, a.width, a.height)}`;
  if (a.score_low === null || a.score_low === undefined) return `${a.to_move} to move`;
  const [lo, hi, me, you] = [a.score_low, a.score_high, a.to_move, other(a.to_move)];
  let known;
  if (lo > 0) known = `${me} wins (how fast is not known yet)`;
  else if (hi < 0) known = `${you} wins (how fast is not known yet)`;
  else if (lo === 0) known = `${me} at least draws`;
  else if (hi === 0) known = `${you} at least draws`;
  else known = "any result is still possible";
  return `${me} to move: not solved yet; ${known}`;
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
  void who;
  $("analysis-words").textContent = analysisWords(a);
  $("analysis-best").textContent = a.best.length ? `Best column${a.best.length > 1 ? "s" : ""}: ${a.best.join(", ")}` : "";
  $("analysis-pv").textContent = a.principal_variation.length ? `Best line: ${a.principal_variation.join(" ")}` : "";
  $("analysis-meta").textContent = `${plural(a.stones, "stone")} · ${a.nodes.toLocaleString()} positions searched in ${fmtMs(a.ms)}`;
}

// A duration for people: microseconds below a millisecond, never "0.0 ms".
function fmtMs(ms) {
  if (ms < 1) return `${Math.max(1, Math.round(ms * 1000))} µs`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

// Asks the server for the current position's scores: they show as soon as they are known
// (at once inside the opening book); the best line follows when it is ready. A position the
// solver cannot finish within two tries is said so plainly, its bounds shown once, and
// "Keep solving" asks again with the server's longest limit: never an endless "solving".
async function refreshAnalysis(longer) {
  const gen = S.generation;
  S.analysis = null;
  $("keep-solving").hidden = true;
  if (!longer) renderAnalysis(null);
  $("analysis-words").textContent = longer ? "Solving (up to 15 s)…" : "Solving…";
  const tries = longer ? 1 : 2;
  let a = null;
  for (let round = 0; round < tries + 5; round++) {
    try {
      a = await api(`/api/analyze?moves=${movesText()}&${sizeQuery()}&ms=${longer ? 15000 : 2000}`);
    } catch (e) {
      if (gen === S.generation) $("analysis-words").textContent = `Analysis failed: ${e.message}`;
      return;
    }
    if (gen !== S.generation) return;
    S.analysis = a;
    renderAnalysis(a);
    if (a.result) return;
    if (a.complete) {
      // The scores are exact; ask a few more times only to complete the best line.
      if (a.principal_variation_complete || round >= tries + 4) return;
      continue;
    }
    if (round + 1 >= tries) break;
  }
  if (a && !a.complete && gen === S.generation) {
    $("analysis-words").textContent = `${analysisWords(a)}. The solver could not finish this position in time; the scores shown are bounds.`;
    $("keep-solving").hidden = false;
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
  S.rendered = true;
  $("share-text").textContent = "";
  S.keepStatus = false;
  S.marked = null;
  syncUrl();
  renderBoard();
  refreshAnalysis();
  refreshModels();
  if (state().over && S.mode === "play") adaptiveGameOver();
}

function humanPlay(col) {
  const { over, toMove } = state();
  if (S.thinking || over || !legal(col)) return;
  if (S.mode !== "edit" && computerPlays(toMove) && !S.paused) return;
  S.paused = false;
  S.lastBy = S.mode === "edit" ? null : "human";
  S.moves.push(col);
  changed();
  maybeComputer();
}

// The computer moves when it plays the side to move (not while editing, browsing or after
// a link was opened); playing both sides, it waits S.autoDelay between moves.
function maybeComputer() {
  const { over, toMove } = state();
  if (S.mode !== "play" || over || !computerPlays(toMove) || S.thinking || S.paused) return;
  if (computerPlays(other(toMove))) {
    const gen = S.generation;
    setTimeout(() => {
      if (gen === S.generation) computerMove();
    }, S.autoDelay);
  } else {
    computerMove();
  }
}

// The agent plays the side to move now, whoever plays it ("Computer move").
async function computerMove() {
  const { over, toMove } = state();
  if (over || S.thinking) return;
  S.thinking = true;
  S.thinkingSince = performance.now();
  S.paused = false;
  S.keepStatus = false;
  const gen = S.generation;
  renderBoard();
  // Honest progress: the time so far, every quarter second, until the answer.
  const ticker = setInterval(() => {
    if (!S.thinking || gen !== S.generation) clearInterval(ticker);
    else setStatus(thinkingText(toMove, performance.now() - S.thinkingSince), "thinking");
  }, 250);
  try {
    const spec = $("agent-spec").value.trim() || "easy";
    const saved = isAdaptive(spec) ? loadState(localStorage) ?? undefined : undefined;
    const r = await api("/api/move", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ agent: spec, moves: movesText(), width: S.width, height: S.height, seed: S.moves.length, state: saved }),
    });
    if (r.adaptive) showEstimate(r.adaptive);
    S.thinking = false;
    S.failed = false;
    if (gen !== S.generation) return;
    S.moves.push(r.column);
    S.lastBy = "computer";
    changed();
    if (!state().over) {
      const cut = r.stopped ? " at the time limit" : "";
      setStatus(`The computer (${toMove}) played column ${r.column} in ${fmtMs(r.ms)}${cut}. ${computerPlays(other(toMove)) ? "" : `Your move (${other(toMove)}).`}`, "your-turn");
    }
    maybeComputer();
  } catch (e) {
    clearInterval(ticker);
    // Cancelled by Undo or New game: they took over.
    if (gen !== S.generation) return;
    S.thinking = false;
    S.failed = true;
    S.paused = true;
    renderBoard();
    S.keepStatus = false;
    setStatus(`The computer could not move: ${e.message}. Fix the agent spec (or pick a strength), then press Computer move.`, "error");
  }
}

// After the agent changed: a computer move that failed (or is due) is tried again.
function retryComputer() {
  if (!S.failed) return;
  S.failed = false;
  S.paused = false;
  maybeComputer();
}

function newGame() {
  if (S.thinking) cancelWork();
  S.moves = [];
  S.thinking = false;
  S.paused = false;
  S.failed = false;
  S.lastBy = null;
  S.keepStatus = false;
  changed();
  maybeComputer();
}

function undo() {
  if (S.thinking) cancelWork();
  if (!S.moves.length) return;
  S.paused = false;
  S.moves.pop();
  // Against the computer, go back to a human's turn.
  if (S.mode === "play" && computerPlays(state().toMove) && !computerPlays(other(state().toMove)) && S.moves.length) S.moves.pop();
  S.lastBy = null;
  changed();
  S.paused = computerPlays(state().toMove);
  renderBoard();
}

// The longest legal prefix of a move string and, when it stops early, why (in board terms,
// quoting at most a few characters of the input).
function parseMoves(text) {
  const t = text.trim() === "-" ? "" : text.trim();
  const moves = [];
  const saved = S.moves;
  S.moves = moves;
  let problem = null;
  try {
    for (let i = 0; i < t.length; i++) {
      const ch = t[i];
      const c = ch >= "1" && ch <= "9" ? ch.charCodeAt(0) - 48 : NaN;
      const { win, over } = state();
      if (over) {
        problem = win ? `the game was already won by ${win.player} after move ${i}` : `the board was full after move ${i}`;
        break;
      }
      if (Number.isNaN(c)) {
        problem = `move ${i + 1} is "${shortText(ch, 4)}", not a column digit`;
        break;
      }
      if (c > S.width) {
        problem = `move ${i + 1} is column ${c}, off the ${S.width}-column board`;
        break;
      }
      if (!legal(c)) {
        problem = `move ${i + 1} is column ${c}, which is full`;
        break;
      }
      moves.push(c);
    }
  } finally {
    S.moves = saved;
  }
  return { moves, problem, text: t };
}

function shortText(t, n) {
  return t.length > n ? `${t.slice(0, n)}…` : t;
}

// Loads a move string, as much of it as is legal; from a URL (a link, back or forward) the
// computer does not answer until asked.
function loadMoves(text, fromUrl) {
  const { moves, problem, text: t } = parseMoves(text);
  S.moves = moves;
  S.lastBy = null;
  S.failed = false;
  S.paused = fromUrl || S.paused;
  S.keepStatus = false;
  changed();
  if (problem) {
    const shown = moves.length ? `the first ${moves.length} move${moves.length > 1 ? "s" : ""}` : "the empty board";
    setStatus(`The moves "${shortText(t, 24)}" stop early: ${problem}. Showing ${shown}.`, "error");
    S.keepStatus = true;
  }
  if (!fromUrl) maybeComputer();
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
  fillPresets();
}

// Whether the server's board rule allows `width` x `height` (the rule comes from
// /api/agents, so the page and the server never disagree).
function boardAllowed(width, height) {
  const r = S.rule;
  return Number.isInteger(width) && Number.isInteger(height) && width >= r.min_width && width <= r.max_width &&
    height >= r.min_height && width * (height + 1) <= r.max_bits;
}

// Shows what the URL names (on load, back and forward): a position, or the runs tab.
function applyHash() {
  const h = location.hash.replace(/^#/, "");
  if (h === "runs" || h.startsWith("runs=")) {
    showTab("runs", true);
    if (h.startsWith("runs=")) showRun(decodeURIComponent(h.slice(5)));
    return true;
  }
  const p = new URLSearchParams(h);
  if (!p.has("moves")) return false;
  if (S.rendered && !$("tab-play").hidden && location.hash === hashFor(S.moves, S.width, S.height)) return true;
  showTab("play", true);
  const rawW = p.get("width") || "7";
  const rawH = p.get("height") || "6";
  const width = /^\d{1,3}$/.test(rawW) ? parseInt(rawW, 10) : NaN;
  const height = /^\d{1,3}$/.test(rawH) ? parseInt(rawH, 10) : NaN;
  S.fromHistory = true;
  try {
    if (!boardAllowed(width, height)) {
      setBoardSize(7, 6);
      loadMoves("", true);
      setStatus(`The link's board "${shortText(rawW, 6)} x ${shortText(rawH, 6)}" is not supported (${S.rule.text}). Showing the empty 7 x 6 board.`, "error");
      S.keepStatus = true;
      return true;
    }
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

// ---- runs ----

// ---- wiring ----

function setMode(mode) {
  S.mode = mode;
  document.body.classList.remove("mode-play", "mode-edit");
  document.body.classList.add(`mode-${mode}`);
  S.paused = false;
  renderBoard();
  maybeComputer();
}

function setPlayer(side, who) {
  S.players[side] = who;
  document.body.classList.toggle("has-computer", someComputer());
  // The position stays; the computer takes over at once if it is its turn.
  S.paused = false;
  S.failed = false;
  renderBoard();
  maybeComputer();
}

// Shows a tab; the runs tab lives in the URL (#runs, #runs=NAME) and the play tab's URL is
// the position's.
function showTab(tab, fromUrl) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === tab);
  $("tab-play").hidden = tab !== "play";
  $("tab-runs").hidden = tab !== "runs";
  if (tab === "runs") {
    loadRuns();
    if (!fromUrl && !location.hash.startsWith("#runs")) history.pushState(null, "", "#runs");
  } else if (!fromUrl) {
    const want = hashFor(S.moves, S.width, S.height);
    if (location.hash !== want) history.pushState(null, "", want);
  }
}

async function init() {
  document.body.classList.add("mode-play", "has-computer", `backend-${backend.kind}`);
  try {
    const info = await api("/api/agents");
    if (info.board) S.rule = info.board;
    S.presets = info.presets || [];
    setupDial(info.dial);
    S.kinds = info.kinds || [];
  } catch (e) {
    S.presets = [];
    setStatus(`The ${backend.kind === "engine" ? "engine" : "server"} does not answer: ${e.message}`, "error");
  }
  setupAgents();
  fillPresets();
  const shown = scoresShownByDefault(localStorage.getItem("c4.showScores"), someComputer());
  $("show-hints").checked = shown;
  document.body.classList.toggle("hints-off", !shown);
  $("mode").addEventListener("change", (e) => setMode(e.target.value));
  $("player-x").addEventListener("change", (e) => setPlayer("x", e.target.value));
  $("player-o").addEventListener("change", (e) => setPlayer("o", e.target.value));
  $("board-size").addEventListener("change", (e) => {
    const [w, h] = e.target.value.split("x").map(Number);
    S.width = w;
    S.height = h;
    fillPresets();
    newGame();
  });
  $("share-button").addEventListener("click", share);
  $("review-button").addEventListener("click", reviewGame);
  $("keep-solving").addEventListener("click", () => refreshAnalysis(true));
  $("move-now").addEventListener("click", computerMove);
  $("hint").addEventListener("click", hint);
  $("lightbox").addEventListener("click", () => {
    $("lightbox").hidden = true;
  });
  window.addEventListener("popstate", applyHash);
  window.addEventListener("hashchange", applyHash);
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("paste").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("moves-input").value;
    if (!text.trim()) {
      setStatus("Type moves first (columns 1-9, e.g. 4453; - alone is the empty board), then Load.", "error");
      S.keepStatus = true;
      return;
    }
    loadMoves(text);
  });
  $("show-hints").addEventListener("change", (e) => {
    document.body.classList.toggle("hints-off", !e.target.checked);
    localStorage.setItem("c4.showScores", e.target.checked ? "1" : "0");
  });
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") $("lightbox").hidden = true;
    // Keys act on the board only while it is shown.
    if ($("tab-play").hidden) return;
    if (/^[1-9]$/.test(e.key)) humanPlay(parseInt(e.key, 10));
    else if (e.key === "u") undo();
    else if (e.key === "n") newGame();
    else if (e.key === "m") computerMove();
    else if (e.key === "h") hint();
  });
  try {
    S.models = backend.kind === "server" ? (await api("/api/models")).models : [];
  } catch (_) {
    S.models = [];
  }
  if (!applyHash()) changed();
}

// The solver's best column, only that: outlined on the board (the scores may stay hidden).
async function hint() {
  const { over } = state();
  if (over) return;
  const gen = S.generation;
  let a = S.analysis;
  if (!a || !a.complete) {
    try {
      a = await api(`/api/analyze?moves=${movesText()}&${sizeQuery()}&ms=3000`);
    } catch (e) {
      setStatus(`No hint: ${e.message}`, "error");
      return;
    }
  }
  if (gen !== S.generation) return;
  if (!a.best.length) {
    setStatus("No hint yet: the solver has not found the best column in time.", "error");
    return;
  }
  // Several best columns: the most central of them.
  const centre = (S.width + 1) / 2;
  const col = a.best.slice().sort((p, q) => Math.abs(p - centre) - Math.abs(q - centre))[0];
  S.marked = { col, kind: "hinted" };
  renderBoard();
  setStatus(`Hint: column ${col}.`, "your-turn");
  S.keepStatus = true;
}

init();
