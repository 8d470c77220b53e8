//! Gatekeeper's ConstraintTemplates with `engine: K8sNativeValidation` and their Constraints
//! (open-policy-agent/gatekeeper `pkg/drivers/k8scel`, open-policy-agent/frameworks
//! `constraint/pkg/client`): the template's metadata, target and source as they are refused, CEL
//! in the driver's environment, typed CEL through the policy `generateVAP` makes, and Constraints
//! checked against the CRD their template creates, in another file.

use crate::check_diagnostics;
use expect_test::expect;

/// A template in the style of the Gatekeeper library with its Constraint in another file: clean
/// but for what the typed check of the generated policy sees. The ternary of a string and an int
/// is only a typed-check warning: cel-go evaluates the branch the condition picks.
#[test]
fn library_style_template_and_constraint() {
    check_diagnostics(
        r#"
#- /template.yaml
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8srequiredlabels
spec:
  crd:
    spec:
      names:
        kind: K8sRequiredLabels
      validation:
        openAPIV3Schema:
          type: object
          properties:
            labels:
              type: array
              items:
                type: object
                properties:
                  key:
                    type: string
                  allowedRegex:
                    type: string
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
      - engine: K8sNativeValidation
        source:
          variables:
          - name: labels
            expression: 'has(variables.anyObject.metadata.labels) ? variables.anyObject.metadata.labels : {}'
          - name: fsGroup
            expression: '!has(variables.anyObject.spec.securityContext) ? "" : variables.anyObject.spec.securityContext.fsGroup'
          validations:
          - expression: 'variables.params.labels.all(entry, entry.key in variables.labels)'
            messageExpression: '"missing required label, requires all of: " + variables.params.labels.map(entry, entry.key).join(", ")'
          - expression: 'variables.params.labels.all(entry, !(entry.key in variables.labels) || !has(entry.allowedRegex) || variables.labels[entry.key].matches(entry.allowedRegex))'
            message: regex mismatch
      - engine: Rego
        source:
          rego: |
            package k8srequiredlabels
            violation[{"msg": "no"}] { false }
#- /constraint.yaml
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sRequiredLabels
metadata:
  name: all-must-have-owner
spec:
  match:
    kinds:
      - apiGroups: [""]
        kinds: ["Pod"]
  parameters:
    labels:
      - key: owner
        allowedRegex: "^[a-z]+$"
"#,
        expect![[r#"
            template.yaml:32:73: warning[cel-no-overload] (typed check only): spec.targets[0].code[0].source.variables[1].expression: found no matching overload for '_?_:_' applied to '(bool, string, int)' (in /v1, Kind=Pod)
               |
            32 |             expression: '!has(variables.anyObject.spec.securityContext) ? "" : variables.anyObject.spec.securityContext.fsGroup'
               |                                                                         ^
        "#]],
    );
}

/// A misspelled source field, a misspelled variable and a misspelled field of the parameters are
/// caught at their characters; `params` is not declared in a validation (the driver compiles
/// validations without parameters: only variables see the Constraint); reserved names, an unknown
/// failure policy and a name that is not the kind in lower case are refused.
#[test]
fn misspellings_and_refusals() {
    check_diagnostics(
        r#"
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8sallowedrepo
spec:
  crd:
    spec:
      names:
        kind: K8sAllowedRepos
      validation:
        openAPIV3Schema:
          type: object
          properties:
            repos:
              type: array
              items:
                type: string
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
      - engine: K8sNativeValidation
        source:
          failurePolicy: Never
          matchConditions:
          - name: not-kube-system
            expression: 'object.metadata.namespace != "kube-system"'
          variables:
          - name: containers
            expression: 'variables.anyObjct.spec.containers'
          - name: anyObject
            expression: 'object'
          - name: gatekeeper_internal_x
            expression: 'variables.params.repo'
          validations:
          - expression: 'variables.containers.all(c, variables.params.repos.exists(r, c.image.startsWith(r)))'
            mesage: not allowed
          - expression: 'params.spec.parameters.repos.size() > 0'
"#,
        expect![[r#"
            policy.yaml:4:9: error[invalid] (refused on create): invalid ConstraintTemplate: the ConstraintTemplate's name "k8sallowedrepo" is not equal to the lowercase of CRD's Kind: "k8sallowedrepos"
              |
            4 |   name: k8sallowedrepo
              |         ^^^^^^^^^^^^^^
            policy.yaml:23:26: error[not-supported] (refused on create): spec.targets[0].code[0].source.failurePolicy: invalid failure policy: unrecognized failure policy: Never
               |
            23 |           failurePolicy: Never
               |                          ^^^^^
            policy.yaml:24:11: warning[unknown-field] (accepted): spec.targets[0].code[0].source.matchConditions: unknown field "matchConditions": the K8sNativeValidation driver does not read it and drops it; the driver reads "matchCondition"
               |
            24 |           matchConditions:
               |           ^^^^^^^^^^^^^^^
            policy.yaml:29:36: error[cel-undefined-field] (fails at admission): spec.targets[0].code[0].source.variables[0].expression: undefined field 'anyObjct'; did you mean 'anyObject'?
               |
            29 |             expression: 'variables.anyObjct.spec.containers'
               |                                    ^^^^^^^^
            policy.yaml:30:19: error[invalid] (refused on create): spec.targets[0].code[0].source.variables[1].name: invalid variable definition: anyObject an invalid variable name, "anyObject" is a reserved keyword
               |
            30 |           - name: anyObject
               |                   ^^^^^^^^^
            policy.yaml:32:19: error[invalid] (refused on create): spec.targets[0].code[0].source.variables[2].name: invalid variable definition: gatekeeper_internal_x is not a valid variable; cannot have "gatekeeper_internal_" as a prefix
               |
            32 |           - name: gatekeeper_internal_x
               |                   ^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:33:43: error[cel-undefined-field] (fails at admission): spec.targets[0].code[0].source.variables[2].expression: undefined field 'repo'; did you mean 'repos'?
               |
            33 |             expression: 'variables.params.repo'
               |                                           ^^^^
            policy.yaml:36:13: warning[unknown-field] (accepted): spec.targets[0].code[0].source.validations[0].mesage: unknown field "mesage": the K8sNativeValidation driver does not read it and drops it; did you mean "message"?
               |
            36 |             mesage: not allowed
               |             ^^^^^^
            policy.yaml:37:26: error[cel-undeclared] (fails at admission): spec.targets[0].code[0].source.validations[1].expression: undeclared reference to 'params' (in container '')
               |
            37 |           - expression: 'params.spec.parameters.repos.size() > 0'
               |                          ^^^^^^
        "#]],
    );
}

/// A schema that is not structural is refused with the template, at its position; the rest of
/// the template is still checked.
#[test]
fn schema_not_structural_and_the_rest_still_checked() {
    check_diagnostics(
        r#"
apiVersion: templates.gatekeeper.sh/v1beta1
kind: ConstraintTemplate
metadata:
  name: k8sdisallowed
spec:
  crd:
    spec:
      names:
        kind: K8sDisallowed
      validation:
        openAPIV3Schema:
          type: object
          properties:
            tags:
              $ref: '#/definitions/tags'
            limit:
              type: "null"
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
      - engine: K8sNativeValidation
        source:
          validations:
          - expression: 'variables.anyObject.metadata.name.startsWith('
"#,
        expect![[r#"
            policy.yaml:15:15: error[forbidden] (refused on create): spec.validation.openAPIV3Schema.properties[tags].$ref: Forbidden: $ref is not supported
               |
            15 |               $ref: '#/definitions/tags'
               |               ^^^^
            policy.yaml:17:15: error[forbidden] (refused on create): spec.validation.openAPIV3Schema.properties[limit].type: Forbidden: type cannot be set to null, use nullable as an alternative
               |
            17 |               type: "null"
               |               ^^^^
            policy.yaml:24:71: error[cel-syntax] (fails at admission): spec.targets[0].code[0].source.validations[0].expression: Syntax error: missing ')' at '<EOF>'
               |
            24 |           - expression: 'variables.anyObject.metadata.name.startsWith('
               |                                                                       ^
        "#]],
    );
}

/// Template metadata and targets as frameworks refuses them; an unknown version of the group.
#[test]
fn template_metadata_and_targets() {
    check_diagnostics(
        r#"
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: nokind
spec:
  crd:
    spec:
      names: {}
  targets:
    - target: admission.k8s.gatekeeper.sh
    - target: other.target
---
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8sone
spec:
  crd:
    spec:
      names:
        kind: K8sOne
  targets:
    - target: validation.example.com
---
apiVersion: templates.gatekeeper.sh/v2
kind: ConstraintTemplate
metadata:
  name: k8stwo
---
apiVersion: constraints.gatekeeper.sh/v1
kind: K8sOne
metadata:
  name: one
"#,
        expect![[r#"
            policy.yaml:7:5: error[required] (refused on create): invalid ConstraintTemplate: ConstraintTemplate "nokind" does not specify CRD Kind (spec.crd.spec.names.kind)
              |
            7 |     spec:
              |     ^^^^^
            policy.yaml:10:5: error[invalid] (refused on create): invalid ConstraintTemplate: multi-target templates are not currently supported
               |
            10 |     - target: admission.k8s.gatekeeper.sh
               |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:23:15: error[not-supported] (refused on create): invalid ConstraintTemplate: target "validation.example.com" not recognized, known targets [admission.k8s.gatekeeper.sh]
               |
            23 |     - target: validation.example.com
               |               ^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:25:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "templates.gatekeeper.sh/v2": Gatekeeper serves ConstraintTemplate in v1, v1beta1, v1alpha1
               |
            25 | apiVersion: templates.gatekeeper.sh/v2
               |             ^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:30:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "constraints.gatekeeper.sh/v1": Gatekeeper serves Constraints in v1beta1, v1alpha1
               |
            30 | apiVersion: constraints.gatekeeper.sh/v1
               |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// A Constraint read as the binding of a template in another file: its parameters against the
/// template's schema (a misspelled parameter is pruned, a value of the wrong type refused), its
/// match against Gatekeeper's match schema, its enforcementAction; a Constraint whose template is
/// not in the workspace is not checked against a schema.
#[test]
fn constraint_against_its_template() {
    check_diagnostics(
        r#"
#- /template.yaml
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8smaxreplicas
spec:
  crd:
    spec:
      names:
        kind: K8sMaxReplicas
      validation:
        openAPIV3Schema:
          type: object
          properties:
            max:
              type: integer
            exempt:
              type: array
              items:
                type: string
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
      - engine: K8sNativeValidation
        source:
          validations:
          - expression: 'variables.anyObject.spec.replicas <= variables.params.max'
#- /constraints.yaml
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sMaxReplicas
metadata:
  name: max-three
spec:
  enforcementAction: block
  match:
    kinds:
      - apiGroups: ["apps"]
        kinds: "Deployment"
    namespaces: ["Prod_1"]
    scope: Namespaced
  parameters:
    max: "3"
    exmpt: ["kube-system"]
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sMissingTemplate
metadata:
  name: orphan
spec:
  parameters:
    anything: true
"#,
        expect![[r#"
            constraints.yaml:6:22: error[not-supported] (refused on create): spec.enforcementAction: unrecognized enforcementAction: "block" is not within the supported list [deny dryrun warn scoped]
              |
            6 |   enforcementAction: block
              |                      ^^^^^
            constraints.yaml:10:16: error[invalid] (refused on create): spec.match.kinds[0].kinds: Invalid value: "string": spec.match.kinds[0].kinds in body must be of type array: "string"
               |
            10 |         kinds: "Deployment"
               |                ^^^^^^^^^^^^
            constraints.yaml:11:18: error[invalid] (refused on create): spec.match.namespaces[0]: Invalid value: "Prod_1": spec.match.namespaces[0] in body should match '^\*?[-:a-z0-9]*\*?$'
               |
            11 |     namespaces: ["Prod_1"]
               |                  ^^^^^^^^
            constraints.yaml:14:10: error[invalid] (refused on create): spec.parameters.max: Invalid value: "string": spec.parameters.max in body must be of type integer: "string"
               |
            14 |     max: "3"
               |          ^^^
            constraints.yaml:15:5: warning[unknown-field] (accepted): spec.parameters.exmpt: unknown field "exmpt": the Constraint's CRD (made from its template) does not declare it; the API server drops it
               |
            15 |     exmpt: ["kube-system"]
               |     ^^^^^
            constraints.yaml:18:7: warning[unresolved-reference] (accepted): kind: no ConstraintTemplate in the workspace creates the Constraint kind "K8sMissingTemplate" (its spec.crd.spec.names.kind); the Constraint is not checked against its parameters' schema
               |
            18 | kind: K8sMissingTemplate
               |       ^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// `object` is typed from the kinds the template's Constraints match: a misspelled field of a Pod
/// is caught at its characters once a Constraint of the template matches Pods (in another file).
#[test]
fn object_typed_from_the_constraints_match() {
    check_diagnostics(
        r#"
#- /template.yaml
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8snoprivileged
spec:
  crd:
    spec:
      names:
        kind: K8sNoPrivileged
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
      - engine: K8sNativeValidation
        source:
          validations:
          - expression: '!variables.anyObject.spec.containrs.exists(c, has(c.securityContext) && c.securityContext.privileged == true)'
            message: privileged containers are not allowed
#- /constraint.yaml
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sNoPrivileged
metadata:
  name: no-privileged
spec:
  match:
    kinds:
      - apiGroups: [""]
        kinds: ["Pod"]
"#,
        expect![[r#"
            template.yaml:16:52: error[cel-undefined-field] (fails at admission): spec.targets[0].code[0].source.validations[0].expression: undefined field 'containrs'; did you mean 'containers'? (in /v1, Kind=Pod)
               |
            16 |           - expression: '!variables.anyObject.spec.containrs.exists(c, has(c.securityContext) && c.securityContext.privileged == true)'
               |                                                    ^^^^^^^^^
        "#]],
    );
}
