//! Running one policy's CEL: expressions parsed once, the variables every expression sees
//! (`object`, `request`, `params`, …), `variables.*` evaluated lazily and at most once per
//! evaluation (their cost charged to the first expression that forces them), and the API server's
//! error texts for compile errors, runtime errors and exhausted budgets.

use std::cell::OnceCell;
use std::rc::Rc;

use crate::cel::eval::{self, Activation, Computed, ErrorKind, EvalError, EvalOptions, Value};
use crate::cel::{self, Ast};

/// The budget of one policy evaluation (validations together; each mutation alone).
pub const POLICY_BUDGET: u64 = 10_000_000;
/// The budget of a policy's matchConditions together.
pub const MATCH_BUDGET: u64 = 2_500_000;
/// The text when the policy's budget runs out.
pub const BUDGET_MESSAGE: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// An expression parsed once.
#[derive(Debug)]
pub struct Compiled {
    /// The source text.
    pub text: String,
    ast: Result<Ast, String>,
}

impl Compiled {
    /// Parses `text`; a syntax error is kept and reported when the expression runs.
    pub fn new(text: &str) -> Compiled {
        let parsed = cel::parse(text);
        let ast = match parsed.errors.first() {
            None => Ok(parsed.ast),
            Some(e) => {
                let (line, col) = line_col(text, usize::from(e.span.start()));
                Err(format!(
                    "compilation failed: ERROR: <input>:{line}:{col}: {}",
                    e.message
                ))
            }
        };
        Compiled {
            text: text.to_string(),
            ast,
        }
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Evaluates `ast`, traced when a [`super::explain::capture`] runs.
fn evaluate(
    variable: Option<String>,
    compiled: &Compiled,
    ast: &Ast,
    activation: &Activation<'_>,
    options: &EvalOptions,
) -> eval::Evaluation {
    if !super::explain::enabled() {
        return eval::evaluate(ast, activation, options);
    }
    let (run, trace) = eval::evaluate_traced(ast, activation, options);
    super::explain::keep(variable, &compiled.text, ast, &trace);
    run
}

/// Why an expression did not produce a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// A compile or runtime error, already worded as the API server words it.
    Error(String),
    /// The policy's budget ran out.
    Budget,
}

impl Failure {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            Failure::Error(m) => m.clone(),
            Failure::Budget => BUDGET_MESSAGE.to_string(),
        }
    }
}

