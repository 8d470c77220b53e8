//! `x-kubernetes-validations` rules of CustomResourceDefinitions, checked as the API server checks
//! them when the CRD is written (apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation.go`, `pkg/apiserver/schema/cel/compilation.go`):
//! `self` typed from the node, transition rules, the entry's fields, and the cost limits.

use crate::{check_diagnostics, check_diagnostics_at};
use expect_test::expect;

/// A CRD as controller-gen (kubebuilder) writes it, with the rules its markers generate; every
/// rule is one the API server accepts.
#[test]
fn kubebuilder_crd_with_accepted_rules_is_clean() {
    check_diagnostics(
        r#"
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.1
  name: cronjobs.batch.tutorial.kubebuilder.io
spec:
  group: batch.tutorial.kubebuilder.io
  names:
    kind: CronJob
    listKind: CronJobList
    plural: cronjobs
    singular: cronjob
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        description: CronJob is the Schema for the cronjobs API
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            description: CronJobSpec defines the desired state of CronJob
            properties:
              concurrencyPolicy:
                enum:
                - Allow
                - Forbid
                - Replace
                type: string
              schedule:
                maxLength: 256
                minLength: 0
                type: string
              startingDeadlineSeconds:
                format: int64
                minimum: 0
                type: integer
              suspend:
                type: boolean
              successfulJobsHistoryLimit:
                format: int32
                minimum: 0
                type: integer
              failedJobsHistoryLimit:
                format: int32
                type: integer
              ports:
                items:
                  properties:
                    name:
                      maxLength: 63
                      type: string
                    port:
                      format: int32
                      type: integer
                  required:
                  - name
                  type: object
                maxItems: 16
                type: array
                x-kubernetes-list-map-keys:
                - name
                x-kubernetes-list-type: map
              maxSurge:
                anyOf:
                - type: integer
                - type: string
                x-kubernetes-int-or-string: true
              template:
                type: object
                x-kubernetes-preserve-unknown-fields: true
            required:
            - schedule
            type: object
            x-kubernetes-validations:
            - message: schedule is immutable
              rule: self.schedule == oldSelf.schedule
            - message: at most 16 ports
              rule: size(self.ports) <= 16
              fieldPath: .ports
              reason: FieldValueForbidden
            - rule: '!has(self.failedJobsHistoryLimit) || self.failedJobsHistoryLimit >= 0'
              messageExpression: "'failedJobsHistoryLimit is ' + string(self.failedJobsHistoryLimit)"
            - rule: type(self.maxSurge) == string || self.maxSurge >= 0
            - rule: '!has(oldSelf.suspend) || has(self.suspend)'
              optionalOldSelf: false
          status:
            type: object
            properties:
              active:
                type: array
                maxItems: 10
                items:
                  type: object
                  x-kubernetes-map-type: atomic
                  properties:
                    name: {type: string, maxLength: 253}
                  x-kubernetes-validations:
                  - rule: self.name.startsWith('job-')
        type: object
        x-kubernetes-validations:
        - rule: self.metadata.name.size() <= 52
          message: the name must be at most 52 characters
    served: true
    storage: true
    subresources:
      status: {}
"#,
        expect![[r#""#]],
    );
}

/// Type errors, a non-bool rule and a non-string messageExpression, at the characters of the rule
/// in every scalar style.
#[test]
fn rules_are_typed_from_their_schema_node() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              name: {type: string, maxLength: 64}
              tags:
                type: object
                additionalProperties: {type: string, maxLength: 64}
                maxProperties: 8
                x-kubernetes-validations:
                - rule: self.all(k, self[k] != '')
                - rule: self.all(k, self[k] > 0)
            x-kubernetes-validations:
            - rule: self.replicas > 0 && self.replica < 10
            - rule: "self.name.startsWith(1)"
            - rule: |
                self.replicas + 1
              message: a message
            - rule: self.replicas >= 0
              messageExpression: self.replicas
            - rule: self.name.matches('^a') && self.nmae == ''
            - rule: self.name == (
"#,
        expect![[r#"
            policy.yaml:27:45: error[cel-no-overload] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[1].rule: found no matching overload for '_>_' applied to '(string, int)'
               |
            27 |                 - rule: self.all(k, self[k] > 0)
               |                                             ^
            policy.yaml:29:47: error[cel-undefined-field] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: undefined field 'replica'; did you mean 'replicas'?
               |
            29 |             - rule: self.replicas > 0 && self.replica < 10
               |                                               ^^^^^^^
            policy.yaml:30:32: error[cel-no-overload] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: found no matching overload for 'startsWith' applied to 'string.(int)'
               |
            30 |             - rule: "self.name.startsWith(1)"
               |                                ^^^^^^^^^^
            policy.yaml:32:17: error[cel-result-type] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].rule: cel expression must evaluate to a bool (got int)
               |
            32 |                 self.replicas + 1
               |                 ^^^^^^^^^^^^^^^^^
            policy.yaml:35:34: error[cel-result-type] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].messageExpression: messageExpression must evaluate to a string (got int)
               |
            35 |               messageExpression: self.replicas
               |                                  ^^^^^^^^^^^^^
            policy.yaml:36:53: error[cel-undefined-field] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[4].rule: undefined field 'nmae'; did you mean 'name'?
               |
            36 |             - rule: self.name.matches('^a') && self.nmae == ''
               |                                                     ^^^^
            policy.yaml:37:35: error[cel-syntax] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[5].rule: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            37 |             - rule: self.name == (
               |                                   ^
        "#]],
    );
}

/// `oldSelf` under a list that is not a map list, `optionalOldSelf` on a rule that does not read
/// `oldSelf`, and an optional `oldSelf` typed `optional_type`.
#[test]
fn transition_rules_need_correlatable_nodes() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              items:
                type: array
                maxItems: 4
                items:
                  type: object
                  properties:
                    name: {type: string, maxLength: 10}
                  x-kubernetes-validations:
                  - rule: self.name == oldSelf.name
              keyed:
                type: array
                maxItems: 4
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, maxLength: 10}
                  x-kubernetes-validations:
                  - rule: self.name == oldSelf.name
            x-kubernetes-validations:
            - rule: has(self.items)
              optionalOldSelf: true
            - rule: oldSelf.hasValue() && oldSelf.value().items == self.items
              optionalOldSelf: true
            - rule: oldSelf.items == self.items
              optionalOldSelf: true
"#,
        expect![[r#"
            policy.yaml:27:27: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self.name == oldSelf.name": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[items].items
               |
            27 |                   - rule: self.name == oldSelf.name
               |                           ^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:42:32: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule
               |
            42 |               optionalOldSelf: true
               |                                ^^^^
            policy.yaml:45:35: error[cel-no-overload] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].rule: found no matching overload for '_==_' applied to '(optional_type(list(example.com.v1.Widget.spec.items)), list(example.com.v1.Widget.spec.items))'
               |
            45 |             - rule: oldSelf.items == self.items
               |                                   ^^
        "#]],
    );
}

