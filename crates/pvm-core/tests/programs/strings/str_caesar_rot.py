# Character arithmetic: caesar / rot13 / vigenere.
def caesar(s, k):
    out = []
    for ch in s:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + k) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)
msg = "Hello, World! Attack at dawn."
for k in (1, 3, 13, 25, -1):
    print(k, caesar(msg, k))
print(caesar(caesar(msg, 13), 13) == msg)
def vigenere(s, key):
    res = []
    i = 0
    for ch in s.upper():
        if ch.isalpha():
            res.append(chr((ord(ch) - 65 + ord(key[i % len(key)]) - 65) % 26 + 65))
            i += 1
    return "".join(res)
print(vigenere("attack at dawn", "LEMON"))
