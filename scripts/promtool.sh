#!/usr/bin/env bash
# promtool, Prometheus' own checker, for the alert rules in infra/prometheus/alerts.yaml.
#
#   bash scripts/promtool.sh build   build it once from the Go module proxy (a few minutes; seconds
#                                    with Go's caches warm), then reuse it; prints its path
#   bash scripts/promtool.sh check   check the alert rules
#
# The binary is cached in .engines/ (git-ignored), or in $PROMTOOL_BIN's place when that is set.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=v0.316.0
BIN=${PROMTOOL_BIN:-$PWD/.engines/promtool-$VERSION/promtool}

go_cmd() {
  if command -v go >/dev/null; then echo go
  elif [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go
  else echo "promtool.sh: Go is needed to build promtool $VERSION (not found on PATH nor in /usr/local/go)" >&2; return 1
  fi
}

build() {
  # The path names the version (a `go install` build does not stamp it into --version).
  if [ -x "$BIN" ]; then
    echo "$BIN"
    return
  fi
  local go started
  go=$(go_cmd)
  started=$(date +%s)
  echo "building promtool $VERSION into $BIN (once)" >&2
  mkdir -p "$(dirname "$BIN")"
  GOBIN="$(dirname "$BIN")" GOFLAGS=-mod=mod "$go" install "github.com/prometheus/prometheus/cmd/promtool@$VERSION"
  echo "built promtool in $(($(date +%s) - started)) s" >&2
  echo "$BIN"
}

case "${1:-}" in
  build) build ;;
  check) "$(build)" check rules infra/prometheus/alerts.yaml ;;
  *) echo "usage: bash scripts/promtool.sh build|check" >&2; exit 2 ;;
esac
