// The page's state: one object, `S`, that every module of the page reads and changes (the
// position, who plays, what the back end last said), and the rules' view of the position.
// The back end checks every move again; these only draw the board and enable columns.

export const $ = (id) => document.getElementById(id);

export const S = {
  width: 7,
  height: 6,
  moves: [],          // 1-based columns
  mode: "play",       // play | edit
  players: { x: "human", o: "computer" }, // who plays each side, switchable at any moment
  lastBy: null,       // who made the last move in this session: "human", "computer" or null
  thinking: false,
  generation: 0,      // bumps on every change: stale answers are dropped
  models: [],
  kinds: [],
  selected: {},       // model name -> selected column (for its "why" bars)
  paused: false,      // browsing history or a review: the computer waits for a human move
  fromHistory: false, // the current change came from the URL (back, forward, a link)
  review: null,       // { moves, answer }: the game under review and the server's grades
  analysis: null,     // the last analysis of the current position
  marked: null,       // a column to outline: { col, kind: "hinted" | "played" }
  rule: { min_width: 4, max_width: 35, min_height: 4, max_bits: 128, text: "" }, // the server's board rule
  presets: [],
  autoDelay: 700,     // ms between moves when the computer plays both sides
  thinkingSince: 0,  // performance.now() when the computer started thinking
  failed: false,      // the computer's last move failed (a bad spec): retried when the agent changes
  keepStatus: false,  // the status line says something about the last load or move: kept until the next change
  rendered: false,    // the page has shown a position (the URL's hash is then the position's)
  gameSeed: newSeed(), // drawn for each game: the computer's draws among equal moves (varied play)
  // The game counts for the adaptive agent's record: played against it from the first move
  // (set then) to the end, with no load, link, edit, other agent or side switch between;
  // counted once.
  fair: { eligible: false, counted: false, line: [] },
  dropped: 0,         // moves whose stone has been drawn falling (the newest falls once)
};

/** A fresh game's seed: the computer varies its play from one game to the next. */
export function newSeed() {
  return Math.floor(Math.random() * 2 ** 32);
}

// The one move codec (as the engine's game::moves): columns 1-9 are digits, 10-35 the
// letters a-z (read in either case).
/** The character of 1-based column `c`: "4", or "a" for the tenth. */
export const columnChar = (c) => c.toString(36);
/** The 1-based column a character names, or NaN ("0", "x" on no board, "-"). */
export const charColumn = (ch) => {
  const c = /^[0-9a-z]$/i.test(ch) ? parseInt(ch, 36) : NaN;
  return c >= 1 ? c : NaN;
};
/** 1-based columns as a move string: [4, 4, 10] is "44a". */
export const movesString = (cols) => cols.map(columnChar).join("");
/** The moves as the back end reads them: "4453". */
export const movesText = () => movesString(S.moves);

export const computerPlays = (side) => S.players[side] === "computer";
export const someComputer = () => computerPlays("x") || computerPlays("o");
export const other = (side) => (side === "x" ? "o" : "x");

// ---- rules (the server checks everything again) ----

export function grid() {
  const g = Array.from({ length: S.width }, () => []);
  S.moves.forEach((c, i) => g[c - 1].push(i % 2 === 0 ? "x" : "o"));
  return g;
}

export function winningCells(g) {
  const at = (c, r) => (c >= 0 && c < S.width && r >= 0 && r < S.height ? g[c][r] : undefined);
  for (let c = 0; c < S.width; c++) {
    for (let r = 0; r < S.height; r++) {
      const p = at(c, r);
      if (!p) continue;
      for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        const line = [0, 1, 2, 3].map((k) => [c + k * dc, r + k * dr]);
        if (line.every(([cc, rr]) => at(cc, rr) === p)) return { player: p, cells: line };
      }
    }
  }
  return null;
}

export function state() {
  const g = grid();
  const win = winningCells(g);
  const full = S.moves.length >= S.width * S.height;
  return { g, win, over: !!win || full, toMove: S.moves.length % 2 === 0 ? "x" : "o" };
}

export function legal(col) {
  return col >= 1 && col <= S.width && grid()[col - 1].length < S.height;
}
