// Loads the bundled extension (dist/extension.js) with a stand-in `vscode` module and checks the bad
// input paths end to end through vscode-languageclient: a missing binary is reported once with the
// path tried; a server that crashes on start is not restarted in a loop and is reported once.
import { strict as assert } from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { test } from "node:test";
import { pathToFileURL } from "url";
import { activateWith, policy } from "./harness";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a missing binary is reported once, with the path tried", async () => {
  const { state, ext } = await activateWith({ path: "/nonexistent/admission-ls" });
  await wait(300);
  state.openDocument({ uri: "file:///q.yaml", languageId: "yaml", text: policy });
  await wait(300);
  assert.equal(state.errors.length, 1, JSON.stringify(state.errors));
  assert.match(state.errors[0], /not found \(tried \/nonexistent\/admission-ls\)/);
  assert.deepEqual(state.errorActions[0], ["Restart", "Show Output"]);
  await ext.deactivate();
});

test("a Helm chart template (language helm) of a policy starts the server; one of a Deployment does not", async () => {
  const template = (text: string) => [{ uri: "file:///chart/templates/t.yaml", languageId: "helm", text }];
  const deployment = await activateWith({ path: "/nonexistent/admission-ls" }, template("{{- if .Values.on }}\napiVersion: apps/v1\nkind: Deployment\n{{- end }}\n"));
  await wait(300);
  assert.equal(deployment.state.errors.length, 0, JSON.stringify(deployment.state.errors));
  await deployment.ext.deactivate();
  const kyverno = "{{- if .Values.on }}\napiVersion: policies.kyverno.io/v1\nkind: ValidatingPolicy\n{{- end }}\n";
  const started = await activateWith({ path: "/nonexistent/admission-ls" }, template(kyverno));
  await wait(300);
  assert.equal(started.state.errors.length, 1, "the start was tried (and the missing binary reported)");
  await started.ext.deactivate();
});

interface Scenario {
  starts: number;
  errors: string[];
  stray: string[];
}

/** Runs crashScenario.js in a child process with `body` as the server script; see there. */
function runScenario(body: (log: string) => string): Scenario & { script: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "admission-ls-crash-"));
  const script = path.join(dir, "admission-ls");
  const log = path.join(dir, "starts");
  fs.writeFileSync(script, body(log), { mode: 0o755 });
  // In a child process: vscode-languageclient leaves some rejections about the dead server unhandled
  // (the extension host only logs them), which node --test would count as failures.
  const child = spawnSync(process.execPath, [path.join(__dirname, "crashScenario.js"), script], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, FAKE_SERVER_LOG: log },
  });
  assert.equal(child.status, 0, child.stderr);
  const result = JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as Scenario;
  const starts = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0;
  // Stream and connection errors (vscode-jsonrpc codes -32096..-32099) about the dead server.
  const known = /^(ERR_STREAM_DESTROYED|-3209[6-9])$|Client is not running and can't be stopped/;
  assert.ok(result.stray.every((e) => known.test(e)), result.stray.join("\n"));
  return { ...result, starts, script };
}

test("a server that dies during initialize is reported once and not restarted", () => {
  const r = runScenario((log) => `#!/bin/sh\necho start >> '${log}'\nexit 3\n`);
  assert.equal(r.starts, 1);
  assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
  assert.ok(r.errors[0].includes(r.script), r.errors[0]);
  console.log(`server dying at start: started ${r.starts} time; the user was told once: ${r.errors[0]}`);
});

test("a server that crashes after starting is restarted 3 times, then reported once", () => {
  const fake = path.join(__dirname, "fakeServer.js");
  const r = runScenario(() => `#!/bin/sh\nexec '${process.execPath}' '${fake}' "$@"\n`);
  assert.equal(r.starts, 4, "the first start and 3 restarts");
  assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
  assert.match(r.errors[0], /crashed 4 times in 3 minutes and will not be restarted automatically/);
  assert.ok(r.errors[0].includes(r.script), r.errors[0]);
  console.log(`server crashing after start: started ${r.starts} times; the user was told once: ${r.errors[0]}`);
});

const server = process.env.ADMISSION_LS ?? path.join(__dirname, "..", "..", "..", "..", "target", "release", "admission-ls");

