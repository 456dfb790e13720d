// The WebAssembly solver on a benchmark file of "MOVES SCORE" lines, in Node, for comparing
// with the native solver on the same machine and conditions (one solver, its table kept
// from one position to the next: `c4 bench solver --keep-table --limit N FILE`).
//   node web/bench-solver.mjs FILE [N] [TT_MIB]
import { readFileSync } from "node:fs";
import { Engine } from "./npm/connect4.mjs";

const [file, n = "200", tt = "64"] = process.argv.slice(2);
if (!file) {
  console.error("usage: node web/bench-solver.mjs FILE [N] [TT_MIB]");
  process.exit(2);
}
const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).slice(0, Number(n));
const engine = await Engine.load({ ttMib: Number(tt) });
let inside = 0;
let nodes = 0;
let wrong = 0;
const start = performance.now();
for (const line of lines) {
  const [moves, expected] = line.trim().split(/\s+/);
  const r = engine.call({ op: "solve", moves, ms: 120000 });
  if (r.score !== Number(expected)) wrong++;
  inside += r.ms;
  nodes += r.nodes;
}
const wall = performance.now() - start;
console.log(JSON.stringify({
  file, positions: lines.length, wrong,
  mean_us: (1000 * inside) / lines.length,
  wall_mean_us: (1000 * wall) / lines.length,
  mean_nodes: nodes / lines.length,
  knodes_per_s: nodes / inside,
}));
if (wrong) process.exit(1);
