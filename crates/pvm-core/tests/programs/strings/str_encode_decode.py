# encode/decode with various codecs and error handlers.
s = "héllo wörld €"
b = s.encode()
print(b, len(b), b.decode(), b.decode("utf-8") == s)
print(s.encode("latin-1", errors="replace"), s.encode("ascii", "ignore"), s.encode("ascii", "replace"))
print(s.encode("ascii", "backslashreplace"), s.encode("ascii", "xmlcharrefreplace"))
print("abc".encode("ascii"), "ñ".encode("latin-1"), b"\xf1".decode("latin-1"))
print(b"\xff\xfeA".decode("utf-8", "replace"), b"\xff\xfeA".decode("utf-8", "ignore"), b"a\x80b".decode("ascii", "backslashreplace"))
try:
    s.encode("ascii")
except UnicodeEncodeError as e:
    print("UnicodeEncodeError", e)
try:
    b"\xe2\x82".decode("utf-8")
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e)
print("𝄞".encode("utf-8"), "𝄞".encode("utf-16-le") if False else "-", len("𝄞".encode()))
print(bytes("xyz", "utf-8"), str(b"xyz", "ascii"), str(b"xyz"))
