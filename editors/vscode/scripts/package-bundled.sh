#!/usr/bin/env bash
# Builds the platform-specific .vsix that carries the server, so that users need no Rust toolchain:
#   scripts/package-bundled.sh [TARGET [SERVER_BINARY]]
# TARGET is a vsce target (default linux-x64, the only one built and tested here). SERVER_BINARY
# defaults to ../../target/release/admission-ls, built with `cargo build --release --locked` when
# absent. The binary is stripped into server/admission-ls (where the extension looks for it after
# the admissionLs.path setting and before PATH) and packed into admission-ls-TARGET.vsix; server/ is
# removed again afterwards so that the plain .vsix (npm run package) never carries it.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-linux-x64}"
repo="$(cd ../.. && pwd)"
server="${2:-$repo/target/release/admission-ls}"

case "$target" in
  linux-x64) want_os=Linux want_arch=x86_64 exe=admission-ls ;;
  *) echo "package-bundled.sh: target $target is not built here (only linux-x64)" >&2; exit 2 ;;
esac
if [ "$(uname -s)" != "$want_os" ] || [ "$(uname -m)" != "$want_arch" ]; then
  echo "package-bundled.sh: $target needs a $want_os $want_arch build machine (no cross-compiling)" >&2
  exit 2
fi
if [ ! -x "$server" ]; then
  (cd "$repo" && cargo build --release --locked --bin admission-ls)
  server="$repo/target/release/admission-ls"
fi

trap 'rm -rf server' EXIT
rm -rf server && mkdir server
strip -o "server/$exe" "$server" 2>/dev/null || cp "$server" "server/$exe"
chmod 755 "server/$exe"
# The binary must run on this platform before it is shipped.
version="$("server/$exe" --version)"
echo "bundling $version ($(du -h "server/$exe" | cut -f1)) for $target"

npm run --silent build
node scripts/copy-legal.mjs
npx vsce package --no-dependencies --target "$target" --out "admission-ls-$target.vsix"
