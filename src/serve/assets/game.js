// The game flow: a human's move, the computer's answer, undo, new game, a loaded position,
// a hint, the play/edit mode and who plays each side; the adaptive agent reads each finished
// game. Every change of position goes through `changed()`.
import { $, S, computerPlays, legal, movesText, newSeed, other, someComputer, state } from "./state.js";
import { api, cancelWork, sizeQuery } from "./api.js";
import { renderBoard, setStatus } from "./board.js";
import { refreshAnalysis, refreshModels } from "./analysis.js";
import { parseMoves, syncUrl } from "./url.js";
import { RECORD_KEY, STATE_KEY, estimateText, isAdaptive, loadRecord, loadState, recordGame, recordText, sparkline, stateEstimate } from "./adaptive.js";
import { fmtMs, shortText, thinkingText } from "./view.js";

// The adaptive agent's estimate of the player, under the strength list; with no answer yet,
// the one saved from earlier games (when the adaptive agent plays), shown at once on a load.
export function showEstimate(answer) {
  const el = $("adaptive-estimate");
  const on = isAdaptive($("agent-spec").value);
  el.hidden = !on;
  $("adaptive-record").hidden = !on;
  if (!on) return;
  const shown = answer || stateEstimate(loadState(localStorage));
  el.textContent = shown ? estimateText(shown, S.presets) : "Your Elo: the adaptive agent learns it as you play.";
  showRecord();
}

// The record against the adaptive agent (W/D/L) and its estimate's history as a small chart.
function showRecord() {
  const r = loadRecord(localStorage);
  const games = r.wins + r.draws + r.losses;
  $("adaptive-record-text").textContent = games ? `Your record: ${recordText(r)}.` : "No games counted yet.";
  const chart = $("adaptive-chart");
  chart.hidden = r.history.length < 2;
  chart.querySelector("polyline").setAttribute("points", sparkline(r.history, 120, 24));
  $("adaptive-reset").hidden = !games && !loadState(localStorage);
}

// Forgets the adaptive agent's estimate and the record: the next game starts afresh.
export function resetAdaptive() {
  localStorage.removeItem(STATE_KEY);
  localStorage.removeItem(RECORD_KEY);
  showEstimate(null);
}

// The adaptive agent plays one side and a human the other, in play mode.
function adaptiveGameNow() {
  return isAdaptive($("agent-spec").value) && S.mode === "play" && ["x", "o"].filter(computerPlays).length === 1;
}

// A game's first move decides whether it counts for the record; anything but playing it out
// against the adaptive agent (a load, a link, an edit, another agent, a side switch) stops it
// from counting.
function firstMoveMade() {
  if (S.moves.length === 1) S.fair = { eligible: adaptiveGameNow(), counted: false, line: [] };
  // The game's line as played (stepping back through it and on again stays the same game).
  if (S.fair.eligible) S.fair.line = S.moves.slice();
}
function notFair() {
  if (S.moves.length) S.fair.eligible = false;
}

// When a game against the adaptive agent ends, the agent reads it: the state it kept from
// the game's start becomes the state after the game, saved for the next one (and page loads),
// and the game goes into the player's record. Only fair games count, each once.
async function adaptiveGameOver() {
  const spec = $("agent-spec").value.trim();
  const sides = ["x", "o"].filter(computerPlays);
  if (!S.fair.eligible || S.fair.counted || !adaptiveGameNow()) return;
  S.fair.counted = true;
  const { win } = state();
  // The last move made the four: its side won.
  const winner = win ? (S.moves.length % 2 === 1 ? "x" : "o") : null;
  const result = !winner ? "draw" : winner === sides[0] ? "loss" : "win";
  try {
    const r = await api("/api/adaptive", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ agent: spec, moves: movesText(), width: S.width, height: S.height, side: sides[0], state: loadState(localStorage) ?? undefined }),
    });
    if (r.finished) {
      localStorage.setItem(STATE_KEY, r.state);
      localStorage.setItem(RECORD_KEY, JSON.stringify(recordGame(loadRecord(localStorage), result, r.estimate)));
    }
    showEstimate(r);
  } catch (e) {
    $("adaptive-estimate").textContent = `The adaptive agent could not read the game: ${e.message}`;
  }
}

