// connect4-ml's engine in WebAssembly: perfect analysis with the built-in opening book, game
// review, and every agent of the project (random to perfect, the learned models included),
// with time limits. The same JSON answers as `c4 serve`'s API. Works in browsers (also in a
// Web Worker) and in Node 18 or later. No dependencies.

const EXPORTS = ["memory", "c4_alloc", "c4_free", "c4_engine_new", "c4_engine_free", "c4_call", "c4_add_model", "c4_set_ladder", "c4_set_book"];

/** The monotonic clock the module reads for time limits (`performance.now()`). */
const imports = { env: { c4_now_ms: () => performance.now() } };

async function bytesOf(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  if (typeof Response !== "undefined" && source instanceof Response) return source.arrayBuffer();
  const url = source instanceof URL ? source : new URL(String(source), import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.arrayBuffer();
}

/** The compiled module, shared by engines made from the same source. */
const compiled = new Map();

/** What the engine refused, with its reason: a bad request, a bad file, a freed engine. */
export class EngineError extends Error {
  constructor(message) {
    super(message);
    this.name = "EngineError";
  }
}

/**
 * One engine: a WebAssembly instance with its own solver tables. Calls run synchronously
 * (up to their time limit): in a page, run the engine in a Web Worker.
 */
export class Engine {
  /**
   * Loads the module (by default `connect4.wasm` beside this file) and makes an engine.
   * @param {{wasm?: string|URL|ArrayBuffer|Uint8Array|Response, ttMib?: number}} [options]
   */
  static async load(options = {}) {
    const source = options.wasm ?? new URL("./connect4.wasm", import.meta.url);
    const key = source instanceof URL || typeof source === "string" ? String(source) : null;
    let module = key && compiled.get(key);
    if (!module) {
      module = await WebAssembly.compile(await bytesOf(source));
      if (key) compiled.set(key, module);
    }
    const instance = await WebAssembly.instantiate(module, imports);
    return new Engine(instance, options.ttMib ?? 32);
  }

  constructor(instance, ttMib) {
    const x = instance.exports;
    for (const name of EXPORTS) if (!(name in x)) throw new EngineError(`the module lacks ${name}`);
    this.x = x;
    this.handle = x.c4_engine_new(ttMib);
  }

  /** Copies bytes into a buffer of the module; returns [pointer, length]. */
  put(bytes) {
    const ptr = this.x.c4_alloc(bytes.length);
    new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  }

  /**
   * Answers one request object (see the README); throws EngineError with the engine's
   * message when the request is refused.
   */
  call(request) {
    if (!this.handle) throw new EngineError("the engine was freed");
    const [ptr, len] = this.put(new TextEncoder().encode(JSON.stringify(request)));
    return this.answer(this.x.c4_call(this.handle, ptr, len));
  }

  /** Reads (and frees) an answer buffer of the module; throws EngineError for an error. */
  answer(out) {
    const n = new DataView(this.x.memory.buffer).getUint32(out, true);
    const text = new TextDecoder().decode(new Uint8Array(this.x.memory.buffer, out + 4, n));
    this.x.c4_free(out, n + 4);
    const answer = JSON.parse(text);
    if (answer && typeof answer.error === "string") throw new EngineError(answer.error);
    return answer;
  }

  /** Every column's exact score (or bounds when `ms` ran out), the best columns and a best line. */
  analyze(moves = "", options = {}) {
    return this.call({ op: "analyze", moves, ...options });
  }

  /** Every move of a game graded: best, inaccuracy, mistake (or unknown when time ran out). */
  review(moves, options = {}) {
    return this.call({ op: "review", moves, ...options });
  }

  /** The column (1-based, in `.column`) an agent plays after `moves`. */
  move(agent, moves = "", options = {}) {
    return this.call({ op: "move", agent, moves, ...options });
  }

  /**
   * The adaptive agent's estimate of its opponent after `moves` (a game it played as `side`,
   * "x" or "o"), from `options.state` (the JSON it kept from the game's start; none: a fresh
   * agent); once the game is over, `state` in the answer is the one to keep.
   */
  adaptive(agent, moves, side, options = {}) {
    return this.call({ op: "adaptive", agent, moves, side, ...options });
  }

  /** A best column: with `random`, drawn (by `seed`) among all optimal ones; else the most central. */
  bestMove(moves = "", { random = false, seed = 0, ...options } = {}) {
    const agent = random ? `perfect:ties=random,seed=${seed >>> 0}` : "perfect";
    return this.move(agent, moves, { seed, ...options }).column;
  }

  /** The model files (paths such as `models/gbt.bin`) an agent needs that the engine lacks. */
  needs(agent, width, height) {
    return this.call({ op: "needs", agent, width, height }).models;
  }

  /** Holds a model file for the agents that name `path` (e.g. `models/ntuple.bin`). */
  addModel(path, bytes) {
    const [pp, pl] = this.put(new TextEncoder().encode(path));
    const [bp, bl] = this.put(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
    if (this.x.c4_add_model(this.handle, pp, pl, bp, bl) !== 0) throw new EngineError(`bad model path ${path}`);
  }

  /**
   * Reads an opening book file (made by `c4 data book`, for 7x6 boards) in place of the one
   * held, e.g. a deeper book than the built-in one, so that perfect play answers at once
   * further into the game. Returns the book now held (`{plies, positions}`); throws
   * EngineError, keeping the book held, for a file that is not a sound 7x6 book (its header,
   * length and every block's checksum are checked) or is shallower than it; the error names
   * `name` (e.g. the file's path) when given.
   */
  setBook(bytes, name) {
    if (!this.handle) throw new EngineError("the engine was freed");
    const [p, l] = this.put(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
    try {
      return this.answer(this.x.c4_set_book(this.handle, p, l));
    } catch (e) {
      if (name === undefined || !(e instanceof EngineError)) throw e;
      throw new EngineError(`${name}: ${e.message}`);
    }
  }

  /** Sets the ladder (a `c4 tournament` summary, JSON text) whose Elo the presets show. */
  setLadder(text) {
    const [p, l] = this.put(new TextEncoder().encode(text));
    this.x.c4_set_ladder(this.handle, p, l);
  }

  /** The agent kinds, the strength presets, the board rule, the models and the book held. */
  agents() {
    return this.call({ op: "agents" });
  }

  /** Who is to move, the legal columns and the result of a position. */
  position(moves = "", options = {}) {
    return this.call({ op: "position", moves, ...options });
  }

  /** Frees the engine's memory; it answers nothing afterwards. */
  free() {
    if (this.handle) this.x.c4_engine_free(this.handle);
    this.handle = 0;
  }
}

/**
 * An agent from a spec (e.g. `ntuple:depth=1,safe=true`) that loads the models it needs:
 * `fetchModel(path)` returns their bytes (in Node, from `models/` beside the package).
 */
export async function agent(engine, spec, fetchModel = defaultFetchModel) {
  for (const path of engine.needs(spec)) engine.addModel(path, await fetchModel(path));
  return {
    spec,
    move: (moves, options = {}) => engine.move(spec, moves, options).column,
  };
}

async function defaultFetchModel(path) {
  return new Uint8Array(await bytesOf(new URL(`./${path}`, import.meta.url)));
}
