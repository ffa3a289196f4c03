# Many values through json.dumps / json.loads (canonical and default forms).
import json

floats = [0.0, -0.0, 1.0, -1.5, 0.1, 0.2 + 0.1, 1e16, 1e-7, 123456789.125, 2.5e-308, 1.7976931348623157e308,
          5e-324, 1 / 3, 100.0, 1e22, 1e21, 12345678912345678.0, 0.000123]
ints = [0, -1, 2 ** 63, -(2 ** 63) - 1, 10 ** 30, 255]
strs = ["", "plain", "quote\"", "back\\slash", "\x00\x1f\x7f", "tab\tnl\nret\r", "é", "€", "😀", "\u2028\u2029", "/"]
for v in floats + ints + strs + [None, True, False, [], {}, [[]], {"": ""}]:
    a = json.dumps(v)
    b = json.dumps(v, ensure_ascii=False)
    c = json.dumps(v, sort_keys=True, separators=(",", ":"))
    back = json.loads(a)
    print(a, b, c, back == v or v != v, type(back).__name__)
doc = {"z": 1, "a": [1, {"y": 2, "b": [None, True]}], "m": {"k": "v", "c": -0.5}, "é": "ü", "10": 10, "9": 9}
print(json.dumps(doc, sort_keys=True, separators=(",", ":")))
print(json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
print(json.dumps(doc, indent="\t", sort_keys=True))
print(json.dumps(doc, indent=1))
for text in ['1e400', '-1e400', '1E2', '0.5e-1', '-0', '-0.0', '  {"a" : [ 1 , 2 ] }  ', '"\\u00e9\\u20ac"', '[1,]', '01', '1.', '.5', 'tru', '"\\x"', '"a\nb"', '{"a":1}x', 'NaN', '-Infinity', '[1e5, 2E-3, 3.0e+2]', '123456789012345678901234567890']:
    try:
        print(repr(json.loads(text)))
    except json.JSONDecodeError as e:
        print("JSONDecodeError:", e)
print(json.loads('"\\ud83d\\ude00"'), json.dumps(json.loads('"\\ud83d\\ude00"')))
print(json.dumps({True: 1, False: 2, None: 3, 1.5: 4, 7: 5}))
try:
    json.dumps({(1, 2): 3})
except TypeError as e:
    print("TypeError:", e)
print(json.dumps({(1, 2): 3}, skipkeys=True))
try:
    json.dumps({"b": 1, 2: 3}, sort_keys=True)
except TypeError as e:
    print("TypeError:", e)
class Enc(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, set):
            return sorted(o)
        return super().default(o)
print(json.dumps({"s": {3, 1, 2}}, cls=Enc), Enc(sort_keys=True).encode({"b": 1, "a": 2}))
print(json.JSONDecoder().decode('[1, "x"]'), json.JSONDecoder().raw_decode('{"a": 1} tail'))
