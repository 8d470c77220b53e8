//! Fixture tests of custom-resource decoding: each case is a schema and an object (JSON), decoded
//! with [`decode_custom`]; the snapshot shows what was defaulted, pruned and dropped, and the
//! result. Each case names the upstream test or rule it follows.

use expect_test::{Expect, expect};
use serde_json::Value as Json;

use super::{Options, decode_custom};

#[track_caller]
fn check(schema: &str, object: &str, expect: Expect) {
    check_with(schema, object, Options::default(), expect);
}

#[track_caller]
fn check_with(schema: &str, object: &str, options: Options, expect: Expect) {
    let schema: Json = serde_json::from_str(schema).expect("schema JSON");
    let mut object: Json = serde_json::from_str(object).expect("object JSON");
    let decoded = decode_custom(&schema, &mut object, options);
    let mut out = String::new();
    for (label, list) in [
        ("defaulted", &decoded.defaulted),
        ("pruned", &decoded.pruned),
        ("dropped nulls", &decoded.dropped_nulls),
        ("errors", &decoded.errors),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("{label}: {}\n", list.join(", ")));
        }
    }
    out.push_str(&serde_json::to_string(&object).unwrap_or_default());
    out.push('\n');
    expect.assert_eq(&out);
}

const WIDGET: &str = r#"{"type": "object", "properties": {
    "spec": {"type": "object", "properties": {
        "replicas": {"type": "integer", "default": 1},
        "mode": {"type": "string", "default": "fast"},
        "limits": {"type": "object", "default": {}, "properties": {
            "cpu": {"type": "string", "default": "100m"}}},
        "tuning": {"type": "object", "properties": {
            "level": {"type": "integer", "default": 3}}},
        "ports": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"},
            "protocol": {"type": "string", "default": "TCP"}}}},
        "labels": {"type": "object", "additionalProperties": {"type": "object", "properties": {
            "weight": {"type": "integer", "default": 10}}}},
        "note": {"type": "string", "nullable": true, "default": "n"},
        "strict": {"type": "string", "default": "s"},
        "plain": {"type": "string"}}}}}"#;

