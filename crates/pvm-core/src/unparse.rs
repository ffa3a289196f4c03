//! Expression to source text, as CPython 3.11 renders annotations under
//! `from __future__ import annotations` (PEP 563, `Python/ast_unparse.c`): canonical spacing,
//! the fewest parentheses precedence needs, literals by their `repr`.
//!
//! Covers the expressions annotations are made of: names, attributes, subscripts, calls,
//! literals (str, bytes, int, float, bool, None, `...`), tuples, lists, sets, dicts,
//! slices, starred items and every unary, binary, boolean, comparison and conditional
//! operator. Lambdas, comprehensions, f-strings, `:=`, `await` and `yield` give an error
//! naming the construct, so a program is refused at compile time rather than given a
//! string CPython would not produce.

use ruff_python_ast::{self as ast, Expr};

// Precedence levels of `ast_unparse.c` (higher binds tighter).
const PR_TUPLE: u8 = 0;
const PR_TEST: u8 = 1;
const PR_OR: u8 = 2;
const PR_AND: u8 = 3;
const PR_NOT: u8 = 4;
const PR_CMP: u8 = 5;
const PR_BOR: u8 = 6;
const PR_BXOR: u8 = 7;
const PR_BAND: u8 = 8;
const PR_SHIFT: u8 = 9;
const PR_ARITH: u8 = 10;
const PR_TERM: u8 = 11;
const PR_FACTOR: u8 = 12;
const PR_POWER: u8 = 13;
const PR_ATOM: u8 = 15;

/// Render annotation `e` (`source` is the program text, for float literals). `Err` names an
/// expression kind this renderer does not cover.
pub fn annotation(e: &Expr, source: &str) -> Result<String, String> {
    let mut out = String::new();
    Unparser { source }.expr(e, PR_TEST, &mut out)?;
    Ok(out)
}

struct Unparser<'s> {
    source: &'s str,
}

fn unsupported(what: &str) -> String {
    format!("{what} in an annotation is not supported with 'from __future__ import annotations'")
}

