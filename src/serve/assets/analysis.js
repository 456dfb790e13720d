// The analysis panel: the solver's scores under the board, its words and best line, and the
// models' values for each column with the "why" bars of the one selected.
import { $, S, movesText, state } from "./state.js";
import { api, sizeQuery } from "./api.js";
import { analysisWords, fmt, fmtMs, plural, scoreClass, scoreText } from "./view.js";

export function renderAnalysis(a) {
  const row = $("col-scores");
  row.innerHTML = "";
  const byCol = new Map((a ? a.columns : []).map((c) => [c.column, c]));
  for (let c = 1; c <= S.width; c++) {
    const el = document.createElement("div");
    const info = byCol.get(c);
    el.className = "score";
    el.dataset.col = String(c);
    if (info) {
      el.textContent = scoreText(info);
      el.classList.add(scoreClass(info.low, info.high));
      if (a.best.includes(c)) el.classList.add("best");
      el.title = info.exact ? `column ${c}: ${info.score}` : `column ${c}: between ${info.low} and ${info.high}`;
    }
    row.appendChild(el);
  }
  const panel = $("analysis");
  if (!a) {
    panel.dataset.complete = "false";
    $("analysis-words").textContent = "";
    $("analysis-best").textContent = "";
    $("analysis-pv").textContent = "";
    $("analysis-meta").textContent = "";
    return;
  }
  panel.dataset.complete = String(a.complete);
  const who = a.to_move;
  void who;
  $("analysis-words").textContent = analysisWords(a);
  $("analysis-best").textContent = a.best.length ? `Best column${a.best.length > 1 ? "s" : ""}: ${a.best.join(", ")}` : "";
  $("analysis-pv").textContent = a.principal_variation.length ? `Best line: ${a.principal_variation.join(" ")}` : "";
  // A finished game needs no search: say nothing of one.
  $("analysis-meta").textContent = a.nodes > 0 ? `${plural(a.stones, "stone")} · ${a.nodes.toLocaleString()} positions searched in ${fmtMs(a.ms)}` : plural(a.stones, "stone");
}

// Asks the server for the current position's scores: they show as soon as they are known
// (at once inside the opening book); the best line follows when it is ready. A position the
// solver cannot finish within two tries is said so plainly, its bounds shown once, and
// "Keep solving" asks again with the server's longest limit: never an endless "solving".
export async function refreshAnalysis(longer) {
  const gen = S.generation;
  S.analysis = null;
  $("keep-solving").hidden = true;
  if (!longer) renderAnalysis(null);
  $("analysis-words").textContent = longer ? "Solving (up to 15 s)…" : "Solving…";
  const tries = longer ? 1 : 2;
  let a = null;
  for (let round = 0; round < tries + 5; round++) {
    try {
      a = await api(`/api/analyze?moves=${movesText()}&${sizeQuery()}&ms=${longer ? 15000 : 2000}`);
    } catch (e) {
      if (gen === S.generation) $("analysis-words").textContent = `Analysis failed: ${e.message}`;
      return;
    }
    if (gen !== S.generation) return;
    S.analysis = a;
    renderAnalysis(a);
    if (a.result) return;
    if (a.complete) {
      // The scores are exact; ask a few more times only to complete the best line.
      if (a.principal_variation_complete || round >= tries + 4) return;
      continue;
    }
    if (round + 1 >= tries) break;
  }
  if (a && !a.complete && gen === S.generation) {
    $("analysis-words").textContent = `${analysisWords(a)}. The solver could not finish this position in time; the scores shown are bounds.`;
    $("keep-solving").hidden = false;
  }
}

