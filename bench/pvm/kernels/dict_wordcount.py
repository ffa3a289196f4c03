# Dict-heavy kernel: word counts, bigram counts and a dict-of-dicts index over
# generated text, then deterministic summaries.
ROUNDS = 36
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
         "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"]


def gen_words(n, seed):
    x = seed
    out = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        w = WORDS[x % len(WORDS)]
        if x & 0x100:
            w = w + str(x % 13)
        out.append(w)
    return out


checksum = 0
for r in range(ROUNDS):
    words = gen_words(12000, r + 1)
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    bigrams = {}
    for a, b in zip(words, words[1:]):
        inner = bigrams.get(a)
        if inner is None:
            inner = bigrams[a] = {}
        inner[b] = inner.get(b, 0) + 1
    by_len = {}
    for w, c in counts.items():
        by_len.setdefault(len(w), []).append((c, w))
    best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    follow = {a: max(d.items(), key=lambda kv: (kv[1], kv[0]))[0] for a, d in bigrams.items()}
    merged = {}
    for d in bigrams.values():
        for k, v in d.items():
            merged[k] = merged.get(k, 0) + v
    for k in list(merged):
        if merged[k] < 40:
            del merged[k]
    s = len(counts) * 7 + best[1] + len(follow) + len(merged) + sum(len(v) for v in by_len.values())
    s += sum(ord(follow[k][0]) for k in sorted(follow)[:50])
    checksum = (checksum * 1000003 + s) % (2 ** 61 - 1)
print(f"dict_wordcount rounds={ROUNDS} checksum={checksum}")
