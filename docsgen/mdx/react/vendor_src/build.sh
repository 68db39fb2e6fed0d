#!/bin/sh
# Rebuild the vendored Preact bundles (see docs/vendored.md). Run from the repository root; needs npm.
set -eu
PREACT=10.29.8
RTS=6.8.2
SUCRASE=3.35.1
ESBUILD=0.28.2
SRC="$(cd "$(dirname "$0")" && pwd)"
OUT="$(pwd)/themes/base/static/vendor"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$SRC/server.js" "$SRC/client.js" "$WORK/"
cd "$WORK"
npm init -y >/dev/null
npm install --no-audit --no-fund "preact@$PREACT" "preact-render-to-string@$RTS" "sucrase@$SUCRASE" "esbuild@$ESBUILD" >/dev/null
npx esbuild server.js --bundle --minify --format=iife --platform=neutral --main-fields=module,main \
  --outfile="$OUT/react-ssr.min.js"
npx esbuild client.js --bundle --minify --format=iife --platform=browser --outfile="$OUT/preact.min.js"
cp node_modules/preact/LICENSE "$OUT/preact.LICENSE.txt"
cp node_modules/preact-render-to-string/LICENSE "$OUT/preact-render-to-string.LICENSE.txt"
cp node_modules/sucrase/LICENSE "$OUT/sucrase.LICENSE.txt"
# sucrase's own dependencies bundled into react-ssr.min.js
for dep in node_modules/@jridgewell/* node_modules/lines-and-columns node_modules/ts-interface-checker; do
  printf '== %s ==\n' "${dep#node_modules/}"
  cat "$dep"/LICENSE*
  printf '\n'
done > "$OUT/react-ssr.deps.LICENSE.txt"
