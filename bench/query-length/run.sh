#!/bin/bash
# How a search's time grows with the query's length (issue 30): the built CLI over a two-file tree,
# queries of 1,000 / 16,000 / 100,000 characters (the first N of src/**/*.ts) beside a short one, 3 runs
# each. Usage: bench/query-length/run.sh [CLI ...]  (default: dist/src/cli/main.js); pass two CLIs
# (e.g. a build of main and one of this branch) to compare them in one run, as these machines are noisy.

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree"
cp "$repo/src/searcher.ts" "$work/tree/a.ts"; cp "$repo/src/rank/plan.ts" "$work/tree/b.ts"
cat "$repo"/src/*.ts "$repo"/src/*/*.ts > "$work/all.txt"
export SIMGREP_HOME="$work/home" SIMGREP_CACHE_DIR="$work/cache" HF_HUB_OFFLINE=1
[ $# -eq 0 ] && set -- "$repo/dist/src/cli/main.js"
for cli in "$@"; do
  echo "$cli"
  for q in short 1000 16000 100000; do
    if [ $q = short ]; then Q="retry failed uploads"; else Q="$(head -c $q "$work/all.txt")"; fi
    ts=()
    for i in 1 2 3; do
      s=$(date +%s%N); node "$cli" --no-index -J 0 --top-k 3 -- "$Q" "$work/tree" >/dev/null 2>&1 || true; e=$(date +%s%N)
      ts+=($(( (e-s)/1000000 )))
    done
    echo "  $q chars: ${ts[*]} ms"
  done
done
