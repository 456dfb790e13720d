// The package as a user imports it: analysis, random optimal moves, agents from specs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Engine, EngineError, agent } from "connect4-ml";

const engine = await Engine.load();

test("analyses a position with the opening book", () => {
  const a = engine.analyze("");
  assert.equal(a.score, 1);
  assert.deepEqual(a.best, [4]);
  assert.equal(a.complete, true);
  const end = engine.analyze("2252576253462244111563365343671351441");
  assert.equal(end.score, -1);
  assert.equal(end.columns.length, 2);
});

test("best move: centre first, or random among the optimal columns", () => {
  assert.equal(engine.bestMove(""), 4);
  const optimal = new Set(engine.analyze("44").best);
  const seen = new Set();
  for (let seed = 0; seed < 40; seed++) {
    const c = engine.bestMove("44", { random: true, seed });
    assert.ok(optimal.has(c), `${c} is optimal`);
    seen.add(c);
  }
  assert.deepEqual([...seen].sort(), [...optimal].sort(), "every optimal column comes up");
  assert.equal(engine.bestMove("44", { random: true, seed: 5 }), engine.bestMove("44", { random: true, seed: 5 }));
});

test("an agent from a spec loads its model and plays", async () => {
  const expert = await agent(engine, "ntuple:depth=1,safe=true");
  const c = expert.move("4");
  assert.ok(c >= 1 && c <= 7);
  const hard = await agent(engine, "gbt:depth=2");
  assert.ok(hard.move("44") >= 1);
  assert.ok(engine.agents().models.includes("ntuple.bin"));
});

test("reviews a game and refuses bad input with the reason", () => {
  const r = engine.review("4453");
  assert.equal(r.reviews.length, 4);
  assert.throws(() => engine.analyze("48x"), (e) => e instanceof EngineError && /48x/.test(e.message));
  assert.throws(() => engine.analyze("48x"), (e) => e.name === "EngineError" && String(e).startsWith("EngineError: "));
  assert.throws(() => engine.move("wizard", "4"), /wizard/);
  assert.throws(() => engine.analyze("", { width: 12, height: 10 }), /at most 128/);
  assert.throws(() => engine.analyze("", { width: 3 }), /not supported/);
});

test("boards past 64 bits are analysed (wide bitboards)", () => {
  const a = engine.analyze("637122614117422267122177141635748278646744846688", { width: 8, height: 8 });
  assert.equal(a.score, 8);
  assert.deepEqual(a.best, [3, 5]);
  // Agents play there too; the perfect player (64-bit tables) is refused by name and board.
  const m = engine.move("hard", "152535", { width: 8, height: 8 });
  assert.equal(m.column, 4);
  assert.equal(m.moves, "1525354");
  assert.throws(() => engine.move("perfect", "4", { width: 8, height: 8 }), /perfect.*8x8/);
});

test("a time limit returns bounds instead of hanging", () => {
  const a = engine.analyze("4444", { width: 8, height: 7, ms: 50 });
  assert.equal(a.complete, false);
  const m = engine.move("perfect", "4444", { width: 8, height: 7, ms: 50 });
  assert.ok(m.column >= 1 && m.column <= 8);
});

test("holds the built-in book and refuses a file that is not a book", () => {
  const held = engine.agents().book;
  assert.equal(held.plies, 10);
  assert.ok(held.positions > 1000000);
  assert.throws(() => engine.setBook(new TextEncoder().encode("no book")), (e) => e instanceof EngineError && /the book/.test(e.message));
  assert.deepEqual(engine.agents().book, held);
});

test("a damaged book file is refused by name, the book held kept", () => {
  // The repository's built-in book file (C4_TEST_BOOK where the test runs elsewhere).
  const path = process.env.C4_TEST_BOOK ?? fileURLToPath(new URL("../../../data/book-7x6.bin", import.meta.url));
  const whole = readFileSync(path);
  const held = engine.agents().book;
  assert.deepEqual(engine.setBook(whole, path), held);
  const damaged = (at) => {
    const b = Uint8Array.from(whole);
    b[at] ^= 0x20;
    return b;
  };
  for (const [bytes, why] of [
    [damaged(12), /header fails its checksum/],
    [damaged(whole.length >> 1), /fail their checksum/],
    [damaged(whole.length - 3), /fail their checksum/],
    [whole.subarray(0, whole.length - 100), /truncated/],
  ]) {
    assert.throws(
      () => engine.setBook(bytes, "book-7x6.bin"),
      (e) => e instanceof EngineError && e.message.startsWith("book-7x6.bin: the book") && why.test(e.message),
    );
    assert.deepEqual(engine.agents().book, held);
  }
});

test("the strength dial and the adaptive agent with its state", () => {
  const range = engine.agents().dial;
  assert.ok(range.low < 1000 && range.high > 1900);
  assert.ok(engine.move("level:elo=1500", "44", { ms: 2000 }).column >= 1);
  assert.throws(() => engine.move("level:elo=abc", "44"), (e) => e instanceof EngineError && /elo=abc: an Elo from/.test(e.message));
  const first = engine.move("adaptive", "44", { ms: 2000 });
  assert.ok(first.adaptive && first.adaptive.games === 0);
  // A finished game (x wins in column 1) read as o: one game, a state to keep.
  const after = engine.adaptive("adaptive", "1212121", "o", { ms: 2000, state: first.adaptive.state });
  assert.equal(after.finished, true);
  assert.equal(after.games, 1);
  const next = engine.move("adaptive", "", { ms: 2000, state: after.state });
  assert.equal(next.adaptive.games, 1);
  assert.throws(() => engine.adaptive("adaptive", "44", "z"), (e) => e instanceof EngineError && /side/.test(e.message));
  assert.throws(() => engine.move("adaptive", "44", { state: "{bad" }), (e) => e instanceof EngineError && /state/.test(e.message));
});
