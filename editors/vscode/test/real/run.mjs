// The extension in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) with the platform-specific
// .vsix installed, driven through its web UI by puppeteer-core in Debian's chromium, as a person would:
// open files from the Explorer, read the Problems panel, hover, complete, apply a quick fix, run the
// palette commands, read the output channel.
//
//   node run.mjs [--vsix FILE] [--screenshot FILE] [--live-screenshot FILE] [--keep]
//
// --vsix defaults to ../../admission-ls-linux-x64.vsix (scripts/package-bundled.sh); --screenshot also
// saves a picture of the editor with diagnostics (the one in the extension's README); --live-screenshot
// one of a live verdict with its trace on hover (editors/live-verdict.png); --artifacts DIR
// saves a screenshot of the page at each failed check; --keep leaves the temporary folder. Everything (HOME, the XDG folders, VS Code's and Chromium's profiles, the
// workspaces) lives in one temporary folder that is removed at the end: nothing touches the real home.
//
// Two sessions, each a fresh code-server:
//  1. trusted (--disable-workspace-trust): diagnostics at their lines, hover, completion, a Kyverno
//     policy (its diagnostic, hover with a library function's description, completion), quick fix,
//     the evaluate and run-tests commands, a live verdict as an inlay hint with its trace on hover,
//     the Testing view after Run All Tests, the output channel naming the bundled binary, the server
//     process being that binary; the workspace's .vscode/settings.json sets admissionLs.path to a
//     script (machine scope: ignored) and admissionLs.schemaPaths to a CRD outside the workspace
//     (honoured: the paramKind's fields are typed);
//  2. Restricted Mode (workspace trust on, the folder not trusted): the extension still checks
//     policies with the bundled binary, and the workspace's schemaPaths is ignored (the paramKind is
//     reported unresolved).
// Beside it in both runs, a stand-in for the Red Hat YAML extension (redhat-yaml/: the real
// yaml-language-server from npm through vscode-languageclient, with vscode-yaml's schema API; the
// real extension cannot be downloaded here), packed into a .vsix when the test starts. The trusted
// workspace associates a schema with every `*.yaml` file (`yaml.schemas`) and sets what the README
// says for YAML syntax errors: yaml-language-server's schema diagnostics stay on a plain Deployment,
// none reach the policies, and a policy's YAML syntax error shows once.
// Prints one line per check and closes with "vscode-real: N passed, N failed"; exits 1 on a failure.
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import { fileURLToPath, pathToFileURL } from "url";
import puppeteer from "puppeteer-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const extensionDir = path.resolve(here, "..", "..");
const testdata = path.resolve(extensionDir, "..", "testdata");
const repo = path.resolve(extensionDir, "..", "..");
const codeServer = path.join(here, "node_modules", ".bin", "code-server");
const vsce = path.join(extensionDir, "node_modules", ".bin", "vsce");
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const vsix = path.resolve(option("--vsix") ?? path.join(extensionDir, "admission-ls-linux-x64.vsix"));
const screenshot = option("--screenshot");
const liveScreenshot = option("--live-screenshot");
const keep = args.includes("--keep");
const artifacts = option("--artifacts");

// ---------------------------------------------------------------------------------------------
// Results

let passed = 0;
let failed = 0;
const started = Date.now();
const elapsed = () => ((Date.now() - started) / 1000).toFixed(1).padStart(5);

/** The page being driven, for the screenshot of a failed check. */
let currentPage;

function check(ok, what, detail) {
  console.log(`${elapsed()}s ${ok ? "ok  " : "FAIL"} ${what}${detail ? `\n        ${detail}` : ""}`);
  if (ok) passed++;
  else failed++;
  if (!ok && artifacts && currentPage) {
    fs.mkdirSync(artifacts, { recursive: true });
    const file = path.join(artifacts, `failure-${failed}.png`);
    currentPage.screenshot({ path: file }).then(() => console.log(`        screenshot: ${file}`), () => undefined);
  }
  return ok;
}

