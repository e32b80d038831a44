#!/usr/bin/env bash
# Installs what Wyvern needs on a fresh Debian/Ubuntu machine: clang-14 and
# llvm-14 (the C and bitcode frontend), z3, cvc5 and boolector (the SMT
# solvers of bounded model checking), nats-server 2.10+ (cluster tests; built
# with go install at the version go.mod pins),
# prometheus (metrics integration tests and scripts/cluster-local.sh),
# libc6-dev-i386 (the 32-bit C headers clang -m32 needs for ILP32 programs).
# Idempotent: installs only what is missing.
# Go 1.26+ must already be installed (https://go.dev/dl).
set -euo pipefail

need=()
command -v clang-14 >/dev/null 2>&1 || need+=(clang-14)
{ command -v llvm-dis-14 && command -v llvm-link-14; } >/dev/null 2>&1 || need+=(llvm-14)
command -v z3 >/dev/null 2>&1 || need+=(z3)
command -v cvc5 >/dev/null 2>&1 || need+=(cvc5)
command -v boolector >/dev/null 2>&1 || need+=(boolector)
command -v prometheus >/dev/null 2>&1 || need+=(prometheus)
# 32-bit C headers and crt files: ILP32 programs (--data-model ILP32, SV-COMP
# tasks with data_model: ILP32) are compiled with clang -m32
[ -e /usr/include/gnu/stubs-32.h ] || need+=(libc6-dev-i386)
# and gcc-multilib: the asm/ headers -m32 needs (errno.h includes them) and
# 32-bit libgcc to link natively (cmd/wyvern TestDifferentialILP32)
{ [ -e /usr/include/asm ] && compgen -G "/usr/lib/gcc/x86_64-linux-gnu/*/32/libgcc.a" >/dev/null; } || need+=(gcc-multilib)

if [ ${#need[@]} -gt 0 ]; then
  echo "install-deps: installing ${need[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
      echo "install-deps: need root (or sudo) to apt-get install ${need[*]}" >&2; exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if ! command -v go >/dev/null 2>&1; then
  echo "install-deps: Go is not installed; Wyvern needs Go 1.26 or newer (https://go.dev/dl)" >&2
  exit 1
fi
gov=$(go env GOVERSION | sed 's/^go//')
case "$gov" in
  1.2[6-9]*|1.[3-9][0-9]*|[2-9].*) ;;
  *) echo "install-deps: Go $gov is too old; Wyvern needs Go 1.26 or newer" >&2; exit 1 ;;
esac
# nats-server: Debian's 2.9.10 is too old (concurrent experiments hung with
# their jobs left in the stream); build the version go.mod pins, from the Go
# module proxy, unless a 2.10+ server is on PATH already.
nats_ok() {
  command -v nats-server >/dev/null 2>&1 || return 1
  local v
  v=$(nats-server --version 2>/dev/null | sed -n 's/.*v\([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p')
  set -- $v
  [ -n "${1:-}" ] && { [ "$1" -gt 2 ] || { [ "$1" -eq 2 ] && [ "$2" -ge 10 ]; }; }
}
if ! nats_ok; then
  nv=$(cd "$(dirname "$0")/.." && go list -m -f '{{.Version}}' github.com/nats-io/nats-server/v2)
  bindir=/usr/local/bin
  [ -w "$bindir" ] || bindir=$(go env GOPATH)/bin
  echo "install-deps: building nats-server $nv into $bindir (go install)"
  GOBIN=$bindir go install "github.com/nats-io/nats-server/v2@$nv"
  hash -r
  nats_ok || { echo "install-deps: nats-server $nv is not first on PATH ($(command -v nats-server))" >&2; exit 1; }
fi

echo "install-deps: clang-14 $(clang-14 --version | head -1 | sed 's/.*version //'), go $gov, $(nats-server --version): ok"
