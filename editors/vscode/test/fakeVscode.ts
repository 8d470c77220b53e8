// A stand-in for the `vscode` module, enough for the extension and vscode-languageclient to start:
// records error messages and the documents the extension shows, serves settings and open documents;
// every other API is an inert stub.

export interface FakeDocument {
  uri: string;
  languageId: string;
  text: string;
}

export class FakeState {
  readonly errors: string[] = [];
  readonly errorActions: string[][] = [];
  readonly warnings: string[] = [];
  /** Contents of the untitled documents the extension opened and showed (command results). */
  readonly shown: string[] = [];
  readonly commands = new Map<string, (...args: unknown[]) => unknown>();
  /** What the file picker returns. */
  pick: string | undefined;
  activeDocument: FakeDocument | undefined;
  readonly openListeners: Array<(d: unknown) => void> = [];
  /** The workspace folders (file URIs); none unless a test sets them. */
  folders: string[] = [];
  /** The Testing API's controllers the extension created, and what its runs reported. */
  readonly testControllers: FakeTestController[] = [];
  readonly testResults: Array<{ event: string; id: string; message?: FakeTestMessage }> = [];
  constructor(
    readonly settings: Record<string, unknown>,
    readonly documents: FakeDocument[],
  ) {}

  openDocument(d: FakeDocument): void {
    this.documents.push(d);
    this.openListeners.forEach((l) => l(textDocument(d)));
  }
}

/** Anything: callable, constructible, every property is itself; not a thenable. */
const inert: any = new Proxy(function () {}, {
  get: (_t, p) => (p === "then" ? undefined : p === Symbol.iterator ? [][Symbol.iterator] : p === Symbol.toPrimitive ? () => "" : inert),
  apply: () => inert,
  construct: () => inert,
});

/** A class, so that the client's `value instanceof vscode.Uri` checks work. */
class FakeUri {
  readonly scheme: string;
  readonly fsPath: string;
  readonly path: string;
  constructor(private readonly text: string) {
    const u = new URL(text);
    this.scheme = u.protocol.replace(":", "");
    this.fsPath = u.pathname;
    this.path = u.pathname;
  }
  toString(): string {
    return this.text;
  }
  static parse(text: string): FakeUri {
    return new FakeUri(text);
  }
  static file(p: string): FakeUri {
    return new FakeUri("file://" + p);
  }
}

function uri(text: string) {
  return new FakeUri(text);
}

function textDocument(d: FakeDocument) {
  return { uri: uri(d.uri), languageId: d.languageId, version: 1, getText: () => d.text, isClosed: false, fileName: uri(d.uri).fsPath };
}

class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...items: Array<{ dispose(): void }>) {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose() {
    this.fn();
  }
}

class EventEmitter<T> {
  private listeners: Array<(e: T) => void> = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return new Disposable();
  };
  fire(e: T) {
    this.listeners.forEach((l) => l(e));
  }
  dispose() {
    this.listeners = [];
  }
}

const event = () => new Disposable();

/** The Testing API, enough for the extension's Testing view (src/testing.ts). */
class FakeTestItemCollection {
  private readonly map = new Map<string, FakeTestItem>();
  get size() {
    return this.map.size;
  }
  add(item: FakeTestItem) {
    this.map.set(item.id, item);
  }
  delete(id: string) {
    this.map.delete(id);
  }
  get(id: string) {
    return this.map.get(id);
  }
  replace(items: FakeTestItem[]) {
    this.map.clear();
    items.forEach((i) => this.add(i));
  }
  forEach(callback: (item: FakeTestItem) => void) {
    [...this.map.values()].forEach((i) => callback(i));
  }
}

export interface FakeTestItem {
  id: string;
  label: string;
  uri: FakeUri | undefined;
  range: unknown;
  children: FakeTestItemCollection;
}

export class FakeTestMessage {
  expectedOutput: string | undefined;
  actualOutput: string | undefined;
  location: { uri: FakeUri; range: FakeRange } | undefined;
  constructor(readonly message: string) {}
  static diff(message: string, expected: string, actual: string) {
    const m = new FakeTestMessage(message);
    m.expectedOutput = expected;
    m.actualOutput = actual;
    return m;
  }
}

