// The position and the URL: a typed or linked move string read as far as it is legal, the
// board rule a link must keep, and the browser's history kept in step with the game.
import { S, charColumn, legal, state } from "./state.js";
import { hashFor, shortText } from "./view.js";

// The longest legal prefix of a move string and, when it stops early, why (in board terms,
// quoting at most a few characters of the input).
export function parseMoves(text) {
  const t = text.trim() === "-" ? "" : text.trim();
  const moves = [];
  const saved = S.moves;
  S.moves = moves;
  let problem = null;
  try {
    for (let i = 0; i < t.length; i++) {
      const ch = t[i];
      // On boards of at most 9 columns a letter is no column a player would mean.
      const c = S.width <= 9 && charColumn(ch) > 9 ? NaN : charColumn(ch);
      const { win, over } = state();
      if (over) {
        problem = win ? `the game was already won by ${win.player} after move ${i}` : `the board was full after move ${i}`;
        break;
      }
      if (Number.isNaN(c)) {
        problem = `move ${i + 1} is "${shortText(ch, 4)}", not a column digit (columns are 1-9, then a-z)`;
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

// Every change of position is a step of the browser's history, so back and forward walk the
// game's moves; a change that came from the history only replaces the entry.
export function syncUrl() {
  const want = hashFor(S.moves, S.width, S.height);
  if (location.hash === want) return;
  if (S.fromHistory || !location.hash) history.replaceState(null, "", want);
  else history.pushState(null, "", want);
}

// Whether the server's board rule allows `width` x `height` (the rule comes from
// /api/agents, so the page and the server never disagree).
export function boardAllowed(width, height) {
  const r = S.rule;
  return Number.isInteger(width) && Number.isInteger(height) && width >= r.min_width && width <= r.max_width &&
    height >= r.min_height && width * (height + 1) <= r.max_bits;
}
