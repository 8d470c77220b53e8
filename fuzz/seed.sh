#!/usr/bin/env bash
# Builds the seed corpora under fuzz/corpus/<target> (ignored by git) from the repository's
# examples, the committed regression seeds in fuzz/seeds/, and the CEL conformance expressions in
# ../shared/conformance (read now, never committed). Safe to re-run: files are named by content hash.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
conformance="${CONFORMANCE:-$root/../shared/conformance/cel-spec/json}"
corpus="$here/corpus"
mkdir -p "$corpus"/{yaml_policy,cel_parse,cel_check,cel_eval,lsp_edits,admit_eval,ide_cursor}

put() { # put <target> <file-with-content>
  local sum; sum="$(sha1sum "$2" | cut -c1-16)"
  cp "$2" "$corpus/$1/$sum"
}

tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
for f in "$root"/examples/*.yaml "$root"/examples/crds/*.yaml; do
  [ -f "$f" ] && put yaml_policy "$f" && put lsp_edits "$f"
  # admit_eval: the policy file alone (the target supplies a Deployment).
  [ -f "$f" ] && put admit_eval "$f"
  # ide_cursor: two offset bytes, then the file.
  if [ -f "$f" ]; then
    for at in 0 1 2 3; do
      { head -c 2 /dev/urandom; cat "$f"; } > "$tmp/cursor$at"
      put ide_cursor "$tmp/cursor$at"
    done
  fi
done
# Expressions: the examples' `expression:` lines and the conformance suite.
{
  grep -ho 'expression: .*' "$root"/examples/*.yaml | sed 's/^expression: //; s/^"//; s/"$//' || true
  if [ -d "$conformance" ]; then jq -r '.tests[].expr' "$conformance"/*.json; fi
} | sort -u | head -n 3000 > "$tmp/exprs"
n=0
while IFS= read -r expr; do
  n=$((n + 1)); printf '%s' "$expr" > "$tmp/e$n"
  for t in cel_parse cel_check cel_eval; do put "$t" "$tmp/e$n"; done
done < "$tmp/exprs"
for d in "$here"/seeds/*/; do
  [ -d "$d" ] || continue
  t="$(basename "$d")"; mkdir -p "$corpus/$t"
  for f in "$d"*; do [ -f "$f" ] && put "$t" "$f"; done
done
for t in "$corpus"/*; do echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"; done
