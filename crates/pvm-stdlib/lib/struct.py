"""struct for the PVM: conversions between Python values and C structs packed as bytes.

Byte orders '@' (native: little-endian with x86-64 LP64 sizes and alignment, fixed so every
validator agrees), '=', '<', '>' and '!'. Formats x c b B ? h H i I l L q Q n N e f d s p P.
Floats are packed from their exact values with round-half-even, as CPython does.
"""

import math

__all__ = ['calcsize', 'pack', 'pack_into', 'unpack', 'unpack_from', 'iter_unpack', 'Struct', 'error']


class error(Exception):
    pass


# code: (standard size, native size, native alignment, kind)
_CODES = {
    'x': (1, 1, 1, 'pad'), 'c': (1, 1, 1, 'char'), 'b': (1, 1, 1, 'int'), 'B': (1, 1, 1, 'uint'),
    '?': (1, 1, 1, 'bool'), 'h': (2, 2, 2, 'int'), 'H': (2, 2, 2, 'uint'), 'i': (4, 4, 4, 'int'),
    'I': (4, 4, 4, 'uint'), 'l': (4, 8, 8, 'int'), 'L': (4, 8, 8, 'uint'), 'q': (8, 8, 8, 'int'),
    'Q': (8, 8, 8, 'uint'), 'n': (None, 8, 8, 'int'), 'N': (None, 8, 8, 'uint'), 'e': (2, 2, 2, 'float'),
    'f': (4, 4, 4, 'float'), 'd': (8, 8, 8, 'float'), 's': (1, 1, 1, 'bytes'), 'p': (1, 1, 1, 'pascal'),
    'P': (None, 8, 8, 'uint'),
}

# float formats: (exponent bits, fraction bits)
_FLOAT_LAYOUT = {2: (5, 10), 4: (8, 23), 8: (11, 52)}


def _parse(fmt):
    if isinstance(fmt, (bytes, bytearray)):
        fmt = fmt.decode('ascii')
    if not isinstance(fmt, str):
        raise TypeError(f"Struct() argument 1 must be a str or bytes object, not {type(fmt).__name__}")
    order = '@'
    i = 0
    if fmt[:1] in ('@', '=', '<', '>', '!'):
        order = fmt[0]
        i = 1
    native = order == '@'
    little = order in ('@', '=', '<')
    items = []  # (code, count, size, offset)
    offset = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        if c.isspace():
            i += 1
            continue
        count = None
        if c.isdigit():
            start = i
            while i < n and fmt[i].isdigit():
                i += 1
            count = int(fmt[start:i])
            if i >= n:
                raise error('repeat count given without format specifier')
            c = fmt[i]
        i += 1
        spec = _CODES.get(c)
        if spec is None or (not native and c in 'nNP'):
            raise error('bad char in struct format')
        std_size, native_size, align, kind = spec
        size = native_size if native else std_size
        if native and align > 1 and kind not in ('bytes', 'pascal', 'pad', 'char'):
            offset = (offset + align - 1) // align * align
        if kind in ('bytes', 'pascal'):
            width = 1 if count is None else count
            items.append((c, width, offset))
            offset += width
        else:
            repeat = 1 if count is None else count
            for _ in range(repeat):
                if native and align > 1:
                    offset = (offset + align - 1) // align * align
                items.append((c, size, offset))
                offset += size
    return little, native, items, offset


def _int_bounds(code, size):
    bits = size * 8
    if _CODES[code][3] == 'int':
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def _range_message(code, size, n, lo, hi, little):
    # CPython 3.11's wording depends on the code, the byte order and the size
    if code in 'bB' or (little and code in 'hH'):
        named = {'b': 'byte', 'B': 'ubyte', 'h': 'short', 'H': 'ushort'}[code]
        return f'{named} format requires {lo} <= number <= {hi}'
    if not little and code in 'qQ':
        return 'int too large to convert'
    if size <= 4 and code in 'hHiIlL' and not (code in 'HIL' and n < 0):
        return f"'{code}' format requires {lo} <= number <= {hi}"
    return 'argument out of range'


