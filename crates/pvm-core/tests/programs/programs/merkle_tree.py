# A Merkle tree with inclusion proofs, using a small pure-Python hash (FNV-style, 64-bit).
def h(data):
    x = 0xCBF29CE484222325
    for b in data:
        x ^= b
        x = (x * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 29
    return x.to_bytes(8, "big")
def leaf(d):
    return h(b"\x00" + d)
def node(a, b):
    return h(b"\x01" + a + b)
def build(leaves):
    levels = [[leaf(l) for l in leaves]]
    while len(levels[-1]) > 1:
        cur = levels[-1]
        nxt = []
        for i in range(0, len(cur), 2):
            nxt.append(node(cur[i], cur[i + 1] if i + 1 < len(cur) else cur[i]))
        levels.append(nxt)
    return levels
def proof(levels, idx):
    out = []
    for lvl in levels[:-1]:
        sib = idx ^ 1
        out.append((lvl[sib] if sib < len(lvl) else lvl[idx], idx & 1))
        idx >>= 1
    return out
def verify(root, data, prf):
    x = leaf(data)
    for sib, is_right in prf:
        x = node(sib, x) if is_right else node(x, sib)
    return x == root
txs = [f"tx{i}:alice->bob:{i * 10}".encode() for i in range(7)]
levels = build(txs)
root = levels[-1][0]
print("root", root.hex(), "levels", [len(l) for l in levels])
for i in range(len(txs)):
    p = proof(levels, i)
    print(i, verify(root, txs[i], p), verify(root, txs[i] + b"x", p), [s.hex()[:6] + str(r) for s, r in p])
