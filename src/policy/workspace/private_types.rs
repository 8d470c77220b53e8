//! Schema registries private to one thread of a check that runs on several. A workspace shares
//! one registry per Kubernetes version, so that a kind's types are converted once however many
//! policies use them; but every field selection the checker types asks that registry for a type
//! under its lock and clones reference-counted names and types out of it, and two threads doing so
//! at once keep taking the same cache lines from each other. Measured on a 2-core machine, the
//! check of 8,000 policies took a quarter more CPU time on two threads than on one, most of it in
//! the registry. A thread of such a check therefore converts the types it needs into registries of
//! its own, which it alone touches: a few dozen types converted again per thread, against a
//! contended lock and contended counts on every field of every expression.
//!
//! The thread that starts the check holds an [`OnThisThread`] guard for its duration; each thread
//! that takes part calls [`for_this_thread`] (a helper thread keeps its registries until it ends).
//! Elsewhere, [`lookup`] answers `None` and the shared registry is used.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::schema::SchemaTypes;

/// A workspace's identity among registries: unique per instance, never reused (an address would
/// be: a workspace made for one Gatekeeper template lives where the previous one did).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Instance(u64);

impl Default for Instance {
    fn default() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Instance(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// This thread's registries, by workspace and minor version; `None` outside a parallel check.
type Registries = Option<Vec<(Instance, u32, Arc<SchemaTypes>)>>;

thread_local! {
    static PRIVATE: RefCell<Registries> = const { RefCell::new(None) };
}

/// This thread's registry of `instance` for `minor`, made by `make` the first time; `None` when
/// this thread is not in a parallel check.
pub(super) fn lookup(
    instance: Instance,
    minor: u32,
    make: impl FnOnce() -> SchemaTypes,
) -> Option<Arc<SchemaTypes>> {
    let found = PRIVATE.with_borrow(|registries| {
        let registries = registries.as_ref()?;
        let found = registries
            .iter()
            .find(|(i, m, _)| *i == instance && *m == minor)
            .map(|(_, _, types)| types.clone());
        Some(found)
    })?;
    if let Some(types) = found {
        return Some(types);
    }
    // Made outside the borrow: registering a workspace's CRDs may take a while.
    let types = Arc::new(make());
    PRIVATE.with_borrow_mut(|registries| {
        if let Some(registries) = registries {
            registries.push((instance, minor, types.clone()));
        }
    });
    Some(types)
}

/// Gives this thread private registries, if it has none, until it ends.
pub fn for_this_thread() {
    PRIVATE.with_borrow_mut(|registries| {
        registries.get_or_insert_with(Vec::new);
    });
}

/// Private registries for this thread while the guard lives (unless it had them already).
pub struct OnThisThread {
    had_them: bool,
}

/// Gives this thread private registries until the returned guard drops.
pub fn on_this_thread() -> OnThisThread {
    let had_them = PRIVATE.with_borrow(Option::is_some);
    for_this_thread();
    OnThisThread { had_them }
}

impl Drop for OnThisThread {
    fn drop(&mut self) {
        if !self.had_them {
            PRIVATE.with_borrow_mut(|registries| *registries = None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Workspace;
    use super::*;

    #[test]
    fn private_registries_live_on_their_thread_only_while_asked_for() {
        let workspace = Workspace::new();
        let shared = workspace.types(31);
        assert!(Arc::ptr_eq(&shared, &workspace.types(31)), "shared");
        {
            let _private = on_this_thread();
            let private = workspace.types(31);
            assert!(!Arc::ptr_eq(&shared, &private), "private inside the guard");
            assert!(Arc::ptr_eq(&private, &workspace.types(31)), "made once");
            let other = Workspace::new();
            assert!(
                !Arc::ptr_eq(&private, &other.types(31)),
                "one per workspace"
            );
            let elsewhere = std::thread::scope(|s| s.spawn(|| workspace.types(31)).join());
            let elsewhere = elsewhere.expect("the other thread");
            assert!(Arc::ptr_eq(&shared, &elsewhere), "other threads share");
        }
        assert!(
            Arc::ptr_eq(&shared, &workspace.types(31)),
            "shared again after"
        );
    }
}
