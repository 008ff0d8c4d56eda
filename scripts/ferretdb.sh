#!/usr/bin/env bash
# FerretDB: a MongoDB-wire server over SQLite, for the MongoDB read store's tests and local runs.
#
#   bash scripts/ferretdb.sh build   build the binary once (about 80 s), then reuse it; prints its path
#   bash scripts/ferretdb.sh up      build if needed, start it in the foreground on a free loopback
#                                    port with a fresh data folder, and print the MONGODB_URL to use
#                                    (npm run engines:up; Ctrl-C stops it and removes the folder;
#                                    FERRETDB_DATA=dir keeps the data there, FERRETDB_PORT=n)
#
# The binary is cached in .engines/ (git-ignored), or in $FERRETDB_BIN's place when that is set.
# `go install …/cmd/ferretdb@v1.24.2` is refused by the module proxy here (the module's version
# list cannot be read), so the pinned version's source is downloaded by exact version in a
# throwaway module and built from a copy, with the version file its build expects.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=v1.24.2
MODULE=github.com/FerretDB/FerretDB
BIN=${FERRETDB_BIN:-$PWD/.engines/ferretdb-$VERSION/ferretdb}

go_cmd() {
  if command -v go >/dev/null; then echo go
  elif [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go
  else echo "ferretdb.sh: Go is needed to build FerretDB $VERSION (not found on PATH nor in /usr/local/go)" >&2; return 1
  fi
}

build() {
  if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "$VERSION"; then
    echo "$BIN"
    return
  fi
  local go work dir started
  go=$(go_cmd)
  started=$(date +%s)
  work=$(mktemp -d)
  # shellcheck disable=SC2064
  trap "chmod -R u+w '$work' 2>/dev/null; rm -rf '$work'" EXIT
  echo "building FerretDB $VERSION into $BIN (once; about 80 s)" >&2
  (cd "$work" && "$go" mod init ferretdb-build >/dev/null 2>&1)
  dir=$(cd "$work" && "$go" mod download -json "$MODULE@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then echo "ferretdb.sh: go mod download gave no source folder for $MODULE@$VERSION" >&2; return 1; fi
  cp -r "$dir" "$work/src"
  chmod -R u+w "$work/src"
  printf '%s' "$VERSION" > "$work/src/build/version/version.txt"
  mkdir -p "$(dirname "$BIN")"
  (cd "$work/src" && GOFLAGS=-buildvcs=false "$go" build -trimpath -o "$BIN.tmp" ./cmd/ferretdb)
  mv "$BIN.tmp" "$BIN"
  chmod -R u+w "$work" && rm -rf "$work"
  trap - EXIT
  echo "built FerretDB $VERSION in $(( $(date +%s) - started )) s" >&2
  echo "$BIN"
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

up() {
  build >/dev/null
  local port data
  port=${FERRETDB_PORT:-$(free_port)}
  if [ -n "${FERRETDB_DATA:-}" ]; then
    data=$FERRETDB_DATA
    mkdir -p "$data"
  else
    data=$(mktemp -d "${TMPDIR:-/tmp}/ferretdb-XXXXXX")
    # Expanded now: the function's locals are gone when the EXIT trap runs.
    # shellcheck disable=SC2064
    trap "rm -rf '$data'" EXIT
  fi
  echo "FerretDB $VERSION (SQLite in $data) on 127.0.0.1:$port" >&2
  echo "MONGODB_URL=mongodb://127.0.0.1:$port/"
  # In the background with a wait, so that a signal to this script (Ctrl-C, SIGTERM) stops the
  # server and then the EXIT trap removes a temporary data folder.
  # --debug-addr=-: no debug HTTP listener (its fixed default port clashes between servers);
  # --state-dir: its state file beside the data instead of in the current folder.
  "$BIN" --handler=sqlite --sqlite-url="file:$data/" --listen-addr="127.0.0.1:$port" --telemetry=disable \
    --debug-addr=- --state-dir="$data" --log-level=warn &
  local pid=$!
  trap 'kill -TERM "$pid" 2>/dev/null || true' INT TERM HUP
  local status=0
  wait "$pid" || status=$?
  # A trapped signal ends the first wait early: wait again for the server to be gone.
  while kill -0 "$pid" 2>/dev/null; do wait "$pid" || true; done
  return "$status"
}

case "${1:-build}" in
  build) build ;;
  up) up ;;
  *) echo "usage: $0 [build|up]" >&2; exit 2 ;;
esac