/** The 1-based line and column of `needle` (plus `offset` characters) in a file of editors/testdata. */
function positionOf(file, needle, offset = 0) {
  const lines = fs.readFileSync(path.join(testdata, file), "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`${needle} not in ${file}`);
  return [line + 1, lines[line].indexOf(needle) + offset + 1];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a truthy value or `ms` pass; returns the last value. */
async function poll(probe, ms, every = 250) {
  const deadline = Date.now() + ms;
  let value;
  while (Date.now() < deadline) {
    value = await probe();
    if (value) return value;
    await sleep(every);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// The sandbox: one temporary folder for HOME, XDG, profiles and the two workspaces

function makeSandbox() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "admission-ls-vscode-"));
  const dir = (...parts) => {
    const d = path.join(root, ...parts);
    fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    return d;
  };
  const home = dir("home");
  const box = {
    root,
    home,
    data: dir("vscode-data"),
    extensions: dir("vscode-extensions"),
    chrome: dir("chrome-profile"),
    bin: dir("bin"),
    outside: dir("outside"),
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: dir("home", ".config"),
      XDG_DATA_HOME: dir("home", ".local", "share"),
      XDG_CACHE_HOME: dir("home", ".cache"),
      XDG_STATE_HOME: dir("home", ".local", "state"),
      XDG_RUNTIME_DIR: dir("run"),
      TMPDIR: dir("tmp"),
    },
  };
  // An `admission-ls` on PATH and a script named by the workspace settings: each leaves a marker
  // when run, so the test can tell that the extension started neither.
  box.pathMarker = path.join(root, "path-binary-ran");
  box.evilMarker = path.join(root, "workspace-path-ran");
  writeScript(path.join(box.bin, "admission-ls"), box.pathMarker);
  box.evil = path.join(root, "evil-admission-ls");
  writeScript(box.evil, box.evilMarker);
  box.env.PATH = `${box.bin}${path.delimiter}${process.env.PATH ?? ""}`;
  box.crd = path.join(box.outside, "replicalimits.example.com.yaml");
  fs.copyFileSync(path.join(repo, "examples", "crds", "replicalimits.example.com.yaml"), box.crd);
  return box;
}

function writeScript(file, marker) {
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
}

/**
 * A workspace folder with the editor test files and hostile workspace settings, and for the Red Hat
 * YAML stand-in: a schema associated with every `*.yaml` file, which wants `kind: Deployment` and an
 * integer `spec.replicas` (a policy given it would be told its kind is not accepted), a plain
 * Deployment breaking both rules, a policy with a YAML syntax error, and the README's setting for
 * those errors (ours off, Red Hat YAML's kept).
 */
function makeWorkspace(box, name) {
  const ws = path.join(box.root, name);
  fs.mkdirSync(path.join(ws, ".vscode"), { recursive: true });
  for (const file of fs.readdirSync(testdata)) {
    fs.copyFileSync(path.join(testdata, file), path.join(ws, file));
  }
  const schema = path.join(ws, "deployment.schema.json");
  fs.writeFileSync(schema, JSON.stringify(DEPLOYMENT_SCHEMA, null, 2));
  fs.writeFileSync(path.join(ws, "plain-deployment.yaml"), PLAIN_DEPLOYMENT);
  fs.writeFileSync(path.join(ws, "broken-policy.yaml"), BROKEN_POLICY);
  const settings = {
    "admissionLs.path": box.evil,
    "admissionLs.schemaPaths": [box.crd],
    "yaml.schemas": { [pathToFileURL(schema).href]: "*.yaml" },
    "yaml.schemaStore.enable": false,
    "admissionLs.diagnostics.disabled": ["yaml-syntax"],
  };
  fs.writeFileSync(path.join(ws, ".vscode", "settings.json"), JSON.stringify(settings, null, 2));
  return ws;
}

const DEPLOYMENT_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    kind: { enum: ["Deployment"] },
    spec: { type: "object", properties: { replicas: { type: "integer" } } },
  },
};

const PLAIN_DEPLOYMENT = "apiVersion: apps/v1\nkind: Deploymnt\nmetadata: {name: web}\nspec:\n  replicas: many\n";

// Line 7: a second `: ` in a plain scalar, a syntax error for go-yaml and for yaml-language-server
// (each reports it once).
const BROKEN_POLICY =
  "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: broken\n" +
  "spec:\n  validations:\n  - expression: object.spec.replicas: 5\n";

function writeUserSettings(box) {
  const user = path.join(box.data, "User");
  fs.mkdirSync(user, { recursive: true });
  const settings = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "workbench.welcomePage.walkthroughs.openOnInstall": false,
    "workbench.enableExperiments": false,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "git.enabled": false,
    "files.simpleDialog.enable": true,
    "chat.commandCenter.enabled": false,
    // Session 2 opens its folder untrusted without asking (Restricted Mode).
    "security.workspace.trust.startupPrompt": "never",
    "security.workspace.trust.banner": "never",
    "admissionLs.kubernetesVersion": "1.31",
  };
  fs.writeFileSync(path.join(user, "settings.json"), JSON.stringify(settings, null, 2));
}

