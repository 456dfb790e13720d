// The page's one way to the back end: `c4 serve`'s API, or the engine in a worker (see
// backend.js), chosen on first use.
import { chooseBackend } from "./backend.js";
import { S } from "./state.js";

let backend = null;

function current() {
  backend ??= chooseBackend();
  return backend;
}

/** Which back end answers: "server" or "engine". */
export function backendKind() {
  return current().kind;
}

// Every question goes to the back end: `c4 serve`'s API, or the engine in a worker.
export function api(path, options) {
  return current().call(path, options);
}

// Stops the computer's move or an analysis under way (Undo, New game): their answers are
// dropped, and the back end stops computing.
export function cancelWork() {
  S.generation++;
  S.thinking = false;
  current().cancel();
}

export function sizeQuery() {
  return `width=${S.width}&height=${S.height}`;
}
