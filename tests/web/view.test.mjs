// The page's pure view functions (src/serve/assets/view.js), run by `node --test tests/web`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { controlsForSpec, plural, presetLabel, presetsFor, scoresShownByDefault, specForControls, thinkingText } from "../../src/serve/assets/view.js";

const kinds = [
  { name: "easy", keys: [] },
  { name: "gbt", keys: ["depth", "ms"] },
  { name: "perfect", keys: ["tt", "ties"] },
];

test("words: one stone, two stones", () => {
  assert.equal(plural(1, "stone"), "1 stone");
  assert.equal(plural(0, "stone"), "0 stones");
  assert.equal(plural(7, "stone"), "7 stones");
});

test("scores are off against a computer unless the player turned them on", () => {
  assert.equal(scoresShownByDefault(null, true), false);
  assert.equal(scoresShownByDefault(null, false), true);
  assert.equal(scoresShownByDefault("1", true), true);
  assert.equal(scoresShownByDefault("0", false), false);
});

test("presets whose models are for 7x6 are offered on 7x6 only", () => {
  const presets = [
    { name: "Easy", agent: "easy", board: null, elo: 100 },
    { name: "Expert", agent: "ntuple:depth=1,safe=true", board: [7, 6], elo: 1500.4 },
  ];
  assert.deepEqual(presetsFor(presets, 7, 6).map((p) => p.name), ["Easy", "Expert"]);
  assert.deepEqual(presetsFor(presets, 8, 7).map((p) => p.name), ["Easy"]);
  assert.equal(presetLabel(presets[1]), "Expert (ntuple) · Elo 1500");
  assert.equal(presetLabel({ name: "Medium", agent: "hard", elo: null }), "Medium (hard)");
  assert.equal(presetLabel({ name: "Easy", agent: "easy" }), "Easy");
});

test("a typed spec moves the agent controls when they can show it", () => {
  assert.deepEqual(controlsForSpec("gbt:depth=3", kinds), { kind: "gbt", depth: 3 });
  assert.deepEqual(controlsForSpec("perfect", kinds), { kind: "perfect", depth: null });
  assert.equal(controlsForSpec("perfect:ties=random", kinds), null);
  assert.equal(controlsForSpec("wizard:depth=2", kinds), null);
  assert.equal(specForControls("gbt", "4", kinds), "gbt:depth=4");
  assert.equal(specForControls("gbt", "99", kinds), "gbt:depth=20");
  assert.equal(specForControls("easy", "4", kinds), "easy");
});

test("thinking shows the time so far and how to stop it", () => {
  assert.match(thinkingText("o", 200), /^The computer is thinking \(o\)…/);
  assert.match(thinkingText("x", 1450), /1\.4 s|1\.5 s/);
  assert.match(thinkingText("x", 1450), /Undo or New game stops it/);
});
