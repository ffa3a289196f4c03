# A tokenizer for a small expression language.
KEYWORDS = {"let", "if", "else", "fn", "return", "while"}
def tokenize(src):
    toks = []
    i = 0
    line = 1
    while i < len(src):
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            while i < len(src) and src[i] != "\n":
                i += 1
        elif c.isdigit():
            j = i
            while j < len(src) and (src[j].isdigit() or src[j] == "."):
                j += 1
            text = src[i:j]
            toks.append(("FLOAT" if "." in text else "INT", text, line))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] == "_"):
                j += 1
            word = src[i:j]
            toks.append(("KW" if word in KEYWORDS else "IDENT", word, line))
            i = j
        elif c == '"':
            j = i + 1
            buf = []
            while src[j] != '"':
                if src[j] == "\\":
                    j += 1
                    buf.append({"n": "\n", "t": "\t"}.get(src[j], src[j]))
                else:
                    buf.append(src[j])
                j += 1
            toks.append(("STR", "".join(buf), line))
            i = j + 1
        elif src[i:i + 2] in ("==", "!=", "<=", ">=", "->", "&&", "||"):
            toks.append(("OP", src[i:i + 2], line))
            i += 2
        elif c in "+-*/%=<>(){}[],;:!":
            toks.append(("OP", c, line))
            i += 1
        else:
            raise SyntaxError(f"unexpected {c!r} at line {line}")
    return toks
src = '''let x = 10;  # comment
fn add(a, b) -> a + b;
if x >= 3.5 && x != 4 { print("hi\\tthere\\n"); }
while_loop = [1, 2, 3];
'''
for t in tokenize(src):
    print(t)
try:
    tokenize("let y = 5 @ 3")
except SyntaxError as e:
    print("SyntaxError", e)
counts = {}
for kind, _, _ in tokenize(src):
    counts[kind] = counts.get(kind, 0) + 1
print(counts)
