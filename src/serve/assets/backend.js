// The page's two back ends, one interface: `call(path, options)` answers the server's API
// paths (`/api/analyze?...`, `/api/move`, ...) with the same JSON, either from `c4 serve`
// (the page served by it) or from the WebAssembly engine in a Web Worker (the static site of
// `c4 site`, no server). `cancel()` stops the work under way (the engine's worker is
// replaced; a server request is aborted).

/** What a server API call becomes for the engine, or an Error saying it needs the server. */
export function engineRequest(path, options = {}) {
  const url = new URL(path, "http://page/");
  const q = Object.fromEntries(url.searchParams);
  const num = (v) => (v === undefined || v === "" ? undefined : Number(v));
  const board = { width: num(q.width), height: num(q.height) };
  switch (url.pathname) {
    case "/api/analyze":
      return { op: "analyze", moves: q.moves ?? "", ...board, ms: num(q.ms), weak: q.weak === "true" };
    case "/api/review":
      return { op: "review", moves: q.moves ?? "", ...board, ms: num(q.ms) };
    case "/api/move": {
      const body = JSON.parse(options.body ?? "{}");
      return { op: "move", agent: body.agent, moves: body.moves ?? "", width: body.width, height: body.height, seed: body.seed ?? 0, ms: body.ms, ...(body.vary ? { vary: true } : {}), ...(body.state === undefined ? {} : { state: body.state }) };
    }
    case "/api/adaptive": {
      const body = JSON.parse(options.body ?? "{}");
      return { op: "adaptive", agent: body.agent, moves: body.moves ?? "", width: body.width, height: body.height, seed: body.seed ?? 0, side: body.side, state: body.state };
    }
    case "/api/agents":
      return { op: "agents" };
    case "/api/position":
      return { op: "position", moves: q.moves ?? "", ...board };
    default:
      return new Error(`${url.pathname} needs c4 serve (this page runs without a server)`);
  }
}

/** Drops the fields left undefined (the engine refuses unknown values, not missing ones). */
function compact(request) {
  return Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined && !Number.isNaN(v)));
}

/** `c4 serve`'s API over fetch. */
export class ServerBackend {
  constructor(fetchImpl = (...a) => fetch(...a)) {
    this.kind = "server";
    this.fetch = fetchImpl;
    this.controllers = new Set();
  }

  async call(path, options = {}) {
    const controller = new AbortController();
    this.controllers.add(controller);
    try {
      const res = await this.fetch(path, { ...options, signal: controller.signal });
      let body = null;
      try {
        body = await res.json();
      } catch (_) {
        body = { error: `HTTP ${res.status}` };
      }
      if (!res.ok) throw new Error(body && body.error ? body.error : `HTTP ${res.status}`);
      return body;
    } catch (e) {
      if (e.name === "AbortError") throw new Error("cancelled");
      throw e;
    } finally {
      this.controllers.delete(controller);
    }
  }

  cancel() {
    for (const c of this.controllers) c.abort();
    this.controllers.clear();
  }
}

/**
 * The WebAssembly engine in a Web Worker (`makeWorker()` starts one): requests queue in
 * the worker; `cancel()` ends it, rejecting what was asked, and the next call starts a
 * fresh one (its models are fetched again as needed).
 */
export class EngineBackend {
  constructor(makeWorker) {
    this.kind = "engine";
    this.makeWorker = makeWorker;
    this.worker = null;
    this.pending = new Map();
    this.next = 1;
  }

  start() {
    const w = this.makeWorker();
    w.onmessage = (e) => {
      const { id, answer, error } = e.data;
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(answer);
    };
    w.onerror = (e) => {
      const why = new Error(`the engine failed: ${e.message || "worker error"}`);
      this.fail(why);
    };
    return w;
  }

  fail(why) {
    for (const p of this.pending.values()) p.reject(why);
    this.pending.clear();
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }

  call(path, options = {}) {
    const request = engineRequest(path, options);
    if (request instanceof Error) return Promise.reject(request);
    if (!this.worker) this.worker = this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, request: compact(request) });
    });
  }

  cancel() {
    if (this.pending.size) this.fail(new Error("cancelled"));
  }
}

/**
 * The worker's address: `worker.js`, told the deeper book's file name when the site ships one
 * (`data-book` on the page's body, written by `c4 site --book`), so that it asks for no file
 * the site does not have.
 */
export function workerUrl(doc = document, base = import.meta.url) {
  const book = doc.body && doc.body.dataset.book;
  const url = new URL("./worker.js", base);
  if (book) url.searchParams.set("book", book);
  return url;
}

/** The back end of this page: the engine when the page says so (`c4 site`), else the server. */
export function chooseBackend(doc = document) {
  if (doc.body && doc.body.dataset.backend === "engine") {
    return new EngineBackend(() => new Worker(workerUrl(doc), { type: "module" }));
  }
  return new ServerBackend();
}
