#!/bin/sh
# Rebuild the vendored Tailwind compiler (see docs/vendored.md): Tailwind v3 and @tailwindcss/typography bundled
# by esbuild into one self-contained script that docsgen runs in QuickJS at build time. Run from the repository
# root; needs npm (users never do: the bundle is committed).
set -eu
TAILWIND=3.4.19
TYPOGRAPHY=0.5.19
ESBUILD=0.28.2
SRC="$(cd "$(dirname "$0")" && pwd)"
OUT="$(pwd)/themes/base/static/vendor"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$SRC"/*.js "$WORK/"
cd "$WORK"
npm init -y >/dev/null
npm install --no-audit --no-fund "tailwindcss@$TAILWIND" "@tailwindcss/typography@$TYPOGRAPHY" "esbuild@$ESBUILD" >/dev/null
# Node's modules Tailwind imports but never needs here (preflight is off, the content is given) are stubs.
npx esbuild entry.js --bundle --minify --format=iife --platform=browser \
  --alias:fs=./stub-fs.js --alias:path=./stub-path.js --alias:url=./stub-empty.js --alias:crypto=./stub-empty.js \
  --alias:os=./stub-empty.js --alias:module=./stub-empty.js --alias:util=./stub-empty.js --alias:tty=./stub-empty.js \
  --inject:./process-shim.js --loader:.css=text --define:__dirname='"/"' --legal-comments=none \
  --banner:js="/* tailwindcss@$TAILWIND + @tailwindcss/typography@$TYPOGRAPHY, bundled for docsgen (MIT, see tailwind.LICENSE.txt) */" \
  --outfile="$OUT/tailwind.min.js"
cp node_modules/tailwindcss/LICENSE "$OUT/tailwind.LICENSE.txt"
# the packages bundled with it (from esbuild's list of inputs), each with its licence
npx esbuild entry.js --bundle --platform=browser \
  --alias:fs=./stub-fs.js --alias:path=./stub-path.js --alias:url=./stub-empty.js --alias:crypto=./stub-empty.js \
  --alias:os=./stub-empty.js --alias:module=./stub-empty.js --alias:util=./stub-empty.js --alias:tty=./stub-empty.js \
  --inject:./process-shim.js --loader:.css=text --metafile=meta.json --outfile=bundle.js >/dev/null 2>&1
node -e '
const fs = require("fs");
const dirs = new Map();
for (const input of Object.keys(require("./meta.json").inputs)) {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) continue;
  const parts = input.slice(at + 13).split("/");
  const name = parts[0].startsWith("@") ? parts[0] + "/" + parts[1] : parts[0];
  const dir = input.slice(0, at + 13).replace(/^\(disabled\):/, "") + name;
  if (name !== "tailwindcss" && !dirs.has(name) && fs.existsSync(dir)) dirs.set(name, dir);
}
for (const name of [...dirs.keys()].sort()) {
  const dir = dirs.get(name);
  const file = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  const text = file ? fs.readFileSync(dir + "/" + file, "utf8") : "License: " + require("./" + dir + "/package.json").license;
  process.stdout.write("== " + name + " ==\n" + text.trim() + "\n\n");
}' > "$OUT/tailwind.deps.LICENSE.txt"
