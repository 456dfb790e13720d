// The agent controls: the strength presets that fit the board, the dial, a custom spec and
// the Agent and Depth controls that follow it, and the board size.
import { $, S } from "./state.js";
import { ELO_KEY, PRESET_KEY, dialElo, dialSpec } from "./adaptive.js";
import { agentChanged, showEstimate } from "./game.js";
import { controlsForSpec, presetLabel, presetsFor, specForControls } from "./view.js";

// Strength presets (from the back end, each with its measured Elo; only those whose models
// fit the board) and a custom spec.
export function fillPresets() {
  const sel = $("preset");
  // The strength chosen last time (kept across page loads) on the first fill.
  const before = sel.value || localStorage.getItem(PRESET_KEY) || "";
  sel.innerHTML = "";
  const fit = presetsFor(S.presets, S.width, S.height);
  for (const p of fit) {
    const o = document.createElement("option");
    o.value = p.agent;
    o.textContent = presetLabel(p);
    o.title = `${p.agent}: ${p.about}` + (p.games ? ` (${p.games} ladder games, 95% interval ${Math.round(p.low)}…${Math.round(p.high)})` : "");
    sel.appendChild(o);
  }
  const dial = document.createElement("option");
  dial.value = "level";
  dial.textContent = "Strength dial (Elo)…";
  dial.title = "level:elo=E: any Elo from the random player's to the perfect player's";
  sel.appendChild(dial);
  const custom = document.createElement("option");
  custom.value = "custom";
  custom.textContent = "Custom agent…";
  sel.appendChild(custom);
  sel.value = [...sel.options].some((o) => o.value === before) ? before : fit.length ? fit[0].agent : "custom";
  applyPreset();
}

function applyPreset() {
  const sel = $("preset");
  if (sel.value !== "custom") localStorage.setItem(PRESET_KEY, sel.value);
  document.body.classList.toggle("custom", sel.value === "custom");
  document.body.classList.toggle("dial", sel.value === "level");
  $("agent-spec").value = sel.value === "custom" ? specFromControls() : sel.value === "level" ? dialSpec($("elo").value) : sel.value;
  showEstimate(null);
  syncControlsToSpec();
  agentChanged();
}

function specFromControls() {
  return specForControls($("agent-kind").value, $("depth").value, S.kinds);
}

// The Agent and Depth controls follow the spec when they can show it.
function syncControlsToSpec() {
  const c = controlsForSpec($("agent-spec").value, S.kinds);
  if (!c) return;
  $("agent-kind").value = c.kind;
  if (c.depth !== null) $("depth").value = c.depth;
  const kind = S.kinds.find((k) => k.name === c.kind);
  $("depth").disabled = !(kind && kind.keys.includes("depth"));
}

// The agent kinds come from the back end (its /api/agents), never from a list of our own.
export function setupAgents() {
  const sel = $("agent-kind");
  sel.innerHTML = "";
  for (const k of S.kinds) {
    const o = document.createElement("option");
    o.value = k.name;
    o.textContent = k.name;
    o.title = `${k.usage}: ${k.summary}`;
    sel.appendChild(o);
  }
  sel.value = S.kinds.some((k) => k.name === "easy") ? "easy" : (S.kinds[0] || {}).name;
  const sync = () => {
    $("agent-spec").value = specFromControls();
    syncControlsToSpec();
    agentChanged();
  };
  sel.addEventListener("change", sync);
  $("depth").addEventListener("change", sync);
  // A typed spec is a custom agent; fixing a bad one retries the computer's move.
  $("agent-spec").addEventListener("change", () => {
    const preset = $("preset");
    const typed = $("agent-spec").value.trim();
    if ([...preset.options].some((o) => o.value === typed)) preset.value = typed;
    else if (dialElo(typed) !== null) {
      preset.value = "level";
      $("elo").value = String(dialElo(typed));
      $("elo-value").textContent = $("elo").value;
    } else preset.value = "custom";
    document.body.classList.toggle("custom", preset.value === "custom");
    document.body.classList.toggle("dial", preset.value === "level");
    showEstimate(null);
    syncControlsToSpec();
    agentChanged();
  });
  $("preset").addEventListener("change", applyPreset);
  // The number follows the slider as it moves; the agent changes when it is let go.
  $("elo").addEventListener("input", () => {
    $("elo-value").textContent = $("elo").value;
  });
  $("elo").addEventListener("change", () => {
    $("elo-value").textContent = $("elo").value;
    localStorage.setItem(ELO_KEY, $("elo").value);
    $("agent-spec").value = dialSpec($("elo").value);
    agentChanged();
  });
}

// The slider spans the dial's range as the back end reports it.
export function setupDial(range) {
  if (!range) return;
  const el = $("elo");
  el.min = String(Math.ceil(range.low / 10) * 10);
  el.max = String(Math.floor(range.high / 10) * 10);
  const kept = Number(localStorage.getItem(ELO_KEY));
  el.value = String(kept >= Number(el.min) && kept <= Number(el.max) ? kept : Math.round((range.low + range.high) / 20) * 10);
  $("elo-value").textContent = el.value;
}

export function setBoardSize(width, height) {
  const value = `${width}x${height}`;
  const sel = $("board-size");
  if (![...sel.options].some((o) => o.value === value)) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = `${width} x ${height}`;
    sel.appendChild(o);
  }
  sel.value = value;
  S.width = width;
  S.height = height;
  fillPresets();
}
