// Finds the server binary: the `admissionLs.path` setting when set, else `admission-ls` on PATH.
// Pure apart from the injected file check, so the tests can run it against fake file systems.
import * as path from "path";

/** Where the binary was looked for, and what was found. */
export interface Resolution {
  /** The binary to run, when found. */
  command?: string;
  /** What was tried, for the error message ("/opt/x/admission-ls" or "admission-ls on PATH (…)"). */
  tried: string;
}

export interface ResolveInput {
  configuredPath: string | undefined;
  envPath: string | undefined;
  platform: NodeJS.Platform;
  /** True when `file` exists and can be executed. */
  isExecutable: (file: string) => boolean;
  /** Expands `~` and `${workspaceFolder}`-style prefixes; identity when not given. */
  expand?: (file: string) => string;
}

export const BINARY_NAME = "admission-ls";

export function resolveServer(input: ResolveInput): Resolution {
  const configured = input.configuredPath?.trim();
  if (configured) {
    const file = input.expand ? input.expand(configured) : configured;
    return input.isExecutable(file) ? { command: file, tried: file } : { tried: file };
  }
  const windows = input.platform === "win32";
  const separator = windows ? ";" : ":";
  const names = windows ? [BINARY_NAME + ".exe", BINARY_NAME] : [BINARY_NAME];
  const dirs = (input.envPath ?? "").split(separator).filter((d) => d !== "");
  for (const dir of dirs) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (input.isExecutable(file)) {
        return { command: file, tried: file };
      }
    }
  }
  return { tried: `${BINARY_NAME} on PATH (${dirs.length} folders searched)` };
}
