# Encoding a set of strings under several codecs and error handlers.
samples = ["plain", "café", "naïve ü", "€uro", "日本", "tab\tnew\nline"]
for s in samples:
    row = [s.encode("utf-8")]
    for codec in ("ascii", "latin-1"):
        for errors in ("strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace"):
            try:
                row.append(s.encode(codec, errors))
            except UnicodeEncodeError as e:
                row.append(f"E({e.start},{e.end})")
    print(repr(s), row)
for raw in [b"caf\xc3\xa9", b"caf\xe9", b"\xe6\x97\xa5\xe6", b"ok"]:
    out = []
    for errors in ("strict", "ignore", "replace", "backslashreplace"):
        try:
            out.append(raw.decode("utf-8", errors))
        except UnicodeDecodeError as e:
            out.append(f"E({e.start},{e.end},{e.reason})")
    print(raw, out, raw.decode("latin-1"))
