// Game review: every move of the game graded by the solver (the back end's /api/review),
// the score chart, and a click to any move's position.
import { $, S, movesString } from "./state.js";
import { api } from "./api.js";
import { renderBoard, setStatus } from "./board.js";
import { changed } from "./game.js";
import { setBoardSize } from "./controls.js";
import { plural } from "./view.js";

const GRADE_WORDS = { best: "best", inaccuracy: "inaccuracy", mistake: "mistake", unknown: "not solved in time" };

function signed(v) {
  return v > 0 ? `+${v}` : String(v);
}

export async function reviewGame() {
  const moves = S.moves.slice();
  if (!moves.length) {
    $("review-summary").textContent = "No moves to review yet.";
    return;
  }
  const review = { moves, width: S.width, height: S.height, answer: null };
  S.review = review;
  $("review").dataset.complete = "false";
  $("review-summary").textContent = "Reviewing…";
  // Early positions may take longer than one request: ask again while moves are ungraded
  // (the server's solvers keep what they proved).
  for (let round = 0; round < 30; round++) {
    let r;
    try {
      r = await api(`/api/review?moves=${movesString(moves)}&width=${review.width}&height=${review.height}&ms=3000`);
    } catch (e) {
      if (S.review === review) $("review-summary").textContent = `Review failed: ${e.message}`;
      return;
    }
    if (S.review !== review) return;
    review.answer = r;
    renderReview();
    if (r.complete) return;
  }
}

// The game's value after each move from x's side (null where unknown); index 0 is the start.
function reviewSeries(r) {
  const xView = (player, v) => (v === null ? null : player === "x" ? v : -v);
  const first = r.reviews[0];
  const series = [first ? xView(first.player, first.best) : null];
  for (const m of r.reviews) series.push(xView(m.player, m.played));
  return series;
}

export function renderReview() {
  const review = S.review;
  const list = $("review-list");
  const chart = $("review-chart");
  list.innerHTML = "";
  chart.innerHTML = "";
  if (!review || !review.answer) return;
  const r = review.answer;
  const c = r.counts;
  $("review").dataset.complete = String(r.complete);
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  $("review-summary").textContent = `${n(r.reviews.length, "move", "moves")}: ${c.best} best, ${n(c.inaccuracy, "inaccuracy", "inaccuracies")}, ${n(c.mistake, "mistake", "mistakes")}` +
    (c.unknown ? `, ${c.unknown} not solved in time (still solving…)` : "");
  for (const m of r.reviews) {
    const li = document.createElement("li");
    li.value = m.number;
    li.dataset.grade = m.grade;
    li.dataset.ply = String(m.number - 1);
    li.className = `grade-${m.grade}`;
    let text = `${m.player} played ${m.column}: ${GRADE_WORDS[m.grade]}`;
    if (m.played !== null && m.best !== null) {
      text += ` (${signed(m.played)}`;
      if (m.grade !== "best") text += `; best ${m.best_columns.join(" or ")}: ${signed(m.best)}`;
      text += ")";
    }
    li.textContent = text;
    li.title = "Show the position before this move";
    li.addEventListener("click", () => showReviewPly(m.number - 1));
    list.appendChild(li);
  }
  // Score by move, from x's side: up is good for x.
  const series = reviewSeries(r);
  const W = 420, H = 160, left = 30, right = 8, topPad = 10, bottom = 26;
  const top = Math.max(4, ...series.filter((v) => v !== null).map(Math.abs));
  const px = (i) => left + (i * (W - left - right)) / Math.max(1, series.length - 1);
  const mid = topPad + (H - topPad - bottom) / 2;
  const py = (v) => mid - (v * (mid - topPad)) / top;
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attrs) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    chart.appendChild(el);
    return el;
  };
  // Axes: the score for x up the side (positive: x wins), move numbers along the bottom.
  const label = (x, y, text, anchor) => {
    const t = add("text", { x, y, "text-anchor": anchor });
    t.textContent = text;
  };
  add("line", { x1: left, x2: left, y1: topPad, y2: H - bottom, class: "tick" });
  for (const v of [top, 0, -top]) {
    add("line", { x1: left - 3, x2: W - right, y1: py(v).toFixed(1), y2: py(v).toFixed(1), class: v === 0 ? "axis" : "tick" });
    label(left - 5, py(v) + 3, signed(v), "end");
  }
  const step = series.length > 30 ? 10 : 5;
  for (let i = 0; i < series.length; i += step) {
    add("line", { x1: px(i).toFixed(1), x2: px(i).toFixed(1), y1: H - bottom, y2: H - bottom + 3, class: "tick" });
    label(px(i), H - bottom + 12, String(i), "middle");
  }
  label((left + W - right) / 2, H - 3, "move number (score for x after it: up is good for x)", "middle");
  let path = "";
  series.forEach((v, i) => {
    if (v === null) return;
    path += `${path && series[i - 1] !== null ? "L" : "M"}${px(i).toFixed(1)},${py(v).toFixed(1)} `;
  });
  if (path) add("path", { d: path, class: "line" });
  series.forEach((v, i) => {
    if (v === null) return;
    const grade = i === 0 ? "best" : r.reviews[i - 1].grade;
    const dot = add("circle", { cx: px(i).toFixed(1), cy: py(v).toFixed(1), r: 3.5, class: `grade-${grade}`, "data-ply": i });
    const t = document.createElementNS(ns, "title");
    t.textContent = `after move ${i}: ${signed(v)} for x`;
    dot.appendChild(t);
    dot.addEventListener("click", () => showReviewPly(i));
  });
}

// Shows the reviewed game's position after `ply` moves (the one where move ply+1 was chosen).
export function showReviewPly(ply) {
  const review = S.review;
  if (!review) return;
  if (review.width !== S.width || review.height !== S.height) setBoardSize(review.width, review.height);
  S.paused = true;
  S.moves = review.moves.slice(0, ply);
  changed();
  // The column then played, outlined on the board.
  if (ply < review.moves.length) {
    S.marked = { col: review.moves[ply], kind: "played" };
    renderBoard();
  }
  for (const li of $("review-list").children) li.classList.toggle("current", li.dataset.ply === String(ply));
  const m = review.answer && review.answer.reviews[ply];
  if (m) setStatus(`Move ${m.number}: ${m.player} played column ${m.column} (outlined), ${GRADE_WORDS[m.grade]}.`, "review");
  else setStatus(`The position after the last move (${plural(ply, "stone")}).`, "review");
}
