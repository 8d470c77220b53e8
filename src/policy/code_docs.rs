//! The documentation of every diagnostic code, as `admission-ls explain CODE` prints it.
//!
//! Each text says what the code means, shows a minimal example and says how to fix it. The wording of
//! structural codes follows the API server's field error types, so users recognise what
//! `kubectl apply` would answer.

use super::Code;
use super::diagnostic::Prediction;

/// What `admission-ls explain severity` prints: the severity model.
pub const SEVERITY_MODEL: &str = "\
Every diagnostic predicts what the API server does with the document, and its severity follows:

  refused on create   (error)   the API server refuses the document: structural validation, CEL
                                syntax, a compile error in the environment it compiles in (object,
                                oldObject and params are dyn), the result-type rule.
  fails at admission  (error)   accepted, but the expression raises an error whenever it is
                                evaluated on a kind the policy matches, e.g. a field no matched kind
                                has: `no such key`.
  typed check only    (warning) the typed checker disagrees, but evaluation on the JSON-shaped
                                objects may succeed (heterogeneous `==` is false, a schema object is
                                a map at run time); the API server only writes such findings to the
                                policy's status.typeChecking. `check --strict` and the editor setting
                                admissionLs.diagnostics.strict make them errors.
  accepted            (warning) accepted and evaluated as written, but probably not what was meant.
  test case           (error)   not a prediction: a PolicyTest case did not get the outcome it
                                expects (test-failed).
  configuration       (error)   not a prediction: the project configuration file .admission-ls.yaml
                                has a key or value admission-ls cannot apply (config).

The text output shows the prediction in parentheses after the code; JSON output has it as
`prediction` (refused-on-create, fails-at-admission, typed-check, advice, test-case,
configuration), LSP diagnostics in
`data.prediction`.
";

/// The predictions diagnostics of `code` can carry.
pub(super) fn predictions(code: Code) -> &'static [Prediction] {
    use Prediction::*;
    match code {
        Code::UnknownField | Code::UnresolvedReference => &[Advice],
        Code::Duplicate | Code::TooMany => &[Refused, Advice],
        Code::Forbidden => &[Refused, FailsAtAdmission],
        Code::CelUndeclared | Code::CelUndefinedField | Code::CelNoOverload | Code::CelType => {
            &[Refused, FailsAtAdmission, TypedCheck]
        }
        Code::CelCost => &[Refused, TypedCheck],
        Code::TestFailed => &[TestCase],
        Code::Config => &[Configuration],
        _ => &[Refused],
    }
}

/// The documentation of `code`.
pub(super) fn doc(code: Code) -> &'static str {
    match code {
        Code::YamlSyntax => YAML_SYNTAX,
        Code::UnknownField => UNKNOWN_FIELD,
        Code::Required => REQUIRED,
        Code::NotSupported => NOT_SUPPORTED,
        Code::Invalid => INVALID,
        Code::Duplicate => DUPLICATE,
        Code::TooMany => TOO_MANY,
        Code::Forbidden => FORBIDDEN,
        Code::CelSyntax => CEL_SYNTAX,
        Code::CelUndeclared => CEL_UNDECLARED,
        Code::CelUndefinedField => CEL_UNDEFINED_FIELD,
        Code::CelNoOverload => CEL_NO_OVERLOAD,
        Code::CelResultType => CEL_RESULT_TYPE,
        Code::CelType => CEL_TYPE,
        Code::CelVersion => CEL_VERSION,
        Code::CelCost => CEL_COST,
        Code::UnresolvedReference => UNRESOLVED_REFERENCE,
        Code::TestFailed => TEST_FAILED,
        Code::Config => CONFIG,
        Code::StaticManifest => STATIC_MANIFEST,
    }
}

const YAML_SYNTAX: &str = "\
yaml-syntax (error): the YAML does not parse.

The document that holds the error is read up to the error; the other documents of the file are
checked as usual. Typical causes: an unterminated quoted string, a tab used for indentation, a key
indented differently from its siblings, an undefined alias, or nesting or alias expansion beyond the
limits admission-ls sets to stay responsive.

Example:
    validations:
    - expression: \"object.spec.replicas < 5
Fix: close the quote, or use a block scalar (`expression: |`) for long expressions.
";

const UNKNOWN_FIELD: &str = "\
unknown-field (warning): a key that the policy API does not have.

