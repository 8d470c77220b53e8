// What to tell the user when a server command cannot run: the server does not advertise it, or
// answers "method not found" / "unknown command". Pure: no vscode import.

/** JSON-RPC "method not found". */
export const METHOD_NOT_FOUND = -32601;

/** True when the server's capabilities list `command` under executeCommandProvider. */
export function serverSupports(capabilities: unknown, command: string): boolean {
  const provider = (capabilities as { executeCommandProvider?: { commands?: unknown } } | undefined)
    ?.executeCommandProvider;
  return Array.isArray(provider?.commands) && provider.commands.includes(command);
}

/** The message for a command the running server does not support. */
export function unsupportedMessage(command: string, serverVersion: string | undefined): string {
  const server = serverVersion ? `admission-ls ${serverVersion}` : "This admission-ls server";
  return `${server} does not support the command '${command}' yet (command not supported by the server). Update admission-ls to use it.`;
}

/** True when an executeCommand error means "this server has no such command". */
export function isUnsupportedError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  if (e?.code === METHOD_NOT_FOUND) {
    return true;
  }
  return typeof e?.message === "string" && /unknown command|not supported|method not found/i.test(e.message);
}