class FakeRange {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

class FakeLocation {
  constructor(
    readonly uri: FakeUri,
    readonly range: FakeRange,
  ) {}
}

export class FakeTestController {
  readonly items = new FakeTestItemCollection();
  resolveHandler: ((item: FakeTestItem | undefined) => Promise<void>) | undefined;
  runHandler: ((request: { include?: FakeTestItem[] }, token: { isCancellationRequested: boolean }) => Promise<void>) | undefined;
  constructor(private readonly state: FakeState) {}
  createTestItem(id: string, label: string, uri?: FakeUri): FakeTestItem {
    // As VS Code does: its own test ids join their parts with NUL.
    if (id.includes("\0")) {
      throw new Error(`Test IDs may not include the NUL character: ${JSON.stringify(id)}`);
    }
    return { id, label, uri, range: undefined, children: new FakeTestItemCollection() };
  }
  createRunProfile(_label: string, _kind: number, handler: FakeTestController["runHandler"]) {
    this.runHandler = handler;
    return new Disposable();
  }
  createTestRun() {
    const record = (event: string) => (item: FakeTestItem, message?: FakeTestMessage) => this.state.testResults.push({ event, id: item.id, message });
    return { started: record("started"), passed: record("passed"), failed: record("failed"), errored: record("errored"), skipped: record("skipped"), end() {} };
  }
  dispose() {}
}

export function fakeVscode(state: FakeState): unknown {
  const output = { name: "out", append() {}, appendLine() {}, replace() {}, clear() {}, show() {}, hide() {}, dispose() {} };
  const api: Record<string, unknown> = {
    Disposable,
    EventEmitter,
    Uri: FakeUri,
    Range: FakeRange,
    Location: FakeLocation,
    TestMessage: FakeTestMessage,
    TestRunProfileKind: { Run: 1, Debug: 2, Coverage: 3 },
    TestRunRequest: class {
      constructor(readonly include?: FakeTestItem[]) {}
    },
    CancellationTokenSource: class {
      readonly token = { isCancellationRequested: false };
      // The language client cancels its workspace diagnostic pull with this when it stops; without
      // it the stop throws before `shutdown`, and the server outlives the test.
      cancel() {
        this.token.isCancellationRequested = true;
      }
      dispose() {}
    },
    tests: {
      createTestController: () => {
        const controller = new FakeTestController(state);
        state.testControllers.push(controller);
        return controller;
      },
    },
    version: "1.90.0",
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    env: { appName: "fake", language: "en", machineId: "m", sessionId: "s" },
    window: {
      createOutputChannel: () => output,
      // Pull diagnostics track open tabs; no tabs are open here.
      tabGroups: { all: [], onDidChangeTabs: event, onDidChangeTabGroups: event },
      showTextDocument: (document: { content: string }) => {
        state.shown.push(document.content);
        return Promise.resolve();
      },
      showErrorMessage: (message: string, ...actions: string[]) => {
        state.errors.push(message);
        state.errorActions.push(actions);
        return Promise.resolve(undefined);
      },
      showWarningMessage: (message: string) => {
        state.warnings.push(message);
        return Promise.resolve(undefined);
      },
      showOpenDialog: () => Promise.resolve(state.pick ? [uri(state.pick)] : undefined),
      showInformationMessage: () => Promise.resolve(undefined),
      onDidChangeActiveTextEditor: event,
      onDidChangeVisibleTextEditors: event,
      visibleTextEditors: [],
      get activeTextEditor() {
        const d = state.activeDocument;
        return d && { document: textDocument(d), selection: { active: { line: 14, character: 20 } } };
      },
    },
    workspace: {
      openTextDocument: (options: { content: string }) => Promise.resolve({ content: options.content }),
      getConfiguration: () => ({ get: (key: string) => state.settings[key], has: () => false, inspect: () => undefined, update: () => Promise.resolve() }),
      get textDocuments() {
        return state.documents.map(textDocument);
      },
      get workspaceFolders() {
        return state.folders.length > 0 ? state.folders.map((f, index) => ({ uri: uri(f), name: `folder${index}`, index })) : undefined;
      },
      onDidOpenTextDocument: (l: (d: unknown) => void) => {
        state.openListeners.push(l);
        return new Disposable();
      },
      onDidChangeTextDocument: event,
      onDidCloseTextDocument: event,
      onDidSaveTextDocument: event,
      onWillSaveTextDocument: event,
      onDidChangeConfiguration: event,
      onDidChangeWorkspaceFolders: event,
      onDidCreateFiles: event,
      onDidRenameFiles: event,
      onDidDeleteFiles: event,
      onWillCreateFiles: event,
      onWillRenameFiles: event,
      onWillDeleteFiles: event,
      createFileSystemWatcher: () => ({ onDidCreate: event, onDidChange: event, onDidDelete: event, dispose() {} }),
    },
    commands: {
      registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
        state.commands.set(id, handler);
        return new Disposable();
      }, executeCommand: () => Promise.resolve(undefined) },
    // Every `register…Provider` (code lenses, hover, completion, … as the server advertises them)
    // registers nothing and returns a disposable.
    languages: new Proxy(
      {
        createDiagnosticCollection: () => ({ set() {}, delete() {}, clear() {}, dispose() {}, forEach() {} }),
        match: () => 10,
      } as Record<string, unknown>,
      { get: (target, p: string) => (p in target ? target[p] : p.startsWith("register") ? () => new Disposable() : inert) },
    ),
  };
  return new Proxy(api, { get: (target, p: string) => (p in target ? target[p] : inert) });
}
