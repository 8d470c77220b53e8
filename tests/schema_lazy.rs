//! The bundled schemas load lazily: the version list inflates nothing, looking up one kind decodes
//! one definition (inflating its block and the version's index), and converting a kind's root
//! converts only that object type. One test in its own binary, so that no other test
//! decodes definitions concurrently and the counts are exact.

use admission_ls::cel::types::TypeProvider;
use admission_ls::schema::{Gvk, SchemaTypes, bundled};

#[test]
fn one_kind_decodes_only_what_it_uses() {
    assert_eq!(bundled::decoded_definitions(), 0);
    let minor = bundled::newest();
    assert_eq!(bundled::versions().len(), 8);
    assert_eq!(
        bundled::inflated_blocks(),
        0,
        "the version list is read alone"
    );
    let kind = bundled::lookup_kind(minor, "apps", "v1", "Deployment");
    assert!(kind.is_some());
    assert_eq!(bundled::decoded_definitions(), 1, "only Deployment itself");
    assert_eq!(
        bundled::inflated_blocks(),
        2,
        "the version's index and the definition's block"
    );

    let types = SchemaTypes::new(minor);
    let root = types.kind_type(&Gvk::new("apps", "v1", "Deployment"));
    assert!(root.is_some());
    assert_eq!(
        types.converted_types(),
        0,
        "registering a root converts no fields"
    );
    // The root's fields refer to ObjectMeta, DeploymentSpec and DeploymentStatus: one level more.
    let _ = types.field("apps.v1.Deployment", "spec");
    assert_eq!(types.converted_types(), 1);
    assert_eq!(bundled::decoded_definitions(), 4);
    // Nothing of the pod template is decoded until the checker goes there.
    let _ = types.field("apps.v1.Deployment.spec", "replicas");
    assert_eq!(types.converted_types(), 2);
    let decoded = bundled::decoded_definitions();
    assert!(
        decoded < 15,
        "{decoded} definitions decoded for Deployment.spec"
    );
    assert_eq!(
        bundled::inflated_blocks(),
        decoded + 1,
        "one block per definition decoded, none kept"
    );
}
