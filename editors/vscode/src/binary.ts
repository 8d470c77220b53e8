// Finds the server binary, in order: the `admissionLs.path` setting, the binary bundled in a
// platform-specific .vsix (`server/admission-ls` inside the extension), `admission-ls` on PATH.
// Pure apart from the injected file check, so the tests can run it against fake file systems.
import * as path from "path";

/** Which of the three places the binary came from (the output channel names it). */
export type ServerSource = "setting" | "bundled" | "path";

/** Where the binary was looked for, and what was found. */
export interface Resolution {
  /** The binary to run, when found. */
  command?: string;
  /** Where `command` came from, when found. */
  source?: ServerSource;
  /** What was tried, for the error message ("/opt/x/admission-ls" or "admission-ls on PATH (…)"). */
  tried: string;
}

export interface ResolveInput {
  configuredPath: string | undefined;
  /** The extension's own folder; its `server/` subfolder holds the bundled binary, if any. */
  extensionPath?: string;
  envPath: string | undefined;
  platform: NodeJS.Platform;
  /** True when `file` exists and can be executed. */
  isExecutable: (file: string) => boolean;
  /** Expands `~` and `${workspaceFolder}`-style prefixes; identity when not given. */
  expand?: (file: string) => string;
}

export const BINARY_NAME = "admission-ls";

/** The file name of the server on `platform`. */
export function binaryFile(platform: NodeJS.Platform): string {
  return platform === "win32" ? BINARY_NAME + ".exe" : BINARY_NAME;
}

/** Where a platform-specific .vsix carries the server, relative to the extension folder. */
export function bundledBinary(extensionPath: string, platform: NodeJS.Platform): string {
  const join = platform === "win32" ? path.win32.join : path.posix.join;
  return join(extensionPath, "server", binaryFile(platform));
}

/** How the output channel names a source. */
export function describeSource(source: ServerSource): string {
  switch (source) {
    case "setting":
      return "the admissionLs.path setting";
    case "bundled":
      return "the binary bundled with the extension";
    case "path":
      return "admission-ls found on PATH";
  }
}

export function resolveServer(input: ResolveInput): Resolution {
  const configured = input.configuredPath?.trim();
  if (configured) {
    // An explicit setting never falls back: running another binary would hide the user's mistake.
    const file = input.expand ? input.expand(configured) : configured;
    return input.isExecutable(file) ? { command: file, source: "setting", tried: file } : { tried: file };
  }
  if (input.extensionPath) {
    const bundled = bundledBinary(input.extensionPath, input.platform);
    if (input.isExecutable(bundled)) {
      return { command: bundled, source: "bundled", tried: bundled };
    }
  }
  const windows = input.platform === "win32";
  const separator = windows ? ";" : ":";
  const names = windows ? [binaryFile(input.platform), BINARY_NAME] : [BINARY_NAME];
  // Only absolute folders: an empty or relative PATH entry ("", ".", "bin") names a folder of the
  // working directory, which can be the workspace, so a workspace could choose the program.
  const isAbsolute = windows ? path.win32.isAbsolute : path.posix.isAbsolute;
  const dirs = (input.envPath ?? "").split(separator).filter((d) => d !== "" && isAbsolute(d));
  for (const dir of dirs) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (input.isExecutable(file)) {
        return { command: file, source: "path", tried: file };
      }
    }
  }
  const bundledNote = input.extensionPath ? "no bundled binary, " : "";
  return { tried: `${bundledNote}${BINARY_NAME} on PATH (${dirs.length} folders searched)` };
}
