"""decimal for the PVM: decimal fixed- and floating-point arithmetic.

Our implementation of the General Decimal Arithmetic rules as CPython 3.11's `decimal`
applies them, for what actor code needs: exact construction (from int, str, float, tuple),
the four operations, //, %, divmod, ** with integral exponents, sqrt, quantize, rounding
modes, comparisons (also against int and float), hashing consistent with int and float,
str/repr/format, and contexts (precision, rounding, traps and flags; `localcontext`).
Not provided: exp, ln, log10 and the logical operations.

Values are immutable (sign, coefficient, exponent) triples over Python ints, so results are
deterministic by construction.
"""

__all__ = [
    'Decimal', 'Context', 'DecimalTuple', 'DefaultContext', 'BasicContext', 'ExtendedContext',
    'DecimalException', 'Clamped', 'InvalidOperation', 'DivisionByZero', 'Inexact', 'Rounded',
    'Subnormal', 'Overflow', 'Underflow', 'FloatOperation', 'DivisionImpossible',
    'DivisionUndefined', 'ConversionSyntax', 'InvalidContext',
    'ROUND_DOWN', 'ROUND_HALF_UP', 'ROUND_HALF_EVEN', 'ROUND_CEILING', 'ROUND_FLOOR', 'ROUND_UP',
    'ROUND_HALF_DOWN', 'ROUND_05UP', 'getcontext', 'setcontext', 'localcontext',
    'MAX_PREC', 'MAX_EMAX', 'MIN_EMIN', 'MIN_ETINY',
]

ROUND_DOWN = 'ROUND_DOWN'
ROUND_HALF_UP = 'ROUND_HALF_UP'
ROUND_HALF_EVEN = 'ROUND_HALF_EVEN'
ROUND_CEILING = 'ROUND_CEILING'
ROUND_FLOOR = 'ROUND_FLOOR'
ROUND_UP = 'ROUND_UP'
ROUND_HALF_DOWN = 'ROUND_HALF_DOWN'
ROUND_05UP = 'ROUND_05UP'
_ROUNDINGS = (ROUND_DOWN, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_CEILING, ROUND_FLOOR, ROUND_UP,
              ROUND_HALF_DOWN, ROUND_05UP)

MAX_PREC = 999999999999999999
MAX_EMAX = 999999999999999999
MIN_EMIN = -999999999999999999
MIN_ETINY = MIN_EMIN - (MAX_PREC - 1)


class DecimalException(ArithmeticError):
    pass


class Clamped(DecimalException):
    pass


class InvalidOperation(DecimalException):
    pass


class ConversionSyntax(InvalidOperation):
    pass


class DivisionByZero(DecimalException, ZeroDivisionError):
    pass


class DivisionImpossible(InvalidOperation):
    pass


class DivisionUndefined(InvalidOperation, ZeroDivisionError):
    pass


class Inexact(DecimalException):
    pass


class InvalidContext(InvalidOperation):
    pass


class Rounded(DecimalException):
    pass


class Subnormal(DecimalException):
    pass


class Overflow(Inexact, Rounded):
    pass


class Underflow(Inexact, Rounded, Subnormal):
    pass


class FloatOperation(DecimalException, TypeError):
    pass


_SIGNALS = [Clamped, DivisionByZero, Inexact, Overflow, Rounded, Underflow, InvalidOperation, Subnormal,
            FloatOperation]

# conditions are reported as the signal CPython reports them as
_CONDITION_SIGNAL = {ConversionSyntax: InvalidOperation, DivisionImpossible: InvalidOperation,
                     DivisionUndefined: InvalidOperation, InvalidContext: InvalidOperation}


class DecimalTuple(tuple):
    def __new__(cls, sign, digits, exponent):
        return tuple.__new__(cls, (sign, digits, exponent))

    sign = property(lambda self: self[0])
    digits = property(lambda self: self[1])
    exponent = property(lambda self: self[2])

    def __repr__(self):
        return f'DecimalTuple(sign={self[0]!r}, digits={self[1]!r}, exponent={self[2]!r})'


