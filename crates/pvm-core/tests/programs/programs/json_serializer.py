# A JSON serializer and parser written in Python.
def dumps(v, indent=None, level=0):
    pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
    end = "" if indent is None else "\n" + " " * (indent * level)
    sep = "," if indent is None else ","
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        out = ['"']
        for ch in v:
            if ch == '"':
                out.append('\\"')
            elif ch == "\\":
                out.append("\\\\")
            elif ch == "\n":
                out.append("\\n")
            elif ord(ch) < 0x20 or ord(ch) > 0x7E:
                out.append("\\u%04x" % ord(ch) if ord(ch) < 0x10000 else ch)
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)
    if isinstance(v, (list, tuple)):
        if not v:
            return "[]"
        return "[" + sep.join(pad + dumps(x, indent, level + 1) for x in v) + end + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        colon = ":" if indent is None else ": "
        return "{" + sep.join(pad + dumps(str(k), indent, level + 1) + colon + dumps(v[k], indent, level + 1) for k in sorted(v)) + end + "}"
    raise TypeError(f"not serializable: {type(v).__name__}")
class Parser:
    def __init__(self, s):
        self.s, self.i = s, 0
    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \n\t\r":
            self.i += 1
    def value(self):
        self.ws()
        c = self.s[self.i]
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c == '"':
            return self.string()
        for lit, val in (("null", None), ("true", True), ("false", False)):
            if self.s.startswith(lit, self.i):
                self.i += len(lit)
                return val
        return self.number()
    def obj(self):
        self.i += 1
        out = {}
        self.ws()
        if self.s[self.i] == "}":
            self.i += 1
            return out
        while True:
            self.ws()
            k = self.string()
            self.ws()
            assert self.s[self.i] == ":"
            self.i += 1
            out[k] = self.value()
            self.ws()
            if self.s[self.i] == ",":
                self.i += 1
                continue
            assert self.s[self.i] == "}"
            self.i += 1
            return out
    def arr(self):
        self.i += 1
        out = []
        self.ws()
        if self.s[self.i] == "]":
            self.i += 1
            return out
        while True:
            out.append(self.value())
            self.ws()
            if self.s[self.i] == ",":
                self.i += 1
                continue
            self.i += 1
            return out
    def string(self):
        self.i += 1
        buf = []
        while self.s[self.i] != '"':
            c = self.s[self.i]
            if c == "\\":
                self.i += 1
                e = self.s[self.i]
                if e == "u":
                    buf.append(chr(int(self.s[self.i + 1:self.i + 5], 16)))
                    self.i += 4
                else:
                    buf.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/"}[e])
            else:
                buf.append(c)
            self.i += 1
        self.i += 1
        return "".join(buf)
    def number(self):
        j = self.i
        while j < len(self.s) and self.s[j] in "+-0123456789.eE":
            j += 1
        text = self.s[self.i:j]
        self.i = j
        return float(text) if any(c in text for c in ".eE") else int(text)
doc = {"name": "cowboy", "version": 3, "tags": ["vm", "chain", "py"], "ratio": 0.125, "nested": {"ok": True, "none": None, "list": [1, [2, [3]]]},
       "text": 'quote " backslash \\ newline \n unicode é€', "big": 2**80, "neg": -17, "float": 1e-7, "empty": {}, "e2": []}
s = dumps(doc)
print(s)
print(dumps(doc, indent=2))
back = Parser(s).value()
print(back == doc, back["text"], back["big"])
print(dumps([1.5, "a", None, [True, False]]), Parser('  [ 1 , -2.5e3 , "x\\u0041" , {"k" : [ ] } ] ').value())
try:
    dumps({"s": {1, 2}})
except TypeError as e:
    print("TypeError", e)
