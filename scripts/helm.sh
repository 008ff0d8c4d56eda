#!/usr/bin/env bash
# Helm, for the chart in infra/helm/support-platform.
#
#   bash scripts/helm.sh build      build it once from the Go module proxy (a few minutes; seconds
#                                   with Go's caches warm), then reuse it; prints its path
#   bash scripts/helm.sh lint       helm lint --strict on the chart, with the values CI renders
#   bash scripts/helm.sh template   the manifests the chart renders with those values
#
# The binary is cached in .engines/ (git-ignored), or in $HELM_BIN's place when that is set.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=v3.22.0
BIN=${HELM_BIN:-$PWD/.engines/helm-$VERSION/helm}
CHART=infra/helm/support-platform
VALUES=infra/helm/ci-values.yaml
# A `go install` build does not know the Kubernetes version a release build stamps in (it says
# 1.20): render for a supported one.
KUBE=1.31.0

go_cmd() {
  if command -v go >/dev/null; then echo go
  elif [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go
  else echo "helm.sh: Go is needed to build Helm $VERSION (not found on PATH nor in /usr/local/go)" >&2; return 1
  fi
}

build() {
  # The path names the version (a `go install` build does not stamp it into `helm version`).
  if [ -x "$BIN" ]; then
    echo "$BIN"
    return
  fi
  local go started
  go=$(go_cmd)
  started=$(date +%s)
  echo "building Helm $VERSION into $BIN (once)" >&2
  mkdir -p "$(dirname "$BIN")"
  GOBIN="$(dirname "$BIN")" GOFLAGS=-mod=mod "$go" install "helm.sh/helm/v3/cmd/helm@$VERSION"
  echo "built Helm in $(($(date +%s) - started)) s" >&2
  echo "$BIN"
}

case "${1:-}" in
  build) build ;;
  lint) "$(build)" lint --strict --kube-version "$KUBE" "$CHART" -f "$VALUES" ;;
  template) "$(build)" template support "$CHART" --kube-version "$KUBE" -f "$VALUES" ;;
  *) echo "usage: bash scripts/helm.sh build|lint|template" >&2; exit 2 ;;
esac