/** Packs the Red Hat YAML stand-in (redhat-yaml/) into a .vsix that loads test/real's node_modules. */
function packRedHatStandIn(box) {
  const dir = path.join(box.root, "redhat-yaml");
  fs.cpSync(path.join(here, "redhat-yaml"), dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "modules.json"), JSON.stringify({ dir: path.join(here, "node_modules") }));
  const out = path.join(box.root, "redhat-vscode-yaml-stand-in.vsix");
  const result = spawnSync(vsce, ["package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", out], {
    cwd: dir,
    env: box.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`packing the Red Hat YAML stand-in failed:\n${result.stdout}${result.stderr}`);
  return out;
}

function installExtension(box) {
  const standIn = packRedHatStandIn(box);
  const result = spawnSync(
    codeServer,
    ["--install-extension", vsix, "--install-extension", standIn, "--user-data-dir", box.data, "--extensions-dir", box.extensions],
    { env: box.env, encoding: "utf8", timeout: 60_000 },
  );
  const folders = fs.readdirSync(box.extensions);
  const folder = folders.find((f) => f.startsWith("admission-ls.admission-ls-"));
  check(result.status === 0 && folder !== undefined, `the .vsix installs (${path.basename(vsix)})`, folder ? "" : result.stdout + result.stderr);
  const redHat = folders.find((f) => f.startsWith("redhat.vscode-yaml-"));
  check(redHat !== undefined, "the Red Hat YAML stand-in installs as redhat.vscode-yaml", redHat ? "" : result.stdout + result.stderr);
  return folder && path.join(box.extensions, folder, "server", "admission-ls");
}

