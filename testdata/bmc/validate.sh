#!/usr/bin/env bash
# validate.sh: checks the BMC corpus without the BMC engine (see README.md).
#   For every program in EXPECTED.tsv:
#   (a) it compiles natively with clang-14 (-Wall, implicit declarations are errors);
#   (b) Wyvern loads it: `wyvern run FILE` does not exit 2 (bad input);
#   (c) satisfied lines: built with -DWITNESS (its inputs, and for threads a forced
#       schedule) and ASan+UBSan, it must hit the error of the query's kind;
#   (d) not-satisfied lines: built with -DEXHAUSTIVE and ASan+UBSan, every input
#       sequence (or, for wide inputs without a declared domain, every edge-value
#       sequence: "sampled") runs without an error and within the stated unwind;
#   (e) incomplete and not-satisfied lines of safe threaded programs: 20 native runs without an error.
# Usage: testdata/bmc/validate.sh [--pr]   (--pr also measures the Pr misses: slow)
# Env: WYVERN=path to a wyvern binary (default: built with go build), CLANG, SANCC,
#      CORPUS=another corpus directory with the same layout (testdata/bmc-heap).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=$(cd "${CORPUS:-$here}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CLANG=${CLANG:-clang-14}
inc="-I$root/ir/include"

# A compiler whose sanitizer runtime links (Debian's clang-14 may lack it).
SANCC=${SANCC:-}
if [ -z "$SANCC" ]; then
  echo 'int main(void){return 0;}' >"$work/t.c"
  for cc in "$CLANG" gcc clang; do
    if $cc -fsanitize=address,undefined "$work/t.c" -o "$work/t" 2>/dev/null; then SANCC=$cc; break; fi
  done
fi
[ -n "$SANCC" ] || { echo "no compiler with ASan/UBSan runtimes"; exit 2; }
san="-g -O0 -std=gnu11 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=0

WYVERN=${WYVERN:-}
if [ -z "$WYVERN" ]; then
  WYVERN="$work/wyvern"
  if ! (cd "$root" && go build -o "$WYVERN" ./cmd/wyvern) >"$work/gobuild.log" 2>&1; then
    echo "cannot build wyvern:"; cat "$work/gobuild.log"; WYVERN=""
  fi
fi

# Expected evidence of an error kind in a sanitized native run (stdout+stderr).
pattern() {
  case "$1" in
    ReachError|VerifierError) echo 'REACHED' ;;
    AssertFail) echo 'Assertion .* failed' ;;
    OutOfBounds) echo 'buffer-overflow|buffer-underflow|out of bounds|index -?[0-9]+ out of bounds' ;;
    UseAfterFree) echo 'heap-use-after-free' ;;
    DoubleFree) echo 'double-free' ;;
    InvalidFree) echo 'free on address which was not malloc|bad-free|invalid-free' ;;
    NullDeref) echo 'SEGV on unknown address 0x0+ |null pointer' ;;
    Overflow) echo 'signed integer overflow|cannot be represented|negation of' ;;
    ShiftOverflow) echo 'shift exponent' ;;
    DivZero) echo 'division by zero' ;;
    *) echo 'REACHED|Assertion .* failed|AddressSanitizer|runtime error' ;;
  esac
}

