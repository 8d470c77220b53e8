// Tokenizes YAML with the CEL injection grammar through vscode-textmate (the engine VS Code uses)
// and checks that expression values are CEL in plain, double-quoted, single-quoted and block
// scalars, and that other keys and the lines after a block stay YAML. The base YAML grammar here is
// a minimal stand-in (VS Code's own is not on npm); the injection only needs its scope name.
import { strict as assert } from "assert";
import * as fs from "fs";
import * as path from "path";
import { test } from "node:test";
import * as oniguruma from "vscode-oniguruma";
import { INITIAL, IGrammar, Registry, parseRawGrammar } from "vscode-textmate";

const root = path.join(__dirname, "..", "..");
const stubYaml = JSON.stringify({
  scopeName: "source.yaml",
  patterns: [
    { name: "comment.line.number-sign.yaml", match: "#.*$" },
    { name: "entity.name.tag.yaml", match: "[A-Za-z]+(?=:)" },
    { name: "string.unquoted.plain.out.yaml", match: "(?<=: ).+$" },
  ],
});

async function loadGrammar(): Promise<IGrammar> {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const files: Record<string, string> = {
    "source.cel": path.join(root, "syntaxes", "cel.tmLanguage.json"),
    "admission-ls.cel.injection": path.join(root, "syntaxes", "cel-injection.tmLanguage.json"),
  };
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === "source.yaml"
        ? parseRawGrammar(stubYaml, "yaml.json")
        : files[scope] ? parseRawGrammar(fs.readFileSync(files[scope], "utf8"), files[scope]) : null,
    getInjections: (scope) => (scope === "source.yaml" ? ["admission-ls.cel.injection"] : undefined),
  });
  const grammar = await registry.loadGrammar("source.yaml");
  assert.ok(grammar);
  return grammar;
}

/** "text" → scopes for each token of each line. */
function tokenize(grammar: IGrammar, text: string): Array<Array<[string, string]>> {
  let state = INITIAL;
  return text.split("\n").map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes.join(" ")] as [string, string]);
  });
}

function scopeOf(lines: Array<Array<[string, string]>>, line: number, text: string): string {
  const token = lines[line].find(([t]) => t === text);
  assert.ok(token, `no token ${JSON.stringify(text)} on line ${line}: ${JSON.stringify(lines[line])}`);
  return token[1];
}

const sample = [
  "validations:",
  "  - expression: object.spec.replicas <= 5 # plain",
  '    messageExpression: "\'got \' + string(object.spec.replicas)"',
  "    message: object.spec is not CEL here",
  "  - expression: |",
  "      has(object.metadata.labels) &&",
  "      object.metadata.labels.all(k, k != \"\")",
  "    reason: Forbidden",
  "mutations:",
  "  - patchType: ApplyConfiguration",
  "    applyConfiguration:",
  "      expression: 'Object{spec: Object.spec{replicas: 1}}'",
  "  - valueExpression: >-",
  "      params.limit",
  "variables: []",
].join("\n");

test("CEL is injected into plain, quoted and block expression values", async () => {
  const lines = tokenize(await loadGrammar(), sample);
  assert.match(scopeOf(lines, 1, "object"), /meta\.embedded\.cel source\.cel variable\.language\.cel/);
  assert.match(scopeOf(lines, 1, "5"), /constant\.numeric\.cel/);
  assert.match(scopeOf(lines, 1, "# plain"), /comment/);
  assert.doesNotMatch(scopeOf(lines, 1, "# plain"), /source\.cel/);
  assert.match(scopeOf(lines, 2, "string"), /entity\.name\.function\.cel/);
  assert.match(scopeOf(lines, 2, "got "), /string\.quoted\.single\.cel/);
  assert.ok(lines[3].every(([, scopes]) => !scopes.includes("cel")), "other keys stay YAML");
  assert.match(scopeOf(lines, 4, "|"), /block-scalar/);
  assert.match(scopeOf(lines, 5, "has"), /support\.function\.macro\.cel/);
  assert.match(scopeOf(lines, 6, "all"), /support\.function\.macro\.cel/);
  assert.match(scopeOf(lines, 6, 'k'), /variable\.other\.cel/);
  assert.doesNotMatch(scopeOf(lines, 7, "reason"), /cel/, "the block ends at the next key");
  assert.match(scopeOf(lines, 11, "Object"), /source\.cel/);
  assert.match(scopeOf(lines, 13, "params"), /variable\.language\.cel/);
  assert.doesNotMatch(scopeOf(lines, 14, "variables"), /cel/);
});
