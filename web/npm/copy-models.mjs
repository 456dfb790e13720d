// Copies the repository's shipped models into the package before `npm pack` (they are not
// kept twice in git): the agents that read them find them beside connect4.mjs.
import { copyFileSync, mkdirSync } from "node:fs";

const from = new URL("../../models/", import.meta.url);
const to = new URL("./models/", import.meta.url);
mkdirSync(to, { recursive: true });
for (const name of ["gbt.bin", "lms.bin", "ntuple.bin", "ladder.json"]) copyFileSync(new URL(name, from), new URL(name, to));