#[test]
fn defaults_apply_to_absent_properties_and_inside_existing_or_defaulted_objects() {
    // algorithm.go Default: a property's default when absent; recursion into every field, so a
    // defaulted `{}` gets its own defaults, and an absent parent gets none.
    check(
        WIDGET,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
            "spec": {"ports": [{"name": "http"}, {"name": "dns", "protocol": "UDP"}],
                     "labels": {"a": {}, "b": {"weight": 1}}}}"#,
        expect![[r#"
            defaulted: spec.limits, spec.mode, spec.note, spec.replicas, spec.strict, spec.labels.a.weight, spec.limits.cpu, spec.ports[0].protocol
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":null,"name":"w"},"spec":{"labels":{"a":{"weight":10},"b":{"weight":1}},"limits":{"cpu":"100m"},"mode":"fast","note":"n","ports":[{"name":"http","protocol":"TCP"},{"name":"dns","protocol":"UDP"}],"replicas":1,"strict":"s"}}
        "#]],
    );
}

#[test]
fn without_the_parent_nothing_is_defaulted_below_it() {
    // algorithm.go Default: defaults are applied while walking the object, never creating parents.
    check(
        WIDGET,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}"#,
        expect![[r#"
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":null,"name":"w"}}
        "#]],
    );
}

#[test]
fn nulls_are_defaulted_when_not_nullable_kept_when_nullable_and_dropped_without_default() {
    // prunenulls.go PruneNonNullableNullsWithoutDefaults, then algorithm.go isNonNullableNull.
    check(
        WIDGET,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
            "spec": {"note": null, "strict": null, "plain": null, "tuning": null}}"#,
        expect![[r#"
            defaulted: spec.limits, spec.mode, spec.replicas, spec.strict, spec.limits.cpu
            dropped nulls: spec.plain, spec.tuning
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":null,"name":"w"},"spec":{"limits":{"cpu":"100m"},"mode":"fast","note":null,"replicas":1,"strict":"s"}}
        "#]],
    );
}

#[test]
fn list_items_and_map_values_get_their_default_only_for_a_null() {
    // algorithm.go Default: `[]interface{}` and additionalProperties branches.
    check(
        r#"{"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "list": {"type": "array", "items": {"type": "string", "default": "x"}},
            "map": {"type": "object", "additionalProperties": {"type": "string", "default": "y"}}}}}}"#,
        r#"{"spec": {"list": ["a", null], "map": {"k": null, "j": "v"}}}"#,
        expect![[r#"
            defaulted: spec.list[1], spec.map.k
            {"spec":{"list":["a","x"],"map":{"j":"v","k":"y"}}}
        "#]],
    );
}

#[test]
fn unknown_fields_are_pruned_and_reported_with_their_paths() {
    // pruning/algorithm.go prune: fields not in properties/additionalProperties are removed; the
    // paths are sorted; list items use [i].
    check(
        WIDGET,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
            "extra": 1, "spec": {"replicas": 2, "typo": true, "ports": [{"name": "a", "nmae": "b"}],
            "labels": {"x": {"weight": 2, "junk": 1}}}, "status": {"ready": true}}"#,
        expect![[r#"
            defaulted: spec.limits, spec.mode, spec.note, spec.strict, spec.limits.cpu, spec.ports[0].protocol
            pruned: extra, spec.labels.x.junk, spec.ports[0].nmae, spec.typo, status
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"creationTimestamp":null,"name":"w"},"spec":{"labels":{"x":{"weight":2}},"limits":{"cpu":"100m"},"mode":"fast","note":"n","ports":[{"name":"a","protocol":"TCP"}],"replicas":2,"strict":"s"}}
        "#]],
    );
}

#[test]
fn preserve_unknown_fields_keeps_unknown_but_prunes_declared_children() {
    // pruning/algorithm.go skipPrune: under x-kubernetes-preserve-unknown-fields declared
    // properties are still pruned by their own schema.
    check(
        r#"{"type": "object", "properties": {"spec": {"type": "object",
            "x-kubernetes-preserve-unknown-fields": true, "properties": {
                "known": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}"#,
        r#"{"spec": {"anything": {"deep": [1, 2]}, "known": {"a": "x", "b": "y"}}}"#,
        expect![[r#"
            pruned: spec.known.b
            {"spec":{"anything":{"deep":[1,2]},"known":{"a":"x"}}}
        "#]],
    );
}

#[test]
fn the_crd_level_switch_turns_pruning_off() {
    // customresource_handler.go unstructuredSchemaCoercer.apply: !preserveUnknownFields guards
    // pruning and the null pruning; metadata is still coerced and defaults still applied.
    check_with(
        WIDGET,
        r#"{"metadata": {"name": "w", "junk": 1}, "spec": {"typo": 1, "plain": null}}"#,
        Options {
            preserve_unknown_fields: true,
        },
        expect![[r#"
            defaulted: spec.limits, spec.mode, spec.note, spec.replicas, spec.strict, spec.limits.cpu
            pruned: metadata.junk
            {"metadata":{"creationTimestamp":null,"name":"w"},"spec":{"limits":{"cpu":"100m"},"mode":"fast","note":"n","plain":null,"replicas":1,"strict":"s","typo":1}}
        "#]],
    );
}

#[test]
fn root_metadata_is_coerced_to_object_meta() {
    // objectmeta/coerce.go GetObjectMetaWithOptions + SetObjectMeta: unknown fields dropped,
    // empty values omitted, times in RFC 3339 UTC seconds, creationTimestamp null at the root.
    check(
        r#"{"type": "object"}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {
            "name": "w", "namespace": "", "labels": {}, "annotations": {"a": "b"},
            "generation": 0, "finalizers": ["x"], "bogus": true,
            "deletionTimestamp": "2024-05-01T10:00:00.5+02:00",
            "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "extra": 1}]}}"#,
        expect![[r#"
            pruned: metadata.bogus, metadata.ownerReferences[0].extra
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"annotations":{"a":"b"},"creationTimestamp":null,"deletionTimestamp":"2024-05-01T08:00:00Z","finalizers":["x"],"name":"w","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":""}]}}
        "#]],
    );
}

#[test]
fn metadata_of_the_wrong_type_is_an_error() {
    // objectmeta/coerce.go: the json.Unmarshal error is returned (DropMalformedFields is false
    // when decoding a request).
    check(
        r#"{"type": "object"}"#,
        r#"{"metadata": {"name": "w", "labels": {"a": 1}}}"#,
        expect![[r#"
            errors: metadata.labels.a: cannot decode number as a string
            {"metadata":{"labels":{"a":1},"name":"w"}}
        "#]],
    );
}

#[test]
fn embedded_resources_keep_type_meta_and_coerce_their_metadata() {
    // pruning/algorithm.go: XEmbeddedResource keeps apiVersion, kind, metadata; objectmeta
    // algorithm.go coerce: metadata becomes ObjectMeta, a zero creationTimestamp is removed.
    check(
        r#"{"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true},
            "strictTemplate": {"type": "object", "x-kubernetes-embedded-resource": true,
                "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer", "default": 2}}}}}}}}}"#,
        r#"{"spec": {
            "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "odd": 1}, "spec": {"x": 1}},
            "strictTemplate": {"apiVersion": "v1", "kind": "Thing", "metadata": {"labels": {"a": "b"}}, "spec": {}, "other": 1}}}"#,
        expect![[r#"
            defaulted: spec.strictTemplate.spec.size
            pruned: spec.strictTemplate.other, spec.template.metadata.odd
            {"spec":{"strictTemplate":{"apiVersion":"v1","kind":"Thing","metadata":{"labels":{"a":"b"}},"spec":{"size":2}},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"x":1}}}}
        "#]],
    );
}

