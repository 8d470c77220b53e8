// The Testing view's model, pure (no vscode import, tested under node): the server's listing
// (`admission-ls.listTests`) as a tree of files → suites → cases with unique ids, the arguments of
// `admission-ls.runTests` for a node, and a run's answer as one outcome per case id (passed, failed
// with what was expected and what came, errored), and which suite files a save makes stale.

/** A position as the protocol gives it (0-based). */
export interface Position {
  line: number;
  character: number;
}

/** A range as the protocol gives it. */
export interface Range {
  start: Position;
  end: Position;
}

/** One suite of the `admission-ls.listTests` answer. */
export interface ListedSuite {
  uri: string;
  path: string;
  name: string;
  format: string;
  range: Range;
  errors: string[];
  cases: Array<{ name: string; range: Range }>;
}

/** A node of the tree: a suite file, a suite or a case. */
export interface TestNode {
  id: string;
  label: string;
  uri: string;
  range?: Range;
  children: TestNode[];
}

/** One case's result, for the Testing view. */
export interface CaseOutcome {
  id: string;
  state: "passed" | "failed" | "errored";
  message: string;
  expected?: string;
  actual?: string;
  uri?: string;
  range?: Range;
  durationMs?: number;
}

/** Joins the parts of an id: not NUL, which VS Code's own test ids reserve (an item id holding
 * one is refused). */
export const SEPARATOR = "\u001f";

/** The id of a suite (its file and name) and of a case (its suite's id and name). */
export function suiteId(uri: string, suite: string): string {
  return `${uri}${SEPARATOR}${suite}`;
}

export function caseId(uri: string, suite: string, name: string): string {
  return `${suiteId(uri, suite)}${SEPARATOR}${name}`;
}

/** The `admission-ls.runTests` argument that runs the node `id` (a file, a suite or a case). */
export function runArgs(id: string): { uri: string; suite?: string; case?: string } {
  const [uri, suite, name] = id.split(SEPARATOR);
  return { uri, ...(suite !== undefined ? { suite } : {}), ...(name !== undefined ? { case: name } : {}) };
}

/** The suite file an id belongs to. */
export function fileOf(id: string): string {
  return id.split(SEPARATOR)[0];
}

/** The listing as a tree, one node per suite file, in the server's order. */
export function buildTree(suites: ListedSuite[]): TestNode[] {
  const files = new Map<string, TestNode>();
  for (const suite of suites) {
    let file = files.get(suite.uri);
    if (!file) {
      file = { id: suite.uri, label: basename(suite.path), uri: suite.uri, children: [] };
      files.set(suite.uri, file);
    }
    const id = suiteId(suite.uri, suite.name);
    if (file.children.some((s) => s.id === id)) {
      continue; // two suites of one name in one file run together, under the first
    }
    const seen = new Set<string>();
    const cases: TestNode[] = [];
    for (const c of suite.cases) {
      const cid = caseId(suite.uri, suite.name, c.name);
      if (seen.has(cid)) {
        continue;
      }
      seen.add(cid);
      cases.push({ id: cid, label: c.name, uri: suite.uri, range: c.range, children: [] });
    }
    file.children.push({
      id,
      label: suiteLabel(suite),
      uri: suite.uri,
      range: suite.cases.length > 0 ? suite.range : undefined,
      children: cases,
    });
  }
  return [...files.values()];
}

function suiteLabel(suite: ListedSuite): string {
  // A suite without a name is named after its file by the server (`path#0`): show the format.
  const unnamed = suite.name.startsWith(suite.path);
  return unnamed ? `${suite.format}${suite.name.slice(suite.path.length)}` : suite.name;
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

interface RunCase {
  name?: string;
  passed?: boolean;
  error?: string | null;
  failures?: string[];
  expected?: string;
  actual?: string;
  uri?: string;
  range?: Range;
  durationMs?: number;
}

interface RunSuite {
  path?: string;
  name?: string;
  errors?: string[];
  cases?: RunCase[];
}

/** A `runTests` answer as one outcome per case id; `suiteErrors` by suite id for a suite whose
 * files could not be read. `uriOf` turns a suite's path into its URI (for a suite with no case). */
export function outcomes(answer: unknown, uriOf: (path: string) => string): { cases: CaseOutcome[]; suiteErrors: Map<string, string> } {
  const suites = ((answer as { suites?: RunSuite[] } | undefined)?.suites ?? []) as RunSuite[];
  const cases: CaseOutcome[] = [];
  const suiteErrors = new Map<string, string>();
  for (const suite of suites) {
    const name = suite.name ?? "";
    const suiteUri = suite.cases?.find((c) => c.uri)?.uri ?? uriOf(suite.path ?? "");
    if (suite.errors && suite.errors.length > 0) {
      suiteErrors.set(suiteId(suiteUri, name), suite.errors.join("\n"));
    }
    for (const c of suite.cases ?? []) {
      const uri = c.uri ?? suiteUri;
      const details = [c.error, ...(c.failures ?? [])].filter((d): d is string => typeof d === "string" && d.length > 0);
      cases.push({
        id: caseId(uri, name, c.name ?? ""),
        state: c.passed ? "passed" : c.error ? "errored" : "failed",
        message: details.join("\n"),
        expected: c.expected,
        actual: c.actual,
        uri,
        range: c.range,
        durationMs: c.durationMs,
      });
    }
  }
  return { cases, suiteErrors };
}

/** The suite files to run again after `saved` was saved: the file itself when it is one, and
 * every suite file whose text names the saved file (its policies and resources are given by
 * path). `textOf` reads a suite file; `ran` are the suite files run so far (only those re-run). */
export function staleSuites(saved: string, ran: Iterable<string>, textOf: (uri: string) => string | undefined): string[] {
  const name = basename(decodeURIComponent(saved));
  const stale: string[] = [];
  for (const uri of ran) {
    if (uri === saved || (name.length > 0 && (textOf(uri) ?? "").includes(name))) {
      stale.push(uri);
    }
  }
  return stale;
}
