//! Unary and binary operators: their spelling, cel-go function names and precedence.

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `!`
    Not,
    /// `-`
    Neg,
}

/// A binary operator, in CEL's precedence classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `||`
    Or,
    /// `&&`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

impl UnaryOp {
    /// cel-go's function name for the operator (`!_`, `-_`).
    pub fn function_name(self) -> &'static str {
        match self {
            UnaryOp::Not => "!_",
            UnaryOp::Neg => "-_",
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Not => "!",
            UnaryOp::Neg => "-",
        }
    }
}

impl BinaryOp {
    /// cel-go's function name for the operator (`_+_`, `_&&_`, `@in`, …).
    pub fn function_name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Or => "_||_",
            And => "_&&_",
            Eq => "_==_",
            Ne => "_!=_",
            Lt => "_<_",
            Le => "_<=_",
            Gt => "_>_",
            Ge => "_>=_",
            In => "@in",
            Add => "_+_",
            Sub => "_-_",
            Mul => "_*_",
            Div => "_/_",
            Rem => "_%_",
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Or => "||",
            And => "&&",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            In => "in",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
        }
    }

    /// Binding strength: higher binds tighter (`||` 1 … `*` 5). All are left-associative.
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Or => 1,
            And => 2,
            Eq | Ne | Lt | Le | Gt | Ge | In => 3,
            Add | Sub => 4,
            Mul | Div | Rem => 5,
        }
    }
}