impl Unparser<'_> {
    fn seq(&self, items: &[Expr], level: u8, out: &mut String) -> Result<(), String> {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.expr(x, level, out)?;
        }
        Ok(())
    }

    fn expr(&self, e: &Expr, level: u8, out: &mut String) -> Result<(), String> {
        match e {
            Expr::BoolOp(b) => {
                let (op, pr) = match b.op {
                    ast::BoolOp::And => (" and ", PR_AND),
                    ast::BoolOp::Or => (" or ", PR_OR),
                };
                paren(level > pr, out, |out| {
                    for (i, v) in b.values.iter().enumerate() {
                        if i > 0 {
                            out.push_str(op);
                        }
                        self.expr(v, pr + 1, out)?;
                    }
                    Ok(())
                })
            }
            Expr::BinOp(b) => {
                use ast::Operator as O;
                let (op, pr) = match b.op {
                    O::Add => (" + ", PR_ARITH),
                    O::Sub => (" - ", PR_ARITH),
                    O::Mult => (" * ", PR_TERM),
                    O::MatMult => (" @ ", PR_TERM),
                    O::Div => (" / ", PR_TERM),
                    O::Mod => (" % ", PR_TERM),
                    O::FloorDiv => (" // ", PR_TERM),
                    O::LShift => (" << ", PR_SHIFT),
                    O::RShift => (" >> ", PR_SHIFT),
                    O::BitOr => (" | ", PR_BOR),
                    O::BitXor => (" ^ ", PR_BXOR),
                    O::BitAnd => (" & ", PR_BAND),
                    O::Pow => (" ** ", PR_POWER),
                };
                let rassoc = u8::from(matches!(b.op, O::Pow));
                paren(level > pr, out, |out| {
                    self.expr(&b.left, pr + rassoc, out)?;
                    out.push_str(op);
                    self.expr(&b.right, pr + 1 - rassoc, out)
                })
            }
            Expr::UnaryOp(u) => {
                let (op, pr) = match u.op {
                    ast::UnaryOp::Invert => ("~", PR_FACTOR),
                    ast::UnaryOp::Not => ("not ", PR_NOT),
                    ast::UnaryOp::UAdd => ("+", PR_FACTOR),
                    ast::UnaryOp::USub => ("-", PR_FACTOR),
                };
                paren(level > pr, out, |out| {
                    out.push_str(op);
                    self.expr(&u.operand, pr, out)
                })
            }
            Expr::If(i) => paren(level > PR_TEST, out, |out| {
                self.expr(&i.body, PR_TEST + 1, out)?;
                out.push_str(" if ");
                self.expr(&i.test, PR_TEST + 1, out)?;
                out.push_str(" else ");
                self.expr(&i.orelse, PR_TEST, out)
            }),
            Expr::Dict(d) => {
                out.push('{');
                for (i, item) in d.items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match &item.key {
                        Some(k) => {
                            self.expr(k, PR_TEST, out)?;
                            out.push_str(": ");
                            self.expr(&item.value, PR_TEST, out)?;
                        }
                        None => {
                            out.push_str("**");
                            self.expr(&item.value, PR_BOR, out)?;
                        }
                    }
                }
                out.push('}');
                Ok(())
            }
            Expr::Set(s) => {
                out.push('{');
                self.seq(&s.elts, PR_TEST, out)?;
                out.push('}');
                Ok(())
            }
            Expr::List(l) => {
                out.push('[');
                self.seq(&l.elts, PR_TEST, out)?;
                out.push(']');
                Ok(())
            }
            Expr::Tuple(t) => {
                if t.elts.is_empty() {
                    out.push_str("()");
                    return Ok(());
                }
                paren(level > PR_TUPLE, out, |out| {
                    self.seq(&t.elts, PR_TEST, out)?;
                    if t.elts.len() == 1 {
                        out.push(',');
                    }
                    Ok(())
                })
            }
            Expr::Compare(c) => paren(level > PR_CMP, out, |out| {
                use ast::CmpOp as C;
                self.expr(&c.left, PR_CMP + 1, out)?;
                for (op, x) in c.ops.iter().zip(c.comparators.iter()) {
                    out.push_str(match op {
                        C::Eq => " == ",
                        C::NotEq => " != ",
                        C::Lt => " < ",
                        C::LtE => " <= ",
                        C::Gt => " > ",
                        C::GtE => " >= ",
                        C::Is => " is ",
                        C::IsNot => " is not ",
                        C::In => " in ",
                        C::NotIn => " not in ",
                    });
                    self.expr(x, PR_CMP + 1, out)?;
                }
                Ok(())
            }),
            Expr::Call(c) => {
                self.expr(&c.func, PR_ATOM, out)?;
                out.push('(');
                let mut first = true;
                for a in c.arguments.iter_source_order() {
                    if !first {
                        out.push_str(", ");
                    }
                    first = false;
                    match a {
                        ast::ArgOrKeyword::Arg(x) => self.expr(x, PR_TEST, out)?,
                        ast::ArgOrKeyword::Keyword(k) => {
                            match &k.arg {
                                Some(n) => {
                                    out.push_str(n.id.as_str());
                                    out.push('=');
                                }
                                None => out.push_str("**"),
                            }
                            self.expr(&k.value, PR_TEST, out)?;
                        }
                    }
                }
                out.push(')');
                Ok(())
            }
            Expr::StringLiteral(s) => {
                if s.value.is_unicode() {
                    out.push('u');
                }
                out.push_str(&pvm_text::repr::str_repr(s.value.to_str()));
                Ok(())
            }
            Expr::BytesLiteral(b) => {
                let v: Vec<u8> = b.value.bytes().collect();
                out.push_str(&pvm_text::repr::bytes_repr(&v, "b"));
                Ok(())
            }
            Expr::NumberLiteral(n) => self.number(n, out),
            Expr::BooleanLiteral(b) => {
                out.push_str(if b.value { "True" } else { "False" });
                Ok(())
            }
            Expr::NoneLiteral(_) => {
                out.push_str("None");
                Ok(())
            }
            Expr::EllipsisLiteral(_) => {
                out.push_str("...");
                Ok(())
            }
            Expr::Attribute(a) => {
                self.expr(&a.value, PR_ATOM, out)?;
                // `1 .real`: an int literal needs a space before the dot
                let int_lit = matches!(
                    &*a.value,
                    Expr::NumberLiteral(n) if matches!(n.value, ast::Number::Int(_))
                );
                out.push_str(if int_lit { " ." } else { "." });
                out.push_str(a.attr.id.as_str());
                Ok(())
            }
            Expr::Subscript(s) => {
                self.expr(&s.value, PR_ATOM, out)?;
                out.push('[');
                match &*s.slice {
                    Expr::Tuple(t) if !t.elts.is_empty() => {
                        self.seq(&t.elts, PR_TUPLE, out)?;
                        if t.elts.len() == 1 {
                            out.push(',');
                        }
                    }
                    other => self.expr(other, PR_TUPLE, out)?,
                }
                out.push(']');
                Ok(())
            }
            Expr::Slice(s) => {
                if let Some(x) = &s.lower {
                    self.expr(x, PR_TEST, out)?;
                }
                out.push(':');
                if let Some(x) = &s.upper {
                    self.expr(x, PR_TEST, out)?;
                }
                if let Some(x) = &s.step {
                    out.push(':');
                    self.expr(x, PR_TEST, out)?;
                }
                Ok(())
            }
            Expr::Starred(s) => {
                out.push('*');
                self.expr(&s.value, PR_BOR, out)
            }
            Expr::Name(n) => {
                out.push_str(n.id.as_str());
                Ok(())
            }
            Expr::Named(_) => Err(unsupported("an assignment expression")),
            Expr::Lambda(_) => Err(unsupported("a lambda")),
            Expr::ListComp(_) | Expr::SetComp(_) | Expr::DictComp(_) | Expr::Generator(_) => {
                Err(unsupported("a comprehension"))
            }
            Expr::FString(_) | Expr::TString(_) => Err(unsupported("an f-string")),
            Expr::Await(_) | Expr::Yield(_) | Expr::YieldFrom(_) => {
                Err(unsupported("await / yield"))
            }
            Expr::IpyEscapeCommand(_) => Err("invalid syntax".into()),
        }
    }

    fn number(&self, n: &ast::ExprNumberLiteral, out: &mut String) -> Result<(), String> {
        match &n.value {
            ast::Number::Int(i) => {
                if let Some(v) = i.as_i64() {
                    out.push_str(&v.to_string());
                    return Ok(());
                }
                let b = crate::compile::big_int_literal(i)
                    .ok_or_else(|| "invalid integer literal".to_string())?;
                out.push_str(&b.to_str_radix(10));
                Ok(())
            }
            ast::Number::Float(_) => {
                let (a, z) = (n.range.start().to_usize(), n.range.end().to_usize());
                let text: String = self
                    .source
                    .get(a..z)
                    .unwrap_or_default()
                    .chars()
                    .filter(|c| *c != '_')
                    .collect();
                let f = crate::float::parse_literal(&text)
                    .ok_or_else(|| "invalid float literal".to_string())?;
                let r = f.repr();
                // CPython writes an infinite literal as 1e309 so the text reads back as inf
                out.push_str(if r == "inf" { "1e309" } else { &r });
                Ok(())
            }
            ast::Number::Complex { .. } => {
                Err("complex numbers are not supported in the PVM".into())
            }
        }
    }
}

