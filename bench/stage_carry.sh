#!/usr/bin/env bash
# Copy what a device run of the paper suites needs from ../shared into .carry/ (git-ignored),
# since ../shared does not travel to the lent GPU machine: the real road networks the suites
# read and the prebuilt GPU peer programs (Gunrock SSSP and BFS). Name ".carry" in the device
# call's carry list and point the harness at it:
#   export WARPATH_DATASETS=$PWD/.carry/datasets WARPATH_PEERS=$PWD/.carry/peers
#
#   bash bench/stage_carry.sh                        # NY COL FLA NW NE + gunrock (~19 MB)
#   NETWORKS="NY FLA" PEERS=none bash bench/stage_carry.sh
#
# The working tree plus everything carried (.whl included) must stay under 64 MiB: the script
# ends by printing the sizes.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
SHARED=${SHARED:-../shared}
NETWORKS=${NETWORKS:-"NY COL FLA NW NE"}
PEERS=${PEERS:-gunrock}
SMALL=${SMALL:-"helsinki-osm-drive.gr.gz bremen-osm-dist.gr.gz seattle-south-osm-car.gr.gz
facebook_combined.txt.gz soc-sign-bitcoinalpha.csv.gz"}
# --git-path finds the exclude file of a linked worktree too (its .git is a file there)
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.carry/' "$exclude" 2>/dev/null || echo '/.carry/' >> "$exclude"
# the shared copies are read-only: make the old copy writable before removing it
[[ -d .carry ]] && chmod -R u+w .carry && rm -rf .carry
mkdir -p .carry/datasets .carry/peers
cp "$SHARED/datasets/MANIFEST.md" .carry/datasets/
for name in $NETWORKS; do
  cp "$SHARED/datasets/USA-road-$name.pace16.gr.xz" .carry/datasets/
done
# the small graphs the test suite reads (about 1 MB together): without them the tests that
# read the shared datasets fail on the device instead of skipping
for name in $SMALL; do
  cp "$SHARED/datasets/$name" .carry/datasets/
done
if [[ "$PEERS" != none ]]; then
  for peer in $PEERS; do
    mkdir -p ".carry/peers/$peer"
    cp "$SHARED/peers/$peer"/* ".carry/peers/$peer/"
  done
  cp "$SHARED/peers/README.md" .carry/peers/
fi
chmod -R u+w .carry
git check-ignore -q .carry || { echo "stage_carry: .carry is not git-ignored" >&2; exit 1; }
du -sh .carry .whl 2>/dev/null || true
echo "tracked files: $(git ls-files -z | du -ch --files0-from=- | tail -1 | cut -f1)"
