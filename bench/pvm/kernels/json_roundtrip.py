# A JSON-like serializer and parser written in Python (string heavy):
# builds a document, serialises it, parses it back, and checks the round trip.
ROUNDS = 280


def dumps(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        out.append('"')
        for ch in v:
            if ch == '"':
                out.append('\\"')
            elif ch == "\\":
                out.append("\\\\")
            elif ch == "\n":
                out.append("\\n")
            elif ch < " ":
                out.append("\\u%04x" % ord(ch))
            else:
                out.append(ch)
        out.append('"')
    elif isinstance(v, list):
        out.append("[")
        first = True
        for x in v:
            if not first:
                out.append(",")
            first = False
            dumps(x, out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        first = True
        for k in sorted(v):
            if not first:
                out.append(",")
            first = False
            dumps(k, out)
            out.append(":")
            dumps(v[k], out)
        out.append("}")
    else:
        raise TypeError(type(v).__name__)


class Parser:
    def __init__(self, s):
        self.s = s
        self.i = 0

    def parse(self):
        c = self.s[self.i]
        if c == "{":
            self.i += 1
            out = {}
            if self.s[self.i] == "}":
                self.i += 1
                return out
            while True:
                k = self.parse()
                self.i += 1  # ':'
                out[k] = self.parse()
                c = self.s[self.i]
                self.i += 1
                if c == "}":
                    return out
        if c == "[":
            self.i += 1
            out = []
            if self.s[self.i] == "]":
                self.i += 1
                return out
            while True:
                out.append(self.parse())
                c = self.s[self.i]
                self.i += 1
                if c == "]":
                    return out
        if c == '"':
            self.i += 1
            buf = []
            s = self.s
            while True:
                j = self.i
                while s[j] != '"' and s[j] != "\\":
                    j += 1
                buf.append(s[self.i:j])
                self.i = j + 1
                if s[j] == '"':
                    return "".join(buf)
                e = s[self.i]
                if e == "u":
                    buf.append(chr(int(s[self.i + 1:self.i + 5], 16)))
                    self.i += 5
                else:
                    buf.append({"n": "\n", '"': '"', "\\": "\\"}[e])
                    self.i += 1
        if c == "n":
            self.i += 4
            return None
        if c == "t":
            self.i += 4
            return True
        if c == "f":
            self.i += 5
            return False
        j = self.i
        while self.s[j] in "-0123456789":
            j += 1
        v = int(self.s[self.i:j])
        self.i = j
        return v


def make_doc(seed):
    users = []
    for i in range(40):
        k = (seed * 31 + i * 17) % 1000
        users.append({
            "id": k,
            "name": "user-%d \"quoted\"" % k,
            "active": k % 3 != 0,
            "tags": ["t%d" % (k % 7), "line\nbreak", "tab\there"],
            "balance": k * 1000003 - 500000,
            "meta": {"ref": None, "score": [k % 10, k % 11, k % 13]},
        })
    return {"version": seed, "users": users, "note": "cowboy \\ pvm"}


total = 0
for r in range(ROUNDS):
    doc = make_doc(r)
    out = []
    dumps(doc, out)
    text = "".join(out)
    back = Parser(text).parse()
    if back != doc:
        raise AssertionError("round trip mismatch")
    total = (total * 131 + len(text) + sum(u["id"] for u in back["users"])) % 1000000007
print(f"json_roundtrip rounds={ROUNDS} checksum={total} last_len={len(text)}")