The API server drops unknown fields (or rejects them under strict field validation, as
`kubectl apply --validate=strict` does), so the setting never takes effect.

Example:
    spec:
      failurePolicy: Fail
      validation:            # should be `validations`
      - expression: object.spec.replicas <= 5
Fix: correct the spelling; the message names the fields the type has.
";

const REQUIRED: &str = "\
required (error): a required field is missing or empty.

Matches the API server's `Required value` error. Examples: a policy without
`spec.matchConstraints.resourceRules`, a validation without `expression`, a binding without
`policyName` or `validationActions`, a MutatingAdmissionPolicy without `reinvocationPolicy`, a
ValidatingAdmissionPolicy with neither `validations` nor `auditAnnotations`.

Example:
    spec:
      validations:
      - message: replicas must be at most 5      # no expression
Fix: add the field; the message gives its path.
";

const NOT_SUPPORTED: &str = "\
not-supported (error): a value outside the allowed set.

Matches the API server's `Unsupported value` error, which lists the supported values. Examples:
`failurePolicy: Sometimes`, `patchType: MergePatch`, a `reason` of `Unauthorized`, an operation
`DELETE` in a MutatingAdmissionPolicy (mutations run only on CREATE, UPDATE and CONNECT), and an
`apiVersion` the target Kubernetes version does not serve (MutatingAdmissionPolicy v1alpha1 before
1.32, ValidatingAdmissionPolicy v1beta1 from 1.34 on), which the API server refuses as 'no matches
for kind'.

Example:
    spec:
      failurePolicy: Warn
Fix: use one of the values the message lists.
";

const INVALID: &str = "\
invalid (error): a value that breaks a rule.

Matches the API server's `Invalid value` error. Examples: a matchCondition name that is not a
qualified name (`bad name!`), a variable name that is not a CEL identifier, a metadata.name that is
not a DNS subdomain, a label selector with a bad operator, `validationActions` with both Deny and
Warn, a `message` with a line break, a field of the wrong kind (a string where a list is expected).

Example:
    matchConditions:
    - name: exclude kube-system          # spaces are not allowed
      expression: object.metadata.namespace != 'kube-system'
Fix: follow the rule quoted in the message.
";

const DUPLICATE: &str = "\
duplicate (error): a value that must be unique is repeated.

Matches the API server's `Duplicate value` error: matchCondition names, variable names, audit
annotation keys, validation actions, resource names.

Example:
    variables:
    - {name: image, expression: object.spec.image}
    - {name: image, expression: object.spec.initImage}
Fix: rename or remove the repeated entry.

A warning: two policies of one kind with the same `metadata.name` in the checked files (in one
file or several). The API server keeps one object per name, so applying both leaves only the last
one applied, and `kubectl create` refuses the second as AlreadyExists; each name is reported.

A warning too: a key repeated in one YAML mapping. kubectl decodes the file with go-yaml v2 into a
map (sigs.k8s.io/yaml `Unmarshal`), which keeps the last value without a word; that value is the
one checked.
";

const TOO_MANY: &str = "\
too-many (error): a list is longer than the API allows.

Examples: more than 64 matchConditions, more than 20 auditAnnotations.

Fix: merge conditions into fewer expressions (for example with `&&`), or split the policy.
";

const FORBIDDEN: &str = "\
forbidden (error): a field that the API forbids in this context.

Matches the API server's `Forbidden` error. Example: a binding's `paramRef` that sets both `name`
and `selector` (they are mutually exclusive), or `paramRef.namespace` when the policy's paramKind is
cluster-scoped (the API server accepts the binding but fails every request it matches).

Example:
    paramRef:
      name: limits
      selector: {matchLabels: {env: prod}}
Fix: keep one of the two fields.
";

const CEL_SYNTAX: &str = "\
cel-syntax (error): the CEL expression does not parse.

The range points at the exact characters in the YAML file, through quoting, escapes and block
scalars. The API server rejects the policy with `compilation failed`.

Example:
    - expression: object.spec.replicas <= )
Fix: complete or correct the expression at the marked position.
";

const CEL_UNDECLARED: &str = "\
cel-undeclared (error): an identifier or function that the expression's environment does not declare.

Each field sees its own variables: `variables` are not visible in matchConditions, `params` exists
only with a paramKind, `authorizer` not in messageExpression.

Example:
    - expression: objct.spec.replicas <= 5
Fix: correct the name; the message suggests the closest declared one.
";

