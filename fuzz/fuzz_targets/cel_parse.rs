//! The CEL parser on arbitrary text; for a clean parse, printing and re-parsing must also be
//! clean and print the same (the printer's documented contract).
#![no_main]

use admission_ls::cel;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = cel::parse(src);
    if !parsed.is_ok() {
        return;
    }
    let printed = parsed.ast.to_cel_string();
    let again = cel::parse(&printed);
    // A printed tree may be deeper than the source allowed (e.g. added parentheses) and so hit the
    // depth limit; only a clean re-parse has to agree.
    if again.is_ok() {
        assert_eq!(
            printed,
            again.ast.to_cel_string(),
            "print is not a fixed point for {src:?}"
        );
    }
});
