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
    Config => "config", Error;
    StaticManifest => "static-manifest", Error;
}

/// What a diagnostic predicts the API server does with the document: the severity follows from it
/// (see the README's "Severity" section and `explain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prediction {
    /// The API server refuses the document on create or update (structural validation, CEL syntax,
    /// compile errors in the environment it compiles in, where `object`, `oldObject` and `params`
    /// are `dyn`): an error.
    Refused,
    /// The API server accepts the document, but the expression raises an error whenever it is
    /// evaluated on a request it matches (a field none of the matched kinds can have is `no such
    /// key`): an error.
    FailsAtAdmission,
    /// Only the typed checker disagrees: evaluation on the JSON-shaped objects may succeed (the
    /// API server at most writes a warning to the policy's `status.typeChecking`): a warning, an
    /// error under `--strict`.
    TypedCheck,
    /// Accepted and evaluated as written, but probably not what was meant: a warning.
    Advice,
    /// Not a prediction: a test case of a suite did not get the outcome it expects.
    TestCase,
    /// Not a prediction: the project configuration file (`.admission-ls.yaml`) has a key or value
    /// the tool cannot apply.
    Configuration,
}

impl Prediction {
    /// The stable name, in JSON output and the LSP diagnostic's `data`.
    pub fn as_str(self) -> &'static str {
        match self {
            Prediction::Refused => "refused-on-create",
            Prediction::FailsAtAdmission => "fails-at-admission",
            Prediction::TypedCheck => "typed-check",
            Prediction::Advice => "advice",
            Prediction::TestCase => "test-case",
            Prediction::Configuration => "configuration",
        }
    }

    /// The short tag of the text output.
    pub fn tag(self) -> &'static str {
        match self {
            Prediction::Refused => "refused on create",
            Prediction::FailsAtAdmission => "fails at admission",
            Prediction::TypedCheck => "typed check only",
            Prediction::Advice => "accepted",
            Prediction::TestCase => "test case",
            Prediction::Configuration => "configuration",
        }
    }

    /// The prediction of a code's diagnostics unless the producer says otherwise: errors are
    /// refusals, warnings advice, test failures test cases.
    fn of_code(code: Code) -> Prediction {
        match code.default_severity() {
            _ if code == Code::TestFailed => Prediction::TestCase,
            _ if code == Code::Config => Prediction::Configuration,
            Severity::Error => Prediction::Refused,
            _ => Prediction::Advice,
        }
    }
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
    /// What the API server does with the document, by this finding.
    pub prediction: Prediction,
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
            prediction: Prediction::of_code(code),
        }
    }

    /// Marks a finding the API server accepts on create but that fails every evaluation that
    /// reaches it (see [`Diagnostic::runtime_only`]): an error.
    pub fn at_runtime(mut self) -> Diagnostic {
        self.runtime_only = true;
        self.severity = Severity::Error;
        self.prediction = Prediction::FailsAtAdmission;
        self
    }

    /// Marks a finding of the typed check that evaluation may not meet: a warning (an error
    /// under `--strict`, see [`Diagnostic::strict`]).
    pub fn typed_only(mut self) -> Diagnostic {
        self.runtime_only = true;
        self.severity = Severity::Warning;
        self.prediction = Prediction::TypedCheck;
        self
    }

    /// A warning of something the API server accepts and runs as written.
    pub fn advice(mut self) -> Diagnostic {
        self.severity = Severity::Warning;
        self.prediction = Prediction::Advice;
        self
    }

    /// Under `--strict`, a typed-check warning counts as an error.
    pub fn strict(mut self) -> Diagnostic {
        if self.prediction == Prediction::TypedCheck {
            self.severity = Severity::Error;
        }
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

    /// What diagnostics of this code can predict (see [`Prediction`]), for `explain`.
    pub fn predictions(self) -> &'static [Prediction] {
        super::code_docs::predictions(self)
    }
}

impl Prediction {
    /// The severity model, as `admission-ls explain severity` prints it.
    pub fn model() -> &'static str {
        super::code_docs::SEVERITY_MODEL
    }
}
