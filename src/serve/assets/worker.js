// The WebAssembly engine's worker: answers the page's requests one at a time, fetching the
// model files an agent needs (and the presets' ladder) from beside the page on first use,
// and a deeper opening book when the site ships one (`c4 site --book`, which names it in the
// worker's address: `worker.js?book=FILE`): its download starts after the first request and
// never delays an answer; the engine reads it from the request after it arrives.
import { Engine } from "./connect4.mjs";

/** The deeper book's file beside the page, or null: the site ships none (nothing to fetch). */
const BOOK = (() => {
  const name = new URL(import.meta.url).searchParams.get("book");
  // A file name beside the page, nothing else.
  return name && /^[\w.-]+\.bin$/.test(name) ? name : null;
})();

let engine = null;
/** The deeper book's download (started once), and its bytes once they are here. */
let bookFetch = null;
let bookBytes = null;

function fetchBook() {
  if (bookFetch || !BOOK) return;
  bookFetch = fetch(new URL(`./${BOOK}`, import.meta.url))
    .then((res) => (res.ok ? res.arrayBuffer() : null))
    .then((bytes) => {
      if (bytes) bookBytes = new Uint8Array(bytes);
    })
    .catch(() => {
      // No deeper book (or no network): the built-in book answers.
    });
}

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
  if (bookBytes) {
    try {
      e.setBook(bookBytes);
    } catch (_) {
      // Not a book this engine reads: keep the built-in one.
    }
    bookBytes = null;
  }
  if (request.op === "move") {
    // Only the models of the board played: another board's network is fetched when that
    // board is.
    for (const path of e.needs(request.agent, request.width, request.height)) {
      const res = await fetch(new URL(`./${path}`, import.meta.url));
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
      e.addModel(path, new Uint8Array(await res.arrayBuffer()));
    }
  }
  const reply = e.call(request);
  fetchBook();
  return reply;
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