#[test]
fn meta_fields_outside_embedded_resources_are_unknown() {
    // pruning/algorithm.go: `!metaFields[k] || len(opts.ParentPath) > 0`.
    check(
        r#"{"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "inner": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "W", "spec": {"inner": {"a": "x", "kind": "K", "metadata": {}}}}"#,
        expect![[r#"
            pruned: spec.inner.kind, spec.inner.metadata
            {"apiVersion":"example.com/v1","kind":"W","spec":{"inner":{"a":"x"}}}
        "#]],
    );
}

#[test]
fn a_non_string_api_version_in_an_embedded_resource_is_an_error() {
    // objectmeta/algorithm.go coerce: "must be a string".
    check(
        r#"{"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true}}}}}"#,
        r#"{"spec": {"template": {"apiVersion": 1, "kind": "Pod"}}}"#,
        expect![[r#"
            errors: spec.template.apiVersion: Invalid value: 1: must be a string
            {"spec":{"template":{"apiVersion":1,"kind":"Pod"}}}
        "#]],
    );
}

#[test]
fn the_published_schema_with_an_object_meta_ref_decodes_the_same() {
    // CrdKind::schema replaces the root metadata schema by a $ref to ObjectMeta; the root
    // metadata is coerced to ObjectMeta either way.
    check(
        r#"{"type": "object", "properties": {
            "metadata": {"$ref": "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
            "apiVersion": {"type": "string"}, "kind": {"type": "string"},
            "spec": {"type": "object", "properties": {"n": {"type": "integer", "default": 5}}}}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "W", "metadata": {"name": "w", "labels": {"a": "b"}}, "spec": {}}"#,
        expect![[r#"
            defaulted: spec.n
            {"apiVersion":"example.com/v1","kind":"W","metadata":{"creationTimestamp":null,"labels":{"a":"b"},"name":"w"},"spec":{"n":5}}
        "#]],
    );
}
