// Emulates `vscode.workspace.getConfiguration("admissionLs").get(key)` for the tests: the defaults
// the extension contributes in package.json, overridden by user values.
import * as fs from "fs";
import * as path from "path";
import type { SettingGetter } from "../src/settings";

const manifestPath = path.join(__dirname, "..", "..", "package.json");

interface Manifest {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
}

export function contributedDefaults(): Record<string, unknown> {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as Manifest;
  const defaults: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(manifest.contributes.configuration.properties)) {
    defaults[key] = schema.default;
  }
  return defaults;
}

/** A getter over the contributed defaults and `user` (full keys like "admissionLs.schemaPaths"). */
export function settingsGetter(user: Record<string, unknown>): SettingGetter {
  const values = { ...contributedDefaults(), ...user };
  return (key) => values[`admissionLs.${key}`];
}
