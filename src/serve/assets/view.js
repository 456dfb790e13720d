// What the page shows, as pure functions of its state (unit-tested with `node --test`):
// words, scores and durations, which presets fit a board, what a typed spec means for the
// agent controls, a position's link.

import { movesString } from "./state.js";

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

/** The presets that play on a `width` x `height` board (a model-based one only on the boards of its models). */
export function presetsFor(presets, width, height) {
  return presets.filter((p) => !p.boards || p.boards.some((b) => b[0] === width && b[1] === height));
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

export function scoreClass(low, high) {
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
export function scoreText(c) {
  if (c.exact) return c.score > 0 ? `+${c.score}` : String(c.score);
  if (c.low > 0) return `≥+${c.low}`;
  if (c.high < 0) return `≤${c.high}`;
  if (c.low === 0) return "≥0";
  if (c.high === 0) return "≤0";
  return "?";
}

export function ordinal(k) {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][k % 10] || "th";
  return `${k}${suffix}`;
}

// An exact score of the side to move in words from the board's point of view: who wins and
// with which of their own stones, or a draw.
export function scoreWords(score, toMove, width, height) {
  const half = Math.ceil((width * height) / 2);
  if (score > 0) return `${toMove} wins with its ${ordinal(half + 1 - score)} stone`;
  if (score < 0) return `${(toMove === "x" ? "o" : "x")} wins with its ${ordinal(half + 1 + score)} stone`;
  return "a draw with best play (each side can hold it)";
}

export function analysisWords(a) {
  if (a.result) return a.words;
  if (a.score !== null && a.score !== undefined) return `${a.to_move} to move: ${scoreWords(a.score, a.to_move, a.width, a.height)}`;
  if (a.score_low === null || a.score_low === undefined) return `${a.to_move} to move`;
  const [lo, hi, me, you] = [a.score_low, a.score_high, a.to_move, (a.to_move === "x" ? "o" : "x")];
  let known;
  if (lo > 0) known = `${me} wins (how fast is not known yet)`;
  else if (hi < 0) known = `${you} wins (how fast is not known yet)`;
  else if (lo === 0) known = `${me} at least draws`;
  else if (hi === 0) known = `${you} at least draws`;
  else known = "any result is still possible";
  return `${me} to move: not solved yet; ${known}`;
}

// A duration for people: microseconds below a millisecond, never "0.0 ms".
export function fmtMs(ms) {
  if (ms < 1) return `${Math.max(1, Math.round(ms * 1000))} µs`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function fmt(v, digits) {
  return (v >= 0 ? "+" : "") + v.toFixed(digits);
}

export function shortText(t, n) {
  return t.length > n ? `${t.slice(0, n)}…` : t;
}

export function hashFor(moves, width, height) {
  let h = `#moves=${movesString(moves)}`;
  if (width !== 7 || height !== 6) h += `&width=${width}&height=${height}`;
  return h;
}
