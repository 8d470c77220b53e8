//! Diagnostics: the stable codes (documented by `explain` and the README), severities, and the diagnostic value every check
//! produces. Ranges are byte ranges of the file.

use crate::text::TextRange;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The API server would reject the object, or evaluation would fail.
    Error,
    /// Probably a mistake, but the API server accepts it.
    Warning,
    /// A note.
    Information,
    /// A hint.
    Hint,
}

impl Severity {
    /// The lower-case name used in JSON output and in the text renderer.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "information",
            Severity::Hint => "hint",
        }
    }
}

macro_rules! codes {
    ($($variant:ident => $name:literal, $severity:ident;)*) => {
        /// A stable diagnostic code; the text form never changes meaning.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The kebab-case name, as shown to users.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The severity a diagnostic of this code has unless its producer says otherwise.
            pub fn default_severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// Looks a code up by its kebab-case name.
            pub fn from_name(name: &str) -> Option<Code> {
                match name { $($name => Some(Code::$variant),)* _ => None }
            }
        }
    };
}

codes! {
    YamlSyntax => "yaml-syntax", Error;
    UnknownField => "unknown-field", Warning;
    Required => "required", Error;
    NotSupported => "not-supported", Error;
    Invalid => "invalid", Error;
    Duplicate => "duplicate", Error;
    TooMany => "too-many", Error;
    Forbidden => "forbidden", Error;
    CelSyntax => "cel-syntax", Error;
    CelUndeclared => "cel-undeclared", Error;
    CelUndefinedField => "cel-undefined-field", Error;
    CelNoOverload => "cel-no-overload", Error;
    CelResultType => "cel-result-type", Error;
    CelType => "cel-type", Error;
    CelVersion => "cel-version", Error;
    CelCost => "cel-cost", Error;
    UnresolvedReference => "unresolved-reference", Warning;
    TestFailed => "test-failed", Error;
}

/// One finding, at a byte range of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where: the offending key, value or characters of CEL.
    pub range: TextRange,
    /// The stable code.
    pub code: Code,
    /// How serious.
    pub severity: Severity,
    /// What is wrong, in the API server's wording where it has one; no trailing full stop.
    pub message: String,
    /// A finding of the typed check: the API server accepts the policy, but the
    /// expression would fail or misbehave at admission time. Test runs still evaluate such a policy,
    /// since the failure is what a test may want to see.
    pub runtime_only: bool,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            range,
            code,
            severity: code.default_severity(),
            message: message.into(),
            runtime_only: false,
        }
    }

    /// Marks a finding of the typed check (see [`Diagnostic::runtime_only`]).
    pub fn at_runtime(mut self) -> Diagnostic {
        self.runtime_only = true;
        self
    }
}

/// Sorts diagnostics by position, then code, then message, so that output is deterministic.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.range.start(), a.range.end(), a.code, &a.message).cmp(&(
            b.range.start(),
            b.range.end(),
            b.code,
            &b.message,
        ))
    });
}

impl Code {
    /// The documentation `explain` prints: what the code means, an example, and how to fix it.
    pub fn doc(self) -> &'static str {
        super::code_docs::doc(self)
    }
}
