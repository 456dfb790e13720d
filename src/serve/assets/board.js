// The board and the status line, drawn from the page's state. Clicks on columns are the
// game flow's (app.js listens on the board), so drawing never calls back into play.
import { $, S, computerPlays, movesText, someComputer, state } from "./state.js";
import { thinkingText } from "./view.js";

export function setStatus(text, kind) {
  const el = $("status");
  el.textContent = text;
  el.className = kind || "";
  el.dataset.state = kind || "";
}

/** Where the last game played to its end in this tab is kept, so a reload still says who won in the player's terms. */
const PLAYED_KEY = "c4.playedGame";

function playedHere() {
  return sessionStorage.getItem(PLAYED_KEY) === movesText();
}

export function renderBoard() {
  const { g, win, over, toMove } = state();
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${S.width}, 1fr)`;
  $("col-scores").style.gridTemplateColumns = `repeat(${S.width}, 1fr)`;
  board.innerHTML = "";
  board.dataset.toMove = toMove;
  const last = S.moves.length ? S.moves[S.moves.length - 1] - 1 : -1;
  // The newest stone falls into place once, when it is played (not on every redraw).
  const dropNow = S.moves.length > S.dropped;
  S.dropped = S.moves.length;
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
      if (p && c === last && r === g[c].length - 1) {
        cell.classList.add("last");
        if (dropNow) {
          cell.classList.add("drop");
          // It falls from above the board's top row.
          cell.style.setProperty("--fall", String(S.height - r));
        }
      }
      // Where a stone played in this column lands: previewed while the pointer is over it.
      if (!p && r === g[c].length) cell.classList.add("landing");
      if (winSet.has(`${c},${r}`)) cell.classList.add("win");
      col.appendChild(cell);
    }
    if (S.marked && S.marked.col === c + 1) col.classList.add(S.marked.kind);
    board.appendChild(col);
  }
  const result = $("result");
  if (over && S.mode !== "edit") {
    let text;
    let kind;
    if (!win) {
      text = "Draw: the board is full.";
      kind = "draw";
    } else if ((S.lastBy || playedHere()) && someComputer() && !(computerPlays("x") && computerPlays("o"))) {
      // A game played here against the computer: say who won in those terms.
      const you = !computerPlays(win.player);
      text = you ? "You win!" : "The computer wins.";
      kind = you ? "win" : "loss";
    } else {
      // Two humans, the computer against itself, or a finished game opened from a link.
      text = `${win.player} wins!`;
      kind = "win";
    }
    result.textContent = "";
    const words = document.createElement("span");
    words.textContent = text;
    result.appendChild(words);
    // What players do next, at hand (app.js listens for these).
    for (const [id, label] of [["play-again", "Play again"], ["swap-sides", "Swap sides"]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.textContent = label;
      result.appendChild(b);
    }
    result.dataset.result = kind;
    result.hidden = false;
    if (S.lastBy) sessionStorage.setItem(PLAYED_KEY, movesText());
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
