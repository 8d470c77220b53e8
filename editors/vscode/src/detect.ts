// Which YAML documents the client hands to the server: files holding admission policies, their
// bindings or PolicyTest suites (a content check, since these are ordinary `.yaml` files).

/** Lines that mark a policy file: the admission API group, or a PolicyTest document. */
const MARKERS = [
  /^[ \t]*(?:-[ \t]+)?["']?apiVersion["']?[ \t]*:[ \t]*["']?admissionregistration\.k8s\.io\//m,
  /^[ \t]*(?:-[ \t]+)?["']?kind["']?[ \t]*:[ \t]*["']?PolicyTest\b/m,
];

/** Files this large are not scanned whole; the marker sits near a document start anyway. */
const SCAN_LIMIT = 1 << 20;

/** True when `text` holds at least one admission policy, binding or PolicyTest document. */
export function isPolicyText(text: string): boolean {
  const head = text.length > SCAN_LIMIT ? text.slice(0, SCAN_LIMIT) : text;
  return MARKERS.some((marker) => marker.test(head));
}

/** The documents the language client considers (the gate narrows them down by content). */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "yaml" },
  { scheme: "untitled", language: "yaml" },
];

/**
 * The set of documents attached to the server. A document is attached when it is opened holding
 * a policy, or later when an edit makes it one; it stays attached until closed.
 */
export class AttachGate {
  private readonly attached = new Set<string>();

  /** On open: attach when the text is a policy file. Returns whether the server gets the open. */
  open(uri: string, text: string): boolean {
    if (isPolicyText(text)) {
      this.attached.add(uri);
      return true;
    }
    return false;
  }

  /**
   * On change: "forward" for an attached document, "open" when the edit just made it a policy file
   * (the client then sends an open with the full text instead of the change), "skip" otherwise.
   */
  change(uri: string, text: () => string): "forward" | "open" | "skip" {
    if (this.attached.has(uri)) {
      return "forward";
    }
    if (isPolicyText(text())) {
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