const CEL_UNDEFINED_FIELD: &str = "\
cel-undefined-field (error): a field that the type does not have.

Checked against the real schema of the matched kinds, the paramKind and the request types. At
admission time this is a `no such key` error. The range is the field name only.

When several kinds are matched, the message names those the field is missing from, e.g.
`(in batch/v1, Kind=Job)`. Also reported for the fields of a MutatingAdmissionPolicy's
`Object{…}` literals and for JSONPatch paths that do not exist in the schema.

Example:
    - expression: object.spec.replica <= 5      # Deployment's field is `replicas`
Fix: correct the field name.
";

const CEL_NO_OVERLOAD: &str = "\
cel-no-overload (error): no overload of a function or operator matches the argument types.

Example:
    - expression: object.spec.replicas > '5'     # int compared with string
Fix: convert one side (`int('5')`) or call the function on a value of the right type.

In the typed check (object typed from the matched kinds): an error when the runtime has no such
overload either (an int compared with a string fails every request); a warning when evaluation on
the JSON object may succeed: `==` and `!=` of different types are false and `in` finds nothing
(heterogeneous equality), `in`, `[k]` and `size()` work on a schema object (a map at run time), and
`double`, `bytes`, `timestamp`, `null` or optional values may have another type at run time.
";

const CEL_RESULT_TYPE: &str = "\
cel-result-type (error): the expression's type is not the one its field requires.

Validations and matchConditions must be bool, messageExpression string, auditAnnotation values
string or null, applyConfiguration expressions an Object, jsonPatch expressions a list of JSONPatch.
The API server rejects a validation whose type is `dyn` as well.

Example:
    - expression: object.spec.replicas
Fix: compare the value (`object.spec.replicas <= 5`).
";

const CEL_TYPE: &str = "\
cel-type (error): any other type error.

Examples: a list literal mixing types (`[1, 'a']`), a message construction with a field of the
wrong type, a JSONPatch whose `op` is not one of the six operations or whose `value` does not fit
the type at its `path`, an applyConfiguration `Object{…}` that sets an atomic list, map or struct
(`Object.spec{selector: …}` on a Deployment), which the API server refuses at runtime with \"may not
mutate atomic arrays, maps or structs\": use a JSONPatch for those.

As a warning: a schema field with `format: date-time` (or `duration`) is typed timestamp (or
duration) but is a string in the admission object, so comparing it with a timestamp, doing
arithmetic on it or calling timestamp methods on it fails at runtime (kubernetes/kubernetes#125053):
    - expression: object.metadata.creationTimestamp < request.options.now
Fix: make the types agree, or convert explicitly (`timestamp(object.metadata.creationTimestamp)`).
";

const CEL_VERSION: &str = "\
cel-version (error): a function or syntax that the target Kubernetes version does not have.

The API server of that version rejects the expression. The target comes from `--kube-version` or
the `kubernetesVersion` setting.

Example (target 1.28):
    - expression: ip(object.spec.address).family() == 4
Fix: raise the target version if every cluster runs a newer one, or rewrite without the function.
";

const CEL_COST: &str = "\
cel-cost (warning): the estimated cost of the expression exceeds the Kubernetes limit.

The API server stops an expression once its runtime cost passes 1,000,000 (PerCallLimit) and the
request then fails with \"operation cancelled: actual cost limit exceeded\" (or is let through,
with failurePolicy: Ignore). It estimates nothing when the policy is written, so this is found
only when a large enough object arrives. admission-ls estimates the cost as cel-go does (lists,
maps and strings sized by maxItems, maxProperties and maxLength, else by what fits in the
request) and warns when a 64 KiB request would pass the limit; the message also gives the
estimate for the largest request (3 MiB). A single pass over a list stays far below it; an
iteration inside an iteration over the same unbounded list does not.

Example (Pods):
    - expression: object.spec.containers.all(c, object.spec.containers.all(d, c == d || c.name != d.name))
Fix: restructure the expression so that the list is iterated once, or bound the list with
maxItems (maxLength for strings) in the schema of your own kinds and params.

On a CustomResourceDefinition's x-kubernetes-validations rule it is an error: the API server
estimates every rule when the CRD is written and refuses a rule or messageExpression estimated over
10,000,000 (the estimate times the number of times its node can occur), and a schema whose rules
add up to more than 100,000,000, with \"estimated rule cost exceeds budget by factor of …\".
Fix: add maxItems, maxProperties and maxLength where the rule iterates or matches.
";

