// connect4-ml's page: play, the solver's analysis, the models' views and pipeline runs.
// Plain JavaScript modules, no build step: `c4 serve` embeds the files as they are, and
// `c4 site` writes them with the WebAssembly engine as a static site (see backend.js).
//
// This module starts the page: it wires the controls and keys to the game flow and reads
// the URL. The modules import one way, each only from those below it:
//   state, view, adaptive, backend  <-  api  <-  board, analysis, url  <-  game
//   <-  controls  <-  review, runs  <-  app
import { $, S, someComputer } from "./state.js";
import { api, backendKind } from "./api.js";
import { setStatus } from "./board.js";
import { refreshAnalysis } from "./analysis.js";
import { boardAllowed } from "./url.js";
import { changed, computerMove, hint, humanPlay, loadMoves, newGame, resetAdaptive, setMode, setPlayer, swapSides, undo } from "./game.js";
import { fillPresets, setBoardSize, setupAgents, setupDial } from "./controls.js";
import { reviewGame } from "./review.js";
import { loadRuns, showRun } from "./runs.js";
import { hashFor, scoresShownByDefault, shortText } from "./view.js";

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
  document.body.classList.add("mode-play", "has-computer", `backend-${backendKind()}`);
  try {
    const info = await api("/api/agents");
    if (info.board) S.rule = info.board;
    S.presets = info.presets || [];
    setupDial(info.dial);
    S.kinds = info.kinds || [];
  } catch (e) {
    S.presets = [];
    setStatus(`The ${backendKind() === "engine" ? "engine" : "server"} does not answer: ${e.message}`, "error");
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
  // A column's button carries its number; a disabled one (not the human's turn) gets no click.
  $("board").addEventListener("click", (e) => {
    const col = e.target.closest("button.col");
    if (col) humanPlay(parseInt(col.dataset.col, 10));
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
  // A game's moves, one at a time: each move is a step in the page's history (the address
  // carries the position), so these are the browser's back and forward.
  $("step-back").addEventListener("click", () => history.back());
  $("step-forward").addEventListener("click", () => history.forward());
  $("adaptive-reset").addEventListener("click", resetAdaptive);
  $("result").addEventListener("click", (e) => {
    if (e.target.id === "play-again") newGame();
    else if (e.target.id === "swap-sides") swapSides();
  });
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
    else if (e.key === "ArrowLeft") history.back();
    else if (e.key === "ArrowRight") history.forward();
  });
  try {
    S.models = backendKind() === "server" ? (await api("/api/models")).models : [];
  } catch (_) {
    S.models = [];
  }
  if (!applyHash()) changed();
}

init();
