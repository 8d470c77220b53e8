#!/usr/bin/env bash
# The hooks of .pre-commit-hooks.yaml in pre-commit, on a temporary git repository:
#   PRE_COMMIT=/path/to/pre-commit ADMISSION_LS=/path/to/admission-ls editors/pre-commit/test/run.sh
# The repository's .pre-commit-config.yaml names this repository (as a local path, at its HEAD
# commit) and the -system hooks, which run $ADMISSION_LS (the rust-language ids run the same entry
# after building it with cargo, which CI does not repeat). A commit of a clean policy with a passing
# suite goes through; a broken policy, and then a failing case, are refused with the diagnostic or
# the failure in pre-commit's output. HOME, git's config and pre-commit's cache are temporary.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
testdata="$repo/editors/testdata"
pre_commit="${PRE_COMMIT:-pre-commit}"
binary="${ADMISSION_LS:-$repo/target/release/admission-ls}"
rev="$(git -C "$repo" rev-parse HEAD)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" PRE_COMMIT_HOME="$work/pre-commit" XDG_CACHE_HOME="$work/cache"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$work/gitconfig"
mkdir -p "$HOME" "$work/bin"
git config --global user.name "pre-commit test"
git config --global user.email "test@example.invalid"
git config --global init.defaultBranch main
ln -s "$binary" "$work/bin/admission-ls"
export PATH="$work/bin:$PATH"

passed=0 failed=0
check() { # check OK WHAT [OUTPUT]
  if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok   $2"; else failed=$((failed + 1)); echo "FAIL $2"; [ -n "${3:-}" ] && sed 's/^/     /' <<<"$3"; fi
  return 0
}
commit() { # commit MESSAGE -> output; status in $status
  set +e; output="$(git commit -q -m "$1" 2>&1)"; status=$?; set -e
}

project="$work/project"
git init -q "$project"
cd "$project"
cat > .pre-commit-config.yaml <<CONFIG
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: admission-ls-check-system
      - id: admission-ls-test-system
CONFIG
"$pre_commit" install >/dev/null
"$pre_commit" --version

cp "$testdata/replica-policy.yaml" "$testdata/replica-policy.test.yaml" "$testdata/object.yaml" .
git add .pre-commit-config.yaml replica-policy.yaml replica-policy.test.yaml object.yaml
commit "a clean policy and its suite"
check "$status" "a clean policy with a passing suite is committed" "$output"
grep -q "admission-ls check.*Passed" <<<"$output" && grep -q "admission-ls test.*Passed" <<<"$output"
check $? "both hooks ran and passed" "$output"

# A file name is never read as an option: pre-commit passes the staged names after the entry, so
# without the entry's `--` a file named `--strict.yaml` was an unknown option and the hook failed.
cp "$testdata/replica-policy.yaml" ./--strict.yaml
git add -- --strict.yaml
commit "a policy whose name looks like an option"
check "$status" "a file named like an option is checked as a file" "$output"
git rm -q --cached -- --strict.yaml && rm -- --strict.yaml

cp "$testdata/typo-policy.yaml" .
git add typo-policy.yaml
commit "a broken policy"
[ "$status" -ne 0 ] && grep -q "typo-policy.yaml:7:18: error\[not-supported\]" <<<"$output"
check $? "a broken policy is refused, with the diagnostic at typo-policy.yaml:7:18" "$output"
git rm -q --cached typo-policy.yaml && rm typo-policy.yaml

sed -i 's/decision: deny/decision: allow/' replica-policy.test.yaml
git add replica-policy.test.yaml
commit "a wrong expectation"
[ "$status" -ne 0 ] && grep -q "FAIL  three replicas are denied" <<<"$output"
check $? "a failing PolicyTest case is refused, named in the output" "$output"

# The plain closing line CI reads.
echo "pre-commit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