/// The fields of an entry: a blank rule, a multi-line rule without message, an unknown reason and
/// field paths that name no field.
#[test]
fn entry_fields_are_validated() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
            x-kubernetes-validations:
            - rule: "  "
            - rule: |-
                self.name != ''
                && self.name != 'x'
            - rule: self.name != ''
              message: "  "
            - rule: self.name != ''
              reason: Invalid
            - rule: self.name != ''
              fieldPath: .nmae
            - rule: self.name != ''
              fieldPath: .labels['app.kubernetes.io/name']
            - rule: self.name != ''
              fieldPath: name
            - rule: self.name != ''
              messageExpression: "  "
"#,
        expect![[r#"
            policy.yaml:24:21: error[required] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified
               |
            24 |             - rule: "  "
               |                     ^^^^
            policy.yaml:25:21: error[required] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].message: Required value: message must be specified if rule contains line breaks
               |
            25 |             - rule: |-
               |                     ^^
            policy.yaml:29:24: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].message: Invalid value: "  ": message must be non-empty if specified
               |
            29 |               message: "  "
               |                        ^^^^
            policy.yaml:31:23: error[not-supported] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].reason: Unsupported value: "Invalid": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"
               |
            31 |               reason: Invalid
               |                       ^^^^^^^
            policy.yaml:33:26: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[4].fieldPath: Invalid value: ".nmae": fieldPath must be a valid path
               |
            33 |               fieldPath: .nmae
               |                          ^^^^^
            policy.yaml:37:26: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[6].fieldPath: Invalid value: "name": fieldPath must be a valid path
               |
            37 |               fieldPath: name
               |                          ^^^^
            policy.yaml:39:34: error[required] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[7].messageExpression: Required value: messageExpression must be non-empty if specified
               |
            39 |               messageExpression: "  "
               |                                  ^^^^
        "#]],
    );
}

