//! Objects inside a list document. `kubectl apply -f` takes a document with an `items` field as a
//! list (apimachinery's `unstructuredJSONScheme.decode`, `k8s.io/apimachinery/pkg/apis/meta/v1/
//! unstructured/helpers.go`) and applies each item (cli-runtime's `FlattenListVisitor`), which is
//! how `kubectl get -o yaml` writes several objects: `apiVersion: v1`, `kind: List`, `items: [...]`.
//! Here a document whose `kind` ends in `List` and whose `items` is a sequence stands for its
//! items, each checked as a document of its own.

use crate::yaml::Node;

/// How deep lists inside lists are opened (kubectl flattens nested lists; real files have one).
const MAX_NESTING: usize = 4;

/// The objects `root` stands for: its items when it is a list, else itself.
pub fn objects(root: &Node) -> Vec<&Node> {
    let mut out = Vec::new();
    flatten(root, 0, &mut out);
    out
}

fn flatten<'a>(node: &'a Node, depth: usize, out: &mut Vec<&'a Node>) {
    match items(node) {
        Some(items) if depth < MAX_NESTING => {
            for item in items {
                flatten(item, depth + 1, out);
            }
        }
        Some(_) => {}
        None => out.push(node),
    }
}

/// The items of a list document.
fn items(node: &Node) -> Option<&[Node]> {
    let kind = node.get("kind").and_then(Node::as_str)?;
    if !kind.ends_with("List") {
        return None;
    }
    node.get("items").and_then(Node::as_sequence)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<String> {
        let yaml = crate::yaml::parse(text);
        let root = yaml.documents[0].root.as_ref().expect("a root");
        let kind = |n: &&Node| {
            n.get("kind")
                .and_then(Node::as_str)
                .unwrap_or("-")
                .to_owned()
        };
        objects(root).iter().map(kind).collect()
    }

    #[test]
    fn a_list_stands_for_its_items_and_other_documents_for_themselves() {
        let list = "apiVersion: v1\nkind: List\nitems:\n- {kind: A}\n- {kind: B}\nmetadata: {resourceVersion: ''}\n";
        assert_eq!(kinds(list), ["A", "B"]);
        let typed = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyList\nitems: [{kind: C}]\n";
        assert_eq!(kinds(typed), ["C"]);
        assert_eq!(kinds("kind: Pod\nitems: [{kind: C}]\n"), ["Pod"]);
        assert_eq!(kinds("kind: List\nitems: {}\n"), ["List"]);
        let nested = format!(
            "kind: List\nitems:\n- {}",
            "{kind: List, items: [".repeat(6) + "{kind: D}" + &"]}".repeat(6)
        );
        assert!(
            kinds(&nested).is_empty(),
            "nesting beyond the limit is not opened"
        );
    }
}