pass=0; fail=0
files=$(tail -n +2 "$corpus/EXPECTED.tsv" | cut -f1 | awk '!seen[$0]++')
for f in $files; do
  src="$corpus/$f"; name=${f%.c}; msgs=(); ok=1
  [ -f "$src" ] || { echo "FAIL $f: missing"; fail=$((fail+1)); continue; }
  # (a) native compile
  if ! $CLANG -std=gnu11 $inc -Wall -Werror=implicit-function-declaration -c "$src" -o "$work/$name.o" 2>"$work/$name.cc"; then
    ok=0; msgs+=("clang-14: $(head -c 300 "$work/$name.cc")")
  fi
  # (b) Wyvern loads it
  if [ -n "$WYVERN" ]; then
    timeout 60 "$WYVERN" run "$src" --max-steps 200000 >/dev/null 2>"$work/$name.wy"; rc=$?
    # 2 is bad input, unless it is the program's own exit status
    if [ $rc -eq 2 ] && ! grep -q 'program exited with status' "$work/$name.wy"; then ok=0; msgs+=("wyvern rejects it: $(head -c 300 "$work/$name.wy")"); fi
    msgs+=("wyvern-run=$rc")
  else
    ok=0; msgs+=("wyvern not built")
  fi
  threaded=0; grep -q 'pthread_create' "$src" && threaded=1
  while IFS=$'\t' read -r file query unwind contexts verdict note; do
    [ "$file" = "$f" ] || continue
    kind=$(echo "$query" | sed -n 's/.*Error(\([A-Za-z]*\)).*/\1/p')
    if [ $threaded = 1 ] && { [ "$verdict" = not-satisfied ] || { [ "$verdict" = incomplete ] && grep -q 'safe' <<<"$note"; }; }; then
      # (e) safe threaded program (proved by the partial-order check, or not proved): native stress runs
      if ! $SANCC $san $inc -include "$here/harness.h" "$src" "$here/harness.c" -pthread \
          -o "$work/$name.s" 2>"$work/$name.scc"; then
        ok=0; msgs+=("stress build: $(head -c 300 "$work/$name.scc")"); continue
      fi
      bad=0
      for i in $(seq 20); do (timeout 20 "$work/$name.s" >"$work/$name.sout" 2>&1) 2>/dev/null || bad=$((bad+1)); done
      if [ $bad -eq 0 ]; then msgs+=("20 native runs clean"); else ok=0; msgs+=("$bad of 20 native runs failed"); fi
      continue
    fi
    case "$verdict" in
    satisfied)
      # (c) the witness hits the error
      if ! $SANCC $san $inc -DWITNESS -include "$here/harness.h" "$src" "$here/harness.c" -pthread \
          -o "$work/$name.w" 2>"$work/$name.wcc"; then
        ok=0; msgs+=("witness build: $(head -c 300 "$work/$name.wcc")"); continue
      fi
      rc=$( (timeout 20 "$work/$name.w" >"$work/$name.wout" 2>&1; echo $?) 2>/dev/null )
      if grep -Eq "$(pattern "$kind")" "$work/$name.wout" && [ $rc -ne 0 ]; then
        msgs+=("witness hits ${kind:-Error} (rc $rc)")
      else
        ok=0; msgs+=("witness does not hit ${kind:-Error} (rc $rc): $(tail -c 300 "$work/$name.wout" | tr '\n' ' ')")
      fi ;;
    not-satisfied)
      # (d) exhaustive (or sampled) native check
      if ! { $SANCC $san $inc -DEXHAUSTIVE -Dmain=wv_main -include "$here/harness.h" -c "$src" -o "$work/$name.xo" &&
          $SANCC $san -DEXHAUSTIVE "$work/$name.xo" "$here/harness.c" -pthread -o "$work/$name.x"; } 2>"$work/$name.xcc"; then
        ok=0; msgs+=("exhaustive build: $(head -c 300 "$work/$name.xcc")"); continue
      fi
      rc=$( (timeout 120 "$work/$name.x" >"$work/$name.xout" 2>&1; echo $?) 2>/dev/null )
      if [ $rc -eq 0 ] && grep -Eq '^(exhaustive|sampled) ' "$work/$name.xout"; then
        msgs+=("$(grep -E '^(exhaustive|sampled) ' "$work/$name.xout" | sed 's/ runs.*/ runs/')")
      else
        ok=0; msgs+=("exhaustive check fails (rc $rc): $(tail -c 300 "$work/$name.xout" | tr '\n' ' ')")
      fi ;;
    incomplete) ;;
    *) ok=0; msgs+=("unknown verdict $verdict") ;;
    esac
  done < <(tail -n +2 "$corpus/EXPECTED.tsv")
  if [ $ok = 1 ]; then pass=$((pass+1)); st=PASS; else fail=$((fail+1)); st=FAIL; fi
  (IFS='; '; echo "$st $f: ${msgs[*]}")
done

if [ "${1:-}" = "--pr" ] && [ -n "$WYVERN" ]; then
  # (f) the bugs noted "Pr misses it": no hit in 104561 random runs (Okamoto, eps 0.0042)
  for f in $(awk -F'\t' 'NR>1 && $6 ~ /Pr misses it/ {print $1}' "$corpus/EXPECTED.tsv"); do
    out=$("$WYVERN" check "$corpus/$f" 'Pr[<=100000](<> Error) {Rule=fixed, Epsilon=0.0042}' --quiet --workers 1 2>&1)
    runs=$(echo "$out" | grep -E '^Runs:')
    if echo "$runs" | grep -q 'satisfying: 0$'; then pass=$((pass+1)); echo "PASS $f: Pr misses it: $runs"
    else fail=$((fail+1)); echo "FAIL $f: Pr hits it: $runs"; fi
  done
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
