// Which YAML files the client hands to the server (a content check, since these are ordinary
// `.yaml` files). The one rule, also followed by the Neovim plugin and the Emacs configuration:
// a file is attached when, in its first MiB, it has
//   - an `apiVersion: admissionregistration.k8s.io/…` line: ValidatingAdmissionPolicy,
//     MutatingAdmissionPolicy, their bindings, ValidatingWebhookConfiguration and
//     MutatingWebhookConfiguration (every kind of that API group), or
//   - a `kind: PolicyTest` line (admission-ls test suites), or
//   - an `apiVersion: apiextensions.k8s.io/…` line and a `kind: CustomResourceDefinition` line.
// A line may be a list item (`- apiVersion: …`) and the key or value may be quoted.

const KEY = (name: string) => String.raw`^[ \t]*(?:-[ \t]+)?["']?${name}["']?[ \t]*:[ \t]*["']?`;
const ADMISSION_API = new RegExp(KEY("apiVersion") + String.raw`admissionregistration\.k8s\.io/`, "m");
const POLICY_TEST = new RegExp(KEY("kind") + String.raw`PolicyTest\b`, "m");
const CRD_API = new RegExp(KEY("apiVersion") + String.raw`apiextensions\.k8s\.io/`, "m");
const CRD_KIND = new RegExp(KEY("kind") + String.raw`CustomResourceDefinition\b`, "m");

/** Files this large are not scanned whole; the marker sits near a document start anyway. */
const SCAN_LIMIT = 1 << 20;

/** True when `text` holds an admission policy, binding, webhook configuration, PolicyTest or CRD. */
export function isAdmissionText(text: string): boolean {
  const head = text.length > SCAN_LIMIT ? text.slice(0, SCAN_LIMIT) : text;
  return ADMISSION_API.test(head) || POLICY_TEST.test(head) || (CRD_API.test(head) && CRD_KIND.test(head));
}

/** The documents the language client considers (the gate narrows them down by content). */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "yaml" },
  { scheme: "untitled", language: "yaml" },
];

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
