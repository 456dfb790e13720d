// The page's Perfect preset in WebAssembly, in Node: the time of `perfect:ties=random` moves
// (every optimal column found, one drawn) on positions of random games, one engine kept from
// move to move as the page keeps it, with the built-in book or a deeper one (`--book FILE`,
// read with `Engine.setBook` as the page's worker reads the site's book).
//   node web/bench-perfect.mjs [--book FILE] [--seed S] [--per N] [--stones LO-HI]
// Positions: for each number of stones, N positions reached by uniformly random legal moves
// from the empty board (seeded), the game still open and the side to move without an
// immediate win. Prints one JSON line per number of stones and one for all.
import { readFileSync } from "node:fs";
import { Engine } from "./npm/connect4.mjs";

const opts = { book: null, seed: 8128, per: 20, stones: "7-20" };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const key = args[i].replace(/^--/, "");
  if (!(key in opts) || args[i + 1] === undefined) {
    console.error("usage: node web/bench-perfect.mjs [--book FILE] [--seed S] [--per N] [--stones LO-HI]");
    process.exit(2);
  }
  opts[key] = args[i + 1];
}
const [lo, hi] = String(opts.stones).split("-").map(Number);
if (!(lo >= 0 && hi >= lo && hi <= 41)) {
  console.error(`--stones ${opts.stones}: expected LO-HI within 0-41`);
  process.exit(2);
}

// mulberry32: a small seeded generator, so that a seed names the same positions anywhere.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const engine = await Engine.load();
let book = engine.agents().book;
if (opts.book) {
  try {
    const t = performance.now();
    book = { ...engine.setBook(readFileSync(opts.book), opts.book), load_ms: performance.now() - t };
  } catch (e) {
    console.error(`--book ${opts.book}: ${e.message}`);
    process.exit(1);
  }
}
const random = rng(Number(opts.seed));

/** A random open position of `stones` stones whose side to move has no immediate win. */
function position(stones) {
  for (;;) {
    let moves = "";
    let open = true;
    for (let s = 0; s < stones && open; s++) {
      const legal = engine.position(moves).legal;
      moves += legal[Math.floor(random() * legal.length)];
      open = engine.position(moves).result === null;
    }
    if (!open) continue;
    const legal = engine.position(moves).legal;
    if (legal.some((c) => engine.position(moves + c).result !== null)) continue;
    return moves;
  }
}

const stat = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median_ms: at(0.5), p90_ms: at(0.9), max_ms: s[s.length - 1] };
};
const all = [];
let slowest = null;
for (let stones = lo; stones <= hi; stones++) {
  const ms = [];
  for (let i = 0; i < Number(opts.per); i++) {
    const moves = position(stones);
    const r = engine.move(`perfect:ties=random,seed=${i}`, moves, { ms: 120000 });
    ms.push(r.ms);
    if (!slowest || r.ms > slowest.ms) slowest = { moves, ms: r.ms };
  }
  all.push(...ms);
  console.log(JSON.stringify({ stones, positions: ms.length, ...stat(ms) }));
}
console.log(JSON.stringify({ stones: `${lo}-${hi}`, positions: all.length, book, ...stat(all), over_1s: all.filter((m) => m > 1000).length, slowest }));
