# Huffman codes: build a code with deterministic tie-breaking, encode and decode.
def huffman(text):
    freq = {}
    for ch in text:
        freq[ch] = freq.get(ch, 0) + 1
    nodes = [(f, i, ch) for i, (ch, f) in enumerate(sorted(freq.items()))]
    counter = len(nodes)
    while len(nodes) > 1:
        nodes.sort(key=lambda n: (n[0], n[1]))
        a, b = nodes.pop(0), nodes.pop(0)
        nodes.append((a[0] + b[0], counter, (a, b)))
        counter += 1
    codes = {}
    def walk(n, prefix):
        if isinstance(n[2], str):
            codes[n[2]] = prefix or "0"
        else:
            walk(n[2][0], prefix + "0")
            walk(n[2][1], prefix + "1")
    walk(nodes[0], "")
    return codes
text = "this is an example of a huffman tree built in pure python"
codes = huffman(text)
for ch in sorted(codes, key=lambda c: (len(codes[c]), c)):
    print(repr(ch), codes[ch])
bits = "".join(codes[c] for c in text)
print(len(bits), len(text) * 8, round(len(bits) / (len(text) * 8), 4))
rev = {v: k for k, v in codes.items()}
out, cur = [], ""
for b in bits:
    cur += b
    if cur in rev:
        out.append(rev[cur])
        cur = ""
print("".join(out) == text)
packed = int(bits, 2).to_bytes((len(bits) + 7) // 8, "big")
print(packed.hex())
