// The Testing view (VS Code's Testing API): the workspace's suites (PolicyTest, kaptest, gator,
// Kyverno Test) and their cases, listed by the server (`admission-ls.listTests`); a run of one case,
// a suite, a file or everything goes through `admission-ls.runTests`; a failure is a TestMessage at
// the case's line with what was expected and what came as a diff. Saving a suite file, or a file a
// suite names (its policy, its resources), runs the suites already run again.
import * as fs from "fs";
import * as vscode from "vscode";
import { serverSupports } from "./commandErrors";
import type { Extension } from "./extension";
import { CaseOutcome, ListedSuite, Range, TestNode, buildTree, fileOf, outcomes, runArgs, staleSuites } from "./testTree";

export const SERVER_LIST_TESTS = "admission-ls.listTests";
const SERVER_RUN_TESTS = "admission-ls.runTests";

/** The controller's id (the Testing view groups items under it). */
export const CONTROLLER_ID = "admissionLs.tests";

export function registerTesting(ext: Extension): vscode.Disposable[] {
  const explorer = new TestExplorer(ext);
  return [explorer];
}

class TestExplorer implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController(CONTROLLER_ID, "Admission policy tests");
  private readonly disposables: vscode.Disposable[] = [this.controller];
  /** The suite files run so far: a save re-runs those it makes stale. */
  private readonly ran = new Set<string>();

  constructor(private readonly ext: Extension) {
    this.controller.resolveHandler = async (item) => {
      if (!item) {
        await this.refresh();
      }
    };
    this.controller.createRunProfile("Run", vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    this.disposables.push(vscode.workspace.onDidSaveTextDocument((document) => void this.saved(document)));
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  /** Sends a server command; `undefined` when the server is not running or lacks it. */
  private async send(command: string, args: unknown): Promise<unknown> {
    await this.ext.ensureStarted();
    const client = this.ext.client;
    if (!client || !serverSupports(client.initializeResult?.capabilities, command)) {
      return undefined;
    }
    return client.sendRequest("workspace/executeCommand", { command, arguments: [args] });
  }

  /** Lists the workspace's suites again (or one file's) and rebuilds their items. */
  async refresh(uri?: string): Promise<void> {
    const answer = (await this.send(SERVER_LIST_TESTS, uri ? { uri } : {}).catch((error: Error) => {
      this.ext.output.appendLine(`${SERVER_LIST_TESTS} failed: ${error.message}`);
      return undefined;
    })) as { suites?: ListedSuite[] } | undefined;
    if (!answer) {
      return;
    }
    const nodes = buildTree(answer.suites ?? []);
    if (uri) {
      this.controller.items.delete(uri);
    } else {
      this.controller.items.replace([]);
    }
    for (const node of nodes) {
      this.controller.items.add(this.item(node));
    }
  }

  private item(node: TestNode): vscode.TestItem {
    const item = this.controller.createTestItem(node.id, node.label, vscode.Uri.parse(node.uri));
    if (node.range) {
      item.range = range(node.range);
    }
    for (const child of node.children) {
      item.children.add(this.item(child));
    }
    return item;
  }

  /** The cases under `item` (itself when it is one). */
  private leaves(item: vscode.TestItem, out: vscode.TestItem[] = []): vscode.TestItem[] {
    if (item.children.size === 0) {
      out.push(item);
    }
    item.children.forEach((child) => this.leaves(child, out));
    return out;
  }

  private find(id: string): vscode.TestItem | undefined {
    const top = this.controller.items.get(fileOf(id));
    if (!top) {
      return undefined;
    }
    const walk = (item: vscode.TestItem): vscode.TestItem | undefined => {
      if (item.id === id) {
        return item;
      }
      let found: vscode.TestItem | undefined;
      item.children.forEach((child) => (found = found ?? walk(child)));
      return found;
    };
    return walk(top);
  }

  /** Runs what `request` includes (everything when it names nothing), one server call per item. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (this.controller.items.size === 0) {
      // Run before the view listed anything (Run All from the palette): list first.
      await this.refresh();
    }
    const run = this.controller.createTestRun(request);
    try {
      const included = request.include ?? [];
      const targets: Array<{ args: unknown; items: vscode.TestItem[] }> = [];
      if (included.length === 0) {
        const all: vscode.TestItem[] = [];
        this.controller.items.forEach((item) => this.leaves(item, all));
        targets.push({ args: {}, items: all });
      } else {
        for (const item of included) {
          targets.push({ args: runArgs(item.id), items: this.leaves(item) });
        }
      }
      for (const target of targets) {
        if (token.isCancellationRequested) {
          break;
        }
        target.items.forEach((item) => run.started(item));
        const answer = await this.send(SERVER_RUN_TESTS, target.args).catch((error: Error) => {
          target.items.forEach((item) => run.errored(item, new vscode.TestMessage(`admission-ls.runTests failed: ${error.message}`)));
          return undefined;
        });
        if (answer !== undefined) {
          this.report(run, answer, target.items);
        }
      }
    } finally {
      run.end();
    }
  }

  /** Puts a run's answer on the items; an item the answer does not mention is skipped. */
  private report(run: vscode.TestRun, answer: unknown, items: vscode.TestItem[]): void {
    const { cases, suiteErrors } = outcomes(answer, (path) => vscode.Uri.file(path).toString());
    const reported = new Set<string>();
    for (const outcome of cases) {
      const item = this.find(outcome.id);
      if (!item) {
        continue;
      }
      reported.add(item.id);
      this.ran.add(item.uri?.toString() ?? "");
      this.put(run, item, outcome);
    }
    for (const [id, message] of suiteErrors) {
      const suite = this.find(id);
      if (suite) {
        run.errored(suite, new vscode.TestMessage(message));
      }
    }
    items.filter((item) => !reported.has(item.id)).forEach((item) => run.skipped(item));
  }

  private put(run: vscode.TestRun, item: vscode.TestItem, outcome: CaseOutcome): void {
    if (outcome.state === "passed") {
      run.passed(item, outcome.durationMs);
      return;
    }
    const message =
      outcome.expected !== undefined && outcome.actual !== undefined
        ? vscode.TestMessage.diff(outcome.message, outcome.expected, outcome.actual)
        : new vscode.TestMessage(outcome.message);
    if (outcome.uri && outcome.range) {
      message.location = new vscode.Location(vscode.Uri.parse(outcome.uri), range(outcome.range));
    }
    if (outcome.state === "errored") {
      run.errored(item, message, outcome.durationMs);
    } else {
      run.failed(item, message, outcome.durationMs);
    }
  }

  /** After a save: lists a saved suite file again, and re-runs the suite files it makes stale. */
  private async saved(document: vscode.TextDocument): Promise<void> {
    if (document.uri.scheme !== "file" || !/\.ya?ml$/.test(document.uri.path)) {
      return;
    }
    const uri = document.uri.toString();
    if (this.controller.items.get(uri) || /PolicyTest|TestSuites|test\.gatekeeper\.sh|cli\.kyverno\.io/.test(document.getText())) {
      await this.refresh(uri);
    }
    const stale = staleSuites(uri, this.ran, (suite) => readText(suite));
    const include = stale.map((s) => this.controller.items.get(s)).filter((i): i is vscode.TestItem => i !== undefined);
    if (include.length > 0) {
      const source = new vscode.CancellationTokenSource();
      await this.run(new vscode.TestRunRequest(include), source.token);
      source.dispose();
    }
  }
}

function range(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

function readText(uri: string): string | undefined {
  try {
    return fs.readFileSync(vscode.Uri.parse(uri).fsPath, "utf8");
  } catch {
    return undefined;
  }
}
