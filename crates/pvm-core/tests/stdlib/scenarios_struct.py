# Scenarios of the `struct` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import struct as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

def struct_roundtrips(M):
    import math as _m
    out = []
    values = [0.0, -0.0, 1.0, -1.5, 0.1, 1 / 3, 1e-310, 5e-324, 1.7976931348623157e308, 65504.0, 65519.99, 6e-8,
              1e-45, 3.4028234663852886e38, 3.4028235677973366e38, 2.0 ** -149, 2.0 ** -150, 1e300, float('inf'),
              -float('inf'), 0.333333333, 123456.789, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26]
    for fmt in ('<d', '>f', '<e'):
        for v in values:
            try:
                packed = M.pack(fmt, v)
                out.append((fmt, v, packed.hex(), M.unpack(fmt, packed)))
            except Exception as e:  # noqa: BLE001
                out.append((fmt, v, type(e).__name__, str(e)))
        nan = M.unpack(fmt, M.pack(fmt, float('nan')))[0]
        out.append((fmt, 'nan', _m.isnan(nan), M.pack(fmt, float('nan')).hex()))
    return out

try:
    print('ok', repr(struct_roundtrips(M)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.calcsize('@bhilqd'), M.calcsize('=bhilqd'), M.calcsize('<i?H'), M.calcsize('@c i'), M.calcsize('3s2xH'), M.calcsize('@d b')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('>hHiIqQ', -2, 65535, -70000, 4000000000, -(1 << 63), (1 << 64) - 1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('<4s3sp5p', b'ab', b'abcdef', b'zz', b'hello world')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.unpack('<4s3sp5p', M.pack('<4s3sp5p', b'ab', b'abcdef', b'zz', b'hello world'))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('@bid', 1, 2, 3.5), M.pack('!?c', True, b'x'), M.pack('<e', 1.5), M.pack('>f', 0.1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('h', 40000)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('B', -1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('Q', -1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('i', 'x')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('f', 'x')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('2i', 1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('e', 70000.0)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('f', 1e39)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.unpack('<i', b'abc')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('z', 1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.pack('<n', 1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(list(M.iter_unpack('<hb', bytes(range(9))))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.unpack_from('<H', b'xxab', 2), M.Struct('<3H').size, M.Struct('>d').unpack(M.pack('>d', -0.0))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda b: (M.pack_into('<H', b, 1, 513), bytes(b)))(bytearray(4))))
except Exception as e:
    print(type(e).__name__, e)
