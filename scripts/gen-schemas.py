#!/usr/bin/env python3
"""Generate the bundled Kubernetes schemas of admission-ls (schemas/kubernetes/).

Source: the PyPI package kubernetes-validate 1.37.0 (Apache-2.0), which ships the OpenAPI
definitions of every Kubernetes minor as JSON Schema (`v1.NN.0-local/_definitions.json`).

Usage:
    python3 scripts/gen-schemas.py                 # pip-downloads the wheel into a temp dir
    python3 scripts/gen-schemas.py path/to/wheel   # uses an already downloaded wheel

Output: schemas/kubernetes/kubernetes.jsonl.zz, zlib-compressed UTF-8 text.
  line 0:  header, {"format": 1, "source": ..., "versions": {"30": line, ...}}
  line V:  the index of one version, {"defs": {name: line}, "kinds": [[group, version, kind,
           name, is_resource], ...]} (is_resource: the kind has ObjectMeta metadata, so it is
           stored as a resource rather than a list, option or event type)
  line N:  one reduced definition (compact JSON, sorted keys); identical definitions of several
           versions share one line, which keeps the bundle small.
The output is deterministic: same wheel, same bytes.
"""

import json
import os
import subprocess
import sys
import tempfile
import zipfile
import zlib

PACKAGE = "kubernetes-validate"
PACKAGE_VERSION = "1.37.0"
MINORS = range(30, 38)
REF_PREFIX = "#/$defs/"
INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas", "kubernetes")
OUT_FILE = "kubernetes.jsonl.zz"

# Keys copied as they are when present.
COPIED = (
    "description",
    "enum",
    "format",
    "maxItems",
    "maxLength",
    "maxProperties",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-patch-merge-key",
    "x-kubernetes-patch-strategy",
    "x-kubernetes-preserve-unknown-fields",
)


def fetch_wheel(tmp):
    """Download the wheel with pip (no dependencies) and return its path."""
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest", tmp,
         f"{PACKAGE}=={PACKAGE_VERSION}"],
        check=True,
    )
    for name in sorted(os.listdir(tmp)):
        if name.endswith(".whl"):
            return os.path.join(tmp, name)
    raise SystemExit("pip download produced no wheel")


def one_of_marker(variants):
    """The package writes IntOrString and Quantity as oneOf shapes; turn them into markers."""
    types = set()
    for variant in variants:
        types.update(t for t in as_list(variant.get("type")) if t != "null")
    if types == {"string", "integer"}:
        return {"x-kubernetes-int-or-string": True}
    if types == {"string", "number"}:
        # Quantity. Its v2 definition is `type: string`; its v3 definition (`oneOf: [string,
        # number]`, no type) is what the API server's static type checker resolves, and
        # SchemaDeclType drops a schema without a type, so upstream's status checker cannot see
        # `resources.limits` at all. At admission time a built-in Quantity is always a string
        # (Quantity.ToUnstructured renders it with String()), so `string` is what the runtime
        # sees and what `quantity(...)` takes; typing it so avoids a false "undefined field".
        return {"format": "quantity", "type": "string"}
    return {}


def as_list(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def reduce(schema):
    """Keep only what admission-ls uses; nullable type arrays become `type` + `nullable`."""
    if not isinstance(schema, dict):
        return {}
    out = {}
    if "oneOf" in schema:
        out.update(one_of_marker(schema["oneOf"]))
    if "$ref" in schema:
        out["$ref"] = schema["$ref"][len(REF_PREFIX):] if schema["$ref"].startswith(REF_PREFIX) \
            else schema["$ref"]
    types = as_list(schema.get("type"))
    real = [t for t in types if t != "null"]
    if real:
        out["type"] = real[0]
    if "null" in types:
        out["nullable"] = True
    for key in COPIED:
        if key in schema:
            out[key] = schema[key]
    if "required" in schema:
        out["required"] = sorted(schema["required"])
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: reduce(v) for k, v in schema["properties"].items()}
    if isinstance(schema.get("items"), dict):
        out["items"] = reduce(schema["items"])
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        out["additionalProperties"] = reduce(extra)
    elif isinstance(extra, bool) and extra:
        out["additionalProperties"] = True
    gvks = schema.get("x-kubernetes-group-version-kind")
    if gvks:
        out["x-kubernetes-group-version-kind"] = sorted(
            ({"group": g["group"], "kind": g["kind"], "version": g["version"]} for g in gvks),
            key=lambda g: (g["group"], g["version"], g["kind"]),
        )
    return out


def reduce_definition(name, schema):
    if name == INT_OR_STRING:
        reduced = {"x-kubernetes-int-or-string": True}
        if "description" in schema:
            reduced["description"] = schema["description"]
        return reduced
    if name == QUANTITY and "oneOf" in schema:
        reduced = reduce(schema)
        reduced.pop("nullable", None)
        return reduced
    return reduce(schema)


def dump(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def build(wheel):
    per_version = {}
    pool = set()
    with zipfile.ZipFile(wheel) as archive:
        for minor in MINORS:
            path = f"kubernetes_validate/kubernetes-json-schema/v1.{minor}.0-local/_definitions.json"
            defs = json.loads(archive.read(path))["$defs"]
            reduced = {name: dump(reduce_definition(name, body)) for name, body in defs.items()}
            per_version[minor] = reduced
            pool.update(reduced.values())
    pool_lines = sorted(pool)
    minors = sorted(per_version)
    # Lines: 0 header, 1..=len(minors) one index per version, then the definition pool.
    first_def = 1 + len(minors)
    line_of = {text: first_def + index for index, text in enumerate(pool_lines)}
    index_lines = []
    for minor in minors:
        reduced = per_version[minor]
        kinds = []
        for name, text in reduced.items():
            body = json.loads(text)
            is_resource = body.get("properties", {}).get("metadata", {}).get("$ref") == OBJECT_META
            for gvk in body.get("x-kubernetes-group-version-kind", []):
                kinds.append([gvk["group"], gvk["version"], gvk["kind"], name, is_resource])
        index_lines.append(dump({
            "defs": {name: line_of[text] for name, text in reduced.items()},
            "kinds": sorted(kinds),
        }))
    header = {
        "format": 1,
        "source": f"PyPI {PACKAGE} {PACKAGE_VERSION} (Apache-2.0), Kubernetes OpenAPI definitions",
        "versions": {str(minor): 1 + i for i, minor in enumerate(minors)},
    }
    lines = index_lines + pool_lines
    return "\n".join([dump(header)] + lines) + "\n"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        wheel = sys.argv[1] if len(sys.argv) > 1 else fetch_wheel(tmp)
        text = build(wheel)
    data = zlib.compress(text.encode("utf-8"), 9)
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, OUT_FILE), "wb") as out:
        out.write(data)
    print(f"{OUT_FILE}: {len(text.encode('utf-8'))} bytes decoded, {len(data)} bytes compressed")


if __name__ == "__main__":
    main()
