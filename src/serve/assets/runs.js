// The runs tab: pipeline runs listed and shown (their ladder, error rates, plots and report),
// read from `c4 serve`'s /api/runs. The Markdown reader and table maker are pure functions
// (unit-tested with `node --test tests/web`).
import { $ } from "./state.js";
import { api } from "./api.js";

export function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
}

function inline(s) {
  return escapeHtml(s)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

// A small Markdown reader for the pipeline's report: headings, tables, lists, code, paragraphs.
export function markdown(md) {
  const out = [];
  const lines = md.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      i++;
      out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, line.indexOf(" "));
      out.push(`<h${level}>${inline(line.replace(/^#+ /, ""))}</h${level}>`);
      i++;
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      const cells = (r) => r.replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const body = rows.filter((r) => !/^\|[\s:|-]+\|$/.test(r));
      const [head, ...rest] = body;
      out.push(
        "<table><thead><tr>" + cells(head).map((c) => `<th>${inline(c)}</th>`).join("") + "</tr></thead><tbody>" +
          rest.map((r) => "<tr>" + cells(r).map((c) => `<td>${inline(c)}</td>`).join("") + "</tr>").join("") +
          "</tbody></table>",
      );
    } else if (/^\s*[-*] /.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*[-*] /.test(lines[i])) items.push(lines[i++].replace(/^\s*[-*] /, ""));
      out.push("<ul>" + items.map((t) => `<li>${inline(t)}</li>`).join("") + "</ul>");
    } else if (line.trim() === "") {
      i++;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() !== "" && !/^(#|\||```|\s*[-*] )/.test(lines[i])) para.push(lines[i++]);
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}

export function table(headers, rows) {
  return (
    "<table><thead><tr>" + headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("") + "</tr></thead><tbody>" +
    rows.map((r) => "<tr>" + r.map((c) => `<td>${escapeHtml(String(c))}</td>`).join("") + "</tr>").join("") +
    "</tbody></table>"
  );
}

export async function showRun(name) {
  const view = $("run-view");
  view.hidden = false;
  view.textContent = "Loading…";
  let r;
  try {
    r = await api(`/api/runs/${encodeURIComponent(name)}`);
  } catch (e) {
    view.textContent = e.message;
    return;
  }
  const parts = [`<h2>${escapeHtml(r.name)}</h2>`];
  if (r.ladder && Array.isArray(r.ladder.elo)) {
    parts.push("<h3>Elo (ladder)</h3>");
    parts.push(table(["agent", "Elo", "95% interval", "games", "score %"],
      r.ladder.elo.map((e) => [e.agent, e.elo.toFixed(0), `${e.low.toFixed(0)} … ${e.high.toFixed(0)}`, e.games, e.score_pct.toFixed(1)])));
  }
  if (Array.isArray(r.error_rates) && r.error_rates.length) {
    parts.push("<h3>Error rates against the solver</h3>");
    parts.push(table(["agent", "set", "positions", "errors", "error rate %", "optimal %"],
      r.error_rates.map((e) => [e.agent, e.set, e.positions, e.errors, (100 * e.error_rate).toFixed(1), (100 * e.optimal_rate).toFixed(1)])));
  }
  if (r.plots.length) {
    parts.push("<h3>Plots</h3><div class=\"plots\">");
    for (const p of r.plots) {
      const src = `/runs/${encodeURIComponent(r.name)}/${p.split("/").map(encodeURIComponent).join("/")}`;
      parts.push(`<figure><img loading="lazy" src="${src}" alt="${escapeHtml(p)}"><figcaption>${escapeHtml(p)}</figcaption></figure>`);
    }
    parts.push("</div>");
  }
  if (r.report) parts.push(`<h3>Report</h3><div class="report">${markdown(r.report)}</div>`);
  parts.push(`<p class="meta">${r.files.length} files.</p>`);
  view.innerHTML = parts.join("\n");
  for (const img of view.querySelectorAll(".plots img")) img.addEventListener("click", () => enlarge(img.src, img.alt));
  const want = `#runs=${encodeURIComponent(r.name)}`;
  if (location.hash !== want) history.replaceState(null, "", want);
}

// Shows a plot at full size; a click anywhere closes it.
function enlarge(src, alt) {
  $("lightbox-img").src = src;
  $("lightbox-img").alt = alt;
  $("lightbox").hidden = false;
}

export async function loadRuns() {
  const list = $("run-list");
  list.textContent = "Loading…";
  try {
    const r = await api("/api/runs");
    $("runs-folder").textContent = `Run folders under ${r.folder}.`;
    list.innerHTML = "";
    if (!r.runs.length) list.textContent = "No runs yet: `c4 pipeline --out runs/NAME` makes one.";
    for (const run of r.runs) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = run.name;
      b.addEventListener("click", () => showRun(run.name));
      li.appendChild(b);
      const when = new Date(run.modified * 1000);
      li.append(` · ${when.toLocaleString()}${run.report ? "" : " · no report"}`);
      list.appendChild(li);
    }
  } catch (e) {
    list.textContent = e.message;
  }
}