/// Run `body`, wrapped in parentheses when `wrap`.
fn paren(
    wrap: bool,
    out: &mut String,
    body: impl FnOnce(&mut String) -> Result<(), String>,
) -> Result<(), String> {
    if wrap {
        out.push('(');
    }
    body(out)?;
    if wrap {
        out.push(')');
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(src: &str) -> Result<String, String> {
        let text = format!("x: {src}");
        let m = ruff_python_parser::parse_module(&text).map_err(|e| e.to_string())?;
        match &m.syntax().body[0] {
            ast::Stmt::AnnAssign(a) => annotation(&a.annotation, &text),
            _ => Err("not an annotation".into()),
        }
    }

    #[test]
    fn renders_like_cpython_3_11() {
        // Expected strings are what CPython 3.11 stores in __annotations__ for each source.
        for (src, want) in [
            ("int", "int"),
            ("List[ int ]", "List[int]"),
            ("dict[str,list[int]]|None", "dict[str, list[int]] | None"),
            ("\"Foo\"", "'Foo'"),
            ("Tuple[()]", "Tuple[()]"),
            ("Tuple[int,]", "Tuple[int,]"),
            ("Callable[[int, str], bool]", "Callable[[int, str], bool]"),
            ("(1, 2)", "(1, 2)"),
            ("a if b else c", "a if b else c"),
            ("-x ** -y", "-x ** (-y)"),
            ("(a + b) * c", "(a + b) * c"),
            ("a - (b - c)", "a - (b - c)"),
            ("not a and (b or c)", "not a and (b or c)"),
            ("x[1:2, ::3]", "x[1:2, ::3]"),
            ("f(a, *b, c=1, **d)", "f(a, *b, c=1, **d)"),
            ("1 .real", "1 .real"),
            ("0x10", "16"),
            ("1.5e3", "1500.0"),
            ("b'\\x00'", "b'\\x00'"),
            ("{'a': 1, **b}", "{'a': 1, **b}"),
            ("...", "..."),
            ("u'x'", "u'x'"),
            ("1e400", "1e309"),
            ("x[(1, 2)]", "x[1, 2]"),
            ("(-1) .real", "(-1).real"),
            ("not (a == b)", "not a == b"),
            ("x[::]", "x[:]"),
            ("2 ** 3 ** 4", "2 ** 3 ** 4"),
            ("(2 ** 3) ** 4", "(2 ** 3) ** 4"),
            ("a | (b | c)", "a | (b | c)"),
            ("\"a'b\"", "\"a'b\""),
            ("a < b < c", "a < b < c"),
            ("a if (b if c else d) else e", "a if (b if c else d) else e"),
            ("(a if b else c) if d else e", "(a if b else c) if d else e"),
        ] {
            assert_eq!(render(src).as_deref(), Ok(want), "{src}");
        }
        assert!(render("lambda: 0").is_err());
        assert!(render("[i for i in x]").is_err());
    }
}
