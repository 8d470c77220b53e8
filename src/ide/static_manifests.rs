//! Static admission manifests across the files of a folder the project marks for the API server's
//! `staticManifestsDir` (`staticManifests` in `.admission-ls.yaml`): each document checked by the
//! loader's rules (`policy::static_manifest`), and the rules across the folder's files (unique
//! names per kind, bindings naming a policy of the folder). The front end says which files are in
//! the folder (directly: the loader does not read subfolders) in the loader's order.

use super::{Analysis, DiagnosticsConfig, FileId};
use crate::policy::static_manifest::{self, StaticSet};
use crate::policy::{Diagnostic, checked_root};

impl Analysis {
    /// The static-manifest findings of the files of one marked folder, `(file, path as printed)`
    /// in the order the API server reads them (sorted by file name); one list per file, sorted.
    pub fn static_manifest_diagnostics(
        &self,
        files: &[(FileId, String)],
        config: &DiagnosticsConfig,
    ) -> Vec<Vec<Diagnostic>> {
        let mut set = StaticSet::default();
        let mut found: Vec<Vec<Diagnostic>> = vec![Vec::new(); files.len()];
        for (index, (file, path)) in files.iter().enumerate() {
            let Some(parsed) = self.parsed(*file) else {
                continue;
            };
            let Some(slot) = found.get_mut(index) else {
                continue;
            };
            for root in parsed.yaml.documents.iter().filter_map(checked_root) {
                slot.extend(static_manifest::check_marked(root, config.minor()));
                slot.extend(set.add(index, path, root));
            }
        }
        for (index, finding) in set.missing_policies() {
            if let Some(slot) = found.get_mut(index) {
                slot.push(finding);
            }
        }
        for list in &mut found {
            list.retain(|d| !config.disabled.contains(&d.code));
            crate::policy::diagnostic::sort(list);
        }
        found
    }
}
