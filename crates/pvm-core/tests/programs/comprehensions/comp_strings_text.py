# Text processing with comprehensions.
text = "Peter Piper picked a peck of pickled peppers"
print([w for w in text.split() if w.lower().startswith("p")])
print({w.lower(): len(w) for w in text.split()})
print("".join(c for c in text if c.lower() not in "aeiou"))
print(sorted({c for c in text.lower() if c.isalpha()}))
print([text.count(c) for c in "pe"], sum(1 for c in text if c.isupper()))
print(" ".join(w[::-1] for w in text.split()))
