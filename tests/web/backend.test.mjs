// The page's back ends (src/serve/assets/backend.js): API paths become engine requests, the
// server back end reports errors and cancels, the engine back end answers through a worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EngineBackend, ServerBackend, engineRequest, workerUrl } from "../../src/serve/assets/backend.js";

test("the server's API paths map to engine requests", () => {
  assert.deepEqual(engineRequest("/api/analyze?moves=4453&width=7&height=6&ms=2000"), {
    op: "analyze", moves: "4453", width: 7, height: 6, ms: 2000, weak: false,
  });
  assert.deepEqual(engineRequest("/api/review?moves=44&width=8&height=7&ms=3000"), {
    op: "review", moves: "44", width: 8, height: 7, ms: 3000,
  });
  const body = JSON.stringify({ agent: "easy", moves: "4", width: 7, height: 6, seed: 1 });
  assert.deepEqual(engineRequest("/api/move", { method: "POST", body }), {
    op: "move", agent: "easy", moves: "4", width: 7, height: 6, seed: 1, ms: undefined,
  });
  assert.deepEqual(engineRequest("/api/agents"), { op: "agents" });
  const e = engineRequest("/api/runs");
  assert.ok(e instanceof Error && /needs c4 serve/.test(e.message));
});

test("the worker is told the site's book only when the page names one", () => {
  const base = "https://example.org/site/backend.js";
  const without = workerUrl({ body: { dataset: { backend: "engine" } } }, base);
  assert.equal(without.href, "https://example.org/site/worker.js");
  const withBook = workerUrl({ body: { dataset: { backend: "engine", book: "book-7x6.bin" } } }, base);
  assert.equal(withBook.href, "https://example.org/site/worker.js?book=book-7x6.bin");
});

test("the server back end returns JSON, names errors and cancels", async () => {
  const ok = new ServerBackend(async () => ({ ok: true, json: async () => ({ score: 1 }) }));
  assert.deepEqual(await ok.call("/api/analyze?moves="), { score: 1 });
  const bad = new ServerBackend(async () => ({ ok: false, status: 400, json: async () => ({ error: "moves \"9\": column 9" }) }));
  await assert.rejects(bad.call("/api/analyze?moves=9"), /column 9/);
  const slow = new ServerBackend((path, { signal }) => new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })));
  }));
  const pending = slow.call("/api/move");
  slow.cancel();
  await assert.rejects(pending, /cancelled/);
});

/** A fake worker that answers like the engine's after `delay` ms. */
function fakeWorker(log, delay = 0) {
  return () => {
    const w = {
      terminated: false,
      postMessage({ id, request }) {
        log.push(request);
        setTimeout(() => {
          if (w.terminated) return;
          if (request.op === "move" && request.agent === "wizard") w.onmessage({ data: { id, error: "unknown agent wizard" } });
          else w.onmessage({ data: { id, answer: { op: request.op } } });
        }, delay);
      },
      terminate() {
        w.terminated = true;
        log.push("terminated");
      },
    };
    return w;
  };
}

test("the engine back end answers through its worker and drops unset fields", async () => {
  const log = [];
  const b = new EngineBackend(fakeWorker(log));
  assert.deepEqual(await b.call("/api/analyze?moves=44"), { op: "analyze" });
  assert.deepEqual(log[0], { op: "analyze", moves: "44", weak: false });
  await assert.rejects(b.call("/api/move", { body: JSON.stringify({ agent: "wizard" }) }), /unknown agent wizard/);
  await assert.rejects(b.call("/api/evaluate?model=gbt"), /needs c4 serve/);
});

test("cancel ends the engine's worker; the next call starts a fresh one", async () => {
  const log = [];
  let made = 0;
  const make = fakeWorker(log, 50);
  const b = new EngineBackend(() => (made++, make()));
  const pending = b.call("/api/move", { body: JSON.stringify({ agent: "perfect", moves: "" }) });
  b.cancel();
  await assert.rejects(pending, /cancelled/);
  assert.ok(log.includes("terminated"));
  assert.deepEqual(await b.call("/api/agents"), { op: "agents" });
  assert.equal(made, 2);
});
