// The game flow: a human's move, the computer's answer, undo, new game, a loaded position,
// a hint, the play/edit mode and who plays each side; the adaptive agent reads each finished
// game. Every change of position goes through `changed()`.
import { $, S, computerPlays, legal, movesText, newSeed, other, someComputer, state } from "./state.js";
import { api, cancelWork, sizeQuery } from "./api.js";
import { renderBoard, setStatus } from "./board.js";
import { refreshAnalysis, refreshModels } from "./analysis.js";
import { parseMoves, syncUrl } from "./url.js";
import { STATE_KEY, estimateText, isAdaptive, loadState } from "./adaptive.js";
import { fmtMs, shortText, thinkingText } from "./view.js";

// The adaptive agent's estimate of the player, under the strength list; with no answer yet,
// the one saved from earlier games (when the adaptive agent plays).
export function showEstimate(answer) {
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
export function retryComputer() {
  if (!S.failed) return;
  S.failed = false;
  S.paused = false;
  maybeComputer();
}

// The agent changed (a preset, the dial, a typed spec, the Agent or Depth control): a move
// the old agent is still thinking about is stopped (the back end stops computing it) and the
// new agent answers instead; else a move that failed (or is due) is tried again.
export function agentChanged() {
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
  S.mode = mode;
  document.body.classList.remove("mode-play", "mode-edit");
  document.body.classList.add(`mode-${mode}`);
  S.paused = false;
  renderBoard();
  maybeComputer();
}

export function setPlayer(side, who) {
  S.players[side] = who;
  document.body.classList.toggle("has-computer", someComputer());
  // The position stays; the computer takes over at once if it is its turn.
  S.paused = false;
  S.failed = false;
  renderBoard();
  maybeComputer();
}
