//! Schema → CEL types through the public API: bundled kinds (Deployment, the recursive
//! `JSONSchemaProps` of a CRD object), CRDs with the x-kubernetes extensions, property-name
//! escaping, hostile schemas, and which versions carry a kind.

use std::fmt::Write;

use admission_ls::cel::types::{Type, TypeProvider};
use admission_ls::schema::{Gvk, SchemaTypes, bundled, from_crd_json};
use expect_test::{Expect, expect};
use serde_json::{Value, json};

/// The type of the dotted field `path` from `root`.
fn field_type(types: &SchemaTypes, root: &Type, path: &str) -> Option<Type> {
    let mut ty = root.clone();
    for part in path.split('.') {
        let elem = match &ty {
            Type::List(elem) => (**elem).clone(),
            Type::Map(_, value) => (**value).clone(),
            other => other.clone(),
        };
        let Type::Object(name) = elem else {
            return None;
        };
        ty = types.field(&name, part)?.ty;
    }
    Some(ty)
}

fn check_paths(types: &SchemaTypes, root: &Type, paths: &[&str], expect: Expect) {
    let mut out = String::new();
    for path in paths {
        let ty = field_type(types, root, path).map_or("<none>".to_string(), |t| t.to_string());
        writeln!(out, "{path}: {ty}").unwrap();
    }
    expect.assert_eq(&out);
}

/// Every field of `type_name` with its type and required-ness.
fn render_fields(types: &SchemaTypes, type_name: &str) -> String {
    let mut out = String::new();
    for (name, info) in types.field_infos(type_name) {
        let required = if info.required { " (required)" } else { "" };
        writeln!(out, "{name}: {}{required}", info.ty).unwrap();
    }
    out
}

fn deployment() -> (SchemaTypes, Type) {
    let types = SchemaTypes::new(bundled::newest());
    let root = types
        .kind_type(&Gvk::new("apps", "v1", "Deployment"))
        .expect("Deployment is bundled");
    (types, root)
}

