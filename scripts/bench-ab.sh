#!/usr/bin/env bash
# A before/after of the benchmark suites: the same suites against two builds of brookgl, old and
# new interleaved, so that drift of the machine (clocks, other load) falls on both alike.
#
#   bash scripts/bench-ab.sh pack OLD_TREE NEW_TREE OUT.tar.xz [FILE...]
#     OLD_TREE and NEW_TREE are checkouts built with `node scripts/build.mjs --tests --driver --no-types`.
#     Writes roots/H-L for harness H and library L in {old,new}: the harness is a tree's bench page
#     and suites (demos/bench, demos/lib), its bench driver (dist/node/bench.mjs) and package.json;
#     the library is a tree's dist/brookgl.js. So a suite runs against either build with one
#     harness (hnew-lold against hnew-lnew: only the library differs). Also data/ (the ccd and
#     horn-apps suites load PLY files), TensorFlow.js for `peers`, this script, bench-compare.mjs
#     and the FILEs given (e.g. a plan that runs the chosen suites). No source maps. xz folds the four near-identical roots into one (about 2-3 MB).
#
#   bash scripts/bench-ab.sh run [-r ROUNDS] [-x EXTRA] [-t SECONDS] OUT OLD_ROOT NEW_ROOT 'SUITE [OPTS]'...
#     ROUNDS: round numbers, e.g. "1 2 3" (default "1 2"); give one round per call to spread the
#     rounds over several commands. In each round every suite runs on OLD_ROOT then NEW_ROOT (odd
#     rounds) or NEW_ROOT then OLD_ROOT (even rounds). EXTRA: arguments for every bench run
#     (e.g. --gpu). SECONDS: the most one bench run may take (default 300; then it is killed and
#     the next runs). Writes OUT/r<round>/{old,new}/<suite>-<harness>.json and .log, where
#     <harness> is the root's name up to '-' (e.g. hnew); then
#       node scripts/bench-compare.mjs OUT
#     prints the new/old ratio of every timing cell, per table.
set -u

die() { echo "bench-ab: $*" >&2; exit 2; }

pack() {
  [ $# -ge 3 ] || die "usage: bench-ab.sh pack OLD_TREE NEW_TREE OUT.tar.xz [FILE...]"
  local old new out here stage h l tree lib
  old=$(cd "$1" && pwd) || die "no tree $1"
  new=$(cd "$2" && pwd) || die "no tree $2"
  out=$3
  shift 3
  here=$(cd "$(dirname "$0")" && pwd)
  for tree in "$old" "$new"; do
    for f in dist/brookgl.js dist/node/bench.mjs package.json demos/bench/bench.js; do
      [ -f "$tree/$f" ] || die "$tree/$f missing (build with: node scripts/build.mjs --tests --driver --no-types)"
    done
  done
  stage=$(mktemp -d)
  for h in old new; do
    for l in old new; do
      [ $h = old ] && tree=$old || tree=$new
      [ $l = old ] && lib=$old || lib=$new
      local root="$stage/roots/h$h-l$l"
      mkdir -p "$root/demos" "$root/dist/node" "$root/bench-results"
      cp "$tree/package.json" "$root/"
      cp -r "$tree/demos/bench" "$tree/demos/lib" "$root/demos/"
      cp "$tree/dist/node/bench.mjs" "$root/dist/node/"
      [ -f "$tree/dist/vendor/tfjs.js" ] && mkdir -p "$root/dist/vendor" && cp "$tree/dist/vendor/tfjs.js" "$root/dist/vendor/"
      cp "$lib/dist/brookgl.js" "$root/dist/"
      # the library's own version, for the record
      (cd "$lib" && git rev-parse --short HEAD 2>/dev/null || echo unknown) > "$root/LIBRARY_COMMIT"
      (cd "$tree" && git rev-parse --short HEAD 2>/dev/null || echo unknown) > "$root/HARNESS_COMMIT"
      cp -r "$new/data" "$root/data"
    done
  done
  # no source maps: the build writes sourceMappingURL comments; the page works without the maps
  find "$stage" -name '*.map' -delete
  cp "$here/bench-ab.sh" "$here/bench-compare.mjs" "$stage/"
  [ $# -gt 0 ] && cp "$@" "$stage/"
  mkdir -p "$(dirname "$out")"
  tar -C "$stage" -cf - . | xz -9e -T1 > "$out" || die "tar failed"
  rm -rf "$stage"
  echo "wrote $out ($(du -h "$out" | cut -f1))"
}

run() {
  local rounds="1 2" extra="" limit=300
  while [ $# -gt 0 ]; do
    case $1 in
      -r) rounds=$2; shift 2 ;;
      -x) extra=$2; shift 2 ;;
      -t) limit=$2; shift 2 ;;
      *) break ;;
    esac
  done
  [ $# -ge 4 ] || die "usage: bench-ab.sh run [-r ROUNDS] [-x EXTRA] [-t SECONDS] OUT OLD_ROOT NEW_ROOT 'SUITE [OPTS]'..."
  local out=$1 oldr newr
  oldr=$(cd "$2" && pwd) || die "no root $2"
  newr=$(cd "$3" && pwd) || die "no root $3"
  shift 3
  mkdir -p "$out"
  local r spec suite side root tag order fail=0 t0 t1
  for r in $rounds; do
    for spec in "$@"; do
      suite=${spec%% *}
      if [ $((r % 2)) -eq 1 ]; then order="old new"; else order="new old"; fi
      for side in $order; do
        [ $side = old ] && root=$oldr || root=$newr
        tag=$(basename "$root"); tag=${tag%%-*}
        local dir="$out/r$r/$side"
        mkdir -p "$dir"
        t0=$(date +%s)
        # shellcheck disable=SC2086 # spec and extra are word lists on purpose
        timeout -k 10 "$limit" node "$root/dist/node/bench.mjs" $spec $extra --out "$dir" --label "$tag" > "$dir/$suite-$tag.log" 2>&1
        local rc=$?
        t1=$(date +%s)
        echo "round $r  $side  $spec  ($(basename "$root"): harness $(cat "$root/HARNESS_COMMIT" 2>/dev/null), library $(cat "$root/LIBRARY_COMMIT" 2>/dev/null)): rc $rc, $((t1 - t0)) s$([ $rc -eq 124 ] && echo ', killed at the time limit')"
        [ $rc -eq 0 ] || { fail=1; tail -5 "$dir/$suite-$tag.log"; }
        rm -f "$dir"/*.svg "$dir/index.json"
      done
    done
  done
  return $fail
}

case ${1:-} in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) die "usage: bench-ab.sh pack OLD_TREE NEW_TREE OUT.tar.xz | run [-r ROUNDS] [-x EXTRA] [-t SECONDS] OUT OLD_ROOT NEW_ROOT 'SUITE [OPTS]'..." ;;
esac
