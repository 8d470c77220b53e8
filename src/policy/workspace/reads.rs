//! What one document's check asked the workspace, and what it was told: the evidence that lets
//! the diagnostics of an unchanged document be reused when another document's policy names or
//! objects change (a syntax error that hides one policy of a thousand changes the workspace, but
//! not what the 999 others read from it).
//!
//! The name-keyed lookups (policy counts, a binding's policy and paramKind, the objects a
//! `paramRef` may name, the paramKinds) are recorded while [`recording`] runs on the calling
//! thread, each with a hash of its answer. [`Reads::hold`] asks them again of another workspace.
//! What is not recorded (the CRDs and the schema types made from them, Gatekeeper's constraint
//! matches) is covered by [`Workspace::base_fingerprint`], which a cached document must match too.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use super::Workspace;
use crate::policy::PolicyKind;
use crate::schema::Gvk;

/// A lookup of the workspace by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Query {
    PolicyCount(PolicyKind, String),
    HasPolicyFor(PolicyKind, String),
    ParamKindFor(PolicyKind, String),
    ParamObjects(Gvk),
    ParamKinds,
}

/// The lookups one check made, each with the hash of its answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    reads: Vec<(Query, u64)>,
}

impl Reads {
    /// Whether `workspace` answers every recorded lookup as the recorded workspace did: then a
    /// check that made these lookups (and found the same base fingerprint) gives the same result.
    pub fn hold(&self, workspace: &Workspace) -> bool {
        self.reads
            .iter()
            .all(|(query, answer)| workspace.answer(query) == *answer)
    }
}

thread_local! {
    /// The log of the [`recording`] running on this thread, if one is.
    static LOG: RefCell<Option<Vec<(Query, u64)>>> = const { RefCell::new(None) };
}

/// Runs `check`, recording the lookups it makes of any workspace on this thread. The check must
/// not hand workspace lookups to other threads (the policy checks run on one thread each).
pub fn recording<T>(check: impl FnOnce() -> T) -> (T, Reads) {
    let outer = LOG.with(|log| log.borrow_mut().replace(Vec::new()));
    // Puts the outer log back even if `check` unwinds, so a caught panic leaves no stray log.
    struct Restore(Option<Option<Vec<(Query, u64)>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                LOG.with(|log| *log.borrow_mut() = outer);
            }
        }
    }
    let mut restore = Restore(Some(outer));
    let value = check();
    let reads = LOG.with(|log| {
        let outer = restore.0.take().unwrap_or_default();
        std::mem::replace(&mut *log.borrow_mut(), outer)
    });
    (
        value,
        Reads {
            reads: reads.unwrap_or_default(),
        },
    )
}

/// Records `query` and its answer when a [`recording`] runs on this thread.
pub(super) fn note(query: impl FnOnce() -> Query, answer: impl Hash) {
    LOG.with(|log| {
        if let Some(reads) = log.borrow_mut().as_mut() {
            reads.push((query(), hash_of(answer)));
        }
    });
}

/// The hash an answer is recorded with.
pub(super) fn hash_of(answer: impl Hash) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    answer.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::recording;
    use crate::policy::PolicyKind;
    use crate::policy::workspace::Workspace;

    fn with(names: &[&str]) -> Workspace {
        let mut workspace = Workspace::new();
        for name in names {
            workspace.add_policy(PolicyKind::ValidatingPolicy, name, None);
        }
        workspace
    }

    #[test]
    fn reads_hold_while_the_answers_they_saw_stay() {
        let before = with(&["a", "b"]);
        let ((), reads) = recording(|| {
            before.policy_count(PolicyKind::ValidatingPolicy, "a");
            before.has_policy_for(PolicyKind::ValidatingBinding, "a");
        });
        assert!(reads.hold(&with(&["a"])), "b was not read");
        assert!(!reads.hold(&with(&["b"])), "a is gone");
        assert!(!reads.hold(&with(&["a", "a"])), "a is there twice");
    }

    #[test]
    fn nothing_is_recorded_outside_a_recording() {
        let workspace = with(&["a"]);
        workspace.policy_count(PolicyKind::ValidatingPolicy, "a");
        let ((), reads) = recording(|| {
            let (found, inner) =
                recording(|| workspace.has_policy_for(PolicyKind::ValidatingBinding, "a"));
            assert!(found);
            assert!(!inner.hold(&with(&[])));
        });
        assert!(reads.hold(&with(&[])), "the inner read is the inner's own");
    }
}
