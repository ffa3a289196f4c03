# A recursive-descent parser/evaluator with precedence, unary minus, power and functions.
import math
class Calc:
    def __init__(self, text):
        self.toks = self.lex(text)
        self.i = 0
    @staticmethod
    def lex(s):
        toks, i = [], 0
        while i < len(s):
            c = s[i]
            if c.isspace():
                i += 1
            elif c.isdigit() or c == ".":
                j = i
                while j < len(s) and (s[j].isdigit() or s[j] == "."):
                    j += 1
                toks.append(float(s[i:j]) if "." in s[i:j] else int(s[i:j]))
                i = j
            elif c.isalpha():
                j = i
                while j < len(s) and s[j].isalpha():
                    j += 1
                toks.append(s[i:j])
                i = j
            elif s[i:i + 2] == "**":
                toks.append("**")
                i += 2
            else:
                toks.append(c)
                i += 1
        return toks
    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None
    def take(self, expected=None):
        t = self.peek()
        if expected is not None and t != expected:
            raise SyntaxError(f"expected {expected!r}, got {t!r}")
        self.i += 1
        return t
    def expr(self):
        v = self.term()
        while self.peek() in ("+", "-"):
            v = v + self.term() if self.take() == "+" else v - self.term()
        return v
    def term(self):
        v = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            r = self.unary()
            v = v * r if op == "*" else (v / r if op == "/" else v % r)
        return v
    def unary(self):
        if self.peek() == "-":
            self.take()
            return -self.unary()
        return self.power()
    def power(self):
        b = self.atom()
        if self.peek() == "**":
            self.take()
            return b ** self.unary()
        return b
    def atom(self):
        t = self.take()
        if isinstance(t, (int, float)):
            return t
        if t == "(":
            v = self.expr()
            self.take(")")
            return v
        if t in ("sqrt", "abs", "max", "min"):
            self.take("(")
            args = [self.expr()]
            while self.peek() == ",":
                self.take()
                args.append(self.expr())
            self.take(")")
            return {"sqrt": lambda a: math.sqrt(a[0]), "abs": lambda a: abs(a[0]), "max": max, "min": min}[t](args)
        raise SyntaxError(f"unexpected token {t!r}")
def calc(s):
    c = Calc(s)
    v = c.expr()
    if c.peek() is not None:
        raise SyntaxError(f"trailing {c.peek()!r}")
    return v
for e in ["1 + 2 * 3", "(1 + 2) * 3", "-2 ** 2", "2 ** 3 ** 2", "10 / 4", "10 % 4 + -3", "sqrt(16) + abs(-2.5)", "max(1, 7, 3) * min(4, 2)",
          "2 ** -1", "((((7))))", "1.5 * 4", "3 - - 3", "2 *", "(1 + 2", "1 2", "foo(1)"]:
    try:
        print(f"{e!r:28} = {calc(e)!r}")
    except (SyntaxError, ZeroDivisionError) as ex:
        print(f"{e!r:28} ! {type(ex).__name__}: {ex}")
