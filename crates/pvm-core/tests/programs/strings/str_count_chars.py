# Counting characters and classifying text.
text = "Hello World! 123 — ünïcödé text, with punctuation; and\ttabs.\n"
counts = {"alpha": 0, "digit": 0, "space": 0, "upper": 0, "other": 0}
for ch in text:
    if ch.isalpha():
        counts["alpha"] += 1
        if ch.isupper():
            counts["upper"] += 1
    elif ch.isdigit():
        counts["digit"] += 1
    elif ch.isspace():
        counts["space"] += 1
    else:
        counts["other"] += 1
print(counts)
letters = {}
for ch in text.lower():
    if ch.isalpha():
        letters[ch] = letters.get(ch, 0) + 1
print(sorted(letters.items()))
print(max(letters, key=lambda c: (letters[c], c)))
vowels = sum(text.lower().count(v) for v in "aeiou")
print("vowels", vowels, "len", len(text), "words", len(text.split()))