class Context:
    def __init__(self, prec=None, rounding=None, Emin=None, Emax=None, capitals=None, clamp=None,
                 flags=None, traps=None):
        self.prec = 28 if prec is None else prec
        self.rounding = ROUND_HALF_EVEN if rounding is None else rounding
        self.Emin = -999999 if Emin is None else Emin
        self.Emax = 999999 if Emax is None else Emax
        self.capitals = 1 if capitals is None else capitals
        self.clamp = 0 if clamp is None else clamp
        if self.rounding not in _ROUNDINGS:
            raise TypeError('valid values for rounding are:\n  [ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_DOWN,\n   '
                            'ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN,\n   ROUND_05UP]')
        if not isinstance(self.prec, int) or self.prec < 1:
            raise ValueError('valid range for prec is [1, MAX_PREC]')
        self.flags = {s: False for s in _SIGNALS}
        self.traps = {s: False for s in _SIGNALS}
        default_traps = [DivisionByZero, Overflow, InvalidOperation] if traps is None else traps
        if isinstance(default_traps, dict):
            self.traps.update(default_traps)
        else:
            for s in default_traps:
                self.traps[s] = True
        if flags is not None:
            if isinstance(flags, dict):
                self.flags.update(flags)
            else:
                for s in flags:
                    self.flags[s] = True

    def copy(self):
        return Context(self.prec, self.rounding, self.Emin, self.Emax, self.capitals, self.clamp,
                       dict(self.flags), dict(self.traps))

    __copy__ = copy

    def clear_flags(self):
        for s in self.flags:
            self.flags[s] = False

    def clear_traps(self):
        for s in self.traps:
            self.traps[s] = False

    def Etiny(self):
        return self.Emin - self.prec + 1

    def Etop(self):
        return self.Emax - self.prec + 1

    def _raise(self, condition, explanation=''):
        """Records `condition`'s signal; raises the signal if it is trapped (as CPython's C decimal)."""
        signal = _CONDITION_SIGNAL.get(condition, condition)
        self.flags[signal] = True
        if self.traps.get(signal, False):
            raise signal(f"[<class 'decimal.{condition.__name__}'>]")

    def create_decimal(self, num='0'):
        d = Decimal(num)
        if d._special:
            return d
        return d._fix(self)

    def __repr__(self):
        flags = ', '.join(s.__name__ for s in _SIGNALS if self.flags[s])
        traps = ', '.join(s.__name__ for s in _SIGNALS if self.traps[s])
        return (f'Context(prec={self.prec}, rounding={self.rounding}, Emin={self.Emin}, Emax={self.Emax}, '
                f'capitals={self.capitals}, clamp={self.clamp}, flags=[{flags}], traps=[{traps}])')


DefaultContext = Context()
BasicContext = Context(prec=9, rounding=ROUND_HALF_UP,
                       traps=[DivisionByZero, Overflow, InvalidOperation, Clamped, Underflow])
ExtendedContext = Context(prec=9, rounding=ROUND_HALF_EVEN, traps=[])

_current = [DefaultContext.copy()]


def getcontext():
    return _current[0]


def setcontext(context):
    if context in (DefaultContext, BasicContext, ExtendedContext):
        context = context.copy()
        context.clear_flags()
    _current[0] = context


class _LocalContext:
    def __init__(self, ctx):
        self.new = ctx.copy()

    def __enter__(self):
        self.saved = getcontext()
        setcontext(self.new)
        return self.new

    def __exit__(self, *exc):
        setcontext(self.saved)
        return False


def localcontext(ctx=None, **kwargs):
    base = getcontext() if ctx is None else ctx
    manager = _LocalContext(base)
    for name, value in kwargs.items():
        if name not in ('prec', 'rounding', 'Emin', 'Emax', 'capitals', 'clamp', 'flags', 'traps'):
            raise TypeError(f"'{name}' is an invalid keyword argument for this function")
        setattr(manager.new, name, value)
    return manager


def _ndigits(n):
    return len(str(n)) if n else 1


def _round_coefficient(sign, coeff, drop, rounding):
    """Drops `drop` low digits of coeff, rounding; returns (new_coeff, inexact)."""
    if drop <= 0:
        return coeff, False
    divisor = 10 ** drop
    keep, rest = divmod(coeff, divisor)
    if rest == 0:
        return keep, False
    half = divisor // 2
    twice = rest * 2
    up = False
    if rounding == ROUND_DOWN:
        up = False
    elif rounding == ROUND_UP:
        up = True
    elif rounding == ROUND_CEILING:
        up = sign == 0
    elif rounding == ROUND_FLOOR:
        up = sign == 1
    elif rounding == ROUND_HALF_UP:
        up = rest >= half and twice >= divisor
    elif rounding == ROUND_HALF_DOWN:
        up = twice > divisor
    elif rounding == ROUND_HALF_EVEN:
        up = twice > divisor or (twice == divisor and keep % 2 == 1)
    elif rounding == ROUND_05UP:
        up = keep % 10 in (0, 5)
    return keep + 1 if up else keep, True