function whyBars(x) {
  const box = document.createElement("div");
  box.className = "why";
  const max = Math.max(1e-9, ...x.contributions.map((c) => Math.abs(c.contribution)));
  const head = document.createElement("div");
  head.className = "meta";
  head.textContent = `Contributions to the ${x.scale} (bias ${fmt(x.bias, 3)}, others ${fmt(x.rest, 3)}):`;
  box.appendChild(head);
  for (const c of x.contributions) {
    const row = document.createElement("div");
    row.className = "row";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${c.feature} = ${Number.isInteger(c.value) ? c.value : c.value.toFixed(2)}`;
    name.title = name.textContent;
    const track = document.createElement("span");
    track.className = "track";
    const bar = document.createElement("span");
    bar.className = "bar " + (c.contribution >= 0 ? "pos" : "neg");
    bar.style.width = `${(50 * Math.abs(c.contribution)) / max}%`;
    track.appendChild(bar);
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = fmt(c.contribution, 3);
    row.append(name, track, num);
    box.appendChild(row);
  }
  return box;
}

function renderModel(name, ev) {
  const card = document.createElement("div");
  card.className = "model";
  card.dataset.model = name;
  const h = document.createElement("h3");
  h.textContent = `${name} (${ev.kind}, ${ev.features})`;
  card.appendChild(h);
  const values = document.createElement("div");
  values.className = "values";
  values.style.gridTemplateColumns = `repeat(${S.width}, 1fr)`;
  const byCol = new Map(ev.columns.map((c) => [c.column, c]));
  const scored = ev.columns.map((c) => [c.column, c.result === "win" ? 2 : c.result === "draw" ? 0 : c.value]);
  const top = scored.length ? scored.reduce((a, b) => (b[1] > a[1] ? b : a))[0] : null;
  let sel = S.selected[name];
  if (!byCol.has(sel) || !byCol.get(sel).explanation) sel = top;
  if (sel && byCol.get(sel) && !byCol.get(sel).explanation) sel = ev.columns.find((c) => c.explanation)?.column;
  for (let c = 1; c <= S.width; c++) {
    const el = document.createElement("div");
    el.className = "value";
    const info = byCol.get(c);
    if (info) {
      el.textContent = info.result ? info.result : fmt(info.value, 2);
      if (c === top) el.classList.add("top");
      if (c === sel) el.classList.add("selected");
      const p = info.explanation && info.explanation.probabilities;
      if (p) {
        const bar = document.createElement("div");
        bar.className = "wdl";
        bar.title = `loss ${(100 * p[0]).toFixed(0)}% · draw ${(100 * p[1]).toFixed(0)}% · win ${(100 * p[2]).toFixed(0)}%`;
        for (const q of p) {
          const s = document.createElement("span");
          s.style.width = `${100 * q}%`;
          bar.appendChild(s);
        }
        el.appendChild(bar);
      }
      el.addEventListener("click", () => {
        S.selected[name] = c;
        card.replaceWith(renderModel(name, ev));
      });
    }
    values.appendChild(el);
  }
  card.appendChild(values);
  const chosen = sel && byCol.get(sel);
  if (chosen && chosen.explanation) {
    const label = document.createElement("div");
    label.className = "meta";
    label.textContent = `Why column ${sel}: value ${fmt(chosen.explanation.value, 3)} for ${state().toMove}.`;
    card.appendChild(label);
    card.appendChild(whyBars(chosen.explanation));
  }
  return card;
}

export async function refreshModels() {
  const gen = S.generation;
  const body = $("models-body");
  const { over } = state();
  if (S.width !== 7 || S.height !== 6) {
    body.textContent = "The models are trained for 7 x 6 boards.";
    return;
  }
  if (over) {
    body.textContent = "The game is over.";
    return;
  }
  const cards = [];
  for (const m of S.models) {
    try {
      const ev = await api(`/api/evaluate?model=${encodeURIComponent(m.name)}&moves=${movesText()}&top=10`);
      cards.push(renderModel(m.name, ev));
    } catch (e) {
      const p = document.createElement("p");
      p.textContent = `${m.name}: ${e.message}`;
      cards.push(p);
    }
    if (gen !== S.generation) return;
  }
  body.replaceChildren(...cards);
}
