# Text statistics over a paragraph.
text = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity,
it was the season of Light, it was the season of Darkness, it was the spring of hope,
it was the winter of despair, we had everything before us, we had nothing before us."""
words = [w.strip(".,;:!?").lower() for w in text.split()]
print("words", len(words), "unique", len(set(words)))
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))
for w, n in top[:8]:
    print(f"{w:>8} {n:3d} {'*' * n}")
lengths = {}
for w in words:
    lengths[len(w)] = lengths.get(len(w), 0) + 1
print("length histogram", sorted(lengths.items()))
print("avg word length", round(sum(len(w) for w in words) / len(words), 4))
lines = text.splitlines()
print("lines", len(lines), "longest", max(len(l) for l in lines), "chars", len(text))
sentences = [s.strip() for s in text.replace("\n", " ").split(",") if s.strip()]
print("clauses", len(sentences), sentences[:3])
bigrams = {}
for a, b in zip(words, words[1:]):
    bigrams[(a, b)] = bigrams.get((a, b), 0) + 1
print(sorted(bigrams.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
caps = [w for w in text.split() if w[0].isupper()]
print("capitalized", caps)