class Decimal:
    """A decimal number: (-1)**sign * coefficient * 10**exponent, or a special value."""

    __slots__ = ('_sign', '_int', '_exp', '_special')

    def __new__(cls, value='0', context=None):
        self = object.__new__(cls)
        if isinstance(value, Decimal):
            self._sign, self._int, self._exp, self._special = value._sign, value._int, value._exp, value._special
            return self
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, int):
            self._sign = 1 if value < 0 else 0
            self._int = -value if value < 0 else value
            self._exp = 0
            self._special = ''
            return self
        if isinstance(value, float):
            return cls._from_float(value)
        if isinstance(value, str):
            return cls._from_str(value, context)
        if isinstance(value, (tuple, list)):
            return cls._from_tuple(tuple(value))
        raise TypeError(f'conversion from {type(value).__name__} to Decimal is not supported')

    @classmethod
    def _make(cls, sign, coeff, exp, special=''):
        self = object.__new__(cls)
        self._sign = sign
        self._int = coeff
        self._exp = exp
        self._special = special
        return self

    @classmethod
    def _from_str(cls, text, context):
        s = text.strip().replace('_', '') if '_' not in text.strip()[:1] + text.strip()[-1:] else None
        if s is None or '__' in text:
            return cls._syntax_error(text, context)
        sign = 0
        if s[:1] in '+-' and s:
            sign = 1 if s[0] == '-' else 0
            s = s[1:]
        low = s.lower()
        if low in ('inf', 'infinity'):
            return cls._make(sign, 0, 'F', 'F')
        for prefix, special in (('snan', 'N'), ('nan', 'n')):
            if low.startswith(prefix):
                payload = low[len(prefix):]
                if payload == '' or payload.isdigit() and payload.isascii():
                    return cls._make(sign, int(payload.lstrip('0') or '0') if payload else 0, special, special)
                return cls._syntax_error(text, context)
        mantissa, _, exponent = low.partition('e')
        if _ and (exponent[:1] in '+-' and exponent[1:].isdigit() or exponent.isdigit()):
            exp = int(exponent)
        elif _:
            return cls._syntax_error(text, context)
        else:
            exp = 0
        whole, dot, frac = mantissa.partition('.')
        digits = whole + frac
        if not digits or not (digits.isdigit() and digits.isascii()) and not _all_decimal(digits):
            return cls._syntax_error(text, context)
        coeff = int(_to_ascii_digits(digits))
        return cls._make(sign, coeff, exp - len(frac))

    @classmethod
    def _syntax_error(cls, text, context):
        ctx = getcontext() if context is None else context
        ctx._raise(ConversionSyntax, 'Invalid literal for Decimal')
        return cls._make(0, 0, 'n', 'n')

    @classmethod
    def _from_float(cls, f):
        if f != f:
            return cls._make(0, 0, 'n', 'n')
        if f in (float('inf'), float('-inf')):
            return cls._make(1 if f < 0 else 0, 0, 'F', 'F')
        sign = 1 if (f < 0 or (f == 0 and str(f).startswith('-'))) else 0
        n, d = abs(f).as_integer_ratio()
        k = d.bit_length() - 1          # d is a power of two
        return cls._make(sign, n * 5 ** k, -k)

    @classmethod
    def from_float(cls, f):
        if isinstance(f, int):
            return cls(f)
        if not isinstance(f, float):
            raise TypeError('argument must be int or float')
        return cls._from_float(f)

    @classmethod
    def _from_tuple(cls, t):
        if len(t) != 3:
            raise ValueError('argument must be a sequence of length 3')
        sign, digits, exp = t
        if sign not in (0, 1):
            raise ValueError('sign must be an integer with the value 0 or 1')
        if exp == 'F':
            return cls._make(sign, 0, 'F', 'F')
        coeff = 0
        for d in digits:
            if not isinstance(d, int) or not 0 <= d <= 9:
                raise ValueError('The second value in the tuple must be composed of integers in the range 0 through 9.')
            coeff = coeff * 10 + d
        if exp in ('n', 'N'):
            return cls._make(sign, coeff, exp, exp)
        if not isinstance(exp, int):
            raise ValueError("The third value in the tuple must be an integer, or one of the strings 'F', 'n', 'N'.")
        return cls._make(sign, coeff, exp)

    # ------------------------------------------------------------------ properties

    def as_tuple(self):
        if self._special == 'F':
            return DecimalTuple(self._sign, (0,), 'F')
        digits = tuple(int(c) for c in str(self._int)) if (self._int or not self._special) else ()
        return DecimalTuple(self._sign, digits, self._exp)

    def as_integer_ratio(self):
        if self._special:
            raise (OverflowError('cannot convert Infinity to integer ratio') if self._special == 'F'
                   else ValueError('cannot convert NaN to integer ratio'))
        n = -self._int if self._sign else self._int
        if self._exp >= 0:
            return n * 10 ** self._exp, 1
        d = 10 ** -self._exp
        g = _gcd(abs(n), d)
        return n // g, d // g

    def adjusted(self):
        if self._special:
            return 0
        return self._exp + _ndigits(self._int) - 1

    def is_nan(self):
        return self._special in ('n', 'N')

    def is_snan(self):
        return self._special == 'N'

    def is_qnan(self):
        return self._special == 'n'

    def is_infinite(self):
        return self._special == 'F'

    def is_finite(self):
        return not self._special

    def is_zero(self):
        return not self._special and self._int == 0

    def is_signed(self):
        return self._sign == 1

    def copy_abs(self):
        return Decimal._make(0, self._int, self._exp, self._special)

    def copy_negate(self):
        return Decimal._make(1 - self._sign, self._int, self._exp, self._special)

    def copy_sign(self, other):
        return Decimal._make(_convert(other, True)._sign, self._int, self._exp, self._special)

    # ------------------------------------------------------------------ rounding to a context

    def _fix(self, ctx):
        """Rounds to the context's precision and exponent limits, signalling as CPython does."""
        if self._special:
            return self
        coeff, exp, sign = self._int, self._exp, self._sign
        etiny = ctx.Etiny()
        etop = ctx.Etop()
        if coeff == 0:
            exp_max = etop if ctx.clamp else ctx.Emax
            new_exp = min(max(exp, etiny), exp_max)
            if new_exp != exp:
                ctx._raise(Clamped)
                return Decimal._make(sign, 0, new_exp)
            return self
        length = _ndigits(coeff)
        adjusted = exp + length - 1
        if adjusted > ctx.Emax:
            return self._overflow(ctx)
        subnormal = adjusted < ctx.Emin
        drop = max(length - ctx.prec, etiny - exp if subnormal or exp < etiny else 0, 0)
        inexact = False
        if drop > 0:
            coeff, inexact = _round_coefficient(sign, coeff, drop, ctx.rounding)
            exp += drop
            if _ndigits(coeff) > ctx.prec:
                coeff //= 10
                exp += 1
            if exp + _ndigits(coeff) - 1 > ctx.Emax:
                return self._overflow(ctx)
            ctx._raise(Rounded)
            if inexact:
                ctx._raise(Inexact)
        if subnormal:
            ctx._raise(Subnormal)
            if inexact:
                ctx._raise(Underflow)
                if coeff == 0:
                    ctx._raise(Clamped)
        if ctx.clamp and exp > etop:
            ctx._raise(Clamped)
            coeff *= 10 ** (exp - etop)
            exp = etop
        return Decimal._make(sign, coeff, exp)

    def _overflow(self, ctx):
        ctx._raise(Inexact)
        ctx._raise(Rounded)
        signal = Overflow
        rounding = ctx.rounding
        to_inf = (rounding in (ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_HALF_DOWN, ROUND_UP)
                  or (rounding == ROUND_CEILING and self._sign == 0)
                  or (rounding == ROUND_FLOOR and self._sign == 1))
        ctx._raise(signal)
        if to_inf:
            return Decimal._make(self._sign, 0, 'F', 'F')
        return Decimal._make(self._sign, 10 ** ctx.prec - 1, ctx.Emax - ctx.prec + 1)

    # ------------------------------------------------------------------ special values

    def _check_nans(self, other, ctx):
        for d in (self, other):
            if d is not None and d._special == 'N':
                ctx._raise(InvalidOperation)
                return Decimal._make(d._sign, d._int, 'n', 'n')
        for d in (self, other):
            if d is not None and d._special == 'n':
                return d
        return None

    def _invalid(self, ctx):
        ctx._raise(InvalidOperation)
        return Decimal._make(0, 0, 'n', 'n')

    # ------------------------------------------------------------------ arithmetic

    def __add__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        ctx = getcontext() if context is None else context
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan
        if self._special == 'F' or other._special == 'F':
            if self._special == 'F' and other._special == 'F' and self._sign != other._sign:
                return self._invalid(ctx)
            return self if self._special == 'F' else other
        exp = min(self._exp, other._exp)
        a = (-1 if self._sign else 1) * self._int * 10 ** (self._exp - exp)
        b = (-1 if other._sign else 1) * other._int * 10 ** (other._exp - exp)
        total = a + b
        if total == 0:
            if self._sign == other._sign:
                sign = self._sign
            else:
                sign = 1 if ctx.rounding == ROUND_FLOOR else 0
        else:
            sign = 1 if total < 0 else 0
        return Decimal._make(sign, abs(total), exp)._fix(ctx)

    __radd__ = __add__

    def __sub__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        return self.__add__(other.copy_negate() if not other._special or other._special == 'F' else other, context)

    def __rsub__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        return other.__sub__(self, context)

    def __mul__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        ctx = getcontext() if context is None else context
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan
        sign = self._sign ^ other._sign
        if self._special == 'F' or other._special == 'F':
            if self.is_zero() or other.is_zero():
                return self._invalid(ctx)
            return Decimal._make(sign, 0, 'F', 'F')
        return Decimal._make(sign, self._int * other._int, self._exp + other._exp)._fix(ctx)

    __rmul__ = __mul__

    def __truediv__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        ctx = getcontext() if context is None else context
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan
        sign = self._sign ^ other._sign
        if self._special == 'F':
            if other._special == 'F':
                return self._invalid(ctx)
            return Decimal._make(sign, 0, 'F', 'F')
        if other._special == 'F':
            ctx._raise(Clamped)
            return Decimal._make(sign, 0, ctx.Etiny())
        if other._int == 0:
            if self._int == 0:
                ctx._raise(DivisionUndefined)
                return Decimal._make(0, 0, 'n', 'n')
            ctx._raise(DivisionByZero)
            return Decimal._make(sign, 0, 'F', 'F')
        ideal = self._exp - other._exp
        if self._int == 0:
            return Decimal._make(sign, 0, ideal)._fix(ctx)
        # scale so the quotient has at least prec+1 digits, then round
        shift = _ndigits(other._int) - _ndigits(self._int) + ctx.prec + 1
        if shift >= 0:
            q, r = divmod(self._int * 10 ** shift, other._int)
        else:
            q, r = divmod(self._int, other._int * 10 ** -shift)
        exp = ideal - shift
        if r == 0:
            # exact: remove trailing zeros down to the ideal exponent
            while exp < ideal and q % 10 == 0:
                q //= 10
                exp += 1
        elif q % 5 == 0:
            # q has at least prec+1 digits; a sticky unit keeps ties and exact-looking digits honest
            q += 1
        return Decimal._make(sign, q, exp)._fix(ctx)

    def __rtruediv__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        return other.__truediv__(self, context)

    def _divide_integer(self, other, ctx):
        """(quotient, remainder) with the quotient truncated toward zero, or an error value."""
        sign = self._sign ^ other._sign
        if self._special == 'F':
            if other._special == 'F':
                return self._invalid(ctx), self._invalid(ctx)
            return Decimal._make(sign, 0, 'F', 'F'), self._invalid(ctx)
        if other._special == 'F':
            return Decimal._make(sign, 0, 0), Decimal._make(self._sign, self._int, self._exp)._fix(ctx)
        if other._int == 0:
            if self._int == 0:
                ctx._raise(DivisionUndefined)
                nan = Decimal._make(0, 0, 'n', 'n')
                return nan, nan
            ctx._raise(DivisionByZero)
            return Decimal._make(sign, 0, 'F', 'F'), self._invalid(ctx)
        exp = min(self._exp, other._exp)
        a = self._int * 10 ** (self._exp - exp)
        b = other._int * 10 ** (other._exp - exp)
        q, r = divmod(a, b)
        if _ndigits(q) > ctx.prec:
            ctx._raise(DivisionImpossible)
            nan = Decimal._make(0, 0, 'n', 'n')
            return nan, nan
        quotient = Decimal._make(sign, q, 0)
        remainder = Decimal._make(self._sign, r, exp)._fix(ctx)
        return quotient, remainder

    def __floordiv__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        ctx = getcontext() if context is None else context
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan
        return self._divide_integer(other, ctx)[0]

    def __rfloordiv__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        return other.__floordiv__(self, context)

    def __mod__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        ctx = getcontext() if context is None else context
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan
        if not other._special and other._int == 0 and not self._special:
            ctx._raise(DivisionUndefined if self._int == 0 else InvalidOperation)
            return Decimal._make(0, 0, 'n', 'n')
        return self._divide_integer(other, ctx)[1]

    def __rmod__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        return other.__mod__(self, context)

    def __divmod__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        ctx = getcontext() if context is None else context
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan, nan
        return self._divide_integer(other, ctx)

    def __rdivmod__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        return other.__divmod__(self, context)

    def __pow__(self, other, modulo=None, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        ctx = getcontext() if context is None else context
        if modulo is not None:
            raise NotImplementedError('three-argument pow() of Decimal is not available in the PVM')
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan
        if other._special or other._exp < 0 and other._int % 10 ** -other._exp:
            raise InvalidOperation('Decimal ** non-integral exponents are not available in the PVM')
        n = other._int * 10 ** other._exp if other._exp >= 0 else other._int // 10 ** -other._exp
        if other._sign:
            n = -n
        if self._special == 'F':
            if n == 0:
                return Decimal(1)
            if n < 0:
                return Decimal._make(0, 0, 0)
            return Decimal._make(self._sign if n % 2 else 0, 0, 'F', 'F')
        if self._int == 0:
            if n == 0:
                return self._invalid(ctx)
            if n < 0:
                ctx._raise(DivisionByZero)
                return Decimal._make(self._sign if n % 2 else 0, 0, 'F', 'F')
            return Decimal._make(self._sign if n % 2 else 0, 0, 0)
        sign = self._sign if n % 2 else 0
        if n >= 0:
            extra = Context(prec=ctx.prec + 10, rounding=ROUND_HALF_EVEN, Emin=ctx.Emin, Emax=ctx.Emax, traps=[])
            digits_needed = n * _ndigits(self._int)
            if digits_needed <= ctx.prec + 20:
                exact = Decimal._make(sign, self._int ** n, self._exp * n)
                return exact._fix(ctx)
            result = Decimal._make(0, self._int, self._exp)
            acc = Decimal(1)
            base = result
            k = n
            while k:
                if k & 1:
                    acc = acc.__mul__(base, extra)
                base = base.__mul__(base, extra)
                k >>= 1
            ctx._raise(Inexact)
            ctx._raise(Rounded)
            return Decimal._make(sign, acc._int, acc._exp)._fix(ctx)
        positive = Decimal._make(0, self._int, self._exp).__pow__(Decimal(-n), None,
                                                                  Context(prec=ctx.prec + 10, traps=[]))
        result = Decimal(1).__truediv__(positive, ctx)
        return Decimal._make(sign, result._int, result._exp, result._special)

    def __rpow__(self, other, context=None):
        other = _convert(other)
        if other is NotImplemented:
            return other
        return other.__pow__(self, None, context)

    def __neg__(self, context=None):
        ctx = getcontext() if context is None else context
        if self._special:
            return self.copy_negate() if self._special == 'F' else self
        if self._int == 0 and ctx.rounding != ROUND_FLOOR:
            return Decimal._make(0, 0, self._exp)._fix(ctx)
        return Decimal._make(1 - self._sign, self._int, self._exp)._fix(ctx)

    def __pos__(self, context=None):
        ctx = getcontext() if context is None else context
        if self._special:
            return self
        if self._int == 0 and ctx.rounding != ROUND_FLOOR:
            return Decimal._make(0, 0, self._exp)._fix(ctx)
        return self._fix(ctx)

    def __abs__(self, round=True, context=None):
        ctx = getcontext() if context is None else context
        if self._special:
            return self.copy_abs() if self._special == 'F' else self
        result = Decimal._make(0, self._int, self._exp)
        return result._fix(ctx) if round else result

    def sqrt(self, context=None):
        ctx = getcontext() if context is None else context
        nan = self._check_nans(None, ctx)
        if nan is not None:
            return nan
        if self._special == 'F':
            return self._invalid(ctx) if self._sign else self
        if self._int == 0:
            return Decimal._make(self._sign, 0, self._exp // 2)
        if self._sign:
            return self._invalid(ctx)
        ideal = self._exp // 2
        # integer square root of coeff * 10**shift with shift making exponent even and giving prec+1 digits
        shift = 2 * (ctx.prec + 1) - _ndigits(self._int)
        if (self._exp - shift) % 2:
            shift += 1
        n = self._int * 10 ** shift if shift >= 0 else self._int // 10 ** -shift
        root = _isqrt(n)
        exp = (self._exp - shift) // 2
        exact = root * root == n and (shift >= 0 or self._int % 10 ** -shift == 0)
        if exact:
            while exp < ideal and root % 10 == 0:
                root //= 10
                exp += 1
        else:
            root = root * 10 + 1
            exp -= 1
        rounded_ctx = ctx.copy()
        rounded_ctx.rounding = ROUND_HALF_EVEN
        result = Decimal._make(0, root, exp)._fix(rounded_ctx)
        for s in (Inexact, Rounded):
            if rounded_ctx.flags[s]:
                ctx._raise(s)
        return result

    # ------------------------------------------------------------------ rounding to an exponent

    def quantize(self, exp, rounding=None, context=None):
        exp = _convert(exp, True)
        ctx = getcontext() if context is None else context
        rounding = ctx.rounding if rounding is None else rounding
        nan = self._check_nans(exp, ctx)
        if nan is not None:
            return nan
        if self._special or exp._special:
            if self._special == 'F' and exp._special == 'F':
                return Decimal(self)
            return self._invalid(ctx)
        target = exp._exp
        if not (ctx.Etiny() <= target <= ctx.Emax):
            return self._invalid(ctx)
        if self._int == 0:
            return Decimal._make(self._sign, 0, target)
        if target >= self._exp:
            coeff, inexact = _round_coefficient(self._sign, self._int, target - self._exp, rounding)
        else:
            coeff, inexact = self._int * 10 ** (self._exp - target), False
        if _ndigits(coeff) > ctx.prec:
            return self._invalid(ctx)
        if target != self._exp:
            if inexact:
                ctx._raise(Inexact)
            if target > self._exp:
                ctx._raise(Rounded)
        return Decimal._make(self._sign, coeff, target)

    def to_integral_value(self, rounding=None, context=None):
        ctx = getcontext() if context is None else context
        if self._special:
            nan = self._check_nans(None, ctx)
            return nan if nan is not None else Decimal(self)
        if self._exp >= 0:
            return Decimal(self)
        coeff, _ = _round_coefficient(self._sign, self._int, -self._exp, ctx.rounding if rounding is None else rounding)
        return Decimal._make(self._sign, coeff, 0)

    to_integral = to_integral_value

    def to_integral_exact(self, rounding=None, context=None):
        ctx = getcontext() if context is None else context
        result = self.to_integral_value(rounding, ctx)
        if not self._special and self._exp < 0:
            ctx._raise(Rounded)
            if result != self:
                ctx._raise(Inexact)
        return result

    def normalize(self, context=None):
        ctx = getcontext() if context is None else context
        if self._special:
            return self
        d = self._fix(ctx)
        if d._special or d._int == 0:
            return Decimal._make(d._sign, 0, 0) if not d._special else d
        coeff, exp = d._int, d._exp
        while coeff % 10 == 0 and exp < ctx.Emax:
            coeff //= 10
            exp += 1
        return Decimal._make(d._sign, coeff, exp)

    def __round__(self, n=None):
        if n is not None:
            if not isinstance(n, int):
                raise TypeError('Second argument to round should be integral')
            return self.quantize(Decimal._make(0, 1, -n))
        if self._special:
            raise (ValueError('cannot round a NaN') if self.is_nan() else OverflowError('cannot round an infinity'))
        return int(self.to_integral_value(ROUND_HALF_EVEN))

    def __floor__(self):
        if self._special:
            raise (ValueError('cannot round a NaN') if self.is_nan() else OverflowError('cannot round an infinity'))
        return int(self.to_integral_value(ROUND_FLOOR))

    def __ceil__(self):
        if self._special:
            raise (ValueError('cannot round a NaN') if self.is_nan() else OverflowError('cannot round an infinity'))
        return int(self.to_integral_value(ROUND_CEILING))

    def __int__(self):
        if self._special:
            if self.is_nan():
                raise ValueError('cannot convert NaN to integer')
            raise OverflowError('cannot convert Infinity to integer')
        n = self._int * 10 ** self._exp if self._exp >= 0 else self._int // 10 ** -self._exp
        return -n if self._sign else n

    __trunc__ = __int__

    def __float__(self):
        if self._special:
            if self.is_snan():
                raise ValueError('cannot convert signaling NaN to float')
            return float('-nan' if self._sign and self.is_nan() else str(self).lower().replace('infinity', 'inf'))
        return float(str(self))

    def __bool__(self):
        return bool(self._special) or self._int != 0

    # ------------------------------------------------------------------ comparison and hashing

    def _cmp(self, other):
        """-1, 0, 1 for finite or infinite operands (NaNs are handled by callers)."""
        if self._special == 'F' or other._special == 'F':
            a = 0 if self._special != 'F' else (-1 if self._sign else 1)
            b = 0 if other._special != 'F' else (-1 if other._sign else 1)
            if a != b:
                return -1 if a < b else 1
            if a != 0:
                return 0
        if self._int == 0 and other._int == 0:
            return 0
        sa = -1 if self._sign else 1
        sb = -1 if other._sign else 1
        if self._int == 0:
            return -sb
        if other._int == 0:
            return sa
        if sa != sb:
            return -1 if sa < sb else 1
        exp = min(self._exp, other._exp)
        a = self._int * 10 ** (self._exp - exp)
        b = other._int * 10 ** (other._exp - exp)
        if a == b:
            return 0
        return (1 if a > b else -1) * sa

    def _compare_operand(self, other, op):
        if isinstance(other, float):
            getcontext().flags[FloatOperation] = True
            if getcontext().traps[FloatOperation] and op not in ('==', '!='):
                raise FloatOperation([FloatOperation])
            other = Decimal._from_float(other)
        other = _convert(other)
        return other

    def __eq__(self, other):
        other = self._compare_operand(other, '==')
        if other is NotImplemented:
            return other
        if self.is_nan() or other.is_nan():
            return False
        return self._cmp(other) == 0

    def _order(self, other, op):
        other = self._compare_operand(other, op)
        if other is NotImplemented:
            return other
        if self.is_nan() or other.is_nan():
            getcontext()._raise(InvalidOperation)
            return False
        return self._cmp(other)

    def __lt__(self, other):
        c = self._order(other, '<')
        return c if c is NotImplemented or c is False else c < 0

    def __le__(self, other):
        c = self._order(other, '<=')
        return c if c is NotImplemented or c is False else c <= 0

    def __gt__(self, other):
        c = self._order(other, '>')
        return c if c is NotImplemented or c is False else c > 0

    def __ge__(self, other):
        c = self._order(other, '>=')
        return c if c is NotImplemented or c is False else c >= 0

    def compare(self, other, context=None):
        other = _convert(other, True)
        ctx = getcontext() if context is None else context
        nan = self._check_nans(other, ctx)
        if nan is not None:
            return nan
        return Decimal(self._cmp(other))

    def max(self, other, context=None):
        other = _convert(other, True)
        return (self if self._cmp(other) >= 0 else other)._fix(getcontext() if context is None else context)

    def min(self, other, context=None):
        other = _convert(other, True)
        return (self if self._cmp(other) <= 0 else other)._fix(getcontext() if context is None else context)

    def __hash__(self):
        if self._special:
            if self.is_snan():
                raise TypeError('Cannot hash a signaling NaN value.')
            if self.is_nan():
                return 0
            return -314159 if self._sign else 314159
        modulus = (1 << 61) - 1
        if self._exp >= 0:
            h = self._int % modulus * pow(10, self._exp, modulus) % modulus
        else:
            h = self._int % modulus * pow(_TEN_INV, -self._exp, modulus) % modulus
        h = -h if self._sign else h
        return -2 if h == -1 else h

    # ------------------------------------------------------------------ text

    def __str__(self, eng=False, context=None):
        sign = '-' if self._sign else ''
        if self._special:
            if self._special == 'F':
                return sign + 'Infinity'
            name = 'sNaN' if self._special == 'N' else 'NaN'
            return sign + name + (str(self._int) if self._int else '')
        digits = str(self._int)
        exp = self._exp
        adjusted = exp + len(digits) - 1
        if exp <= 0 and adjusted >= -6:
            if exp == 0:
                return sign + digits
            point = len(digits) + exp
            if point > 0:
                return sign + digits[:point] + '.' + digits[point:]
            return sign + '0.' + '0' * -point + digits
        e = 'E' if (context or getcontext()).capitals else 'e'
        body = digits[0] + ('.' + digits[1:] if len(digits) > 1 else '')
        return sign + body + e + ('+' if adjusted >= 0 else '-') + str(abs(adjusted))

    def __repr__(self):
        return f"Decimal('{self}')"

    def to_eng_string(self, context=None):
        return str(self)

    def __format__(self, spec):
        if spec == '':
            return str(self)
        return _format(self, spec)


_TEN_INV = pow(10, (1 << 61) - 3, (1 << 61) - 1)


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def _isqrt(n):
    if n < 2:
        return n
    x = 1 << ((n.bit_length() + 1) // 2)
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def _all_decimal(digits):
    return all(c.isdecimal() for c in digits)


def _to_ascii_digits(digits):
    if digits.isascii():
        return digits
    return ''.join(str(int(c)) for c in digits)


def _convert(other, raise_error=False):
    if isinstance(other, Decimal):
        return other
    if isinstance(other, int):
        return Decimal(other)
    if raise_error:
        raise TypeError(f'conversion from {type(other).__name__} to Decimal is not supported')
    return NotImplemented


def _format(d, spec):
    """format(Decimal, spec) for the common presentation types: f, F, e, E, g, G, % and none."""
    fill, align, sign_opt, zero, width, grouping, precision, kind = _parse_spec(spec)
    if d._special:
        body = 'Infinity' if d._special == 'F' else 'NaN'
        sign = '-' if d._sign else ('+' if sign_opt == '+' else ' ' if sign_opt == ' ' else '')
        return _pad(sign, body, fill, align or '>', width)
    rounding = getcontext().rounding
    value = d
    if kind == '%':
        value = Decimal._make(d._sign, d._int, d._exp + 2)
    if kind in ('f', 'F', '%'):
        if precision is not None:
            value = _rescale(value, -precision, rounding)
        body = _plain(value)
    elif kind in ('e', 'E'):
        if value._int == 0:
            digits = '0' * (1 if precision is None else precision + 1)
            exp = value._exp + (precision or 0)
        else:
            if precision is not None:
                length = _ndigits(value._int)
                value = _rescale(value, value._exp + length - 1 - precision, rounding)
                if _ndigits(value._int) > precision + 1:
                    value = Decimal._make(value._sign, value._int // 10, value._exp + 1)
            digits = str(value._int)
            exp = value._exp + len(digits) - 1
        body = digits[0] + ('.' + digits[1:] if len(digits) > 1 else '') + 'e' + ('+' if exp >= 0 else '-') + str(abs(exp))
    elif kind in ('g', 'G', None):
        if precision is not None and value._int:
            length = _ndigits(value._int)
            if length > precision:
                value = _rescale(value, value._exp + length - precision, rounding)
                if _ndigits(value._int) > precision:
                    value = Decimal._make(value._sign, value._int // 10, value._exp + 1)
        body = str(Decimal._make(0, value._int, value._exp))
        if kind == 'g':
            body = body.replace('E', 'e')
    else:
        raise ValueError(f"Invalid format specifier '{spec}' for object of type 'Decimal'")
    if kind == '%':
        body += '%'
    if kind in ('F', 'E', 'G'):
        body = body.upper()
    if grouping:
        body = _group(body, grouping)
    negative = value._sign == 1 and (value._int != 0 or True)
    sign = '-' if negative else ('+' if sign_opt == '+' else ' ' if sign_opt == ' ' else '')
    if zero and align is None:
        fill, align = '0', '='
    return _pad(sign, body, fill, align or '>', width)


def _rescale(d, exp, rounding):
    if exp <= d._exp:
        return Decimal._make(d._sign, d._int * 10 ** (d._exp - exp), exp)
    coeff, _ = _round_coefficient(d._sign, d._int, exp - d._exp, rounding)
    return Decimal._make(d._sign, coeff, exp)


def _plain(d):
    digits = str(d._int)
    if d._exp >= 0:
        return digits + '0' * d._exp
    point = len(digits) + d._exp
    if point > 0:
        return digits[:point] + '.' + digits[point:]
    return '0.' + '0' * -point + digits


def _group(body, sep):
    head, dot, tail = body.partition('.')
    digits = ''.join(c for c in head if c.isdigit())
    rest = head[len(digits):]
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    return sep.join(groups) + rest + dot + tail


def _pad(sign, body, fill, align, width):
    total = len(sign) + len(body)
    if width is None or total >= width:
        return sign + body
    pad = width - total
    if align == '<':
        return sign + body + fill * pad
    if align == '^':
        left = pad // 2
        return fill * left + sign + body + fill * (pad - left)
    if align == '=':
        return sign + fill * pad + body
    return fill * pad + sign + body


def _parse_spec(spec):
    i = 0
    fill, align = ' ', None
    if len(spec) >= 2 and spec[1] in '<>^=':
        fill, align = spec[0], spec[1]
        i = 2
    elif spec[:1] in ('<', '>', '^', '='):
        align = spec[0]
        i = 1
    sign = None
    if i < len(spec) and spec[i] in '+- ':
        sign = spec[i]
        i += 1
    zero = False
    if i < len(spec) and spec[i] == '0':
        zero = True
        i += 1
    start = i
    while i < len(spec) and spec[i].isdigit():
        i += 1
    width = int(spec[start:i]) if i > start else None
    grouping = None
    if i < len(spec) and spec[i] in ',_':
        grouping = spec[i]
        i += 1
    precision = None
    if i < len(spec) and spec[i] == '.':
        i += 1
        start = i
        while i < len(spec) and spec[i].isdigit():
            i += 1
        if i == start:
            raise ValueError('Format specifier missing precision')
        precision = int(spec[start:i])
    kind = None
    if i < len(spec):
        kind = spec[i]
        i += 1
    if i != len(spec) or (kind is not None and kind not in 'eEfFgG%'):
        raise ValueError(f"Invalid format specifier '{spec}' for object of type 'Decimal'")
    return fill, align, sign, zero, width, grouping, precision, kind