const UNRESOLVED_REFERENCE: &str = "\
unresolved-reference (warning): a reference that no file in the workspace defines.

A binding's `policyName`, a `paramKind` or a `paramRef` whose target is not in the checked files.
The API server accepts this; the binding then has no effect or the policy fails at admission. A
paramKind that is neither a bundled kind nor a CustomResourceDefinition in the workspace (or in a
`--schema` file) leaves `params` untyped. A `paramRef.name` is reported only when the workspace
holds other objects of the paramKind (params kept outside the checked files are not noise).

A `matchConstraints.resourceRules` resource that no bundled kind of the target version and no
CustomResourceDefinition of the workspace serves under the rule's groups and versions (`apiGroups:
[\"\"]` with `deployments`, a singular `deployment`, a resource the version no longer serves) is
reported too: the rule matches nothing, and the typed check could not run for it. The message says
what was probably meant: the plural, the group or versions that serve the resource, or the closest
resource name. A resource in a group that Kubernetes does not serve is taken for a custom resource
whose CRD is not among the checked files: the message says so and suggests `--schema FILE|DIR`.

Fix: check the name, or add the file that defines it to the checked paths.
";

const TEST_FAILED: &str = "\
test-failed (error): a case of a PolicyTest suite did not get the result it expects.

Shown on the case in the editor after `admission-ls.runTests` (the \"Run tests\" code lens); the
message says what differed: the decision, the message, warnings, audit annotations or the mutated
object. `admission-ls test` prints the same as a diff.

Fix: correct the policy, or the expectation if the policy is right.
";

const CONFIG: &str = "\
config (error): the project configuration file `.admission-ls.yaml` (or `.admission-ls.yml`) has a
key admission-ls does not know, a value of the wrong type, or is not valid YAML.

A setting that is not applied must not pass unnoticed, so a misspelled key is an error at its
characters, not a silently ignored line; the keys that were read correctly still apply.

`check` looks for the file in the folder of the first path it checks and upward, up to the folder
that holds `.git` (the repository root) or the filesystem root; `--config FILE` names one and
`--no-config` ignores it. The server reads it in the first workspace folder and again when it
changes. Command-line flags and editor settings override the file; `--schema` and `--exclude` add
to its lists. Relative paths and globs are relative to the file's folder. Every key:

    kubernetesVersion: \"1.34\"    # --kube-version
    schemaPaths: [crds, platform/crds/widget.yaml]   # --schema: CRD files and folders
    exclude: [vendor, \"**/*.test.yaml\"]              # --exclude globs
    strict: true                   # --strict (also diagnostics.strict)
    diagnostics:
      disabled: [unknown-field]    # codes not reported
    staticManifests: [deploy/static]   # folders for the API server's staticManifestsDir

Fix: correct the key or value at the position shown.
";

const STATIC_MANIFEST: &str = "\
static-manifest (error): a document meant for the API server's `staticManifestsDir` (static
admission manifests, feature ManifestBasedAdmissionControlConfig: alpha in 1.36, on by default from
1.37) breaks a rule the API server's manifest loader applies, so the API server does not start.

A document is a static manifest when its name ends in `.static.k8s.io` (from 1.37, where no other
document may have such a name) or when its file is directly in a folder listed under
`staticManifests` in `.admission-ls.yaml`. The loader (kubernetes/apiserver
pkg/admission/plugin/manifest and policy/manifest/loader) accepts only admissionregistration.k8s.io/v1
policies, bindings, webhook configurations and their lists; names must end in `.static.k8s.io`
and be unique per kind in the folder; no paramKind, no paramRef; a binding's policyName must end
in `.static.k8s.io` and name a policy of the same folder; a webhook must use clientConfig.url, not
clientConfig.service; a folder holds the kinds of one admission plugin (each has its own
staticManifestsDir).

    metadata:
      name: deny-privileged            # must have a name ending with \".static.k8s.io\"

Fix: follow the message; the wording is the API server's.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_documentation_starting_with_its_name() {
        for code in Code::ALL {
            let text = doc(*code);
            assert!(
                text.starts_with(code.as_str()),
                "{} doc must start with its name",
                code.as_str()
            );
            assert!(
                text.contains('\n'),
                "{} doc must say more than one line",
                code.as_str()
            );
        }
    }
}