test("Evaluate and Run Tests against the real server show the server's JSON", { skip: !process.env.ADMISSION_LS && !fs.existsSync(server) && `no server at ${server}` }, async () => {
  const { state, ext } = await activateWith({ path: server });
  try {
    const testdata = path.join(__dirname, "..", "..", "..", "testdata");
    const policyPath = path.join(testdata, "replica-policy.yaml");
    state.activeDocument = { uri: pathToFileURL(policyPath).toString(), languageId: "yaml", text: fs.readFileSync(policyPath, "utf8") };
    state.pick = pathToFileURL(path.join(testdata, "object.yaml")).toString();
    const evaluate = state.commands.get("admissionLs.evaluate");
    const runTests = state.commands.get("admissionLs.runTests");
    assert.ok(evaluate && runTests && state.commands.has("admissionLs.restart") && state.commands.has("admissionLs.showOutput"));
    await evaluate();
    await runTests();
    assert.deepEqual(state.errors, []);
    assert.deepEqual(state.warnings, []);
    assert.equal(state.shown.length, 2, JSON.stringify(state.shown));
    assert.equal(JSON.parse(state.shown[0]).decision, "deny", state.shown[0]);
    console.log(`evaluate showed: ${state.shown[0].split("\n").slice(0, 3).join(" ")} …`);
  } finally {
    await ext.deactivate();
  }
});

test("a validate lens run against the real server shows the server's reports", { skip: !process.env.ADMISSION_LS && !fs.existsSync(server) && `no server at ${server}` }, async () => {
  const { state, ext } = await activateWith({ path: server });
  try {
    const testdata = path.join(__dirname, "..", "..", "..", "testdata");
    const file = path.join(testdata, "widgets-with-resources.yaml");
    // The server's own command, registered by the language client once the server advertises it.
    let validate: ((...args: unknown[]) => unknown) | undefined;
    for (let i = 0; i < 100 && !validate; i++) {
      await wait(100);
      validate = state.commands.get("admission-ls.validate");
    }
    assert.ok(validate, "the client registered admission-ls.validate");
    // The arguments of the lens on the second Widget (document 2 of the file).
    await validate({ path: file, crds: [file], crd: "widgets.example.com", document: 2 });
    assert.deepEqual(state.errors, []);
    assert.equal(state.shown.length, 1, JSON.stringify(state.shown));
    const shown = JSON.parse(state.shown[0]);
    assert.deepEqual(shown.summary, { objects: 1, valid: 0, invalid: 1 });
    assert.match(shown.reports[0].errors[0].message, /replicas must not exceed maxReplicas/);
  } finally {
    await ext.deactivate();
  }
});

test("the Testing view lists the workspace's suites and a run reports a passing and a failing case", { skip: !process.env.ADMISSION_LS && !fs.existsSync(server) && `no server at ${server}` }, async () => {
  const testdata = path.join(__dirname, "..", "..", "..", "testdata");
  const { state, ext } = await activateWith({ path: server }, [], [pathToFileURL(testdata).toString()]);
  try {
    const [controller] = state.testControllers;
    assert.ok(controller?.resolveHandler && controller.runHandler, "a controller with a resolve handler and a run profile");
    await controller.resolveHandler(undefined);
    const file = pathToFileURL(path.join(testdata, "replica-policy-wrong.test.yaml")).toString();
    const suite = controller.items.get(file)?.children.get(`${file}\u001freplica-limit-wrong`);
    assert.ok(suite, `the suite is listed: ${JSON.stringify([...Array(controller.items.size).keys()])}`);
    const cases: string[] = [];
    suite.children.forEach((c) => cases.push(c.label));
    assert.deepEqual(cases, ["one replica is admitted", "five replicas are wrongly expected to pass"]);
    // Run the file's item: both cases report.
    await controller.runHandler({ include: [controller.items.get(file)!] }, { isCancellationRequested: false });
    const ended = state.testResults.filter((r) => r.event !== "started").map((r) => [r.event, r.id.split("\u001f").pop()]);
    assert.deepEqual(ended, [
      ["passed", "one replica is admitted"],
      ["failed", "five replicas are wrongly expected to pass"],
    ]);
    const failure = state.testResults.find((r) => r.event === "failed")!.message!;
    assert.equal(failure.expectedOutput, "decision: allow");
    assert.match(failure.actualOutput ?? "", /^decision: deny: .*at most 2 replicas/);
    assert.equal(failure.location?.uri.toString(), file);
    assert.equal(failure.location?.range.startLine, 16);
  } finally {
    await ext.deactivate();
  }
});