/// A rule over unbounded lists costs more than the API server allows, per rule and for the
/// schema; bounding the lists makes it acceptable.
#[test]
fn rule_cost_limits() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              names:
                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: self.all(a, self.all(b, a == b || !a.startsWith(b)))
              bounded:
                type: array
                maxItems: 10
                items: {type: string, maxLength: 20}
                x-kubernetes-validations:
                - rule: self.all(a, self.all(b, a == b || !a.startsWith(b)))
              entries:
                type: array
                items:
                  type: object
                  properties:
                    value: {type: string}
                  x-kubernetes-validations:
                  - rule: self.value.matches('^[a-z]+$')
"#,
        expect![[r#"
            policy.yaml:13:7: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
               |
            13 |       openAPIV3Schema:
               |       ^^^^^^^^^^^^^^^
            policy.yaml:23:25: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema
               |
            23 |                 - rule: self.all(a, self.all(b, a == b || !a.startsWith(b)))
               |                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:23:25: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
               |
            23 |                 - rule: self.all(a, self.all(b, a == b || !a.startsWith(b)))
               |                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:37:27: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[entries].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema
               |
            37 |                   - rule: self.value.matches('^[a-z]+$')
               |                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:37:27: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[entries].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
               |
            37 |                   - rule: self.value.matches('^[a-z]+$')
               |                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// A rule on an item of an unbounded list runs once per item that fits in a request, and an item
/// is at least as long as its required properties without a default (`MinSerializedSize`,
/// apiserver `pkg/cel/common/schemas.go`; `maxCardinality`, apiextensions-apiserver
/// `pkg/apiserver/schema/cel/compilation.go`). The rule costs 28 (`@in` on a list literal is its
/// size, cel-go `checker/cost.go`): 28 × 3 MiB / 3 = 29,360,128 for `{}` items (2.9x over), but
/// 28 × 3 MiB / 24 = 3,670,016 when `kind` and `group` are required, which the API server accepts.
/// Reduced from envoyproxy/gateway `charts/gateway-crds-helm/templates/generated/
/// gateway.envoyproxy.io_securitypolicies.yaml` (`extAuth.contextExtensions[].valueRef`), which
/// installs on real API servers and was reported 2.9x over.
#[test]
fn required_properties_bound_an_unbounded_item_rule() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              required:
                type: array
                items:
                  type: object
                  required: [kind, group]
                  properties:
                    kind: {type: string}
                    group: {type: string}
                  x-kubernetes-validations:
                  - rule: "self.kind in ['ConfigMap','Secret'] && self.group in ['', 'v1']"
              optional:
                type: array
                items:
                  type: object
                  properties:
                    kind: {type: string}
                    group: {type: string}
                  x-kubernetes-validations:
                  - rule: "self.kind in ['ConfigMap','Secret'] && self.group in ['', 'v1']"
"#,
        expect![[r#"
            policy.yaml:37:27: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[optional].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.9x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
               |
            37 |                   - rule: "self.kind in ['ConfigMap','Secret'] && self.group in ['', 'v1']"
               |                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// The rules of a version that is not served are compiled too: apiextensions-apiserver
/// `pkg/apis/apiextensions/validation/validation.go` `ValidateCustomResourceDefinitionSpec`
/// validates every entry of `spec.versions`, served or not.
#[test]
fn rules_of_unserved_versions_are_checked() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
            x-kubernetes-validations:
            - rule: self.replicas.size() > 0
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
            x-kubernetes-validations:
            - rule: self.replicas > 0
"#,
        expect![[r#"
            policy.yaml:21:35: error[cel-no-overload] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: found no matching overload for 'size' applied to 'int.()'
               |
            21 |             - rule: self.replicas.size() > 0
               |                                   ^^^^
        "#]],
    );
}

/// A messageExpression's estimate counts once, against the per-expression limit and in the CRD's
/// total, however many times its node can occur: apiextensions-apiserver
/// `pkg/apis/apiextensions/validation/validation.go` compares and observes
/// `cr.MessageExpressionMaxCost`, where a rule's cost goes through `getExpressionCost`. Here the
/// rule costs 2 × 1,048,576 items and the messageExpression 336, once; times the items it was
/// reported 35.2x over the per-expression limit and the total 3.5x over.
#[test]
fn message_expression_cost_is_not_multiplied_by_cardinality() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              refs:
                type: array
                items:
                  type: object
                  properties:
                    kind: {type: string, maxLength: 100}
                  x-kubernetes-validations:
                  - rule: has(self.kind)
                    messageExpression: self.kind + ' is not allowed, ' + self.kind + ' is ' + self.kind
"#,
        expect![[r#""#]],
    );
}

/// messageExpressions count toward the schema's total as rules do, once each, and only an
/// expression costing at least 1% of the limit is named as a contributor (apiextensions-apiserver
/// `pkg/apis/apiextensions/validation/cel_validation.go` `TotalCost.ObserveExpressionCost`): the
/// two messageExpressions (3,000 items compared pairwise, about 63,000,000 each) are named, the
/// cheap rules beside them are not.
#[test]
fn message_expressions_count_toward_the_schema_total() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              items:
                type: array
                maxItems: 3000
                items: {type: string, maxLength: 5}
                x-kubernetes-validations:
                - {rule: 'size(self) < 3001', messageExpression: "self.all(x, self.all(y, x == y)) ? 'same' : 'different'"}
                - {rule: 'size(self) < 3001', messageExpression: "self.all(x, self.all(y, x == y)) ? 'same' : 'different'"}
"#,
        expect![[r#"
            policy.yaml:13:7: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.260300x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
               |
            13 |       openAPIV3Schema:
               |       ^^^^^^^^^^^^^^^
            policy.yaml:24:66: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema
               |
            24 |                 - {rule: 'size(self) < 3001', messageExpression: "self.all(x, self.all(y, x == y)) ? 'same' : 'different'"}
               |                                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:24:66: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of 6.3x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
               |
            24 |                 - {rule: 'size(self) < 3001', messageExpression: "self.all(x, self.all(y, x == y)) ? 'same' : 'different'"}
               |                                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:25:66: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[1].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema
               |
            25 |                 - {rule: 'size(self) < 3001', messageExpression: "self.all(x, self.all(y, x == y)) ? 'same' : 'different'"}
               |                                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:25:66: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[1].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of 6.3x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
               |
            25 |                 - {rule: 'size(self) < 3001', messageExpression: "self.all(x, self.all(y, x == y)) ? 'same' : 'different'"}
               |                                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// From 1.37 the resource root's `metadata.name` has a `maxLength` of 253 for the cost estimate
/// (`generateName` 252; a shorter declared one is kept), so comparing it with 100 prefixes of 63
/// characters stays within the per-rule limit; up to 1.36 the name is unbounded and the same rule
/// is refused (apiextensions-apiserver `pkg/apiserver/schema/cel/model/schemas.go`
/// `WithTypeAndObjectMeta`, `cappedLengthStringType`, first in kubernetes-1.37.0-alpha.2).
#[test]
fn metadata_name_is_bounded_from_1_37() {
    let crd = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "self.spec.prefixes.all(p, self.metadata.name.contains(p))"
        properties:
          spec:
            type: object
            properties:
              prefixes:
                type: array
                maxItems: 100
                items: {type: string, maxLength: 63}
"#;
    check_diagnostics_at(37, crd, expect![[r#""#]]);
    check_diagnostics_at(
        36,
        crd,
        expect![[r#"
        policy.yaml:13:7: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 8.2x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
           |
        13 |       openAPIV3Schema:
           |       ^^^^^^^^^^^^^^^
        policy.yaml:16:17: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema
           |
        16 |         - rule: "self.spec.prefixes.all(p, self.metadata.name.contains(p))"
           |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        policy.yaml:16:17: error[cel-cost] (refused on create): spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 81.8x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
           |
        16 |         - rule: "self.spec.prefixes.all(p, self.metadata.name.contains(p))"
           |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
}

/// The root's `self.metadata` holds only `name` and `generateName` in a rule, whatever the
/// schema declares under `metadata` (`WithTypeAndObjectMeta` replaces it), so a rule reading
/// `self.metadata.labels` does not compile.
#[test]
fn root_rules_see_only_name_and_generate_name() {
    check_diagnostics(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: self.metadata.name.size() <= 63
        - rule: "'app' in self.metadata.labels"
        properties:
          metadata:
            type: object
            properties:
              labels: {type: object, additionalProperties: {type: string}}
"#,
        expect![[r#"
            policy.yaml:17:41: error[cel-undefined-field] (refused on create): spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[1].rule: undefined field 'labels'
               |
            17 |         - rule: "'app' in self.metadata.labels"
               |                                         ^^^^^^
        "#]],
    );
}

/// A `default` that breaks a rule of its schema (its own node's or one below it) refuses the CRD,
/// worded as a failed rule at `<schema path>.default`, and the CRD's rules are then not compiled
/// (apiextensions-apiserver `pkg/apiserver/schema/defaulting/validation.go` `ValidateDefaults`;
/// `pkg/apis/apiextensions/validation/validation_test.go` "invalid default with
/// x-kubernetes-validations"). The bad value follows the version: 1.37 shows a string, omits an
/// object; 1.34 shows type names.
#[test]
fn a_default_that_breaks_a_rule_is_refused() {
    let crd = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          value:
            type: string
            default: nope
            x-kubernetes-validations:
            - rule: self.startsWith('kube')
          good:
            type: string
            default: kube-system
            x-kubernetes-validations:
            - rule: self.startsWith('kube')
          range:
            type: object
            default: {low: 2, high: 1, unit: {name: Mi}}
            x-kubernetes-validations:
            - rule: self.low < self.high
              message: low must be below high
            properties:
              low: {type: integer}
              high: {type: integer}
              unit:
                type: object
                properties:
                  name:
                    type: string
                    x-kubernetes-validations:
                    - rule: self in ['Ki', 'Gi']
          transition:
            type: string
            default: anything
            x-kubernetes-validations:
            - rule: self == oldSelf
"#;
    check_diagnostics(
        crd,
        expect![[r#"
        policy.yaml:18:22: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[value].default: Invalid value: "nope": failed rule: self.startsWith('kube')
           |
        18 |             default: nope
           |                      ^^^^
        policy.yaml:28:22: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[range].default.unit.name: Invalid value: "Mi": failed rule: self in ['Ki', 'Gi']
           |
        28 |             default: {low: 2, high: 1, unit: {name: Mi}}
           |                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        policy.yaml:28:22: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[range].default: Invalid value: low must be below high
           |
        28 |             default: {low: 2, high: 1, unit: {name: Mi}}
           |                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
    check_diagnostics_at(
        34,
        crd,
        expect![[r#"
        policy.yaml:18:22: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[value].default: Invalid value: "string": failed rule: self.startsWith('kube')
           |
        18 |             default: nope
           |                      ^^^^
        policy.yaml:28:22: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[range].default.unit.name: Invalid value: "string": failed rule: self in ['Ki', 'Gi']
           |
        28 |             default: {low: 2, high: 1, unit: {name: Mi}}
           |                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        policy.yaml:28:22: error[invalid] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties[range].default: Invalid value: "object": low must be below high
           |
        28 |             default: {low: 2, high: 1, unit: {name: Mi}}
           |                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
}
