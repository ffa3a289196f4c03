# Unicode-heavy string operations without normalization.
s = "Ωμέγα καὶ ἄλφα — ünïcödé ☃ 𝒳"
print(len(s), s.upper(), s.lower(), s.title())
print(s.split(), s[::-1], s.find("☃"), s.count("α"), s.replace("α", "A"))
print([c for c in s if not c.isascii()][:6], sum(1 for c in s if c.isalpha()))
enc = s.encode("utf-8")
print(len(enc), enc[:12], enc.decode("utf-8") == s)
print(sorted(set(s.lower()) - set(" —"))[:10])
print(s.center(40, "·"), s.ljust(35, "~") + "|")
