// The palette commands: run the tests of the current file, evaluate the policy at the cursor
// against an object file, restart the server, show the output channel. Server commands that the
// running server does not support end in a clear message, not an error dialog.
import * as vscode from "vscode";
import { isUnsupportedError, serverSupports, unsupportedMessage } from "./commandErrors";
import type { Extension } from "./extension";

/** Server-side command ids (see the README, "Editors"); the palette commands use `admissionLs.*` so that the
 * client's registration of the server's own commands (for code lenses) never collides with them. */
export const SERVER_EVALUATE = "admission-ls.evaluate";
export const SERVER_RUN_TESTS = "admission-ls.runTests";
export const SERVER_VALIDATE = "admission-ls.validate";

/** Commands whose answer is shown when a code lens runs them (the client's own registration of
 * server commands would drop it): the validate lenses' reports open as JSON, like evaluate's. */
export const SHOWN_LENS_COMMANDS: readonly string[] = [SERVER_VALIDATE];

export function registerCommands(ext: Extension): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand("admissionLs.restart", () => ext.restart()),
    vscode.commands.registerCommand("admissionLs.showOutput", () => ext.output.show(true)),
    vscode.commands.registerCommand("admissionLs.runTests", async () => {
      const editor = policyEditor();
      if (editor) {
        await runServerCommand(ext, SERVER_RUN_TESTS, [{ uri: editor.document.uri.toString() }]);
      }
    }),
    vscode.commands.registerCommand("admissionLs.evaluate", async () => {
      const editor = policyEditor();
      if (!editor) {
        return;
      }
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: "Evaluate against this object",
        filters: { "Kubernetes objects": ["yaml", "yml", "json"] },
      });
      if (!picked || picked.length === 0) {
        return;
      }
      const { line, character } = editor.selection.active;
      await runServerCommand(ext, SERVER_EVALUATE, [
        { uri: editor.document.uri.toString(), position: { line, character }, object: picked[0].toString() },
      ]);
    }),
  ];
}

function policyEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "yaml") {
    void vscode.window.showWarningMessage("Open a YAML file with an admission policy or a PolicyTest first.");
    return undefined;
  }
  return editor;
}

/** Sends `workspace/executeCommand` and shows the JSON result in a new editor. */
async function runServerCommand(ext: Extension, command: string, args: unknown[]): Promise<void> {
  await ext.ensureStarted();
  const client = ext.client;
  if (!client) {
    void vscode.window.showErrorMessage("The admission-ls server is not running; see the output channel.");
    return;
  }
  const info = client.initializeResult;
  if (!serverSupports(info?.capabilities, command)) {
    void vscode.window.showWarningMessage(unsupportedMessage(command, info?.serverInfo?.version));
    return;
  }
  try {
    const result: unknown = await client.sendRequest("workspace/executeCommand", { command, arguments: args });
    await showResult(result);
  } catch (error) {
    if (isUnsupportedError(error)) {
      void vscode.window.showWarningMessage(unsupportedMessage(command, info?.serverInfo?.version));
    } else {
      void vscode.window.showErrorMessage(`${command} failed: ${(error as Error).message ?? String(error)}`);
    }
  }
}

/** Shows a command's JSON answer in a new editor beside the current one. */
export async function showResult(result: unknown): Promise<void> {
  const document = await vscode.workspace.openTextDocument({
    language: "json",
    content: JSON.stringify(result, null, 2),
  });
  await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

/** The `executeCommand` middleware: a shown lens command's answer opens as JSON; its failure is
 * reported as the palette commands report theirs. */
export async function executeLensCommand(
  command: string,
  args: unknown[],
  next: (command: string, args: unknown[]) => unknown,
): Promise<unknown> {
  if (!SHOWN_LENS_COMMANDS.includes(command)) {
    return next(command, args);
  }
  try {
    const result = await next(command, args);
    await showResult(result);
    return result;
  } catch (error) {
    void vscode.window.showErrorMessage(`${command} failed: ${(error as Error).message ?? String(error)}`);
    return undefined;
  }
}
