// Types of connect4-ml's WebAssembly engine (connect4.mjs).

/** Board size and time limit shared by the requests (7 x 6 and 5000 ms by default). */
export interface Options {
  width?: number;
  height?: number;
  /** Time limit in milliseconds (at most 120000); the answer then holds what was found. */
  ms?: number;
}

export interface ColumnAnswer {
  /** 1-based column. */
  column: number;
  score: number | null;
  low: number;
  high: number;
  exact: boolean;
}

/** The solver's verdict (the same JSON as `c4 serve`'s /api/analyze). */
export interface AnalyzeAnswer {
  moves: string;
  width: number;
  height: number;
  mode: "strong" | "weak";
  to_move: "x" | "o";
  stones: number;
  result: string | null;
  complete: boolean;
  columns: ColumnAnswer[];
  score: number | null;
  score_low: number | null;
  score_high: number | null;
  words: string;
  /** 1-based columns proved best. */
  best: number[];
  principal_variation: number[];
  principal_variation_complete: boolean;
  nodes: number;
  ms: number;
}

export interface MoveReview {
  number: number;
  player: "x" | "o";
  column: number;
  played: number | null;
  best: number | null;
  best_columns: number[];
  grade: "best" | "inaccuracy" | "mistake" | "unknown";
}

export interface ReviewAnswer {
  moves: string;
  width: number;
  height: number;
  complete: boolean;
  counts: { best: number; inaccuracy: number; mistake: number; unknown: number };
  reviews: MoveReview[];
  ms: number;
}

export interface MoveAnswer {
  agent: string;
  /** 1-based column. */
  column: number;
  moves: string;
  ms: number;
  /** Whether the time limit cut the agent short (the column is its best so far). */
  stopped: boolean;
  /** The adaptive agent's estimate of the player (only when the adaptive agent moved). */
  adaptive?: AdaptiveAnswer;
}

/** What the adaptive agent knows of its opponent. */
export interface AdaptiveAnswer {
  /** The estimate of the opponent's Elo, the game so far included. */
  estimate: number;
  /** Finished games it has read. */
  games: number;
  /** Whether the game sent is over (then `state` has it folded in). */
  finished: boolean;
  /** The state (JSON) to keep and send with the next game. */
  state: string;
  /** Its estimates after the last finished games. */
  history: number[];
}

export interface Preset {
  name: string;
  agent: string;
  about: string;
  elo: number | null;
  low: number | null;
  high: number | null;
  games: number | null;
  /** The one board the preset plays on, when its model is for one board. */
  board: [number, number] | null;
}

export interface AgentsAnswer {
  kinds: { name: string; usage: string; summary: string; keys: string[] }[];
  models: string[];
  limits: { max_ms: number };
  presets: Preset[];
  board: { min_width: number; max_width: number; min_height: number; max_bits: number; text: string };
  book: BookSummary;
  /** The Elo range of the strength dial, `level:elo=E`. */
  dial: { low: number; high: number };
}

/** The opening book held: positions of up to `plies` stones answer at once (0: no book). */
export interface BookSummary {
  plies: number;
  positions: number;
}

export interface PositionAnswer {
  width: number;
  height: number;
  stones: number;
  to_move: "x" | "o";
  legal: number[];
  result: string | null;
}

export class EngineError extends Error {
  /** Always "EngineError". */
  name: "EngineError";
}

export class Engine {
  /** Loads the module (by default connect4.wasm beside connect4.mjs) and makes an engine. */
  static load(options?: { wasm?: string | URL | ArrayBuffer | Uint8Array | Response; ttMib?: number }): Promise<Engine>;
  call(request: object): unknown;
  analyze(moves?: string, options?: Options & { weak?: boolean }): AnalyzeAnswer;
  review(moves: string, options?: Options): ReviewAnswer;
  /** `vary`: draw among the agent's moves of equal value from `seed` (a game per seed). */
  move(agent: string, moves?: string, options?: Options & { seed?: number; vary?: boolean; state?: string }): MoveAnswer;
  adaptive(agent: string, moves: string, side: "x" | "o", options?: Options & { seed?: number; state?: string }): AdaptiveAnswer;
  bestMove(moves?: string, options?: Options & { random?: boolean; seed?: number }): number;
  needs(agent: string, width?: number, height?: number): string[];
  addModel(path: string, bytes: Uint8Array | ArrayBuffer): void;
  setLadder(text: string): void;
  /**
   * Reads a 7x6 book file of `c4 data book` in place of the one held (a deeper one), every
   * block's checksum checked; errors name `name` (e.g. the file's path) when given.
   */
  setBook(bytes: Uint8Array | ArrayBuffer, name?: string): BookSummary;
  agents(): AgentsAnswer;
  position(moves?: string, options?: Options): PositionAnswer;
  free(): void;
}

/** An agent from a spec whose model files are fetched as needed (from the package's models/ by default). */
export function agent(
  engine: Engine,
  spec: string,
  fetchModel?: (path: string) => Promise<Uint8Array>,
): Promise<{ spec: string; move(moves: string, options?: Options & { seed?: number }): number }>;
