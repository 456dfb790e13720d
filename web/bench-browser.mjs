// How long a player of the static site waits for the computer's move, in real Chromium: every
// preset, the strength dial and the adaptive agent on every board the page offers, each move
// asked of the site's own WebAssembly engine as the page's worker asks it (a `move` request
// with the game so far; the model files fetched from beside the page first), in games
// against `easy` after 2 random opening plies. Prints one JSON line per board and agent
// (moves, p50, p95, slowest in ms) and a table.
//   c4 site --out site
//   node web/bench-browser.mjs --site site [--games 3] [--seed 4046] [--boards 7x6,8x8]
// Needs /usr/bin/chromium and /usr/bin/chromedriver (Debian's packages; C4_CHROMIUM and
// C4_CHROMEDRIVER name others). Serves the site itself on a free loopback port.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

const usage = "usage: node web/bench-browser.mjs --site DIR [--games N] [--seed S] [--boards WxH,...]";
const opts = { site: null, games: "3", seed: "4046", boards: "7x6,5x4,6x5,7x5,6x6,6x7,8x7,9x6,8x8,9x7" };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const key = args[i].replace(/^--/, "");
  if (!(key in opts) || args[i + 1] === undefined) {
    console.error(usage);
    process.exit(2);
  }
  opts[key] = args[i + 1];
}
const games = Number(opts.games);
const seed = Number(opts.seed);
const boards = opts.boards.split(",").map((b) => b.split("x").map(Number));
if (!opts.site || !existsSync(join(opts.site, "index.html"))) {
  console.error(`--site: expected the folder \`c4 site --out DIR\` wrote (with index.html)\n${usage}`);
  process.exit(2);
}
if (!(games >= 1) || !Number.isInteger(seed) || boards.some(([w, h]) => !(w >= 4 && h >= 4))) {
  console.error(`bad --games, --seed or --boards\n${usage}`);
  process.exit(2);
}

// The site, served as any static host serves it (the engine is fetched as application/wasm).
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".svg": "image/svg+xml", ".css": "text/css" };
const root = normalize(opts.site);
const server = createServer(async (req, res) => {
  const path = normalize(join(root, decodeURIComponent(new URL(req.url, "http://x").pathname)));
  if (!path.startsWith(root)) return res.writeHead(403).end();
  try {
    const body = await readFile(path.endsWith("/") ? join(path, "index.html") : path);
    res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const site = `http://127.0.0.1:${server.address().port}`;

// ChromeDriver, spoken to over its HTTP protocol (W3C WebDriver).
const port = 20000 + Math.floor(Math.random() * 20000);
const driver = spawn(process.env.C4_CHROMEDRIVER ?? "/usr/bin/chromedriver", [`--port=${port}`], { stdio: "ignore" });
const wd = `http://127.0.0.1:${port}`;
async function call(method, path, body) {
  const res = await fetch(`${wd}${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const out = await res.json();
  if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${JSON.stringify(out.value).slice(0, 400)}`);
  return out.value;
}
for (let i = 0; ; i++) {
  try {
    await call("GET", "/status");
    break;
  } catch (e) {
    if (i > 300) throw new Error(`chromedriver did not start: ${e.message}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}
const profile = mkdtempSync(join(tmpdir(), "c4-bench-browser-"));
let session = null;
try {
  session = (await call("POST", "/session", {
    capabilities: { alwaysMatch: { browserName: "chrome", "goog:chromeOptions": {
      binary: process.env.C4_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking", `--user-data-dir=${profile}`],
    } } },
  })).sessionId;
  await call("POST", `/session/${session}/timeouts`, { script: 3_600_000 });
  await call("POST", `/session/${session}/url`, { url: `${site}/index.html` });
  const at = await call("GET", `/session/${session}/url`);
  if (!at.startsWith(site)) throw new Error(`the browser is at ${at}, not the site (${site})`);
  const rows = [];
  for (const [width, height] of boards) {
    // In the page: the site's engine and files; the agents the page offers on this board.
    const out = await call("POST", `/session/${session}/execute/async`, { args: [width, height, games, seed], script: `
      const [width, height, games, seed, done] = arguments;
      (async () => {
        const { Engine } = await import('./connect4.mjs');
        const e = await Engine.load({ wasm: new URL('./connect4.wasm', location.href) });
        const info = e.agents();
        const agents = info.presets
          .filter((p) => !p.boards || p.boards.some(([w, h]) => w === width && h === height))
          .map((p) => p.agent)
          .concat(['level:elo=1000', 'level:elo=1800']);
        const col = (c) => (c < 9 ? String(c + 1) : String.fromCharCode(97 + c - 9));
        // A small seeded generator (mulberry32), so that a seed names the same games.
        let a = seed >>> 0;
        const rnd = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
        const results = [];
        for (const agent of agents) {
          for (const path of e.needs(agent, width, height)) {
            const res = await fetch(path);
            if (!res.ok) throw new Error(path + ': HTTP ' + res.status);
            e.addModel(path, new Uint8Array(await res.arrayBuffer()));
          }
          const ms = [];
          for (let g = 0; g < games; g++) {
            let moves = '';
            for (let k = 0; k < 2; k++) {
              const legal = e.position(moves, { width, height }).legal;
              moves += col(legal[Math.floor(rnd() * legal.length)] - 1);
            }
            const me = g % 2 === 0 ? 'x' : 'o';
            for (let ply = 2; ; ply++) {
              const pos = e.position(moves, { width, height });
              if (pos.result) break;
              const mine = (ply % 2 === 0) === (me === 'x');
              const t = performance.now();
              const r = e.move(mine ? agent : 'easy', moves, { width, height, seed: seed + g });
              if (mine) ms.push(performance.now() - t);
              moves += col(r.column - 1);
            }
          }
          ms.sort((x, y) => x - y);
          const q = (f) => ms[Math.min(ms.length - 1, Math.floor(f * ms.length))];
          results.push({ board: width + 'x' + height, agent, moves: ms.length, p50: q(0.5), p95: q(0.95), max: ms[ms.length - 1] });
        }
        done(results);
      })().catch((err) => done({ error: String(err && err.stack || err) }));` });
    if (out.error) throw new Error(`${width}x${height}: ${out.error}`);
    for (const r of out) {
      console.log(JSON.stringify(r));
      rows.push(r);
    }
  }
  console.log(`\n${navigatorLine()}\nboard  agent                      moves     p50 ms   p95 ms   max ms`);
  for (const r of rows) {
    console.log(`${r.board.padEnd(6)} ${r.agent.padEnd(26)} ${String(r.moves).padStart(5)} ${r.p50.toFixed(1).padStart(10)} ${r.p95.toFixed(1).padStart(8)} ${r.max.toFixed(1).padStart(8)}`);
  }
} finally {
  if (session) await call("DELETE", `/session/${session}`).catch(() => {});
  driver.kill();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}

function navigatorLine() {
  return `Chromium (${process.env.C4_CHROMIUM ?? "/usr/bin/chromium"}), ${games} games per agent against easy, 2 random opening plies, seed ${seed}`;
}
