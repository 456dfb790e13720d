// The WebAssembly engine's worker: answers the page's requests one at a time, fetching the
// model files an agent needs (and the presets' ladder) from beside the page on first use.
import { Engine } from "./connect4.mjs";

let engine = null;

async function ready() {
  if (engine) return engine;
  engine = await Engine.load({ wasm: new URL("./connect4.wasm", import.meta.url) });
  try {
    const res = await fetch(new URL("./models/ladder.json", import.meta.url));
    if (res.ok) engine.setLadder(await res.text());
  } catch (_) {
    // No ladder: the presets show no Elo.
  }
  return engine;
}

async function answer(request) {
  const e = await ready();
  if (request.op === "move") {
    for (const path of e.needs(request.agent)) {
      const res = await fetch(new URL(`./${path}`, import.meta.url));
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
      e.addModel(path, new Uint8Array(await res.arrayBuffer()));
    }
  }
  return e.call(request);
}

let queue = Promise.resolve();
self.onmessage = (event) => {
  const { id, request } = event.data;
  queue = queue.then(async () => {
    try {
      self.postMessage({ id, answer: await answer(request) });
    } catch (err) {
      self.postMessage({ id, error: err && err.message ? err.message : String(err) });
    }
  });
};
