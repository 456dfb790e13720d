// The adaptive agent and the strength dial on the page: the adaptive agent's saved state
// lives in the browser (localStorage), goes with every move request, and comes back updated
// when a game against it ends; the dial is a slider in Elo that makes `level:elo=E`.
// Pure helpers here (unit-tested with `node --test`); app.js wires them to the page.

/** Where the adaptive agent's state is kept between games and page loads. */
export const STATE_KEY = "c4.adaptiveState";

/** Whether a spec is the adaptive agent's. */
export function isAdaptive(spec) {
  return /^adaptive(:|$)/.test(spec.trim());
}

/** The spec of the dial at `elo` (rounded to whole Elo). */
export function dialSpec(elo) {
  return `level:elo=${Math.round(elo)}`;
}

/** The Elo of a dial spec, or null for any other spec. */
export function dialElo(spec) {
  const m = /^level:elo=(\d+(?:\.\d+)?)$/.exec(spec.trim());
  return m ? Number(m[1]) : null;
}

/** The saved state from `storage` (null when none or unreadable as JSON). */
export function loadState(storage) {
  const text = storage.getItem(STATE_KEY);
  if (!text) return null;
  try {
    JSON.parse(text);
    return text;
  } catch (_) {
    return null;
  }
}

/** "Your Elo, as the adaptive agent sees it: 1432 (5 games)". */
export function estimateText(answer) {
  const games = answer.games === 1 ? "1 game" : `${answer.games} games`;
  return `Your Elo, as the adaptive agent sees it: ${Math.round(answer.estimate)} (${games})`;
}