/// The values shared by every expression of one evaluation.
struct Data {
    base: Vec<(&'static str, Value)>,
    variables: Vec<(String, Compiled)>,
    cache: Vec<OnceCell<Computed>>,
    /// Kyverno's `orValue` (`Activation::with_or_value_compat`).
    or_value_compat: bool,
    /// An engine's own library (`Activation::with_functions`).
    functions: Option<std::sync::Arc<dyn crate::cel::eval::ExternalFunctions>>,
}

/// The variables of one evaluation (one policy, binding and param).
#[derive(Clone)]
pub struct Scope {
    data: Rc<Data>,
}

impl Scope {
    /// A scope with the plain variables `base` and the policy's `variables` (name, expression).
    pub fn new(base: Vec<(&'static str, Value)>, variables: &[(String, String)]) -> Scope {
        let variables: Vec<_> = variables
            .iter()
            .map(|(n, e)| (n.clone(), Compiled::new(e)))
            .collect();
        let cache = variables.iter().map(|_| OnceCell::new()).collect();
        Scope {
            data: Rc::new(Data {
                base,
                variables,
                cache,
                or_value_compat: false,
                functions: None,
            }),
        }
    }

    /// [`Scope::new`] for Kyverno's engines, which run `x.orValue(y)` their own way and do not
    /// make a presence test on a scalar an error.
    /// `functions` is Kyverno's library.
    pub fn kyverno(
        base: Vec<(&'static str, Value)>,
        variables: &[(String, String)],
        functions: std::sync::Arc<dyn crate::cel::eval::ExternalFunctions>,
    ) -> Scope {
        let mut scope = Scope::new(base, variables);
        if let Some(data) = Rc::get_mut(&mut scope.data) {
            data.or_value_compat = true;
            data.functions = Some(functions);
        }
        scope
    }

    /// The activation for an expression that may use the first `upto` variables.
    fn activation(&self, upto: usize) -> Activation<'static> {
        let mut activation = Activation::new();
        if self.data.or_value_compat {
            // Kyverno's environment: its orValue.
            activation.with_or_value_compat();
        }
        if let Some(functions) = &self.data.functions {
            activation.with_functions(functions.clone());
        }
        for (name, value) in &self.data.base {
            activation.bind(name, value.clone());
        }
        for index in 0..upto.min(self.data.variables.len()) {
            let scope = self.clone();
            let name = format!("variables.{}", self.data.variables[index].0);
            activation.bind_lazy(&name, Box::new(move |budget| scope.variable(index, budget)));
        }
        activation
    }

    /// Variable `index`, computed on first use anywhere in this scope and free afterwards.
    fn variable(&self, index: usize, budget: Option<u64>) -> Computed {
        let cell = &self.data.cache[index];
        if let Some(done) = cell.get() {
            return Computed {
                result: done.result.clone(),
                cost: 0,
            };
        }
        let (name, compiled) = &self.data.variables[index];
        let computed = match &compiled.ast {
            Err(e) => Computed {
                result: Err(EvalError::new(
                    ErrorKind::InvalidArgument,
                    format!("composited variable \"{name}\" fails to compile: {e}"),
                )),
                cost: 0,
            },
            Ok(ast) => {
                let options = EvalOptions {
                    cost_limit: budget,
                    ..EvalOptions::default()
                };
                let label = Some(format!("variables.{name}"));
                let run = evaluate(label, compiled, ast, &self.activation(index), &options);
                let result = run.result.map_err(|e| match e.kind {
                    ErrorKind::CostLimit => e,
                    _ => EvalError::new(
                        e.kind,
                        format!("composited variable \"{name}\" fails to evaluate: {e}"),
                    ),
                });
                Computed {
                    result,
                    cost: run.cost,
                }
            }
        };
        let _ = cell.set(computed.clone());
        computed
    }

    /// Runs `compiled` against `budget` (decremented by the cost), with every variable in view.
    pub fn run(&self, compiled: &Compiled, budget: &mut u64) -> Result<Value, Failure> {
        let ast = compiled
            .ast
            .as_ref()
            .map_err(|e| Failure::Error(format!("compilation error: {e}")))?;
        let limit = (*budget).min(eval::DEFAULT_COST_LIMIT);
        let options = EvalOptions {
            cost_limit: Some(limit),
            ..EvalOptions::default()
        };
        let run = evaluate(None, compiled, ast, &self.activation(usize::MAX), &options);
        *budget = budget.saturating_sub(run.cost);
        match run.result {
            Ok(value) => Ok(value),
            Err(e) if e.kind == ErrorKind::CostLimit && limit < eval::DEFAULT_COST_LIMIT => {
                *budget = 0;
                Err(Failure::Budget)
            }
            Err(e) => Err(Failure::Error(format!(
                "expression '{}' resulted in error: {e}",
                compiled.text.trim()
            ))),
        }
    }

    /// [`Scope::run`] with cel-go's own error text (no API server wording around it), as
    /// engines that report the error as cel-go returns it (Kyverno's) word it.
    pub fn run_plain(&self, compiled: &Compiled, budget: &mut u64) -> Result<Value, Failure> {
        let wrapped = format!("expression '{}' resulted in error: ", compiled.text.trim());
        self.run(compiled, budget).map_err(|failure| match failure {
            Failure::Error(m) => Failure::Error(
                m.strip_prefix(&wrapped)
                    .or_else(|| m.strip_prefix("compilation error: "))
                    .unwrap_or(&m)
                    .to_string(),
            ),
            budget => budget,
        })
    }
}