// ---------------------------------------------------------------------------------------------
// code-server

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts code-server in its own process group; resolves once it listens. */
async function startCodeServer(box, trusted) {
  const port = await freePort();
  const flags = ["--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check"];
  if (trusted) flags.push("--disable-workspace-trust");
  flags.push("--user-data-dir", box.data, "--extensions-dir", box.extensions);
  const child = spawn(codeServer, flags, { env: box.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const up = await poll(() => log.includes("HTTP server listening") || child.exitCode !== null, 30_000);
  if (!up || child.exitCode !== null) {
    throw new Error(`code-server did not start:\n${log}`);
  }
  return { child, url: `http://127.0.0.1:${port}`, log: () => log };
}

/** Ends code-server and everything it started (its process group: extension host, language server). */
async function stopCodeServer(server) {
  if (!server || server.child.exitCode !== null) return;
  const group = -server.child.pid;
  try {
    process.kill(group, "SIGTERM");
  } catch {
    return;
  }
  const gone = await poll(() => {
    try {
      process.kill(group, 0);
      return false;
    } catch {
      return true;
    }
  }, 5000);
  if (!gone) {
    try {
      process.kill(group, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Process ids whose executable is `file` (read from /proc, so the check sees what really runs). */
function processesOf(file) {
  const found = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/exe`) === file) found.push(Number(pid));
    } catch {
      // not ours, or gone
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Driving the workbench

const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--window-size=1400,900",
];

async function openBrowser(box, profile) {
  return puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: path.join(box.chrome, profile),
    args: CHROMIUM_FLAGS,
    env: box.env,
    protocolTimeout: 60_000,
  });
}

/** Monaco renders spaces as no-break spaces; tests compare plain text. */
const plain = (text) => (text ?? "").replace(/\u00a0/g, " ");

async function chord(page, keys) {
  const parts = keys.split("+");
  for (const key of parts.slice(0, -1)) await page.keyboard.down(key);
  await page.keyboard.press(parts[parts.length - 1]);
  for (const key of parts.slice(0, -1).reverse()) await page.keyboard.up(key);
}

async function loadWorkbench(page, url, folder) {
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
  await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: 60_000 });
}

/** Opens `name` by clicking it in the Explorer (Quick Open is flaky in code-server). */
async function openFromExplorer(page, name) {
  const row = await page.waitForSelector(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`, { timeout: 20_000 });
  await row.click();
  await poll(() => page.$eval(".tabs-container .tab.active", (tab) => tab.getAttribute("aria-label") ?? "").then((l) => l.startsWith(name)).catch(() => false), 10_000);
  await focusEditor(page);
}

/** Focuses the active editor (a click leaves focus in the Explorer or the panel). */
async function focusEditor(page) {
  const lines = await page.waitForSelector(".editor-group-container.active .monaco-editor .view-lines", { visible: true, timeout: 10_000 });
  await lines.click();
  await sleep(200);
}

/** Moves the cursor with Go to Line/Column (1-based, as the status bar shows). */
async function gotoPosition(page, line, column) {
  await chord(page, "Control+KeyG");
  await page.waitForSelector(".quick-input-widget input", { visible: true });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await poll(() => page.$eval(".editor-status-selection", (e) => e.textContent).then((t) => t.includes(`Ln ${line}, Col ${column}`)).catch(() => false), 5000);
}

/** Runs a palette command by its title. */
async function runPaletteCommand(page, title) {
  await chord(page, "Control+Shift+KeyP");
  await page.waitForSelector(".quick-input-widget input", { visible: true });
  await page.keyboard.type(title);
  const found = await poll(
    () => page.$$eval(".quick-input-list .monaco-list-row", (rows, t) => rows.some((r) => (r.getAttribute("aria-label") ?? "").startsWith(t)), title),
    10_000,
  );
  await page.keyboard.press(found ? "Enter" : "Escape");
  return found;
}

/**
 * The Problems rows matching `filter` (typed into the panel's filter: the list renders only the rows
 * in view). Each row: its aria label ("Error: MESSAGE at line L and character C. generated by …")
 * and its text (which carries the code and "[Ln L, Col C]").
 */
async function problems(page, filter) {
  const input = await page.waitForSelector(".markers-panel-container .monaco-inputbox input, .panel .viewpane-filter input", { visible: true, timeout: 10_000 });
  await input.click({ clickCount: 3 });
  await page.keyboard.press("Backspace");
  await page.keyboard.type(filter);
  await sleep(400);
  return page.$$eval(".markers-panel .monaco-list-row", (rows) =>
    rows.map((r) => ({ label: r.getAttribute("aria-label") ?? "", text: r.textContent ?? "" })).filter((r) => r.label.startsWith("Error") || r.label.startsWith("Warning")),
  );
}

/**
 * The Problems rows matching `filter`, each with the file it is listed under: { file, label, text }.
 * The list shows a file's row, then its problems' rows.
 */
async function problemsByFile(page, filter) {
  await problems(page, filter);
  return page.$$eval(".markers-panel .monaco-list-row", (rows) => {
    let file = "";
    const found = [];
    for (const row of rows) {
      const label = row.getAttribute("aria-label") ?? "";
      const text = row.textContent ?? "";
      if (/^(Error|Warning|Info)/.test(label)) found.push({ file, label, text });
      else file = row.querySelector(".label-name")?.textContent ?? label;
    }
    return found;
  });
}

/** Waits for a Problems row of `code` at `line` (1-based) of the current filter set. */
async function waitProblem(page, filter, code, line, ms) {
  return poll(async () => {
    const rows = await problems(page, filter);
    return rows.find((r) => r.text.includes(code) && r.text.includes(`[Ln ${line},`));
  }, ms, 1000);
}

async function showProblems(page) {
  const visible = await page.$(".markers-panel");
  if (!visible || !(await visible.isVisible())) await chord(page, "Control+Shift+KeyM");
  await page.waitForSelector(".markers-panel", { visible: true, timeout: 10_000 });
}

/** The text of the hover shown by "Show or Focus Hover" at the cursor. */
async function hoverText(page) {
  await chord(page, "Control+KeyK");
  await chord(page, "Control+KeyI");
  const text = await poll(() => page.$$eval(".monaco-hover:not(.hidden)", (els) => els.map((e) => e.innerText).join("\n")).catch(() => ""), 10_000);
  await page.keyboard.press("Escape");
  return plain(text);
}

/** The labels the completion list shows at the cursor. */
async function completionLabels(page) {
  await chord(page, "Control+Space");
  const labels = await poll(
    () => page.$$eval(".suggest-widget.visible .monaco-list-row", (rows) => rows.map((r) => (r.getAttribute("aria-label") ?? "").split(",")[0])).then((l) => (l.length ? l : undefined)),
    15_000,
  );
  await page.keyboard.press("Escape");
  return labels ?? [];
}

/** The visible text of every editor (the command results open in a new editor beside). */
async function editorTexts(page) {
  return page.$$eval(".editor-instance .monaco-editor .view-lines", (els) => els.map((e) => e.innerText)).then((t) => t.map(plain));
}

/**
 * One session: a fresh workspace folder `name`, a code-server (trusted: workspace trust off), a
 * browser page with the workbench loaded; `body(page, ws)` runs the checks, then all is stopped.
 */
async function session(box, name, trusted, body) {
  const ws = makeWorkspace(box, name);
  const server = await startCodeServer(box, trusted);
  const browser = await openBrowser(box, name);
  try {
    const page = await browser.newPage();
    currentPage = page;
    await page.setViewport({ width: 1400, height: 900 });
    await loadWorkbench(page, server.url, ws);
    await body(page, ws);
  } finally {
    await browser.close().catch(() => undefined);
    await stopCodeServer(server);
  }
}

// ---------------------------------------------------------------------------------------------
// Session 1: a trusted workspace

async function trustedSession(box, bundled) {
  await session(box, "workspace-trusted", true, async (page, ws) => {
    check(true, "the workbench loads with the workspace in the Explorer");

    await openFromExplorer(page, "typo-policy.yaml");
    await showProblems(page);
    const notSupported = await waitProblem(page, "Sometimes", "not-supported", 7, 60_000);
    check(Boolean(notSupported) && notSupported.label.includes("at line 7 and character 18"), "Problems: not-supported on failurePolicy's value at line 7, column 18", notSupported?.label);
    const syntax = await waitProblem(page, "Syntax error", "cel-syntax", 19, 10_000);
    check(Boolean(syntax), "Problems: cel-syntax for the unfinished block-scalar expression at line 19", syntax?.label);
    if (screenshot) {
      await problems(page, "");
      await page.mouse.move(700, 60);
      await page.screenshot({ path: screenshot });
    }

    // Hover on `replicas` in "object.spec.replicas <= 5": the field's type and documentation.
    await openFromExplorer(page, "typo-policy.yaml");
    await gotoPosition(page, ...positionOf("typo-policy.yaml", "object.spec.replicas", "object.spec.r".length));
    const hover = await hoverText(page);
    check(/^int\b/.test(hover) && hover.includes("apps.v1.Deployment.spec") && hover.includes("Number of desired pods"), "hover on a CEL field shows its type (int) and schema documentation", hover.split("\n")[0]);

    // Completion right after `object.spec.`: the fields of a Deployment's spec.
    await gotoPosition(page, ...positionOf("typo-policy.yaml", "object.spec.replicas", "object.spec.".length));
    const labels = await completionLabels(page);
    const wanted = ["replicas", "selector", "strategy", "template"];
    check(wanted.every((w) => labels.includes(w)), `completion after object.spec. offers ${wanted.join(", ")}`, labels.join(", "));

    // The schemaPaths setting of the (trusted) workspace: the paramKind's fields are typed.
    await openFromExplorer(page, "param-policy.yaml");
    await gotoPosition(page, ...positionOf("param-policy.yaml", "params.maxReplicas", "params.max".length));
    const paramHover = await hoverText(page);
    check(/^int\b/.test(paramHover) && paramHover.includes("The most replicas"), "workspace schemaPaths honoured when trusted: params.maxReplicas is typed from the CRD outside the workspace", paramHover.split("\n")[0]);

    await kyverno(page);
    await liveVerdicts(page);
    await besideRedHatYaml(page);
    await quickFix(page, ws);
    await commands(page, ws);
    await testingView(page);
    await bundledBinaryStarted(page, box, bundled, "trusted workspace");
  });
}

/** Live verdicts: live-policy.yaml's modeline names object.yaml (3 replicas); the verdict shows as an
 * inlay hint after the validation, and hovering it shows the evaluation trace. */
async function liveVerdicts(page) {
  const file = "live-policy.yaml";
  await openFromExplorer(page, file);
  const expression = "object.spec.replicas <= 2";
  const line = await poll(async () => {
    const texts = await editorTexts(page);
    return texts.flatMap((t) => t.split("\n")).find((l) => l.includes(expression) && l.includes("✗ deny: at most 2 replicas"));
  }, 30_000, 500);
  check(Boolean(line), "live verdict: the inlay hint after the validation reads ✗ deny: at most 2 replicas", line);
  const hint = await page.evaluateHandle((wanted) => {
    // Monaco renders spaces as no-break spaces.
    const text = (e) => e.textContent.replace(/\u00a0/g, " ");
    const lines = [...document.querySelectorAll(".editor-group-container.active .view-line")];
    const row = lines.find((l) => text(l).includes(wanted));
    const spans = row ? [...row.querySelectorAll("span")] : [];
    return spans.reverse().find((s) => text(s).includes("✗ deny")) ?? null;
  }, expression);
  const box = hint.asElement() ? await hint.asElement().boundingBox() : null;
  let trace = "";
  if (box) {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    trace = plain(await poll(() => page.$$eval(".monaco-hover:not(.hidden)", (els) => els.map((e) => e.innerText).join("\n")).then((t) => (t.includes("→") ? t : undefined)).catch(() => undefined), 10_000));
  }
  check(trace.includes("3 <= 2") && trace.includes("false"), "hover on the live verdict shows the trace: object.spec.replicas <= 2 → 3 <= 2 → false", trace.split("\n").slice(0, 4).join(" | "));
  if (liveScreenshot) {
    await page.screenshot({ path: liveScreenshot });
  }
  await page.mouse.move(700, 60);
}

/**
 * Beside the Red Hat YAML stand-in, with a schema associated with every `*.yaml` file: a plain
 * Deployment keeps yaml-language-server's schema diagnostics; the policies opened so far get none
 * (our schema contributor answers an empty schema for them); a policy's YAML syntax error shows once,
 * from yaml-language-server, with `admissionLs.diagnostics.disabled: ["yaml-syntax"]`.
 */
async function besideRedHatYaml(page) {
  await openFromExplorer(page, "plain-deployment.yaml");
  await showProblems(page);
  const typed = await poll(async () => {
    const rows = await problemsByFile(page, "yaml-schema");
    const mine = rows.filter((r) => r.file === "plain-deployment.yaml");
    return mine.some((r) => r.text.includes("Incorrect type") && r.text.includes("[Ln 5,")) && mine.some((r) => r.text.includes("[Ln 2,")) ? rows : undefined;
  }, 60_000, 1000);
  check(Boolean(typed), "Red Hat YAML stand-in: a plain Deployment keeps yaml-language-server's schema diagnostics (kind at line 2, Incorrect type at line 5)", JSON.stringify(await problemsByFile(page, "yaml-schema")));
  // A policy opened now, while yaml-language-server validates with the schema it just used: the
  // plain Deployment's errors show within about 2 s of opening it, so 10 s without one for the
  // policy (or any other file) means it has none.
  await openFromExplorer(page, "replica-policy.yaml");
  await showProblems(page);
  const others = await poll(async () => {
    const files = new Set((await problemsByFile(page, "yaml-schema")).map((r) => r.file));
    files.delete("plain-deployment.yaml");
    return files.size > 0 ? [...files] : undefined;
  }, 10_000, 1000);
  check(Boolean(typed) && !others, "and no policy (replica-policy.yaml, opened after it, nor any opened before) has a diagnostic from yaml-language-server's schema", others?.join(", "));

  await openFromExplorer(page, "broken-policy.yaml");
  await showProblems(page);
  const ylsSyntax = await poll(async () => {
    const rows = (await problemsByFile(page, "broken-policy")).filter((r) => r.file === "broken-policy.yaml");
    return rows.some((r) => r.text.includes("[Ln 7,")) ? rows : undefined;
  }, 60_000, 1000);
  // The server has checked the file by now: its diagnostics come before yaml-language-server's
  // schema is loaded; give it the same time again before counting.
  await sleep(2000);
  const rows = (await problemsByFile(page, "broken-policy")).filter((r) => r.file === "broken-policy.yaml");
  check(
    Boolean(ylsSyntax) && rows.length === 1 && !rows[0].text.includes("admission-ls"),
    "with admissionLs.diagnostics.disabled [yaml-syntax], the policy's YAML syntax error at line 7 shows once (yaml-language-server's)",
    rows.map((r) => r.label).join(" | "),
  );
}

/** A Kyverno ValidatingPolicy: its diagnostic, hover with a library function's description, completion
 * of the image's functions. */
async function kyverno(page) {
  const file = "kyverno-policy.yaml";
  await openFromExplorer(page, file);
  const diagnostic = await waitProblem(page, "replics", "cel-undefined-field", 19, 30_000);
  check(Boolean(diagnostic) && diagnostic.label.includes("at line 19 and character 32"), "Problems: the Kyverno policy's misspelt field at line 19, column 32", diagnostic?.label);
  await focusEditor(page);
  await gotoPosition(page, ...positionOf(file, "variables.image.registry()", "variables.image.re".length));
  const hover = await hoverText(page);
  check(hover.includes("kyverno.image.registry") && hover.includes("registry of the image reference"), "hover on a Kyverno library function shows its signature and description", hover.split("\n").join(" | "));
  await gotoPosition(page, ...positionOf(file, "variables.image.registry()", "variables.image.".length));
  const labels = await completionLabels(page);
  check(["registry", "repository", "tag"].every((w) => labels.includes(w)), "completion after variables.image. offers the image's functions", labels.join(", "));
}

/** "Did you mean 'replicas'?" on `object.spec.replcas`: apply it, save, read the file from disk. */
async function quickFix(page, ws) {
  await openFromExplorer(page, "quickfix-policy.yaml");
  const diagnostic = await waitProblem(page, "replcas", "cel-undefined-field", 15, 30_000);
  check(Boolean(diagnostic), "Problems: cel-undefined-field with a suggestion on line 15 of quickfix-policy.yaml", diagnostic?.label);
  await focusEditor(page);
  await gotoPosition(page, ...positionOf("quickfix-policy.yaml", "replcas", 2));
  await chord(page, "Control+Period");
  const actions = await poll(
    () => page.$$eval(".action-widget .monaco-list-row.action", (rows) => rows.map((r) => r.getAttribute("aria-label") ?? r.textContent ?? "")).then((a) => (a.length ? a : undefined)),
    10_000,
  );
  const index = (actions ?? []).findIndex((a) => a.includes("replicas"));
  check(index >= 0, "the quick fix menu offers the suggested field", (actions ?? []).join(" | "));
  if (index < 0) {
    await page.keyboard.press("Escape");
    return;
  }
  for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await sleep(500);
  await chord(page, "Control+KeyS");
  const file = path.join(ws, "quickfix-policy.yaml");
  const fixed = await poll(() => fs.readFileSync(file, "utf8").includes('expression: "object.spec.replicas <= 5"'), 10_000);
  check(fixed, "the quick fix rewrote object.spec.replcas to object.spec.replicas (saved file)");
  const cleared = await poll(async () => (await problems(page, "replcas")).length === 0, 15_000, 1000);
  check(cleared, "the diagnostic is gone after the fix");
}

/** Types `wanted` into the simple file dialog's path box, replacing what the dialog put there. The
 * dialog fills the box with the folder's path asynchronously, so a selection made as it opens can be
 * undone and the typed path land after the folder's (a CI run showed "Please enter a path that
 * exists" for such a path): the box is read back, and cleared and typed again until it holds
 * exactly `wanted`. */
async function typeDialogPath(page, wanted) {
  const box = ".quick-input-widget input";
  await page.waitForSelector(box, { visible: true, timeout: 10_000 });
  for (let attempt = 0; attempt < 5; attempt++) {
    await sleep(300 * (attempt + 1));
    await page.focus(box);
    await chord(page, "Control+KeyA");
    await page.keyboard.press("Backspace");
    await page.keyboard.type(wanted);
    await sleep(200);
    const value = await page.$eval(box, (input) => input.value).catch(() => "");
    if (value === wanted) return;
  }
}

/** Accepts the simple file dialog's typed path. The dialog checks the path asynchronously and, until
 * it has, refuses Enter with "Please enter a path that exists" (seen under load in CI): wait for the
 * check, and press Enter again while the dialog stays open. */
async function acceptPathDialog(page) {
  const refusing = () => page.$eval(".quick-input-widget", (w) => w.innerText.includes("Please enter a path that exists")).catch(() => false);
  await poll(async () => !(await refusing()), 10_000);
  for (let attempt = 0; attempt < 3; attempt++) {
    await sleep(500);
    await page.keyboard.press("Enter");
    const closed = await poll(() => page.$eval(".quick-input-widget", (w) => getComputedStyle(w).display === "none").catch(() => true), 3_000);
    if (closed) return;
    await poll(async () => !(await refusing()), 5_000);
  }
}

/** The evaluate and run-tests palette commands show the server's JSON result beside the editor. */
async function commands(page, ws) {
  await openFromExplorer(page, "replica-policy.yaml");
  await gotoPosition(page, ...positionOf("replica-policy.yaml", "object.spec.replicas"));
  const found = await runPaletteCommand(page, "Admission Policies: Evaluate Policy at Cursor Against an Object File");
  check(found, "the palette offers Admission Policies: Evaluate Policy at Cursor Against an Object File…");
  // VS Code's simple file dialog (files.simpleDialog.enable): a path box.
  await typeDialogPath(page, path.join(ws, "object.yaml"));
  await acceptPathDialog(page);
  const evaluated = await poll(async () => (await editorTexts(page)).find((t) => t.includes('"decision": "deny"')), 20_000);
  check(Boolean(evaluated) && evaluated.includes("at most 2 replicas"), "evaluate shows the decision (deny) and the message for object.yaml", evaluated?.split("\n").slice(0, 4).join(" "));

  await openFromExplorer(page, "replica-policy.test.yaml");
  const ran = await runPaletteCommand(page, "Admission Policies: Run Tests of the Current File");
  check(ran, "the palette offers Admission Policies: Run Tests of the Current File");
  const result = await poll(async () => (await editorTexts(page)).find((t) => t.includes('"three replicas are denied"')), 20_000);
  check(Boolean(result) && result.includes('"passed": true') && !result.includes('"passed": false'), "run tests shows the suite's result: every case passed", result?.replace(/\s+/g, " ").slice(0, 160));
}

/** The Testing view: the server's suites listed, Run All Tests reports the passing and the failing
 * case of replica-policy-wrong.test.yaml with their states. */
async function testingView(page) {
  const ran = await runPaletteCommand(page, "Test: Run All Tests");
  check(ran, "the palette offers Test: Run All Tests");
  await runPaletteCommand(page, "Testing: Focus on Test Explorer View");
  const rows = () => page.$$eval(".test-explorer .monaco-list-row", (rs) => rs.map((r) => r.getAttribute("aria-label") ?? ""));
  // Expand the tree (files, then suites) until the cases show.
  const found = await poll(async () => {
    const collapsed = await page.$$(".test-explorer .monaco-list-row[aria-expanded='false'] .monaco-tl-twistie");
    for (const twistie of collapsed) await twistie.click().catch(() => undefined);
    const labels = await rows();
    const passing = labels.find((l) => l.includes("one replica is admitted"));
    const failing = labels.find((l) => l.includes("five replicas are wrongly expected to pass"));
    return passing && failing && /pass/i.test(passing) && /fail/i.test(failing) ? { passing, failing } : undefined;
  }, 30_000, 1000);
  let detail = found ? `${found.passing} | ${found.failing}` : (await rows()).join(" | ");
  if (!found) {
    await runPaletteCommand(page, "Admission Policies: Show Output Channel");
    await sleep(1000);
    detail += " || " + plain(await page.$$eval(".panel .monaco-editor .view-line", (rs) => rs.map((r) => r.textContent).join("\n")));
  }
  check(Boolean(found), "the Testing view shows the passing case passed and the failing case failed", detail);
}

/** The output channel names the bundled binary, and that binary is what runs. */
async function bundledBinaryStarted(page, box, bundled, where) {
  await runPaletteCommand(page, "Admission Policies: Show Output Channel");
  // Output lines wrap in the panel: the rows are joined without breaks before searching.
  const expected = `admission-ls started: ${bundled} (the binary bundled with the extension)`;
  const text = await poll(
    () => page.$$eval(".panel .monaco-editor .view-line", (rows) => rows.map((r) => r.textContent).join("")).then((t) => (plain(t).includes(expected) ? plain(t) : undefined)),
    15_000,
  );
  check(Boolean(text), `${where}: the output channel says "admission-ls started: …/server/admission-ls (the binary bundled with the extension)"`);
  check(processesOf(bundled).length > 0, `${where}: a process runs the bundled binary ${path.relative(box.root, bundled)}`);
  check(!fs.existsSync(box.evilMarker), `${where}: admissionLs.path from the workspace settings was not run (machine scope)`);
  check(!fs.existsSync(box.pathMarker), `${where}: admission-ls on PATH was not run (the bundled binary comes first)`);
  if (where === "trusted workspace") {
    check(text?.includes("redhat.vscode-yaml: admission files get no schema from it"), `${where}: the output channel says the schema contributor is registered with redhat.vscode-yaml`);
  }
}

// ---------------------------------------------------------------------------------------------
// Session 2: the same workspace settings in Restricted Mode

async function restrictedSession(box, bundled) {
  await session(box, "workspace-untrusted", false, async (page) => {
    const restricted = await poll(() => page.$eval("body", (b) => b.innerText.includes("Restricted Mode")).catch(() => false), 15_000);
    check(restricted, "Restricted Mode: the folder opens untrusted");
    await openFromExplorer(page, "param-policy.yaml");
    await showProblems(page);
    const unresolved = await waitProblem(page, "ReplicaLimit", "unresolved-reference", 10, 60_000);
    check(Boolean(unresolved), "Restricted Mode: the workspace's schemaPaths is ignored (paramKind unresolved at line 10), and the server still checks", unresolved?.label);
    await bundledBinaryStarted(page, box, bundled, "Restricted Mode");
  });
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync(vsix)) throw new Error(`no .vsix at ${vsix} (run scripts/package-bundled.sh)`);
  if (!fs.existsSync(codeServer)) throw new Error(`no code-server at ${codeServer} (run setup.sh)`);
  const box = makeSandbox();
  console.log(`sandbox ${box.root}`);
  try {
    writeUserSettings(box);
    const bundled = installExtension(box);
    if (!bundled) return;
    check(fs.statSync(bundled).mode & 0o111, "the installed extension carries an executable server/admission-ls");
    await trustedSession(box, bundled);
    await restrictedSession(box, bundled);
  } finally {
    if (keep) console.log(`kept ${box.root}`);
    else fs.rmSync(box.root, { recursive: true, force: true });
  }
}

// A hung step must not hang CI: the whole run is bounded.
const watchdog = setTimeout(() => {
  check(false, "the run finished within 330 s");
  console.log(`vscode-real: ${passed} passed, ${failed} failed`);
  process.exit(1);
}, 330_000);
watchdog.unref();

try {
  await main();
} catch (error) {
  check(false, `error: ${error?.stack ?? error}`);
}
console.log(`vscode-real: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