def _as_int(value):
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    index = getattr(type(value), '__index__', None)
    if index is None:
        raise error('required argument is not an integer')
    return index(value)


def _float_bits(x, size):
    """IEEE bits of float `x` in a binary format of `size` bytes, rounding half to even."""
    exp_bits, frac_bits = _FLOAT_LAYOUT[size]
    bias = (1 << (exp_bits - 1)) - 1
    sign = 1 if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x):
        return (sign << (exp_bits + frac_bits)) | (((1 << exp_bits) - 1) << frac_bits) | (1 << (frac_bits - 1))
    if math.isinf(x):
        return (sign << (exp_bits + frac_bits)) | (((1 << exp_bits) - 1) << frac_bits)
    if x == 0:
        return sign << (exp_bits + frac_bits)
    num, den = abs(x).as_integer_ratio()          # exact; den is a power of two
    # value = num / den = mant * 2**e with mant in [2**frac_bits, 2**(frac_bits+1)) when normal
    e = num.bit_length() - den.bit_length()
    if (num << max(0, -e)) < (den << max(0, e)):
        e -= 1
    min_exp = 1 - bias
    if e < min_exp:
        e = min_exp                                 # subnormal: fixed exponent, fewer digits
    shift = frac_bits - e                          # mant = value * 2**shift
    scaled_num = num << shift if shift >= 0 else num
    scaled_den = den if shift >= 0 else den << -shift
    mant, rem = divmod(scaled_num, scaled_den)
    twice = rem * 2
    if twice > scaled_den or (twice == scaled_den and mant & 1):
        mant += 1
    if mant >= 1 << (frac_bits + 1):               # rounding carried into a new binade
        mant >>= 1
        e += 1
    if e > bias:
        raise OverflowError('float too large to pack with %s format' % {2: 'e', 4: 'f', 8: 'd'}[size])
    if mant < 1 << frac_bits:                      # subnormal (or rounded to zero)
        biased = 0
    else:
        biased = e + bias
        mant -= 1 << frac_bits
    return (sign << (exp_bits + frac_bits)) | (biased << frac_bits) | mant


def _float_from_bits(bits, size):
    exp_bits, frac_bits = _FLOAT_LAYOUT[size]
    bias = (1 << (exp_bits - 1)) - 1
    sign = -1.0 if bits >> (exp_bits + frac_bits) else 1.0
    biased = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    frac = bits & ((1 << frac_bits) - 1)
    if biased == (1 << exp_bits) - 1:
        return sign * (math.inf if frac == 0 else math.nan)
    if biased == 0:
        return sign * math.ldexp(frac, 1 - bias - frac_bits)
    return sign * math.ldexp(frac | (1 << frac_bits), biased - bias - frac_bits)


def _pack_one(code, size, value, little, native):
    kind = _CODES[code][3]
    if kind == 'char':
        if not isinstance(value, (bytes, bytearray)) or len(value) != 1:
            raise error('char format requires a bytes object of length 1')
        return bytes(value)
    if kind == 'bool':
        return b'\x01' if value else b'\x00'
    if kind in ('int', 'uint'):
        n = _as_int(value)
        lo, hi = _int_bounds(code, size)
        if not lo <= n <= hi:
            raise error(_range_message(code, size, n, lo, hi, little))
        return (n & ((1 << (size * 8)) - 1)).to_bytes(size, 'little' if little else 'big')
    if kind == 'float':
        if not isinstance(value, (int, float)):
            convert = getattr(type(value), '__float__', None)
            if convert is None:
                raise error('required argument is not a float')
            value = convert(value)
        value = float(value)
        if native and code == 'f' and not math.isinf(value) and not math.isnan(value):
            try:
                bits = _float_bits(value, size)
            except OverflowError:
                bits = _float_bits(math.copysign(math.inf, value), size)  # C's (float) cast
        else:
            bits = _float_bits(value, size)
        return bits.to_bytes(size, 'little' if little else 'big')
    raise error('bad char in struct format')


