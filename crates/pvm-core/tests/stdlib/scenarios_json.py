# Scenarios of the `json` module: one `try` block per expression. The single source of
# these cases: the PVM runs this program (tests/stdlib.rs) and crates/pvm-stdlib/tests/
# test_against_cpython.py evaluates each expression under CPython with our module and CPython's.
import json as M

DEC_VALUES = ['0', '1', '-1', '1.10', '2.5', '-2.5', '0.1', '3.14159', '1E+3', '12345678901234567890.123456789',
              '0.000001', '1e-7', '-0.0', '100', '7', '3', '0.3333', '999.999', '1E-30', '123.4500']

try:
    print('ok', repr(M.dumps({'a': [1, 2.5, None, True, False], 'b': 'x"y\\z\n', 'c': {}})))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps([1e16, 1e-7, 0.1, -0.0, 3.0, 12345678901234567890, -5])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps('héllo ☃ 😀 \x01\x1f\x7f')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps('héllo ☃ 😀', ensure_ascii=False)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps({'b': 1, 'a': {'d': 2, 'c': 3}}, sort_keys=True)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps({'b': 1, 'a': [1, 2]}, separators=(',', ':'), sort_keys=True)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps({'a': [1, {'b': []}], 'c': {}}, indent=2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps([1, [2, [3]]], indent='\t')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps({1: 'a', 2.5: 'b', True: 'c', None: 'd'})))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps({(1, 2): 'x'})))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps({(1, 2): 'x', 'k': 1}, skipkeys=True)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps(float('nan')), M.dumps(float('inf')), M.dumps([-float('inf')])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps(float('nan'), allow_nan=False)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps(object())))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps({1, 2})))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps(set(), default=sorted), M.dumps({3, 1, 2}, default=sorted)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr((lambda l: (l.append(l), M.dumps(l)))([])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.dumps((1, 2)), M.dumps([]), M.dumps({}), M.dumps(''), M.dumps(0)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('{"a": [1, 2.5, -3e2, null, true, false, "x\\u00e9\\n"]}')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads(' [1 , 2 ] ')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('"\\ud83d\\ude00 \\ud800"')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('NaN'), M.loads('[Infinity, -Infinity]')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('12345678901234567890'), M.loads('-0'), M.loads('1.0e+2'), M.loads('0.5')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('[1, 2')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('[1, 2,]')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('{"a": 1,}')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('{a: 1}')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('{"a" 1}')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('[1] x')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('"abc')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('"a\tb"')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('"\\q"')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('"\\u12"')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('01')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('-')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('[1,\n 2,\n x]')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('{"a": 1}', object_pairs_hook=list), M.loads('[1.5]', parse_float=str), M.loads('{"a": 1}', object_hook=len)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads(b'[1]'), M.loads(5)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads('\ufeff[1]')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ok', repr(M.loads(M.dumps({'k': [1, 'two', 3.5, None, {'n': True}]}))))
except Exception as e:
    print(type(e).__name__, e)
