// Unit tests of the extension's pure logic: settings → initializationOptions and
// workspace/configuration, binary resolution, policy detection and attachment, the restart guard,
// the "command not supported" messages, and the schema answered to the Red Hat YAML extension. Runs under `node --test` without VS Code.
import { strict as assert } from "assert";
import * as fs from "fs";
import * as path from "path";
import { test } from "node:test";
import { bundledBinary, describeSource, resolveServer } from "../src/binary";
import { isUnsupportedError, serverSupports, unsupportedMessage } from "../src/commandErrors";
import { AttachGate, DOCUMENT_SELECTOR, LANGUAGES, isAdmissionText } from "../src/detect";
import { RestartGuard } from "../src/restartGuard";
import { configurationItem, initializationOptions } from "../src/settings";
import { SCHEMA_URI, YamlExtensionApi, registerSchemaContributor } from "../src/yamlSchemas";
import { ListedSuite, buildTree, outcomes, runArgs, staleSuites } from "../src/testTree";
import { settingsGetter } from "./vscodeSettings";

test("initializationOptions from the contributed defaults leave the version to the server", () => {
  assert.deepEqual(initializationOptions(settingsGetter({})), {
    schemaPaths: [],
    diagnostics: { disabled: [], strict: false },
    liveVerdicts: true,
  });
});

test("initializationOptions carry the user's settings", () => {
  const get = settingsGetter({
    "admissionLs.kubernetesVersion": " 1.30 ",
    "admissionLs.kyvernoVersion": "1.17",
    "admissionLs.schemaPaths": ["crds/widget.yaml", 7],
    "admissionLs.diagnostics.disabled": ["unknown-field"],
    "admissionLs.diagnostics.strict": true,
    "admissionLs.liveVerdicts": false,
  });
  assert.deepEqual(initializationOptions(get), {
    kubernetesVersion: "1.30",
    kyvernoVersion: "1.17",
    schemaPaths: ["crds/widget.yaml"],
    diagnostics: { disabled: ["unknown-field"], strict: true },
    liveVerdicts: false,
  });
});

test("workspace/configuration answers the section, a key inside it, or null", () => {
  const get = settingsGetter({ "admissionLs.diagnostics.disabled": ["cel-cost"] });
  assert.deepEqual(configurationItem("admissionLs", get), initializationOptions(get));
  assert.deepEqual(configurationItem(undefined, get), initializationOptions(get));
  assert.deepEqual(configurationItem("admissionLs.diagnostics.disabled", get), ["cel-cost"]);
  assert.equal(configurationItem("admissionLs.kubernetesVersion", get), null);
  assert.equal(configurationItem("yaml", get), null);
  assert.equal(configurationItem("admissionLsX", get), null);
});

test("the configured path wins and is reported as tried", () => {
  const seen: string[] = [];
  const exec = (f: string) => (seen.push(f), f === "/home/u/bin/admission-ls");
  const found = resolveServer({ configuredPath: "~/bin/admission-ls", envPath: "/usr/bin", platform: "linux", isExecutable: exec, expand: (p) => p.replace("~", "/home/u") });
  assert.deepEqual(found, { command: "/home/u/bin/admission-ls", source: "setting", tried: "/home/u/bin/admission-ls" });
  const missing = resolveServer({ configuredPath: "/opt/nope", extensionPath: "/ext", envPath: "/home/u/bin", platform: "linux", isExecutable: exec });
  assert.deepEqual(missing, { tried: "/opt/nope" });
  assert.deepEqual(seen, ["/home/u/bin/admission-ls", "/opt/nope"], "a configured path never falls back to the bundled binary or PATH");
});

