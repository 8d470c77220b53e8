// A stand-in for the Red Hat YAML extension (redhat.vscode-yaml 1.19.1), for the real VS Code test
// only: its .vsix is on neither registry this project installs from. It runs the real
// yaml-language-server (the version vscode-yaml 1.19.1 bundles, from npm) through
// vscode-languageclient (the version vscode-yaml uses), and does what vscode-yaml does that
// matters beside admission-ls, as vscode-yaml's src/extension.ts and src/schema-extension-api.ts
// (redhat-developer/vscode-yaml, tag 1.19.1) do it:
//  - the client serves `yaml` documents; once ready it sends `json/schemaAssociations` (the
//    `yamlValidation` contributions of the installed extensions), `yaml/registerCustomSchemaRequest`
//    and `yaml/registerContentRequest`, and answers `custom/schema/request`,
//    `custom/schema/content`, `vscode/content` and `fs/readFile`;
//  - `activate` returns the schema extension API: `registerContributor(scheme, requestSchema,
//    requestSchemaContent, label)` refuses a scheme already registered; a schema request asks every
//    contributor and answers the URIs they give, except that a contributor with a label whose
//    pattern is found in the document's text alone answers; a content request goes to the
//    contributor of the URI's scheme.
// Left out: telemetry, the schema status bar, recommendations, conflict notices, the JSON schema
// cache (no network here: `vscode/content` refuses).
"use strict";
const path = require("path");
const vscode = require("vscode");

// Where test/real's node_modules is: written beside this file by run.mjs when it packs the stand-in.
const modules = require("./modules.json").dir;
const { LanguageClient, TransportKind } = require(path.join(modules, "vscode-languageclient", "node"));

/** The schema extension API: contributors by URI scheme. */
class SchemaApi {
  constructor() {
    this.contributors = new Map();
  }

  registerContributor(scheme, requestSchema, requestSchemaContent, label) {
    if (this.contributors.has(scheme)) return false;
    if (!requestSchema) throw new Error("Illegal parameter for requestSchema.");
    this.contributors.set(scheme, { requestSchema, requestSchemaContent, label: labelPattern(label) });
    return true;
  }

  requestCustomSchema(resource) {
    const uris = [];
    for (const contributor of this.contributors.values()) {
      try {
        if (contributor.label && labelledIn(contributor.label, resource)) {
          return [contributor.requestSchema(resource)];
        }
        const uri = contributor.requestSchema(resource);
        if (uri) uris.push(uri);
      } catch {
        // a contributor that throws gives nothing
      }
    }
    return uris;
  }

  requestCustomSchemaContent(uri) {
    if (!uri) return undefined;
    const scheme = vscode.Uri.parse(uri).scheme;
    const contributor = this.contributors.get(scheme);
    return contributor?.requestSchemaContent ? contributor.requestSchemaContent(uri) : undefined;
  }
}

/** A label `key: value` matches the key, blanks, then the value's text; any other is a pattern. */
function labelPattern(label) {
  if (!label) return undefined;
  const [key, value] = label.split(":");
  return key && value ? `${key}:[\t ]+${value.trim().replaceAll(".", "\\.")}` : label;
}

function labelledIn(pattern, resource) {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === resource);
  return document !== undefined && new RegExp(pattern, "g").test(document.getText());
}

/** The `yamlValidation` contributions of the installed extensions, as vscode-yaml sends them. */
function schemaAssociations() {
  const associations = [];
  for (const extension of vscode.extensions.all) {
    const contributed = extension.packageJSON?.contributes?.yamlValidation;
    if (!Array.isArray(contributed)) continue;
    for (const { fileMatch, url } of contributed) {
      const matches = typeof fileMatch === "string" ? [fileMatch] : fileMatch;
      if (!Array.isArray(matches) || typeof url !== "string") continue;
      const uri = url.startsWith("./") ? vscode.Uri.joinPath(extension.extensionUri, url).toString() : url;
      associations.push({ fileMatch: matches.map((m) => (/^(\w+:\/\/|\/|!)/.test(m) ? m : `/${m}`)), uri });
    }
  }
  return associations;
}

async function activate(context) {
  const server = path.join(modules, "yaml-language-server", "out", "server", "src", "server.js");
  const serverOptions = { run: { module: server, transport: TransportKind.ipc }, debug: { module: server, transport: TransportKind.ipc } };
  const client = new LanguageClient("yaml", "YAML Support", serverOptions, {
    documentSelector: [{ language: "yaml" }, { pattern: "*.y(a)ml" }],
    synchronize: { fileEvents: [vscode.workspace.createFileSystemWatcher("**/*.?(e)y?(a)ml")] },
  });
  const api = new SchemaApi();
  context.subscriptions.push(client.start());
  client.onReady().then(() => {
    client.sendNotification("json/schemaAssociations", schemaAssociations());
    client.sendNotification("yaml/registerCustomSchemaRequest");
    client.sendNotification("yaml/registerContentRequest");
    client.onRequest("custom/schema/request", (resource) => api.requestCustomSchema(resource));
    client.onRequest("custom/schema/content", (uri) => api.requestCustomSchemaContent(uri));
    client.onRequest("vscode/content", (uri) => Promise.reject(new Error(`no network in the test: ${uri}`)));
    client.onRequest("fs/readFile", async (fsPath) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(fsPath))));
  });
  return api;
}

module.exports = { activate, deactivate: () => undefined };
