// The page's modules as a whole (src/serve/assets): every import names a module the binary
// embeds, and the modules import one way (no circle), so each can be read from the bottom up.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

const dir = new URL("../../src/serve/assets/", import.meta.url);
const modules = readdirSync(dir).filter((f) => f.endsWith(".js"));
const imports = Object.fromEntries(
  modules.map((m) => [m, [...readFileSync(new URL(m, dir), "utf8").matchAll(/^import .* from "\.\/([\w.]+)";$/gm)].map((x) => x[1])]),
);

test("every module is embedded in the binary and every import is one of them", () => {
  const embedded = readFileSync(new URL("../assets.rs", dir), "utf8");
  for (const m of modules) {
    assert.match(embedded, new RegExp(`include_bytes!\\("assets/${m.replace(".", "\\.")}"\\)`), `${m} is served`);
    for (const i of imports[m]) {
      // The engine's glue is the npm package's file, embedded from web/npm.
      if (i === "connect4.mjs") assert.match(embedded, /include_bytes!\("\.\.\/\.\.\/web\/npm\/connect4\.mjs"\)/);
      else assert.ok(modules.includes(i), `${m} imports ${i}, which is not a module`);
    }
  }
  assert.ok(imports["app.js"].includes("game.js"), "app.js starts the game flow");
});

test("the modules import one way: no circle, the game flow below the controls", () => {
  const seen = new Map(); // module -> "visiting" | "done"
  const visit = (m, path) => {
    if (seen.get(m) === "done") return;
    assert.notEqual(seen.get(m), "visiting", `a circle: ${[...path, m].join(" -> ")}`);
    seen.set(m, "visiting");
    for (const i of imports[m] ?? []) visit(i, [...path, m]);
    seen.set(m, "done");
  };
  for (const m of modules) visit(m, []);
  // What lies below never reaches up: drawing and analysis do not import the game flow.
  const reaches = (from, to) => (imports[from] ?? []).some((i) => i === to || reaches(i, to));
  for (const low of ["state.js", "view.js", "api.js", "board.js", "analysis.js", "url.js"]) {
    for (const high of ["game.js", "controls.js", "review.js", "app.js"]) {
      assert.ok(!reaches(low, high), `${low} reaches ${high}`);
    }
  }
  assert.ok(!reaches("game.js", "controls.js"), "the game flow does not import the controls");
});