test("without a configured path the bundled binary comes before PATH", () => {
  const bundled = "/ext/server/admission-ls";
  const everywhere = (f: string) => f === bundled || f === "/usr/bin/admission-ls";
  const found = resolveServer({ configuredPath: "", extensionPath: "/ext", envPath: "/usr/bin", platform: "linux", isExecutable: everywhere });
  assert.deepEqual(found, { command: bundled, source: "bundled", tried: bundled });
  const plain = resolveServer({ configuredPath: "", extensionPath: "/ext", envPath: "/usr/bin", platform: "linux", isExecutable: (f) => f === "/usr/bin/admission-ls" });
  assert.deepEqual(plain, { command: "/usr/bin/admission-ls", source: "path", tried: "/usr/bin/admission-ls" }, "the plain .vsix has no server/ folder");
  const none = resolveServer({ configuredPath: "", extensionPath: "/ext", envPath: "/a", platform: "linux", isExecutable: () => false });
  assert.equal(none.tried, "no bundled binary, admission-ls on PATH (1 folders searched)");
  assert.equal(bundledBinary("C:\\ext", "win32"), "C:\\ext\\server\\admission-ls.exe");
  assert.equal(describeSource("bundled"), "the binary bundled with the extension");
});

test("without a configured path the first admission-ls on PATH is used", () => {
  const exec = (f: string) => f === "/b/admission-ls" || f === "/c/admission-ls";
  assert.equal(resolveServer({ configuredPath: "", envPath: "/a::/b:/c", platform: "linux", isExecutable: exec }).command, "/b/admission-ls");
  const none = resolveServer({ configuredPath: undefined, envPath: "/a:/d", platform: "linux", isExecutable: exec });
  assert.equal(none.command, undefined);
  assert.match(none.tried, /admission-ls on PATH \(2 folders searched\)/);
  const win = resolveServer({ configuredPath: "", envPath: "C:\\x;C:\\y", platform: "win32", isExecutable: (f) => f.endsWith("admission-ls.exe") });
  assert.match(win.command ?? "", /admission-ls\.exe$/);
});

test("relative PATH entries, which name folders of the working directory (maybe the workspace), are not searched", () => {
  const everywhere = () => true;
  const found = resolveServer({ configuredPath: "", envPath: ".:bin:./node_modules/.bin:/usr/bin", platform: "linux", isExecutable: everywhere });
  assert.equal(found.command, "/usr/bin/admission-ls");
  const none = resolveServer({ configuredPath: "", envPath: ".:bin", platform: "linux", isExecutable: everywhere });
  assert.equal(none.command, undefined);
  assert.match(none.tried, /admission-ls on PATH \(0 folders searched\)/);
  const win = resolveServer({ configuredPath: "", envPath: ".;tools;C:\\bin", platform: "win32", isExecutable: everywhere });
  assert.match(win.command ?? "", /^C:\\bin.admission-ls\.exe$/);
});

