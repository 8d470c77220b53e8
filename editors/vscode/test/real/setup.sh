#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3), puppeteer-core, and yaml-language-server 1.19.2 with
# vscode-languageclient 7.0.0 for the Red Hat YAML stand-in (redhat-yaml/), here (node_modules/,
# ~350 MB) from the npm registry alone, with no other download:
#  - @vscode/ripgrep's postinstall fetches a ripgrep build from the internet unless its cache holds
#    the archive it wants; an archive of Debian's /usr/bin/rg (package ripgrep) is put there;
#  - code-server's own postinstall, as root, needs npm_config_unsafe_perm=true;
#  - node-pty's postinstall runs `npx node-gyp` (npm_config_yes answers npx's question) and node-gyp
#    builds against the local Node headers (npm_config_nodedir=/usr) instead of downloading them.
# Needs Debian's build-essential python3 pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev ripgrep
# (.ci/run installs them, with chromium and fonts-dejavu-core for run.mjs).
set -euo pipefail
cd "$(dirname "$0")"

rg_bin="$(command -v rg)" || { echo "setup.sh: ripgrep (rg) is needed, from Debian's package ripgrep" >&2; exit 2; }
cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
archive="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -s "$archive" ]; then
  staging="$(mktemp -d)"
  cp "$rg_bin" "$staging/rg"
  mkdir -p "$cache"
  tar -C "$staging" -czf "$archive.tmp" rg && mv "$archive.tmp" "$archive"
  rm -rf "$staging"
fi

if [ ! -x node_modules/.bin/code-server ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # code-server's postinstall refuses to run as root without npm_config_unsafe_perm (npm 11 warns that it
  # does not know the setting, and passes it to the script all the same).
  npm_config_yes=true npm_config_nodedir=/usr npm_config_unsafe_perm=true npm ci --no-audit --no-fund --loglevel=error
fi
# (not `code-server --version`: that writes a config file into $HOME)
echo "code-server $(node -p 'require("./node_modules/code-server/package.json").version')"
