#!/usr/bin/env python3
"""Generate the bundled Kubernetes schemas of admission-ls (schemas/kubernetes/).

Source: the PyPI package kubernetes-validate 1.37.0 (Apache-2.0), which ships the OpenAPI
definitions of every Kubernetes minor as JSON Schema (`v1.NN.0-local/_definitions.json`).

Usage:
    python3 scripts/gen-schemas.py                 # pip-downloads the wheel into a temp dir
    python3 scripts/gen-schemas.py path/to/wheel   # uses an already downloaded wheel

    python3 scripts/gen-schemas.py --compare OLD WHEEL  # also checks every line against OLD

Output: schemas/kubernetes/kubernetes.jsonl.blocks, UTF-8 JSON lines:
  line 0:  header, {"blocks": [[first_line, [offset, size, length]], ...],
           "dictionary": [offset, size, length], "format": 2, "source": ...,
           "versions": {"30": line, ...}}
  line V:  the index of one version, {"defs": {name: line}, "kinds": [[group, version, kind,
           name, is_resource], ...]} (is_resource: the kind has ObjectMeta metadata, so it is
           stored as a resource rather than a list, option or event type)
  line N:  one reduced definition (compact JSON, sorted keys); identical definitions of several
           versions share one line, which keeps the bundle small.
The header is stored as plain text ending in a newline, so the version list is readable without
inflating anything. Lines 1 and up follow as independently compressed blocks of whole lines (each
block's text ends with a newline): one block per version index, and the definitions in blocks of
about BLOCK_TARGET bytes of text, so that reading one line inflates only its block. Each block is
a raw deflate stream compressed against a preset dictionary (lines sampled from the whole pool,
stored first as a raw deflate stream of its own), which wins back most of what compressing the
blocks apart loses. In the header, `dictionary` is [offset, size, length] and `blocks` is one
[first_line, [offset, size, length]] per block: offset and size of the stored bytes, counted
from the byte after the header's newline, and length of the inflated text.
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
OUT_FILE = "kubernetes.jsonl.blocks"
# Inflated text per definition block: big enough that zlib finds its repeats, small enough that
# reading one definition inflates little (sizes tried are in schemas/README.md).
BLOCK_TARGET = 16 * 1024
# The preset dictionary: at most a deflate window, sampled from about DICTIONARY_SAMPLES lines.
DICTIONARY_SIZE = 32 * 1024
DICTIONARY_SAMPLES = 200

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
        "format": 2,
        "source": f"PyPI {PACKAGE} {PACKAGE_VERSION} (Apache-2.0), Kubernetes OpenAPI definitions",
        "versions": {str(minor): 1 + i for i, minor in enumerate(minors)},
    }
    groups = [[line] for line in index_lines] + pack(pool_lines, BLOCK_TARGET)
    return header, groups, dictionary(pool_lines)


def dictionary(lines):
    """Lines sampled evenly from the pool, up to DICTIONARY_SIZE bytes: the key names, types and
    description phrases that most blocks repeat."""
    step = max(1, len(lines) // DICTIONARY_SAMPLES)
    out = b""
    for line in lines[::step]:
        data = line.encode("utf-8") + b"\n"
        if len(out) + len(data) <= DICTIONARY_SIZE:
            out += data
    return out


def deflate(data, zdict=None):
    """A raw deflate stream (no zlib header) of `data`, compressed against `zdict` if given."""
    args = (9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY)
    packer = zlib.compressobj(*args, zdict=zdict) if zdict else zlib.compressobj(*args)
    return packer.compress(data) + packer.flush()


def inflate(data, zdict=None):
    unpacker = zlib.decompressobj(-15, zdict=zdict) if zdict else zlib.decompressobj(-15)
    return unpacker.decompress(data) + unpacker.flush()


def pack(lines, target):
    """Consecutive lines in groups of about `target` bytes of text (a longer line alone)."""
    groups, current, size = [], [], 0
    for line in lines:
        if current and size + len(line.encode("utf-8")) + 1 > target:
            groups.append(current)
            current, size = [], 0
        current.append(line)
        size += len(line.encode("utf-8")) + 1
    if current:
        groups.append(current)
    return groups


def encode(header, groups, zdict):
    """The header line, the dictionary, then each group of lines as its own deflate stream."""
    stored = [deflate(zdict)]
    table, offset, first = [], len(stored[0]), 1
    for group in groups:
        text = "".join(line + "\n" for line in group).encode("utf-8")
        data = deflate(text, zdict)
        table.append([first, [offset, len(data), len(text)]])
        stored.append(data)
        offset += len(data)
        first += len(group)
    header = dict(header, blocks=table, dictionary=[0, len(stored[0]), len(zdict)])
    return (dump(header) + "\n").encode("utf-8") + b"".join(stored)


def decode(data):
    """Every line of a bundle in this layout, header first (for --compare)."""
    end = data.index(b"\n")
    header = json.loads(data[:end])
    base = end + 1
    lines = [data[:end].decode("utf-8")]
    start, size, length = header["dictionary"]
    zdict = inflate(data[base + start:base + start + size])
    assert len(zdict) == length, "dictionary length"
    for first, (start, size, length) in header["blocks"]:
        text = inflate(data[base + start:base + start + size], zdict)
        assert len(text) == length and first == len(lines), "block table"
        lines.extend(text.decode("utf-8").split("\n")[:-1])
    return lines


def compare(old_path, data):
    """Every line of `data` equals the same line of the old single-stream bundle at `old_path`,
    the header but for its block table and format number."""
    with open(old_path, "rb") as old_file:
        old = zlib.decompress(old_file.read()).decode("utf-8").split("\n")[:-1]
    new = decode(data)
    if len(old) != len(new):
        raise SystemExit(f"--compare: {len(new)} lines, the old bundle has {len(old)}")
    header = json.loads(new[0])
    del header["blocks"]
    del header["dictionary"]
    header["format"] = 1
    if dump(header) != old[0]:
        raise SystemExit("--compare: the header differs beyond its block table")
    for number, (was, now) in enumerate(zip(old[1:], new[1:]), start=1):
        if was != now:
            raise SystemExit(f"--compare: line {number} differs")
    print(f"--compare: all {len(new)} lines equal those of {old_path}")


def main():
    args = sys.argv[1:]
    old = None
    if args[:1] == ["--compare"] and len(args) >= 2:
        old, args = args[1], args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args[0] if args else fetch_wheel(tmp)
        header, groups, zdict = build(wheel)
    data = encode(header, groups, zdict)
    if old is not None:
        compare(old, data)
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, OUT_FILE), "wb") as out:
        out.write(data)
    text = sum(len(line.encode("utf-8")) + 1 for group in groups for line in group)
    print(f"{OUT_FILE}: {len(groups)} blocks of {text} bytes of lines after the header, "
          f"a {len(zdict)}-byte dictionary, {len(data)} bytes in all")


if __name__ == "__main__":
    main()