test("detection: policies, bindings, webhook configurations, PolicyTest, CRDs, every family, Helm templates; not other YAML", () => {
  const cases = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "..", "testdata", "detection.json"), "utf8")).cases as Array<{ name: string; text: string; attach: boolean; language?: string }>;
  assert.ok(cases.length >= 30);
  for (const c of cases) {
    assert.equal(isAdmissionText(c.text), c.attach, c.name);
    if (c.language) {
      assert.ok(LANGUAGES.includes(c.language), `${c.name}: the ${c.language} language id is considered`);
    }
  }
  // Every language considered is in the document selector and activates the extension.
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
  for (const language of LANGUAGES) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${language}`), language);
    for (const scheme of ["file", "untitled"]) {
      assert.ok(DOCUMENT_SELECTOR.some((s) => s.language === language && s.scheme === scheme), `${scheme} ${language}`);
    }
  }
});

test("the attach gate forwards only policy documents and opens those that become one", () => {
  const gate = new AttachGate();
  assert.equal(gate.open("file:///deploy.yaml", "kind: Deployment\n"), false);
  assert.equal(gate.change("file:///deploy.yaml", () => "kind: Deployment\nreplicas: 2\n"), "skip");
  assert.equal(gate.change("file:///deploy.yaml", () => "apiVersion: admissionregistration.k8s.io/v1\n"), "open");
  assert.equal(gate.change("file:///deploy.yaml", () => "anything"), "forward");
  assert.equal(gate.open("file:///p.yaml", "apiVersion: admissionregistration.k8s.io/v1\n"), true);
  assert.equal(gate.close("file:///p.yaml"), true);
  assert.equal(gate.close("file:///p.yaml"), false);
  assert.equal(gate.close("file:///never.yaml"), false);
});

test("the restart guard restarts a bounded number of times, then stops and reports once", () => {
  let now = 0;
  const guard = new RestartGuard(3, 60_000, () => now);
  const decisions = [];
  for (let i = 0; i < 10; i++) {
    now += 1000;
    decisions.push(guard.closed("/usr/bin/admission-ls").action);
  }
  assert.deepEqual(decisions, ["restart", "restart", "restart", "stop", "stop", "stop", "stop", "stop", "stop", "stop"]);
  const stop = guard.closed("/usr/bin/admission-ls");
  assert.ok(stop.action === "stop" && stop.message.includes("/usr/bin/admission-ls"));
  assert.equal(guard.shouldReport(), true);
  assert.equal(guard.shouldReport(), false, "reported once");
  guard.reset();
  assert.equal(guard.closed("x").action, "restart", "a manual restart starts over");
  assert.equal(guard.shouldReport(), true);
});

test("crashes spread over time keep restarting", () => {
  let now = 0;
  const guard = new RestartGuard(3, 60_000, () => now);
  for (let i = 0; i < 20; i++) {
    now += 30_000;
    assert.equal(guard.closed("x").action, "restart");
  }
});

test("unsupported commands are recognised and explained", () => {
  assert.equal(serverSupports({}, "admission-ls.evaluate"), false);
  assert.equal(serverSupports({ executeCommandProvider: { commands: ["admission-ls.evaluate"] } }, "admission-ls.evaluate"), true);
  assert.equal(serverSupports(undefined, "admission-ls.evaluate"), false);
  assert.ok(isUnsupportedError({ code: -32601, message: "Method not found" }));
  assert.ok(isUnsupportedError({ code: -32602, message: "unknown command admission-ls.evaluate" }));
  assert.ok(!isUnsupportedError({ code: -32603, message: "internal error" }));
  assert.match(unsupportedMessage("admission-ls.evaluate", "0.1.0"), /admission-ls 0\.1\.0 does not support the command 'admission-ls\.evaluate' yet \(command not supported by the server\)/);
});

test("the manifest keeps the binary out of a workspace's hands", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, "limited");
  assert.deepEqual([...trust.restrictedConfigurations].sort(), ["admissionLs.path", "admissionLs.schemaPaths"]);
  // Machine scope: only user (or remote machine) settings may set the program the extension runs.
  assert.equal(manifest.contributes.configuration.properties["admissionLs.path"].scope, "machine");
  assert.equal(manifest.license, "Apache-2.0");
});

test("beside Red Hat YAML: no competing schema contributed, and an empty one for admission files", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
  // No schema of our own through the manifest: nothing for Red Hat YAML or VS Code's JSON to apply.
  for (const point of ["yamlValidation", "jsonValidation", "configurationDefaults"]) {
    assert.equal(manifest.contributes[point], undefined, point);
  }
  // The contributor registered with Red Hat YAML's API: the empty schema for a policy, nothing
  // (Red Hat YAML's own associations) for a Deployment or a file that is not open.
  const open: Record<string, string> = {
    "file:///p.yaml": "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n",
    "file:///d.yaml": "apiVersion: apps/v1\nkind: Deployment\n",
  };
  let registered: Parameters<YamlExtensionApi["registerContributor"]> | undefined;
  const api: YamlExtensionApi = {
    registerContributor: (...args) => {
      registered = args;
      return true;
    },
  };
  assert.ok(registerSchemaContributor(api, (resource) => open[resource]));
  assert.ok(registered);
  const [scheme, requestSchema, requestSchemaContent] = registered;
  assert.equal(scheme, "admission-ls");
  assert.equal(requestSchema("file:///p.yaml"), SCHEMA_URI);
  assert.equal(requestSchema("file:///d.yaml"), undefined);
  assert.equal(requestSchema("file:///closed.yaml"), undefined);
  const schema = JSON.parse(requestSchemaContent(SCHEMA_URI) ?? "null");
  assert.deepEqual(Object.keys(schema).sort(), ["$schema", "description", "title"], "no constraint: any document is valid");
  assert.equal(requestSchemaContent("admission-ls://schemas/other.json"), undefined);
});

test("the Testing view's tree: files → suites → cases, unique ids, run arguments from an id", () => {
  const range = (line: number) => ({ start: { line, character: 4 }, end: { line: line + 2, character: 0 } });
  const suites: ListedSuite[] = [
    { uri: "file:///w/a.test.yaml", path: "/w/a.test.yaml", name: "/w/a.test.yaml#0", format: "PolicyTest", range: range(4), errors: [], cases: [{ name: "x", range: range(4) }, { name: "x", range: range(7) }] },
    { uri: "file:///w/a.test.yaml", path: "/w/a.test.yaml", name: "named", format: "PolicyTest", range: range(12), errors: [], cases: [{ name: "y", range: range(12) }] },
  ];
  const [file] = buildTree(suites);
  assert.equal(file.label, "a.test.yaml");
  assert.deepEqual(file.children.map((s) => s.label), ["PolicyTest#0", "named"]);
  assert.deepEqual(file.children[0].children.map((c) => c.range?.start.line), [4], "a repeated case name is one item");
  const id = file.children[1].children[0].id;
  assert.deepEqual(runArgs(id), { uri: "file:///w/a.test.yaml", suite: "named", case: "y" });
  assert.deepEqual(runArgs(file.children[1].id), { uri: "file:///w/a.test.yaml", suite: "named" });
  assert.deepEqual(runArgs(file.id), { uri: "file:///w/a.test.yaml" });
});

test("a run's answer: passed, failed with expected/actual, errored, and a suite's own errors", () => {
  const answer = {
    suites: [
      {
        path: "/w/a.test.yaml",
        name: "s",
        errors: ["cannot read policy file p.yaml"],
        cases: [
          { name: "ok", passed: true, error: null, failures: [], uri: "file:///w/a.test.yaml", durationMs: 1.5 },
          { name: "bad", passed: false, error: null, failures: ["expected allow, got deny"], expected: "decision: allow", actual: "decision: deny", uri: "file:///w/a.test.yaml" },
          { name: "broken", passed: false, error: "policy 'p' not found", failures: [] },
        ],
      },
    ],
  };
  const { cases, suiteErrors } = outcomes(answer, (p) => `file://${p}`);
  assert.deepEqual(
    cases.map((c) => [c.id.split("\u001f").slice(1).join("/"), c.state, c.message, c.expected ?? null]),
    [
      ["s/ok", "passed", "", null],
      ["s/bad", "failed", "expected allow, got deny", "decision: allow"],
      ["s/broken", "errored", "policy 'p' not found", null],
    ],
  );
  assert.deepEqual([...suiteErrors.values()], ["cannot read policy file p.yaml"]);
});

test("a save re-runs the suite files it makes stale: the suite itself, and those naming the file", () => {
  const texts: Record<string, string> = {
    "file:///w/a.test.yaml": "policies: [policy.yaml]",
    "file:///w/b.test.yaml": "policies: [other.yaml]",
  };
  const ran = Object.keys(texts);
  assert.deepEqual(staleSuites("file:///w/policy.yaml", ran, (u) => texts[u]), ["file:///w/a.test.yaml"]);
  assert.deepEqual(staleSuites("file:///w/b.test.yaml", ran, (u) => texts[u]), ["file:///w/b.test.yaml"]);
  assert.deepEqual(staleSuites("file:///w/unrelated.yaml", ran, (u) => texts[u]), []);
});

test("item ids never hold NUL, which VS Code's own test ids reserve", () => {
  const range = { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } };
  const [file] = buildTree([{ uri: "file:///w/a.yaml", path: "/w/a.yaml", name: "s", format: "PolicyTest", range, errors: [], cases: [{ name: "c", range }] }]);
  const ids = [file.id, file.children[0].id, file.children[0].children[0].id];
  assert.ok(ids.every((id) => !id.includes("\0")), JSON.stringify(ids));
});
