// The page's adaptive agent and strength dial helpers (src/serve/assets/adaptive.js), run by
// `node --test tests/web`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { STATE_KEY, dialElo, dialSpec, estimateText, isAdaptive, loadState } from "../../src/serve/assets/adaptive.js";
import { engineRequest } from "../../src/serve/assets/backend.js";

test("adaptive specs and dial specs are told apart", () => {
  assert.equal(isAdaptive("adaptive"), true);
  assert.equal(isAdaptive(" adaptive:start=1200 "), true);
  assert.equal(isAdaptive("adaptivex"), false);
  assert.equal(isAdaptive("level:elo=1500"), false);
  assert.equal(dialSpec(1504.6), "level:elo=1505");
  assert.equal(dialElo("level:elo=1505"), 1505);
  assert.equal(dialElo("level:skill=0.5"), null);
  assert.equal(dialElo("hard"), null);
});

test("the saved state is read back, and junk is ignored", () => {
  const store = new Map();
  const storage = { getItem: (k) => (store.has(k) ? store.get(k) : null) };
  assert.equal(loadState(storage), null);
  store.set(STATE_KEY, "{not json");
  assert.equal(loadState(storage), null);
  store.set(STATE_KEY, '{"version":1}');
  assert.equal(loadState(storage), '{"version":1}');
});

test("the estimate reads as a sentence", () => {
  assert.equal(estimateText({ estimate: 1431.6, games: 1 }), "Your Elo, as the adaptive agent sees it: 1432 (1 game)");
  assert.equal(estimateText({ estimate: 900, games: 5 }), "Your Elo, as the adaptive agent sees it: 900 (5 games)");
});

test("the engine back end carries the state and the adaptive op", () => {
  const move = engineRequest("/api/move", { body: JSON.stringify({ agent: "adaptive", moves: "44", state: "{}" }) });
  assert.equal(move.state, "{}");
  const end = engineRequest("/api/adaptive", { body: JSON.stringify({ agent: "adaptive", moves: "4455", side: "o", state: "{}" }) });
  assert.deepEqual([end.op, end.side, end.state, end.moves], ["adaptive", "o", "{}", "4455"]);
});

test("the record counts results and keeps the estimate's history", async () => {
  const { emptyRecord, loadRecord, recordGame, recordText, RECORD_KEY, HISTORY_KEPT } = await import("../../src/serve/assets/adaptive.js");
  const store = new Map();
  const storage = { getItem: (k) => (store.has(k) ? store.get(k) : null) };
  assert.deepEqual(loadRecord(storage), emptyRecord());
  store.set(RECORD_KEY, "junk");
  assert.deepEqual(loadRecord(storage), emptyRecord());
  let r = recordGame(emptyRecord(), "win", 1012.4);
  r = recordGame(r, "loss", 990.2);
  r = recordGame(r, "draw", 1000);
  assert.deepEqual(r, { wins: 1, draws: 1, losses: 1, history: [1012, 990, 1000] });
  assert.equal(recordText(r), "1 win, 1 draw, 1 loss");
  store.set(RECORD_KEY, JSON.stringify(r));
  assert.deepEqual(loadRecord(storage), r);
  for (let i = 0; i < HISTORY_KEPT + 5; i++) r = recordGame(r, "loss", i);
  assert.equal(r.history.length, HISTORY_KEPT);
  assert.equal(r.history[HISTORY_KEPT - 1], HISTORY_KEPT + 4);
});

test("a saved state shows its estimate, and the estimate says what it means", async () => {
  const { stateEstimate, nearestPreset, sparkline } = await import("../../src/serve/assets/adaptive.js");
  assert.deepEqual(
    stateEstimate('{"version":1,"prior":1400,"evidence":[],"offset":0,"games":3,"history":[1380,1390.5,1400.5]}'),
    { estimate: 1400.5, games: 3 },
  );
  assert.equal(stateEstimate('{"version":1,"games":0,"history":[]}'), null);
  assert.equal(stateEstimate("{bad"), null);
  assert.equal(stateEstimate(null), null);
  const presets = [
    { name: "Easy", agent: "easy", elo: 800 },
    { name: "Hard", agent: "gbt:depth=3", elo: 1450 },
    { name: "Adaptive", agent: "adaptive", elo: 1400 },
    { name: "Perfect", agent: "perfect:ties=random", elo: 2100 },
  ];
  assert.equal(nearestPreset(1390, presets).name, "Hard");
  assert.equal(nearestPreset(1000, presets).name, "Easy");
  assert.equal(nearestPreset(1000, []), null);
  assert.equal(
    estimateText({ estimate: 1390, games: 2 }, presets),
    "Your Elo, as the adaptive agent sees it: 1390 (2 games); about as strong as Hard",
  );
  assert.equal(sparkline([], 100, 20), "");
  assert.equal(sparkline([1000, 1100], 100, 20), "0.0,20.0 100.0,0.0");
});
