# Errors from int operations.
def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)
attempt("div0", lambda: 1 // 0)
attempt("mod0", lambda: 1 % 0)
attempt("truediv0", lambda: 1 / 0)
attempt("divmod0", lambda: divmod(5, 0))
attempt("negshift", lambda: 1 << -1)
attempt("rnegshift", lambda: 8 >> -2)
attempt("pow0neg", lambda: 0 ** -1)
attempt("addstr", lambda: 1 + "1")
attempt("mulstr", lambda: 3 * "ab")
attempt("mulneg", lambda: -1 * "ab")
attempt("bigshift_ok", lambda: (1 << 100) >> 99)
attempt("int_none", lambda: int(None))
