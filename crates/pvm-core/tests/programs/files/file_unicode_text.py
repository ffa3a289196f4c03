# Text files are UTF-8: non-ASCII round trips and byte sizes.
path = "/tmp/pvm_corpus_unicode.txt"
text = "héllo wörld\n日本語テキスト\nemoji 😀\n"
with open(path, "w", encoding="utf-8") as f:
    f.write(text)
with open(path, "rb") as f:
    raw = f.read()
print(len(text), len(raw), raw[:8])
with open(path, encoding="utf-8") as f:
    back = f.read()
print(back == text, back.splitlines())
