// Which YAML files the client hands to the server (a content check, since these are ordinary
// `.yaml` files). The one rule, also followed by the Neovim plugin and the Emacs configuration:
// a file is attached when, in its first MiB, it has
//   - an `apiVersion: admissionregistration.k8s.io/…` line: ValidatingAdmissionPolicy,
//     MutatingAdmissionPolicy, their bindings, ValidatingWebhookConfiguration and
//     MutatingWebhookConfiguration (every kind of that API group), or
//   - an `apiVersion:` line of `policies.kyverno.io` (Kyverno's CEL policies),
//     `templates.gatekeeper.sh` (ConstraintTemplates) or `constraints.gatekeeper.sh` (Constraints), or
//   - a `kind: PolicyTest` line (admission-ls test suites), or
//   - an `apiVersion:` line of one of these groups and a `kind:` line of one of its kinds:
//     `apiextensions.k8s.io` CustomResourceDefinition, `cli.kyverno.io` Test (Kyverno CLI suites),
//     `test.gatekeeper.sh` Suite (gator suites), `resource.k8s.io` DeviceClass, ResourceClaim,
//     ResourceClaimTemplate, ResourceSlice (DRA), `apiserver.config.k8s.io`
//     AuthenticationConfiguration, AuthorizationConfiguration.
// A line may be a list item (`- apiVersion: …`) and the key or value may be quoted. Helm chart
// templates are the same YAML with `{{ … }}` actions around it: the same rule applies to them,
// whether the editor calls them `yaml` or `helm`.

const KEY = (name: string) => String.raw`^[ \t]*(?:-[ \t]+)?["']?${name}["']?[ \t]*:[ \t]*["']?`;
const escape = (text: string) => text.replace(/\./g, "\\.");
const apiVersionOf = (group: string) => new RegExp(KEY("apiVersion") + escape(group) + "/", "m");
const kindOf = (kinds: string[]) => new RegExp(KEY("kind") + "(?:" + kinds.join("|") + String.raw`)\b`, "m");

/** Groups whose every document is attached. */
const GROUPS = ["admissionregistration.k8s.io", "policies.kyverno.io", "templates.gatekeeper.sh", "constraints.gatekeeper.sh"].map(apiVersionOf);
const POLICY_TEST = kindOf(["PolicyTest"]);
/** Groups whose documents are attached for some kinds only. */
const GROUP_KINDS: Array<[RegExp, RegExp]> = [
  [apiVersionOf("apiextensions.k8s.io"), kindOf(["CustomResourceDefinition"])],
  [apiVersionOf("cli.kyverno.io"), kindOf(["Test"])],
  [apiVersionOf("test.gatekeeper.sh"), kindOf(["Suite"])],
  [apiVersionOf("resource.k8s.io"), kindOf(["DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"])],
  [apiVersionOf("apiserver.config.k8s.io"), kindOf(["AuthenticationConfiguration", "AuthorizationConfiguration"])],
];

/** Files this large are not scanned whole; the marker sits near a document start anyway. */
const SCAN_LIMIT = 1 << 20;

/** True when `text` holds a document the server checks (see the rule above). */
export function isAdmissionText(text: string): boolean {
  const head = text.length > SCAN_LIMIT ? text.slice(0, SCAN_LIMIT) : text;
  return (
    GROUPS.some((group) => group.test(head)) ||
    POLICY_TEST.test(head) ||
    GROUP_KINDS.some(([group, kinds]) => group.test(head) && kinds.test(head))
  );
}

// The language ids of the documents considered: YAML, and `helm`, which the Kubernetes and helm-ls
// extensions give chart templates (the YAML files of a `templates` folder and below it).
export const LANGUAGES = ["yaml", "helm"];

/** The documents the language client considers (the gate narrows them down by content). */
export const DOCUMENT_SELECTOR = LANGUAGES.flatMap((language) => [
  { scheme: "file", language },
  { scheme: "untitled", language },
]);

/**
 * The set of documents attached to the server. A document is attached when it is opened holding
 * one of the kinds above, or later when an edit makes it one; it stays attached until closed.
 */
export class AttachGate {
  private readonly attached = new Set<string>();

  /** On open: attach when the text qualifies. Returns whether the server gets the open. */
  open(uri: string, text: string): boolean {
    if (isAdmissionText(text)) {
      this.attached.add(uri);
      return true;
    }
    return false;
  }

  /**
   * On change: "forward" for an attached document, "open" when the edit just made it qualify
   * (the client then sends an open with the full text instead of the change), "skip" otherwise.
   */
  change(uri: string, text: () => string): "forward" | "open" | "skip" {
    if (this.attached.has(uri)) {
      return "forward";
    }
    if (isAdmissionText(text())) {
      this.attached.add(uri);
      return "open";
    }
    return "skip";
  }

  isAttached(uri: string): boolean {
    return this.attached.has(uri);
  }

  /** On close: detach. Returns whether the server had the document. */
  close(uri: string): boolean {
    return this.attached.delete(uri);
  }

  /** After a server restart the client re-opens documents; start over. */
  reset(): void {
    this.attached.clear();
  }
}
