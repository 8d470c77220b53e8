// Loads the bundled extension (dist/extension.js) with the stand-in `vscode` module and activates it.
import * as path from "path";
import { fakeVscode, FakeState } from "./fakeVscode";

const bundle = path.join(__dirname, "..", "..", "dist", "extension.js");
export const policy = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n";

export async function activateWith(
  settings: Record<string, unknown>,
  documents = [{ uri: "file:///p.yaml", languageId: "yaml", text: policy }],
  folders: string[] = [],
): Promise<{ state: FakeState; ext: { deactivate(): unknown } }> {
  const state = new FakeState(settings, documents);
  state.folders = folders;
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const Module = require("module") as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = Module._load;
  Module._load = (request: string, ...rest: unknown[]) => (request === "vscode" ? fakeVscode(state) : load(request, ...rest));
  try {
    delete require.cache[bundle];
    const ext = require(bundle) as { activate(c: unknown): void; deactivate(): unknown };
    ext.activate({ subscriptions: [], extensionPath: path.join(__dirname, "no-such-extension") });
    return { state, ext };
  } finally {
    Module._load = load;
  }
}

