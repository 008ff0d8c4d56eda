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

# shellcheck source=lib/go-tool.sh
. scripts/lib/go-tool.sh
build() { go_tool "$BIN" "github.com/prometheus/prometheus/cmd/promtool@$VERSION" "promtool $VERSION"; }

case "${1:-}" in
  build) build ;;
  check) "$(build)" check rules infra/prometheus/alerts.yaml ;;
  *) echo "usage: bash scripts/promtool.sh build|check" >&2; exit 2 ;;
esac
