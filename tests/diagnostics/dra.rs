//! DRA device selectors (`resource.k8s.io`): DeviceClass, ResourceClaim and ResourceClaimTemplate
//! selectors compiled in the environment of kubernetes
//! `staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go` (`device` typed, semver,
//! `cel.bind`, a bool result, the 10 KiB length and 1,000,000 cost limits), the selector structure
//! of `pkg/apis/resource/validation/validation.go` in its wording, and the versions each release
//! serves (`k8s.io/api` `resource/*/register.go`).

use crate::{check_diagnostics, check_diagnostics_at};
use admission_ls::ide::{DiagnosticsConfig, diagnostics_for_text};
use expect_test::expect;

/// Selectors in the style of the published examples (kubernetes-sigs/dra-example-driver demo
/// specs, NVIDIA k8s-dra-driver-gpu device classes, the Kubernetes documentation): attribute and
/// capacity lookups by domain, quantities, semver, `cel.bind`, `exactly` and `firstAvailable`.
#[test]
fn published_style_selectors_are_clean() {
    check_diagnostics(
        r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.nvidia.com
spec:
  selectors:
  - cel:
      expression: "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: single-gpu-cel
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"
          - cel:
              expression: "device.capacity['gpu.example.com'].memory.compareTo(quantity('4Gi')) >= 0"
      - name: fallback
        firstAvailable:
        - name: big
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: |-
                device.attributes["driver.example.com"].type == "gpu" &&
                device.capacity["driver.example.com"].memory == quantity("64Gi")
        - name: new-driver
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: >-
                cel.bind(gpu, device.attributes['gpu.example.com'],
                gpu.driverVersion.isGreaterThan(semver('1.2.0')) && gpu.index < 4)
                && device.allowMultipleAllocations
"#,
        expect![[r#""#]],
    );
}

/// A misspelled field of `device` is caught at its characters, with the field it probably meant.
#[test]
fn misspelled_device_field() {
    check_diagnostics(
        r#"
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata:
  name: some-gpu
spec:
  devices:
    requests:
    - name: some-gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: "device.capacty['gpu.example.com'].memory.compareTo(quantity('10Gi')) >= 0"
"#,
        expect![[r#"
            policy.yaml:13:33: error[cel-undefined-field] (refused on create): spec.devices.requests[0].exactly.selectors[0].cel.expression: compilation failed: undefined field 'capacty'; did you mean 'capacity'?
               |
            13 |             expression: "device.capacty['gpu.example.com'].memory.compareTo(quantity('10Gi')) >= 0"
               |                                 ^^^^^^^
        "#]],
    );
}

/// v1beta1 keeps the class and selectors on the request; its selectors are checked there, and
/// `device` has no variable besides it.
#[test]
fn v1beta1_flat_request_and_undeclared_variable() {
    check_diagnostics(
        r#"
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata:
  name: t
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: object.spec.driver == 'gpu.example.com'
"#,
        expect![[r#"
            policy.yaml:13:25: error[cel-undeclared] (refused on create): spec.spec.devices.requests[0].selectors[0].cel.expression: compilation failed: undeclared reference to 'object' (in container '')
               |
            13 |             expression: object.spec.driver == 'gpu.example.com'
               |                         ^^^^^^
        "#]],
    );
}

/// The result must be a bool (or the attribute value type, of unknown type until run).
#[test]
fn result_must_be_bool() {
    check_diagnostics(
        r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: c
spec:
  selectors:
  - cel:
      expression: device.capacity['gpu.example.com'].memory
  - cel:
      expression: device.attributes['gpu.example.com'].healthy
  - cel:
      expression: device.driver
"#,
        expect![[r#"
            policy.yaml:8:19: error[cel-result-type] (refused on create): spec.selectors[0].cel.expression: must evaluate to bool or the unknown type, not kubernetes.Quantity
              |
            8 |       expression: device.capacity['gpu.example.com'].memory
              |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:12:19: error[cel-result-type] (refused on create): spec.selectors[2].cel.expression: must evaluate to bool or the unknown type, not string
               |
            12 |       expression: device.driver
               |                   ^^^^^^^^^^^^^
        "#]],
    );
}

/// A syntax error is refused where it is.
#[test]
fn syntax_error() {
    check_diagnostics(
        r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: c
spec:
  selectors:
  - cel:
      expression: device.driver == 'x' &&
"#,
        expect![[r#"
            policy.yaml:8:42: error[cel-syntax] (refused on create): spec.selectors[0].cel.expression: compilation failed: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              |
            8 |       expression: device.driver == 'x' &&
              |                                          ^
        "#]],
    );
}

/// Structure as the API server validates it: a selector without `cel`, an empty expression, a
/// request with neither or both of `exactly` and `firstAvailable`, a missing class name.
#[test]
fn selector_and_request_structure() {
    check_diagnostics(
        r#"
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: c
spec:
  devices:
    requests:
    - name: none
    - name: both
      exactly:
        deviceClassName: gpu.example.com
      firstAvailable:
      - name: a
        deviceClassName: gpu.example.com
    - name: exact
      exactly:
        selectors:
        - {}
        - cel:
            expression: ""
    - name: sub
      firstAvailable:
      - name: a
        selectors:
        - cel: {}
"#,
        expect![[r#"
            policy.yaml:8:7: error[required] (refused on create): spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required
              |
            8 |     - name: none
              |       ^^^^^^^^^^
            policy.yaml:9:7: error[invalid] (refused on create): spec.devices.requests[1]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set
              |
            9 |     - name: both
              |       ^^^^^^^^^^
            policy.yaml:17:9: error[required] (refused on create): spec.devices.requests[2].exactly.deviceClassName: Required value
               |
            17 |         selectors:
               |         ^^^^^^^^^^
            policy.yaml:18:11: error[required] (refused on create): spec.devices.requests[2].exactly.selectors[0].cel: Required value
               |
            18 |         - {}
               |           ^^
            policy.yaml:20:25: error[required] (refused on create): spec.devices.requests[2].exactly.selectors[1].cel.expression: Required value
               |
            20 |             expression: ""
               |                         ^^
            policy.yaml:23:9: error[required] (refused on create): spec.devices.requests[3].firstAvailable[0].deviceClassName: Required value
               |
            23 |       - name: a
               |         ^^^^^^^
            policy.yaml:25:16: error[required] (refused on create): spec.devices.requests[3].firstAvailable[0].selectors[0].cel.expression: Required value
               |
            25 |         - cel: {}
               |                ^^
        "#]],
    );
}

/// `device.allowMultipleAllocations` is declared by the `DRAConsumableCapacity` gate, on by default
/// from 1.36 (beta): a new selector using it is refused by 1.35 and accepted by 1.36.
#[test]
fn allow_multiple_allocations_by_version() {
    let class = r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: shared
spec:
  selectors:
  - cel:
      expression: device.allowMultipleAllocations
"#;
    check_diagnostics_at(
        35,
        class,
        expect![[r#"
        policy.yaml:8:26: error[cel-undefined-field] (refused on create): spec.selectors[0].cel.expression: compilation failed: undefined field 'allowMultipleAllocations'
          |
        8 |       expression: device.allowMultipleAllocations
          |                          ^^^^^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
    check_diagnostics_at(36, class, expect![[r#""#]]);
}

/// Each version is served from its release on (v1alpha3 1.31 to 1.33, v1beta1 1.32, v1beta2 1.33,
/// v1 1.34): a version the target does not serve is refused on `apiVersion`.
#[test]
fn versions_by_release() {
    let v1 = r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: c
spec:
  selectors:
  - cel:
      expression: device.driver == 'x'
"#;
    check_diagnostics_at(
        33,
        v1,
        expect![[r#"
        policy.yaml:1:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "resource.k8s.io/v1": DeviceClass v1 is not served by Kubernetes 1.33; it is first served by 1.34 (served: resource.k8s.io/v1alpha3, resource.k8s.io/v1beta1, resource.k8s.io/v1beta2)
          |
        1 | apiVersion: resource.k8s.io/v1
          |             ^^^^^^^^^^^^^^^^^^
    "#]],
    );
    let v1alpha3 = r#"
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata:
  name: c
spec:
  selectors:
  - cel:
      expression: device.driver == 'x'
"#;
    check_diagnostics_at(31, v1alpha3, expect![[r#""#]]);
    check_diagnostics_at(
        34,
        v1alpha3,
        expect![[r#"
        policy.yaml:1:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "resource.k8s.io/v1alpha3": DeviceClass v1alpha3 is not served by Kubernetes 1.34; it was last served by 1.33 (served: resource.k8s.io/v1beta1, resource.k8s.io/v1beta2, resource.k8s.io/v1)
          |
        1 | apiVersion: resource.k8s.io/v1alpha3
          |             ^^^^^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
}

/// A selector whose worst case exceeds the selector cost limit is refused as too complex (the
/// figure is upstream's own cost test's: 85,555,551).
#[test]
fn cost_limit() {
    check_diagnostics(
        r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: c
spec:
  selectors:
  - cel:
      expression: "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))"
"#,
        expect![[r#"
            policy.yaml:8:20: error[cel-cost] (refused on create): spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit (estimated cost 85555551 > 1000000)
              |
            8 |       expression: "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))"
              |                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// An expression over 10 KiB is refused before it is compiled.
#[test]
fn expression_too_long() {
    let long = format!("device.driver == '{}'", "x".repeat(10 * 1024));
    let fixture = format!(
        "
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: c
spec:
  selectors:
  - cel:
      expression: \"{long}\"
"
    );
    let diagnostics = diagnostics_for_text(&fixture, &DiagnosticsConfig::default());
    let lines: Vec<String> = diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect();
    expect![
        "invalid: spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"
    ]
    .assert_eq(&lines.join("\n"));
}
