//! `admission-ls eval` of DRA device selectors against ResourceSlices, end to end: the devices a
//! DeviceClass and each request of a claim template select (the class's selectors first, as the
//! allocator runs them), the selector that excluded or failed on each other device, a slice
//! without devices reported with its position, text and JSON, and the exit statuses.

use std::process::Command;

use expect_test::{Expect, expect};

fn run(args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_admission-ls"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let out = format!("{}{}", text(&output.stdout), text(&output.stderr));
    (output.status.code().unwrap_or(-1), out)
}

fn check(args: &[&str], status: i32, expected: Expect) {
    let (code, out) = run(args);
    assert_eq!(code, status, "{out}");
    expected.assert_eq(&out);
}

const CLAIMS: &str = "tests/cli_fixtures/dra/gpu-claims.yaml";
const SLICES: &str = "tests/cli_fixtures/dra/gpu-slices.yaml";

#[test]
fn class_and_requests_against_slices() {
    check(
        &["eval", CLAIMS, "--object", SLICES],
        0,
        expect![[r#"
            error: tests/cli_fixtures/dra/gpu-slices.yaml:40:3: ResourceSlice node-2-gpu.example.com has no devices (spec.devices is empty): nothing to select from
            DeviceClass gpu.example.com: 4 of 4 devices match
              gpu-0 (slice node-1-gpu.example.com): match
              gpu-1 (slice node-1-gpu.example.com): match
              gpu-2 (slice node-1-gpu.example.com): match
              gpu-3 (slice node-1-gpu.example.com): match
            ResourceClaimTemplate big-gpu request gpu/latest (with DeviceClass gpu.example.com): 1 of 4 devices match
              gpu-0 (slice node-1-gpu.example.com): match
              gpu-1 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[0].selectors[1].cel.expression is false
              gpu-2 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression is false
              gpu-3 (slice node-1-gpu.example.com): error: spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression: no such key: model
            ResourceClaimTemplate big-gpu request gpu/any-new-driver (with DeviceClass gpu.example.com): 2 of 4 devices match
              gpu-0 (slice node-1-gpu.example.com): match
              gpu-1 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression is false
              gpu-2 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[1].selectors[1].cel.expression is false
              gpu-3 (slice node-1-gpu.example.com): match
        "#]],
    );
}

#[test]
fn one_document_as_json_with_exit_code() {
    check(
        &[
            "eval",
            CLAIMS,
            "--object",
            SLICES,
            "--policy",
            "gpu.example.com",
            "--format",
            "json",
            "--exit-code",
        ],
        1,
        expect![[r#"
            {
              "errors": [
                "tests/cli_fixtures/dra/gpu-slices.yaml:40:3: ResourceSlice node-2-gpu.example.com has no devices (spec.devices is empty): nothing to select from"
              ],
              "selectors": [
                {
                  "kind": "DeviceClass",
                  "name": "gpu.example.com",
                  "requests": [
                    {
                      "classSelectorsRun": null,
                      "deviceClassName": null,
                      "devices": [
                        {
                          "device": "gpu-0",
                          "error": null,
                          "result": "match",
                          "selector": null,
                          "slice": "node-1-gpu.example.com"
                        },
                        {
                          "device": "gpu-1",
                          "error": null,
                          "result": "match",
                          "selector": null,
                          "slice": "node-1-gpu.example.com"
                        },
                        {
                          "device": "gpu-2",
                          "error": null,
                          "result": "match",
                          "selector": null,
                          "slice": "node-1-gpu.example.com"
                        },
                        {
                          "device": "gpu-3",
                          "error": null,
                          "result": "match",
                          "selector": null,
                          "slice": "node-1-gpu.example.com"
                        }
                      ],
                      "request": null,
                      "selectors": [
                        "spec.selectors[0].cel.expression"
                      ]
                    }
                  ]
                }
              ]
            }
        "#]],
    );
}

#[test]
fn selectors_need_slices() {
    check(
        &["eval", CLAIMS],
        2,
        expect![[r#"
        admission-ls eval: error: --object: device selectors are evaluated against a file of ResourceSlices
    "#]],
    );
}

#[test]
fn unknown_document_name() {
    check(
        &["eval", CLAIMS, "--object", SLICES, "--policy", "nope"],
        2,
        expect![[r#"
            admission-ls eval: error: --policy: no DeviceClass, ResourceClaim or ResourceClaimTemplate named "nope"
        "#]],
    );
}

/// A request without selectors of its own is decided by its DeviceClass's selectors when the
/// class is in the same file; a request whose class is elsewhere has nothing to run here.
#[test]
fn request_without_selectors_runs_its_class() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/dra/class-only-request.yaml",
            "--object",
            SLICES,
            "--policy",
            "any",
        ],
        0,
        expect![[r#"
            error: tests/cli_fixtures/dra/gpu-slices.yaml:40:3: ResourceSlice node-2-gpu.example.com has no devices (spec.devices is empty): nothing to select from
            ResourceClaim any request gpu (with DeviceClass gpu.example.com): 4 of 4 devices match
              gpu-0 (slice node-1-gpu.example.com): match
              gpu-1 (slice node-1-gpu.example.com): match
              gpu-2 (slice node-1-gpu.example.com): match
              gpu-3 (slice node-1-gpu.example.com): match
        "#]],
    );
}