class Struct:
    def __init__(self, format):
        self.format = format if isinstance(format, str) else format.decode('ascii')
        self._little, self._native, self._items, self.size = _parse(format)

    def _values_needed(self):
        return sum(1 for code, _, _ in self._items if code != 'x')

    def pack(self, *values):
        need = self._values_needed()
        if len(values) != need:
            raise error(f'pack expected {need} items for packing (got {len(values)})')
        out = bytearray(self.size)
        vi = 0
        for code, size, offset in self._items:
            if code == 'x':
                continue
            value = values[vi]
            vi += 1
            if code in 'sp':
                if not isinstance(value, (bytes, bytearray)):
                    raise error(f"argument for '{code}' must be a bytes object")
                if code == 's':
                    chunk = bytes(value[:size])
                    out[offset:offset + len(chunk)] = chunk
                elif size > 0:
                    chunk = bytes(value[:min(size - 1, 255)])
                    out[offset] = len(chunk)
                    out[offset + 1:offset + 1 + len(chunk)] = chunk
                continue
            out[offset:offset + size] = _pack_one(code, size, value, self._little, self._native)
        return bytes(out)

    def pack_into(self, buffer, offset, *args):
        data = self.pack(*args)
        if offset < 0:
            offset += len(buffer)
        if offset < 0 or offset + len(data) > len(buffer):
            raise error(f'pack_into requires a buffer of at least {len(data) + offset} bytes for packing '
                        f'{len(data)} bytes at offset {offset} (actual buffer size is {len(buffer)})')
        buffer[offset:offset + len(data)] = data

    def unpack(self, buffer):
        buffer = bytes(buffer)
        if len(buffer) != self.size:
            raise error(f'unpack requires a buffer of {self.size} bytes')
        return self._unpack(buffer, 0)

    def unpack_from(self, buffer, offset=0):
        buffer = bytes(buffer)
        if offset < 0:
            offset += len(buffer)
        if offset < 0 or len(buffer) - offset < self.size:
            raise error(f'unpack_from requires a buffer of at least {self.size + offset} bytes for unpacking '
                        f'{self.size} bytes at offset {offset} (actual buffer size is {len(buffer)})')
        return self._unpack(buffer, offset)

    def iter_unpack(self, buffer):
        buffer = bytes(buffer)
        if self.size == 0:
            raise error('cannot iteratively unpack with a struct of length 0')
        if len(buffer) % self.size:
            raise error(f'iterative unpacking requires a buffer of a multiple of {self.size} bytes')
        for start in range(0, len(buffer), self.size):
            yield self._unpack(buffer, start)

    def _unpack(self, buffer, base):
        out = []
        order = 'little' if self._little else 'big'
        for code, size, offset in self._items:
            at = base + offset
            kind = _CODES[code][3]
            chunk = buffer[at:at + size]
            if kind == 'pad':
                continue
            if kind == 'bytes':
                out.append(chunk)
            elif kind == 'pascal':
                n = min(chunk[0], size - 1) if size else 0
                out.append(chunk[1:1 + n])
            elif kind == 'char':
                out.append(chunk)
            elif kind == 'bool':
                out.append(chunk != bytes(size))
            elif kind == 'int':
                out.append(int.from_bytes(chunk, order, signed=True))
            elif kind == 'uint':
                out.append(int.from_bytes(chunk, order))
            else:
                out.append(_float_from_bits(int.from_bytes(chunk, order), size))
        return tuple(out)

    def __repr__(self):
        return f'Struct({self.format!r})'


def calcsize(format):
    return Struct(format).size


def pack(format, *values):
    return Struct(format).pack(*values)


def pack_into(format, buffer, offset, *values):
    return Struct(format).pack_into(buffer, offset, *values)


def unpack(format, buffer):
    return Struct(format).unpack(buffer)


def unpack_from(format, buffer, offset=0):
    return Struct(format).unpack_from(buffer, offset)


def iter_unpack(format, buffer):
    return Struct(format).iter_unpack(buffer)
