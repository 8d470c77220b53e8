// The VS Code extension: starts admission-ls for YAML files holding admission policies, bindings,
// webhook configurations, PolicyTest suites or CRDs (detect.ts), passes the `admissionLs` settings,
// and adds the palette commands.
import * as fs from "fs";
import * as os from "os";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { describeSource, resolveServer } from "./binary";
import { executeLensCommand, registerCommands } from "./commands";
import { AttachGate, DOCUMENT_SELECTOR, LANGUAGES, isAdmissionText } from "./detect";
import { RestartGuard } from "./restartGuard";
import { registerTesting } from "./testing";
import { SECTION, configurationItem, initializationOptions, serverSettings } from "./settings";
import { RED_HAT_YAML, YamlExtensionApi, registerSchemaContributor } from "./yamlSchemas";

/**
 * A client that logs its own errors to the output channel without pop-ups: the extension tells the
 * user itself, once (a dying server otherwise draws four or five notifications from the client).
 */
class QuietClient extends LanguageClient {
  override error(message: string, data?: unknown): void {
    super.error(message, data, false);
  }
}

/** The running extension: one client at a time, restarted on demand. */
export class Extension {
  readonly output = vscode.window.createOutputChannel("Admission Policies (admission-ls)");
  readonly guard = new RestartGuard();
  private readonly gate = new AttachGate();
  client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;

  /** `extensionPath`: the extension's folder, where a platform-specific .vsix has `server/`. */
  constructor(private readonly extensionPath: string) {}

  private get(key: string): unknown {
    return vscode.workspace.getConfiguration(SECTION).get(key);
  }

  /** Set when the user was told the server is missing or broken: nothing starts it again
   * automatically (not even opening another policy file) until the Restart command. */
  private halted = false;

  /** Starts the server unless it runs, is starting or was halted. Failures are reported, never thrown. */
  ensureStarted(): Promise<void> {
    if (!this.client && !this.starting && !this.halted) {
      this.starting = this.start().finally(() => (this.starting = undefined));
    }
    return this.starting ?? Promise.resolve();
  }

  private async start(): Promise<void> {
    const resolution = resolveServer({
      configuredPath: this.get("path") as string | undefined,
      extensionPath: this.extensionPath,
      envPath: process.env.PATH,
      platform: process.platform,
      isExecutable: isExecutable,
      expand: (p) => p.replace(/^~(?=$|[\\/])/, os.homedir()),
    });
    if (!resolution.command) {
      this.report(
        `admission-ls was not found (tried ${resolution.tried}). Install it or set "admissionLs.path".`,
      );
      return;
    }
    const command = resolution.command;
    const source = resolution.source ? describeSource(resolution.source) : "";
    const serverOptions: ServerOptions = { command, args: ["serve"], transport: TransportKind.stdio };
    const client = new QuietClient("admissionLs", "admission-ls", serverOptions, this.clientOptions(command));
    this.client = client;
    this.gate.reset();
    try {
      await client.start();
      this.output.appendLine(`admission-ls started: ${command} (${source})`);
    } catch (error) {
      this.client = undefined;
      await client.dispose().catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      this.report(`The admission-ls server (${command}) stopped while starting (${reason}); see the output channel.`);
    }
  }

  private clientOptions(command: string): LanguageClientOptions {
    const gate = this.gate;
    const get = (key: string) => this.get(key);
    return {
      documentSelector: DOCUMENT_SELECTOR,
      outputChannel: this.output,
      initializationOptions: initializationOptions(get),
      initializationFailedHandler: (error) => {
        this.output.appendLine(`admission-ls (${command}) failed to initialize: ${String(error)}`);
        return false;
      },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        closed: () => {
          const decision = this.guard.closed(command);
          if (decision.action === "restart") {
            this.output.appendLine(`admission-ls (${command}) stopped unexpectedly; restarting.`);
            this.gate.reset();
            return { action: CloseAction.Restart, handled: true };
          }
          this.client = undefined;
          this.report(decision.message);
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      middleware: {
        workspace: {
          configuration: (params) => params.items.map((item) => configurationItem(item.section, get)),
        },
        didOpen: (document, next) => (gate.open(document.uri.toString(), document.getText()) ? next(document) : Promise.resolve()),
        didChange: (event, next) => {
          const uri = event.document.uri.toString();
          const verdict = gate.change(uri, () => event.document.getText());
          if (verdict === "forward") {
            return next(event);
          }
          if (verdict === "open" && this.client) {
            const { document } = event;
            return this.client.sendNotification("textDocument/didOpen", {
              textDocument: { uri, languageId: document.languageId, version: document.version, text: document.getText() },
            });
          }
          return Promise.resolve();
        },
        didSave: (document, next) => (gate.isAttached(document.uri.toString()) ? next(document) : Promise.resolve()),
        didClose: (document, next) => (gate.close(document.uri.toString()) ? next(document) : Promise.resolve()),
        executeCommand: (command, args, next) => executeLensCommand(command, args, next),
      },
    };
  }

  /** Tells the user once (until the next manual restart), offering a restart and the output. */
  report(message: string): void {
    this.halted = true;
    this.output.appendLine(message);
    if (!this.guard.shouldReport()) {
      return;
    }
    void vscode.window.showErrorMessage(message, "Restart", "Show Output").then((choice) => {
      if (choice === "Restart") {
        void vscode.commands.executeCommand("admissionLs.restart");
      } else if (choice === "Show Output") {
        this.output.show(true);
      }
    });
  }

  /** Pushes changed settings (normalised like initializationOptions, never VS Code's raw section). */
  settingsChanged(): void {
    const settings = { [SECTION]: serverSettings((key) => this.get(key)) };
    void this.client?.sendNotification("workspace/didChangeConfiguration", { settings });
  }

  async restart(): Promise<void> {
    await this.stop();
    this.guard.reset();
    this.halted = false;
    await this.ensureStarted();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.dispose(2000).catch(() => undefined);
    }
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

let extension: Extension | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const ext = new Extension(context.extensionPath);
  extension = ext;
  context.subscriptions.push(ext.output, ...registerCommands(ext), ...registerTesting(ext));
  void besideRedHatYaml(ext.output);
  const consider = (document: vscode.TextDocument) => {
    if (!ext.client && LANGUAGES.includes(document.languageId) && isAdmissionText(document.getText())) {
      void ext.ensureStarted();
    }
  };
  vscode.workspace.textDocuments.forEach(consider);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(consider),
    vscode.workspace.onDidChangeTextDocument((event) => consider(event.document)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.path`)) {
        void ext.restart();
      } else if (event.affectsConfiguration(SECTION)) {
        ext.settingsChanged();
      }
    }),
  );
}

/** When Red Hat YAML is installed, the files admission-ls checks get no second schema from it. */
async function besideRedHatYaml(output: vscode.OutputChannel): Promise<void> {
  const yaml = vscode.extensions?.getExtension<YamlExtensionApi>(RED_HAT_YAML);
  if (!yaml) {
    return;
  }
  try {
    const api = yaml.isActive ? yaml.exports : await yaml.activate();
    const textOf = (resource: string) =>
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === resource)?.getText();
    const registered = typeof api?.registerContributor === "function" && registerSchemaContributor(api, textOf);
    output.appendLine(`${RED_HAT_YAML}: ${registered ? "admission files get no schema from it" : "its schema API was not available"}`);
  } catch (error) {
    output.appendLine(`${RED_HAT_YAML}: could not register the schema contributor: ${String(error)}`);
  }
}

export function deactivate(): Promise<void> | undefined {
  return extension?.stop();
}
