import json

data = {"name": "cowboy", "n": 3, "ok": True, "none": None, "xs": [1, 2.5, -3, "é"], "nested": {"b": 1, "a": [{}]}}
print(json.dumps(data))
print(json.dumps(data, sort_keys=True, separators=(",", ":")))
print(json.dumps(data, indent=2, sort_keys=True))
print(json.dumps(data, ensure_ascii=False))
print(json.dumps("quote\" backslash\\ tab\t nl\n ctrl\x01 snow\u2603 emoji\U0001F600"))
print(json.dumps([1e100, 0.1, -0.0, 1.0, 12345678901234567890]))
print(json.dumps({1: "a", 2.5: "b", True: "c", None: "d"}))
print(json.dumps((1, 2)), json.dumps([]), json.dumps({}))
print(json.loads('{"a": [1, 2, {"b": null}], "c": "x\\u00e9\\n", "d": 1.5e3, "e": -0, "f": true}'))
print(json.loads("[1, 2.0, 3e-2, \"\\ud83d\\ude00\"]"))
print(json.loads('"plain"'), json.loads("42"), json.loads("  [ ] "))
for bad in ['{"a": 1,}', '[1, 2', 'nul', '{"a" 1}', '', '"abc']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print("error:", e.msg, e.pos, e.lineno, e.colno)
try:
    json.dumps({"s": {1, 2}})
except TypeError as e:
    print("TypeError:", e)
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print("ValueError:", e)
print(json.dumps(float("inf")), json.dumps(float("nan")))
print(json.dumps({"b": 2, "a": 1}, sort_keys=True, indent=4, separators=(",", ": ")))
print(json.dumps([1, [2, [3]]], indent=0))
print(json.dumps("x", default=str), json.dumps({"k": object}, default=lambda o: "obj"))
print(json.loads('{"a": 1, "a": 2}'))
print(json.loads('[1.25, 2]', parse_float=lambda s: "F" + s, parse_int=lambda s: "I" + s))
print(json.loads('{"x": 1}', object_hook=lambda d: sorted(d.items())))
print(json.loads('{"x": 1, "y": 2}', object_pairs_hook=lambda p: p))
canon = json.dumps({"z": [3, 2, 1], "a": {"y": None, "b": False}}, sort_keys=True, separators=(",", ":"))
print(canon, len(canon))
print(json.loads(canon) == {"z": [3, 2, 1], "a": {"y": None, "b": False}})
