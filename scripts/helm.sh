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

# shellcheck source=lib/go-tool.sh
. scripts/lib/go-tool.sh
build() { go_tool "$BIN" "helm.sh/helm/v3/cmd/helm@$VERSION" "Helm $VERSION"; }

case "${1:-}" in
  build) build ;;
  lint) "$(build)" lint --strict --kube-version "$KUBE" "$CHART" -f "$VALUES" ;;
  template) "$(build)" template support "$CHART" --kube-version "$KUBE" -f "$VALUES" ;;
  *) echo "usage: bash scripts/helm.sh build|lint|template" >&2; exit 2 ;;
esac
