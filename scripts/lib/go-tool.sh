# Sourced by scripts that build a Go tool from the module proxy into .engines/ (promtool.sh, helm.sh).

# The go command: on PATH, or Go's default install place.
go_cmd() {
  if command -v go >/dev/null; then echo go
  elif [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go
  else echo "Go is needed to build $1 (not found on PATH nor in /usr/local/go)" >&2; return 1
  fi
}

# go_tool BIN MODULE@VERSION NAME: BIN once built (its path names the version: a `go install`
# build does not stamp it into the tool's own version output), else built there; prints BIN.
go_tool() {
  local bin=$1 module=$2 name=$3 go started
  if [ -x "$bin" ]; then
    echo "$bin"
    return
  fi
  go=$(go_cmd "$name")
  started=$(date +%s)
  echo "building $name into $bin (once)" >&2
  mkdir -p "$(dirname "$bin")"
  GOBIN="$(dirname "$bin")" GOFLAGS=-mod=mod "$go" install "$module"
  echo "built $name in $(($(date +%s) - started)) s" >&2
  echo "$bin"
}
