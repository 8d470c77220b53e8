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

export function fakeVscode(state: FakeState): unknown {
  const output = { name: "out", append() {}, appendLine() {}, replace() {}, clear() {}, show() {}, hide() {}, dispose() {} };
  const api: Record<string, unknown> = {
    Disposable,
    EventEmitter,
    Uri: FakeUri,
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
      workspaceFolders: undefined,
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
