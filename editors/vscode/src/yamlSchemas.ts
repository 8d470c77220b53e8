// Living beside the Red Hat YAML extension (redhat.vscode-yaml), which validates every YAML file
// against the schemas its settings associate (`yaml.schemas`, e.g. `kubernetes` for `*.yaml`, and
// the CRD store for custom resources). For a file this extension hands to admission-ls, a second
// schema would be a competing voice: an older Kubernetes schema, or a CRD's generated one, next to
// the API server's own rules. So for those files only, this module answers Red Hat YAML's schema
// request with an empty schema that accepts any document. Red Hat YAML asks its contributors
// before it looks at `yaml.schemas` (yaml-language-server `yamlSchemaService.getSchemaForResource`:
// a `# yaml-language-server: $schema=` modeline first, then the custom schema provider, then the
// file associations), so the file keeps its YAML syntax checks there and gets no schema checks.
// Pure: no `vscode` import, so the unit tests load it as it is.
import { isAdmissionText } from "./detect";

/** The Red Hat YAML extension's identifier. */
export const RED_HAT_YAML = "redhat.vscode-yaml";

/** The URI scheme of the schema contributed here. */
export const SCHEME = "admission-ls";

/** The one schema contributed: empty, so it accepts every document. */
export const SCHEMA_URI = `${SCHEME}://schemas/admission-ls.json`;

const SCHEMA = JSON.stringify({
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "admission-ls",
  description: "Checked by admission-ls against the Kubernetes API server's own rules.",
});

/** What `registerContributor` of Red Hat YAML's exported API takes (schema-extension-api.ts). */
export interface YamlExtensionApi {
  registerContributor(
    scheme: string,
    requestSchema: (resource: string) => string | undefined,
    requestSchemaContent: (uri: string) => string | undefined,
    label?: string,
  ): boolean;
}

/** The schema contributor: `textOf` gives the open document's text for a resource URI. */
export function schemaContributor(textOf: (resource: string) => string | undefined) {
  return {
    requestSchema(resource: string): string | undefined {
      const text = textOf(resource);
      return text !== undefined && isAdmissionText(text) ? SCHEMA_URI : undefined;
    },
    requestSchemaContent(uri: string): string | undefined {
      return uri === SCHEMA_URI ? SCHEMA : undefined;
    },
  };
}

/** Registers the contributor with Red Hat YAML's API; false when it refuses. */
export function registerSchemaContributor(api: YamlExtensionApi, textOf: (resource: string) => string | undefined): boolean {
  const contributor = schemaContributor(textOf);
  return api.registerContributor(SCHEME, contributor.requestSchema, contributor.requestSchemaContent, "admission-ls");
}
