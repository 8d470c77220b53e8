// The extension's settings (section `admissionLs`) as the server reads them: the same object goes
// out as `initializationOptions` and answers `workspace/configuration`. Pure: no vscode import.

/** The settings section the server reads. */
export const SECTION = "admissionLs";

/** What the server reads from section `admissionLs` (see the README, "Editors"). */
export interface ServerSettings {
  kubernetesVersion?: string;
  kyvernoVersion?: string;
  schemaPaths: string[];
  diagnostics: { disabled: string[]; strict: boolean };
  /** Evaluate each policy against the samples its modelines and suites name, shown inline. */
  liveVerdicts: boolean;
}

/** Reads one setting by its key inside the section (e.g. `"diagnostics.disabled"`). */
export type SettingGetter = (key: string) => unknown;

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * The server's settings from the editor's: empty `kubernetesVersion` and `kyvernoVersion` are left
 * out (the server then uses the newest it knows), lists keep only their strings.
 */
export function serverSettings(get: SettingGetter): ServerSettings {
  const version = get("kubernetesVersion");
  const settings: ServerSettings = {
    schemaPaths: stringList(get("schemaPaths")),
    diagnostics: { disabled: stringList(get("diagnostics.disabled")), strict: get("diagnostics.strict") === true },
    liveVerdicts: get("liveVerdicts") !== false,
  };
  if (typeof version === "string" && version.trim() !== "") {
    settings.kubernetesVersion = version.trim();
  }
  const kyverno = get("kyvernoVersion");
  if (typeof kyverno === "string" && kyverno.trim() !== "") {
    settings.kyvernoVersion = kyverno.trim();
  }
  return settings;
}

/** The `initializationOptions` the extension sends: the section itself. */
export function initializationOptions(get: SettingGetter): ServerSettings {
  return serverSettings(get);
}

/**
 * The answer to one `workspace/configuration` item: the whole section for `admissionLs` (or no
 * section), one value inside it for `admissionLs.<key>`, null for other sections.
 */
export function configurationItem(section: string | undefined, get: SettingGetter): unknown {
  const settings = serverSettings(get);
  if (section === undefined || section === SECTION) {
    return settings;
  }
  if (!section.startsWith(SECTION + ".")) {
    return null;
  }
  let value: unknown = settings;
  for (const part of section.slice(SECTION.length + 1).split(".")) {
    if (value === null || typeof value !== "object") {
      return null;
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? null;
}
