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

/**
 * "Your Elo, as the adaptive agent sees it: 1432 (5 games)", and with the presets' measured
 * Elo what that means: "; about as strong as Hard".
 */
export function estimateText(answer, presets = []) {
  const games = answer.games === 1 ? "1 game" : `${answer.games} games`;
  const near = nearestPreset(answer.estimate, presets);
  const meaning = near ? `; about as strong as ${near.name}` : "";
  return `Your Elo, as the adaptive agent sees it: ${Math.round(answer.estimate)} (${games})${meaning}`;
}

/** Where the player's record against the adaptive agent is kept (W/D/L and the estimate's history). */
export const RECORD_KEY = "c4.adaptiveRecord";
/** Where the chosen strength (preset value) and the dial's Elo are kept across page loads. */
export const PRESET_KEY = "c4.preset";
export const ELO_KEY = "c4.elo";
/** Estimates kept in the history (the oldest go first). */
export const HISTORY_KEPT = 200;

/** A record with no games. */
export function emptyRecord() {
  return { wins: 0, draws: 0, losses: 0, history: [] };
}

/** The player's record from `storage` (an empty one when none or unreadable). */
export function loadRecord(storage) {
  try {
    const r = JSON.parse(storage.getItem(RECORD_KEY) || "null");
    if (r && [r.wins, r.draws, r.losses].every(Number.isInteger) && Array.isArray(r.history)) {
      return { wins: r.wins, draws: r.draws, losses: r.losses, history: r.history.filter(Number.isFinite) };
    }
  } catch (_) {
    // Unreadable: start again.
  }
  return emptyRecord();
}

/**
 * `record` after one more counted game: `result` is the player's ("win", "draw", "loss") and
 * `estimate` the adaptive agent's estimate after it.
 */
export function recordGame(record, result, estimate) {
  const r = { ...record, history: record.history.slice(-(HISTORY_KEPT - 1)) };
  if (result === "win") r.wins++;
  else if (result === "draw") r.draws++;
  else r.losses++;
  if (Number.isFinite(estimate)) r.history.push(Math.round(estimate));
  return r;
}

/** "3 wins, 1 draw, 4 losses". */
export function recordText(r) {
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  return `${n(r.wins, "win", "wins")}, ${n(r.draws, "draw", "draws")}, ${n(r.losses, "loss", "losses")}`;
}

/** The estimate a saved state holds, as an answer's fields ({estimate, games}); null if none. */
export function stateEstimate(stateText) {
  try {
    // The state keeps the estimate after each game it read: the last is the current one.
    const s = JSON.parse(stateText || "null");
    const last = s && Array.isArray(s.history) ? s.history[s.history.length - 1] : undefined;
    if (Number.isFinite(last) && Number.isInteger(s.games)) return { estimate: last, games: s.games };
  } catch (_) {
    // Unreadable: no estimate.
  }
  return null;
}

/** The preset (other than the adaptive agent) whose measured Elo is nearest `elo`, or null. */
export function nearestPreset(elo, presets) {
  let best = null;
  for (const p of presets || []) {
    if (!Number.isFinite(p.elo) || isAdaptive(p.agent)) continue;
    if (!best || Math.abs(p.elo - elo) < Math.abs(best.elo - elo)) best = p;
  }
  return best;
}

/** Points of a small line chart of `history` in a `w` x `h` box (an SVG polyline's `points`). */
export function sparkline(history, w, h) {
  if (!history.length) return "";
  const lo = Math.min(...history);
  const hi = Math.max(...history);
  const span = hi - lo || 1;
  const step = history.length > 1 ? w / (history.length - 1) : 0;
  return history
    .map((v, i) => `${(i * step).toFixed(1)},${(h - ((v - lo) / span) * h).toFixed(1)}`)
    .join(" ");
}
