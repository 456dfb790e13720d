// The page's pure view functions (src/serve/assets/view.js), run by `node --test tests/web`.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  analysisWords, controlsForSpec, fmtMs, hashFor, plural, presetLabel, presetsFor, scoreClass, scoresShownByDefault, scoreText, scoreWords,
  shortText, specForControls, thinkingText,
} from "../../src/serve/assets/view.js";

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

test("presets whose models are for some boards are offered on those only", () => {
  const presets = [
    { name: "Easy", agent: "easy", boards: null, elo: 100 },
    { name: "Expert", agent: "ntuple:depth=1,safe=true", boards: [[7, 6], [5, 4]], elo: 1500.4 },
  ];
  assert.deepEqual(presetsFor(presets, 7, 6).map((p) => p.name), ["Easy", "Expert"]);
  assert.deepEqual(presetsFor(presets, 5, 4).map((p) => p.name), ["Easy", "Expert"]);
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

test("a column's score chip: exact, or what its bounds decide", () => {
  assert.equal(scoreText({ exact: true, score: 3 }), "+3");
  assert.equal(scoreText({ exact: true, score: -2 }), "-2");
  assert.equal(scoreText({ exact: false, low: 2, high: 9 }), "≥+2");
  assert.equal(scoreText({ exact: false, low: -9, high: -1 }), "≤-1");
  assert.equal(scoreText({ exact: false, low: 0, high: 5 }), "≥0");
  assert.equal(scoreText({ exact: false, low: -5, high: 0 }), "≤0");
  assert.equal(scoreText({ exact: false, low: -5, high: 5 }), "?");
  assert.deepEqual([scoreClass(1, 1), scoreClass(-1, -1), scoreClass(0, 0), scoreClass(1, 4), scoreClass(-3, 2)], ["win", "loss", "draw", "win", "open"]);
});

test("the analysis in words, exact or still open", () => {
  // 7 x 6: 21 stones a side; +1 is a win with the last one, +18 with the 4th.
  assert.equal(scoreWords(18, "x", 7, 6), "x wins with its 4th stone");
  assert.equal(scoreWords(-1, "x", 7, 6), "o wins with its 21st stone");
  assert.equal(scoreWords(0, "o", 7, 6), "a draw with best play (each side can hold it)");
  assert.equal(analysisWords({ to_move: "x", score: 1, width: 7, height: 6 }), "x to move: x wins with its 21st stone");
  assert.equal(analysisWords({ to_move: "o", score: null, score_low: 0, score_high: 4 }), "o to move: not solved yet; o at least draws");
  assert.equal(analysisWords({ to_move: "o", score: null, score_low: -4, score_high: -1 }), "o to move: not solved yet; x wins (how fast is not known yet)");
  assert.equal(analysisWords({ result: "x won", words: "x won with its 4th stone" }), "x won with its 4th stone");
});

test("durations, short texts and a position's link", () => {
  assert.deepEqual([fmtMs(0.0004), fmtMs(0.25), fmtMs(3.21), fmtMs(250.4), fmtMs(12345)], ["1 µs", "250 µs", "3.2 ms", "250 ms", "12.3 s"]);
  assert.equal(shortText("abcdef", 4), "abcd…");
  assert.equal(shortText("abc", 4), "abc");
  assert.equal(hashFor([4, 4, 5], 7, 6), "#moves=445");
  assert.equal(hashFor([], 9, 7), "#moves=&width=9&height=7");
});
