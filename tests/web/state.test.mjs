// The rules' view of the position (src/serve/assets/state.js): whose turn, legal columns,
// the winning line, a full board.
import { test } from "node:test";
import assert from "node:assert/strict";
import { S, computerPlays, legal, other, state } from "../../src/serve/assets/state.js";

test("turns, legal columns and a win", () => {
  Object.assign(S, { width: 7, height: 6, moves: [] });
  assert.equal(state().toMove, "x");
  assert.equal(state().over, false);
  S.moves = [4, 4, 4, 4, 4, 4];
  assert.equal(legal(4), false, "a full column");
  assert.equal(legal(3), true);
  assert.equal(legal(8), false);
  S.moves = [1, 2, 1, 2, 1, 2, 1];
  const s = state();
  assert.equal(s.over, true);
  assert.equal(s.win.player, "x");
  assert.deepEqual(s.win.cells, [[0, 0], [0, 1], [0, 2], [0, 3]]);
});

test("a full board without a line is over (a draw)", () => {
  Object.assign(S, { width: 4, height: 4, moves: [1, 2, 1, 2, 2, 1, 2, 1, 3, 4, 3, 4, 4, 3, 4, 3] });
  const s = state();
  assert.equal(s.win, null);
  assert.equal(s.over, true);
});

test("who plays which side", () => {
  S.players = { x: "human", o: "computer" };
  assert.equal(computerPlays("o"), true);
  assert.equal(computerPlays("x"), false);
  assert.equal(other("x"), "o");
});