#[test]
fn deployment_fields() {
    let (types, root) = deployment();
    check_paths(
        &types,
        &root,
        &[
            "spec.replicas",
            "spec.template.spec.containers",
            "spec.template.spec.containers.image",
            "spec.template.spec.containers.ports.containerPort",
            "spec.template.spec.containers.resources.limits",
            "spec.strategy.rollingUpdate.maxSurge",
            "metadata.labels",
            "metadata.creationTimestamp",
            "metadata.namespace",
            "metadata.__namespace__",
            "spec.selector.matchLabels",
            "spec.template.spec.activeDeadlineSeconds",
            "spec.minReadySeconds",
            "spec.nosuchfield",
        ],
        expect![[r#"
            spec.replicas: int
            spec.template.spec.containers: list(apps.v1.Deployment.spec.template.spec.containers)
            spec.template.spec.containers.image: string
            spec.template.spec.containers.ports.containerPort: int
            spec.template.spec.containers.resources.limits: map(string, string)
            spec.strategy.rollingUpdate.maxSurge: dyn
            metadata.labels: map(string, string)
            metadata.creationTimestamp: google.protobuf.Timestamp
            metadata.namespace: string
            metadata.__namespace__: string
            spec.selector.matchLabels: map(string, string)
            spec.template.spec.activeDeadlineSeconds: int
            spec.minReadySeconds: int
            spec.nosuchfield: <none>
        "#]],
    );
    expect![[r#"
        apiVersion: string
        kind: string
        metadata: apps.v1.Deployment.metadata
        spec: apps.v1.Deployment.spec (required)
        status: apps.v1.Deployment.status
    "#]]
    .assert_eq(&render_fields(&types, "apps.v1.Deployment"));
}

#[test]
fn required_fields_and_docs_are_kept() {
    let (types, _) = deployment();
    let spec = render_fields(&types, "apps.v1.Deployment.spec");
    assert!(
        spec.contains("selector: apps.v1.Deployment.spec.selector (required)"),
        "{spec}"
    );
    let doc = types
        .field("apps.v1.Deployment.spec", "replicas")
        .and_then(|f| f.doc)
        .unwrap_or_default();
    assert!(doc.starts_with("Number of desired pods."), "{doc}");
    let ports = types
        .field_info("apps.v1.Deployment.spec.template.spec.containers", "ports")
        .expect("containers have ports");
    expect![[r#"Some(Map) ["containerPort", "protocol"]"#]]
        .assert_eq(&format!("{:?} {:?}", ports.list_type, ports.list_map_keys));
    let selector = types
        .field_info("apps.v1.Deployment.spec", "selector")
        .expect("selector");
    assert_eq!(selector.map_type.as_deref(), Some("atomic"));
}

#[test]
fn a_recursive_ref_becomes_an_object_without_fields() {
    let types = SchemaTypes::new(bundled::newest());
    let root = types
        .kind_type(&Gvk::new(
            "apiextensions.k8s.io",
            "v1",
            "CustomResourceDefinition",
        ))
        .expect("CRDs are bundled");
    let schema = "spec.versions.schema.openAPIV3Schema";
    check_paths(
        &types,
        &root,
        &[
            schema,
            &format!("{schema}.type"),
            &format!("{schema}.properties"),
            &format!("{schema}.x__dash__kubernetes__dash__int__dash__or__dash__string"),
        ],
        expect![[r#"
            spec.versions.schema.openAPIV3Schema: apiextensions.k8s.io.v1.CustomResourceDefinition.spec.versions.schema.openAPIV3Schema
            spec.versions.schema.openAPIV3Schema.type: string
            spec.versions.schema.openAPIV3Schema.properties: map(string, apiextensions.k8s.io.v1.CustomResourceDefinition.spec.versions.schema.openAPIV3Schema.properties)
            spec.versions.schema.openAPIV3Schema.x__dash__kubernetes__dash__int__dash__or__dash__string: bool
        "#]],
    );
    let cycle = format!("apiextensions.k8s.io.v1.CustomResourceDefinition.{schema}.properties");
    assert_eq!(render_fields(&types, &cycle), "");
}

#[test]
fn kinds_per_version() {
    let has = |minor: u32, group: &str, version: &str, kind: &str| {
        bundled::lookup_kind(minor, group, version, kind).is_some()
    };
    let mut out = String::new();
    for minor in bundled::versions() {
        writeln!(
            out,
            "1.{minor}: IPAddress networking/v1 {} · MutatingAdmissionPolicy v1beta1 {} · v1 {}",
            has(*minor, "networking.k8s.io", "v1", "IPAddress"),
            has(
                *minor,
                "admissionregistration.k8s.io",
                "v1beta1",
                "MutatingAdmissionPolicy"
            ),
            has(
                *minor,
                "admissionregistration.k8s.io",
                "v1",
                "MutatingAdmissionPolicy"
            ),
        )
        .unwrap();
    }
    expect![[r#"
        1.30: IPAddress networking/v1 false · MutatingAdmissionPolicy v1beta1 false · v1 false
        1.31: IPAddress networking/v1 false · MutatingAdmissionPolicy v1beta1 false · v1 false
        1.32: IPAddress networking/v1 false · MutatingAdmissionPolicy v1beta1 false · v1 false
        1.33: IPAddress networking/v1 true · MutatingAdmissionPolicy v1beta1 false · v1 false
        1.34: IPAddress networking/v1 true · MutatingAdmissionPolicy v1beta1 true · v1 false
        1.35: IPAddress networking/v1 true · MutatingAdmissionPolicy v1beta1 true · v1 false
        1.36: IPAddress networking/v1 true · MutatingAdmissionPolicy v1beta1 true · v1 true
        1.37: IPAddress networking/v1 true · MutatingAdmissionPolicy v1beta1 true · v1 true
    "#]]
    .assert_eq(&out);
    let old = SchemaTypes::new(30);
    assert_eq!(
        old.kind_type(&Gvk::new("networking.k8s.io", "v1", "IPAddress")),
        None
    );
}

fn crd(schema: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [
                {"name": "v1", "served": true, "storage": true,
                 "schema": {"openAPIV3Schema": schema}},
                {"name": "v0", "served": false, "storage": false},
            ],
        },
    })
}

#[test]
fn crd_with_extensions() {
    let schema = json!({
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "required": ["size"],
                "properties": {
                    "size": {"x-kubernetes-int-or-string": true},
                    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "template": {
                        "type": "object",
                        "x-kubernetes-embedded-resource": true,
                        "properties": {"spec": {"type": "object", "properties": {"x": {"type": "integer"}}}},
                    },
                    "timeout": {"type": "string", "format": "duration"},
                    "blob": {"type": "string", "format": "byte"},
                    "day": {"type": "string", "format": "date"},
                    "ratio": {"type": "number"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "untyped": {"description": "no type: dropped"},
                    "noItems": {"type": "array"},
                    "x-prop": {"type": "string"},
                    "if": {"type": "boolean"},
                    "a.b/c": {"type": "string"},
                    "1st": {"type": "string"},
                    "with space": {"type": "string"},
                    "redact__d": {"type": "string"},
                    "any": {"type": "object", "additionalProperties": true},
                },
            },
        },
    });
    let kinds = from_crd_json(&crd(schema)).expect("a valid CRD");
    assert_eq!(kinds.len(), 1, "only the served version");
    let types = SchemaTypes::new(bundled::newest());
    let root = types.register_crd(&kinds[0]);
    assert_eq!(root, Type::object("example.com.v1.Widget"));
    expect![[r#"
        __if__: bool
        a__dot__b__slash__c: string
        any: example.com.v1.Widget.spec.any
        blob: bytes
        day: google.protobuf.Timestamp
        free: example.com.v1.Widget.spec.free
        ratio: double
        redact__underscores__d: string
        size: dyn (required)
        tags: list(string)
        template: example.com.v1.Widget.spec.template
        timeout: google.protobuf.Duration
        x__dash__prop: string
    "#]]
    .assert_eq(&render_fields(&types, "example.com.v1.Widget.spec"));
    assert_eq!(render_fields(&types, "example.com.v1.Widget.spec.free"), "");
    assert_eq!(render_fields(&types, "example.com.v1.Widget.spec.any"), "");
    // The embedded resource gets kind, apiVersion and a metadata of name and generateName only.
    expect![[r#"
        apiVersion: string
        kind: string
        metadata: example.com.v1.Widget.spec.template.metadata
        spec: example.com.v1.Widget.spec.template.spec
    "#]]
    .assert_eq(&render_fields(
        &types,
        "example.com.v1.Widget.spec.template",
    ));
    expect![[r#"
        generateName: string
        name: string
    "#]]
    .assert_eq(&render_fields(
        &types,
        "example.com.v1.Widget.spec.template.metadata",
    ));
    // The CRD root is published with the full ObjectMeta.
    check_paths(
        &types,
        &root,
        &["metadata.labels", "metadata.namespace", "kind", "spec.if"],
        expect![[r#"
            metadata.labels: map(string, string)
            metadata.namespace: string
            kind: string
            spec.if: bool
        "#]],
    );
}

#[test]
fn crd_errors_are_values() {
    let mut bad = crd(json!({"type": "object"}));
    bad["spec"]["names"]["kind"] = json!(3);
    let error = from_crd_json(&bad).expect_err("kind is not a string");
    expect![[r#"CrdError { path: "spec.names.kind", message: "must be a non-empty string" }"#]]
        .assert_eq(&format!("{error:?}"));
    let error = from_crd_json(&json!({"kind": "ConfigMap"})).expect_err("not a CRD");
    assert_eq!(error.path, "kind");
}

#[test]
fn hostile_schemas_are_bounded() {
    // 500 levels of nested objects: conversion stops at the depth limit without overflowing.
    let mut schema = json!({"type": "string"});
    for _ in 0..500 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    // 500 levels of lists of lists, converted eagerly within one field.
    let mut lists = json!({"type": "string"});
    for _ in 0..500 {
        lists = json!({"type": "array", "items": lists});
    }
    let enum_values: Vec<Value> = (0..100_000).map(|i| json!(format!("v{i}"))).collect();
    let root = json!({"type": "object", "properties": {
        "deep": schema,
        "lists": lists,
        "huge": {"type": "string", "enum": enum_values},
        "ref": {"$ref": "#/definitions/nowhere"},
    }});
    let types = SchemaTypes::new(bundled::newest());
    let root_type = types.register_root("hostile.v1.Thing", std::sync::Arc::new(root));
    let mut name = match root_type {
        Type::Object(name) => name.to_string(),
        other => panic!("unexpected root type {other}"),
    };
    let mut depth = 0;
    while let Some(field) = types
        .field(&name, "deep")
        .or_else(|| types.field(&name, "a"))
    {
        let Type::Object(next) = field.ty else { break };
        name = next.to_string();
        depth += 1;
    }
    assert!((60..=70).contains(&depth), "stopped at depth {depth}");
    let fields = render_fields(&types, "hostile.v1.Thing");
    assert!(fields.contains("huge: string"), "{fields}");
    assert!(
        !fields.contains("ref:"),
        "an unknown $ref is dropped: {fields}"
    );
    assert!(fields.contains("lists: list(list("), "{fields}");
}

#[test]
fn bundled_types_are_found_by_name_alone() {
    // A fresh registry, asked for a nested type directly: the kind's root is registered and the
    // parents on the path converted on the way.
    let types = SchemaTypes::new(bundled::newest());
    let containers = types.field("core.v1.Pod.spec", "containers").map(|f| f.ty);
    assert_eq!(
        containers,
        Some(Type::list(Type::object("core.v1.Pod.spec.containers")))
    );
    assert_eq!(
        types.find_type("apps.v1.Deployment"),
        Some(Type::object("apps.v1.Deployment"))
    );
    assert_eq!(types.find_type("apps.v1.NoSuchKind"), None);
    assert_eq!(types.field("apps.v1.Deployment.nosuch", "x"), None);
}

#[test]
fn crd_versions_scope_and_subresources() {
    let mut value = crd(json!({"type": "object"}));
    value["spec"]["versions"][0]["subresources"] =
        json!({"status": {}, "scale": {"specReplicasPath": ".spec.replicas"}});
    let kinds = from_crd_json(&value).expect("a valid CRD");
    let rendered: Vec<String> = kinds
        .iter()
        .map(|k| {
            format!(
                "{} {} {:?} storage={} {:?} schema={}",
                k.gvk,
                k.plural,
                k.scope,
                k.storage,
                k.subresources,
                k.schema.is_some()
            )
        })
        .collect();
    expect![[r#"example.com/v1, Kind=Widget widgets Namespaced storage=true ["scale", "status"] schema=true"#]]
        .assert_eq(&rendered.join("\n"));
}

/// `may_name_type` answers `false` only for names `find_type` does not know: the checker skips
/// the lookup of a dotted identifier on it (`object.spec`), so a wrong `false` would lose a type.
#[test]
fn may_name_type_is_true_for_every_name_find_type_knows() {
    use admission_ls::cel::types::TypeProvider;
    let types = SchemaTypes::new(admission_ls::schema::bundled::newest());
    let names = [
        "apps.v1.Deployment",
        "apps.v1.Deployment.spec",
        "apps.v1.Deployment.spec.template.spec",
        "core.v1.Pod.spec",
        "batch.v1.Job",
        "object.spec",
        "object.spec.template",
        "apps.v1",
        "apps",
        "params.spec",
    ];
    let mut known = Vec::new();
    for name in names {
        let parts: Vec<&str> = name.split('.').collect();
        let found = types.find_type(name).is_some();
        if found {
            known.push(name);
            assert!(types.may_name_type(&parts), "{name}");
        }
    }
    assert!(
        known.contains(&"apps.v1.Deployment.spec.template.spec"),
        "{known:?}"
    );
    assert!(!types.may_name_type(&["object", "spec"]));
}
