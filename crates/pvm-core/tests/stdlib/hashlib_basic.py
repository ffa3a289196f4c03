import hashlib

print(hashlib.sha256(b"").hexdigest())
print(hashlib.sha256(b"abc").hexdigest())
h = hashlib.sha256()
h.update(b"a")
h.update(bytearray(b"bc"))
print(h.hexdigest(), h.digest_size, h.block_size, h.name)
c = h.copy()
c.update(b"d")
print(h.hexdigest() != c.hexdigest(), c.hexdigest())
print(hashlib.sha256(b"x" * 1000).digest()[:8])
print(hashlib.sha3_256(b"").hexdigest())
print(hashlib.sha3_256(b"abc").hexdigest())
print(hashlib.blake2b(b"").hexdigest())
print(hashlib.blake2b(b"abc", digest_size=32).hexdigest())
print(hashlib.blake2b(b"msg", key=b"secret", digest_size=16).hexdigest())
print(hashlib.blake2b(b"msg", salt=b"salty", person=b"me").hexdigest())
print(hashlib.blake2b(b"y" * 300).hexdigest())
print(hashlib.new("sha256", b"abc").hexdigest() == hashlib.sha256(b"abc").hexdigest())
print(hashlib.new("SHA256", b"abc").name)
try:
    hashlib.sha256("text")
except TypeError as e:
    print("TypeError:", e)
try:
    hashlib.new("nosuchhash")
except ValueError as e:
    print("ValueError:", e)
try:
    hashlib.blake2b(digest_size=65)
except ValueError as e:
    print("ValueError:", e)
print(sorted(hashlib.algorithms_guaranteed & {"sha256", "sha3_256", "blake2b"}))