export function changed() {
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

export function humanPlay(col) {
  const { over, toMove } = state();
  if (S.thinking || over || !legal(col)) return;
  if (S.mode !== "edit" && computerPlays(toMove) && !S.paused) return;
  S.paused = false;
  S.lastBy = S.mode === "edit" ? null : "human";
  S.moves.push(col);
  firstMoveMade();
  if (S.mode === "edit") notFair();
  changed();
  maybeComputer();
}

// The computer moves when it plays the side to move (not while editing, browsing or after
// a link was opened); playing both sides, it waits S.autoDelay between moves.
export function maybeComputer() {
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
export async function computerMove() {
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
      // Varied play: the agent draws among its moves of equal value from the game's seed
      // and the ply, so a line the player repeats meets different games.
      body: JSON.stringify({ agent: spec, moves: movesText(), width: S.width, height: S.height, seed: S.gameSeed + S.moves.length, vary: true, state: saved }),
    });
    // Cancelled (Undo, New game, another agent) while the answer came: it is dropped, and
    // whatever took over owns the state.
    if (gen !== S.generation) return;
    if (r.adaptive) showEstimate(r.adaptive);
    S.thinking = false;
    S.failed = false;
    S.moves.push(r.column);
    S.lastBy = "computer";
    firstMoveMade();
    changed();
    if (!state().over) {
      // The wait the player saw (the request and the search), not the search's time alone.
      const cut = r.stopped ? " at the time limit" : "";
      const waited = performance.now() - S.thinkingSince;
      setStatus(`The computer (${toMove}) played column ${r.column} after ${fmtMs(waited)}${cut}. ${computerPlays(other(toMove)) ? "" : `Your move (${other(toMove)}).`}`, "your-turn");
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

// The agent changed (a preset, the dial, a typed spec, the Agent or Depth control): a move
// the old agent is still thinking about is stopped (the back end stops computing it) and the
// new agent answers instead; else a move that failed (or is due) is tried again.
export function agentChanged() {
  notFair();
  if (!S.thinking) {
    retryComputer();
    return;
  }
  cancelWork();
  S.failed = false;
  S.paused = false;
  // The analysis under way was cancelled with the move: asked again.
  changed();
  maybeComputer();
}

export function newGame() {
  if (S.thinking) cancelWork();
  S.gameSeed = newSeed();
  S.fair = { eligible: false, counted: false, line: [] };
  S.moves = [];
  S.thinking = false;
  S.paused = false;
  S.failed = false;
  S.lastBy = null;
  S.keepStatus = false;
  changed();
  maybeComputer();
}

export function undo() {
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

// Loads a move string, as much of it as is legal; from a URL (a link, back or forward) the
// computer does not answer until asked.
export function loadMoves(text, fromUrl) {
  const { moves, problem, text: t } = parseMoves(text);
  // A loaded or linked game was not played here: it never counts for the record; stepping
  // back and forward through the game being played (its own line) keeps it fair.
  const ownLine = fromUrl && S.fair.eligible && moves.length <= S.fair.line.length && moves.every((m, i) => m === S.fair.line[i]);
  if (!ownLine) S.fair = { eligible: false, counted: false, line: [] };
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

// The solver's best column, only that: outlined on the board (the scores may stay hidden).
export async function hint() {
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

export function setMode(mode) {
  if (mode !== S.mode) notFair();
  S.mode = mode;
  document.body.classList.remove("mode-play", "mode-edit");
  document.body.classList.add(`mode-${mode}`);
  S.paused = false;
  renderBoard();
  maybeComputer();
}

// The result's "Swap sides": the computer takes the other colour, and a new game starts.
export function swapSides() {
  const { x, o } = S.players;
  S.players = { x: o, o: x };
  $("player-x").value = S.players.x;
  $("player-o").value = S.players.o;
  document.body.classList.toggle("has-computer", someComputer());
  newGame();
}

export function setPlayer(side, who) {
  if (S.players[side] !== who) notFair();
  S.players[side] = who;
  document.body.classList.toggle("has-computer", someComputer());
  // The position stays; the computer takes over at once if it is its turn.
  S.paused = false;
  S.failed = false;
  renderBoard();
  maybeComputer();
}
