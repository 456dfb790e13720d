// Reading a move string and a link (src/serve/assets/url.js): as much as is legal, why it
// stopped, and the board rule a link must keep.
import { test } from "node:test";
import assert from "node:assert/strict";
import { S, charColumn, movesString, movesText } from "../../src/serve/assets/state.js";
import { boardAllowed, parseMoves } from "../../src/serve/assets/url.js";

test("a move string is read as far as it is legal, and says why it stopped", () => {
  Object.assign(S, { width: 7, height: 6, moves: [3] });
  assert.deepEqual(parseMoves(" 4453 "), { moves: [4, 4, 5, 3], problem: null, text: "4453" });
  assert.deepEqual(S.moves, [3], "the position shown is left alone");
  assert.deepEqual(parseMoves("-").moves, [], "- alone is the empty board");
  assert.equal(parseMoves("44x5").problem, 'move 3 is "x", not a column digit (columns are 1-9, then a-z)');
  assert.equal(parseMoves("44a").problem, 'move 3 is "a", not a column digit (columns are 1-9, then a-z)');
  assert.equal(parseMoves("48").problem, "move 2 is column 8, off the 7-column board");
  assert.equal(parseMoves("4444444").problem, "move 7 is column 4, which is full");
  const won = parseMoves("12121214");
  assert.deepEqual(won.moves, [1, 2, 1, 2, 1, 2, 1]);
  assert.equal(won.problem, "the game was already won by x after move 7");
});

test("wider boards write columns 10 and on as letters, read in either case", () => {
  Object.assign(S, { width: 12, height: 4, moves: [] });
  assert.deepEqual(parseMoves("1aBc").moves, [1, 10, 11, 12]);
  assert.equal(parseMoves("1d").problem, "move 2 is column 13, off the 12-column board");
  assert.equal(parseMoves("10").problem, 'move 2 is "0", not a column digit (columns are 1-9, then a-z)');
  S.moves = [1, 10, 12];
  assert.equal(movesText(), "1ac");
  assert.equal(movesString([9, 10, 35]), "9az");
  assert.equal(charColumn("Z"), 35);
  assert.ok(Number.isNaN(charColumn("-")));
  S.moves = [];
});

test("a link's board must keep the server's rule", () => {
  S.rule = { min_width: 4, max_width: 9, min_height: 4, max_bits: 64, text: "" };
  assert.equal(boardAllowed(7, 6), true);
  assert.equal(boardAllowed(9, 5), true);
  assert.equal(boardAllowed(3, 6), false, "too narrow");
  assert.equal(boardAllowed(8, 8), false, "8 x (8 + 1) bits do not fit 64");
  assert.equal(boardAllowed(NaN, 6), false);
});
