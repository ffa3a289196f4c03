# Scenarios of the `decimal` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import decimal as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

def decimal_ops(M):
    D = M.Decimal
    out = []
    with M.localcontext() as ctx:
        ctx.prec = 28
        for a in DEC_VALUES:
            for b in DEC_VALUES:
                x, y = D(a), D(b)
                row = [a, b, str(x + y), str(x - y), str(x * y), x < y, x == y, x >= y]
                for op in (lambda: x / y, lambda: x // y, lambda: x % y):
                    try:
                        row.append(str(op()))
                    except Exception as e:  # noqa: BLE001
                        row.append(type(e).__name__)
                out.append(row)
    return out

def decimal_text(M):
    D = M.Decimal
    out = []
    for a in DEC_VALUES + ['1.5E+10', '-1.23E-8', 'Infinity', '-Inf', 'NaN', '1_000.5', '  7  ']:
        d = D(a)
        out.append((repr(d), str(d), d.as_tuple(), d.adjusted(), hash(d) if not d.is_nan() else 'nan', d.is_signed()))
    for a in ['1234.5678', '-0.004', '1E+5', '0', '99.995', '1.23456789E+12']:
        d = D(a)
        out.append([format(d, s) for s in ('', '.2f', '.0f', ',.2f', '10.3f', '<10', '+.1f', '.3e', '.2E', '.3g', '.2%', '012.2f', '^12')])
    out.append((D(0.1), D(1.5), D(-2.0), D(10), D(True), D((1, (1, 4, 2), -2)), D.from_float(0.25)))
    out.append((int(D('7.9')), int(D('-7.9')), round(D('2.5')), round(D('3.5')), round(D('1.2345'), 2), float(D('1.25')),
                D('12.50').normalize(), D('0.00').normalize(), D('1.2345').quantize(D('0.01')),
                D('1.2355').quantize(D('0.001'), rounding=M.ROUND_HALF_UP), D('-1.5').to_integral_value(),
                D(2).sqrt(), D('0.0004').sqrt(), D(16).sqrt(), D('2') ** 10, D('1.1') ** 3, D(2) ** -2, D('0.5') ** 0,
                D(1) / D(3), D(2) / D(3), D(10) / D(4), D(1) / D(8), divmod(D(7), D(2)), divmod(D(-7), D(2)),
                D('1.30') + D('1.20'), D('1.3') * D('1.20'), -D('0'), abs(D('-3.50')), +D('1.234567890123456789012345678901')))
    out.append((D(1) == 1, D('1.0') == 1, D('0.5') == 0.5, D('0.1') == 0.1, 1 < D('1.1'), D(3) > 2.5, hash(D('1.5')) == hash(1.5),
                hash(D(7)) == hash(7), hash(D('0.1')) == hash(0.1), sorted([D('2'), D('-1'), D('1.5')]), max(D(1), D(2)),
                D(5) + 1, 2 * D('1.5'), 1 - D('0.25'), 7 // D(2), 7 % D(3)))
    return out

def decimal_context(M):
    D = M.Decimal
    out = []
    with M.localcontext() as ctx:
        ctx.prec = 5
        out.append((str(D(1) / D(7)), str(D('123456789') + 0), str(D('1.23456789') * 1)))
        for r in ('ROUND_DOWN', 'ROUND_HALF_UP', 'ROUND_HALF_EVEN', 'ROUND_CEILING', 'ROUND_FLOOR', 'ROUND_UP',
                  'ROUND_HALF_DOWN', 'ROUND_05UP'):
            ctx.rounding = getattr(M, r)
            out.append([r] + [str(+D(v)) for v in ('1.23455', '1.23445', '-1.23455', '1.23450', '-1.23451', '9.99999', '1.00001', '1.00051')])
        ctx.rounding = M.ROUND_HALF_EVEN
        ctx.clear_flags()
        _ = D(1) / D(3)
        out.append(sorted(s.__name__ for s, v in ctx.flags.items() if v))
    with M.localcontext(prec=3):
        out.append(str(D('3.14159') + 0))
    out.append(M.getcontext().prec)
    return out

def decimal_errors(M):
    D = M.Decimal
    out = []
    for f in (lambda: D(1) / D(0), lambda: D(0) / D(0), lambda: D('abc'), lambda: D('1.5').quantize(D('1e-40')),
              lambda: D('inf') - D('inf'), lambda: int(D('nan')), lambda: D(1.5) + D('x'), lambda: D([1, 2]),
              lambda: D('1') < D('nan'), lambda: D(10) ** D('0.5') if False else D(-1).sqrt()):
        try:
            out.append(str(f()))
        except Exception as e:  # noqa: BLE001
            out.append((type(e).__name__, str(e)))
    with M.localcontext() as ctx:
        ctx.traps[M.DivisionByZero] = False
        out.append(str(D(1) / D(0)))
        out.append(ctx.flags[M.DivisionByZero])
    return out

try:
    print('ok', repr(decimal_ops(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(decimal_text(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(decimal_context(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(decimal_errors(M)))
except Exception as e:
    print(type(e).__name__, e)
