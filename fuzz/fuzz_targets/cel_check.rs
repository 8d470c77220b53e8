//! Parse + type check in the Kubernetes admission environment (`object`, `oldObject`, `request`,
//! `params` declared as `dyn`), the way a validation expression is checked.
#![no_main]

use admission_ls::cel::types::Type;
use admission_ls::cel::{self, check};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn env() -> &'static check::Env {
    static ENV: OnceLock<check::Env> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = check::Env::kubernetes(31, false);
        for name in [
            "object",
            "oldObject",
            "request",
            "params",
            "namespaceObject",
        ] {
            env.declare(name, Type::Dyn, None);
        }
        env
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cel::parse(src);
    let _ = check::check(&parsed.ast, env());
});
