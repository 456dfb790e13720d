#!/usr/bin/env bash
# Labels the 12-ply book's leaves in chunks of 100,000 lines, the chunks in the order of
# leaves.txt, each finished chunk written to labelled/part-NNN.txt.gz (committed as they
# come); a chunk already there is skipped and an interrupted one resumes from its .partial
# file, so running this again goes on where it stopped. Run from this folder:
#   C4=path/to/c4 nice -n 19 bash label.sh
# (leaves.txt is made first when missing, and checked against its sha256 either way).
set -euo pipefail
C4=${C4:-c4}
JOBS=${JOBS:-2}
CHUNK=100000
# The leaves every chunk is cut from (not committed: made again in seconds, and checked, since
# the committed chunks are only right for exactly this file).
LEAVES_SHA256=bbe2bc1a2f8fea4fa1e6ced2f466c885712989601b7cfc61b6843c95fb89ddda
if [ ! -f leaves.txt ]; then
  mkdir -p work
  "$C4" data book --plies 12 --write-leaves leaves.txt.tmp --out work/leaves-book.bin
  rm -f work/leaves-book.bin
  mv leaves.txt.tmp leaves.txt
fi
echo "$LEAVES_SHA256  leaves.txt" | sha256sum --check --quiet || {
  echo "label.sh: leaves.txt is not the file the chunks were cut from (sha256 above)" >&2
  exit 1
}
total=$(wc -l < leaves.txt)
chunks=$(( (total + CHUNK - 1) / CHUNK ))
mkdir -p labelled work
for ((i = 0; i < chunks; i++)); do
  name=$(printf 'part-%03d' "$i")
  [ -f "labelled/$name.txt.gz" ] && continue
  if [ ! -f "work/$name.leaves" ]; then
    sed -n "$((i * CHUNK + 1)),$(((i + 1) * CHUNK))p;$(((i + 1) * CHUNK))q" leaves.txt > "work/$name.leaves.tmp"
    mv "work/$name.leaves.tmp" "work/$name.leaves"
  fi
  "$C4" data label "work/$name.leaves" --out "work/$name.txt" --resume --jobs "$JOBS" --shallow-mib 4096
  gzip -n -9 -c "work/$name.txt" > "labelled/$name.txt.gz.tmp"
  mv "labelled/$name.txt.gz.tmp" "labelled/$name.txt.gz"
  rm -f "work/$name".*
  echo "$(date -u +%FT%TZ) $name done"
done
echo "$(date -u +%FT%TZ) all $chunks chunks labelled"
