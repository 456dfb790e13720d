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
