// What the page shows, as pure functions of its state (unit-tested with `node --test`):
// words, which presets fit a board, what a typed spec means for the agent controls.

/** "1 stone", "2 stones". */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Whether the solver's scores show: the player's last choice when remembered ("1" or "0"),
 * else on only when no computer plays (against a computer they would give the game away).
 */
export function scoresShownByDefault(saved, computerPlays) {
  if (saved === "1") return true;
  if (saved === "0") return false;
  return !computerPlays;
}

/** The presets that play on a `width` x `height` board (a model-based one only on its own). */
export function presetsFor(presets, width, height) {
  return presets.filter((p) => !p.board || (p.board[0] === width && p.board[1] === height));
}

/** A preset's line in the strength list: its name, the agent it runs, its Elo. */
export function presetLabel(p) {
  const elo = p.elo === null || p.elo === undefined ? "" : ` · Elo ${Math.round(p.elo)}`;
  const agent = p.name.toLowerCase() === p.agent.toLowerCase() ? "" : ` (${p.agent.split(":")[0]})`;
  return `${p.name}${agent}${elo}`;
}

/**
 * The agent controls a spec stands for: `{ kind, depth }` when it is `KIND` or
 * `KIND:depth=N` of a known kind, else `null` (a custom spec the controls cannot show).
 */
export function controlsForSpec(spec, kinds) {
  const m = /^([a-z]+)(?::depth=(\d{1,2}))?$/.exec(spec.trim());
  if (!m || !kinds.some((k) => k.name === m[1])) return null;
  return { kind: m[1], depth: m[2] === undefined ? null : parseInt(m[2], 10) };
}

/** The spec the agent controls make: the kind, with its depth when it takes one. */
export function specForControls(kind, depth, kinds) {
  const k = kinds.find((x) => x.name === kind);
  const d = Math.max(1, Math.min(20, parseInt(depth, 10) || 1));
  return k && k.keys.includes("depth") ? `${kind}:depth=${d}` : kind;
}

/** "The computer is thinking (o)… 1.4 s" while a move is computed. */
export function thinkingText(side, ms) {
  const t = ms < 1000 ? "" : ` ${(ms / 1000).toFixed(1)} s`;
  return `The computer is thinking (${side})…${t} Undo or New game stops it.`;
}
