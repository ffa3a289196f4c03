# Every augmented assignment operator.
x = 10
x += 5; print(x)
x -= 3; print(x)
x *= 4; print(x)
x //= 5; print(x)
x %= 7; print(x)
x **= 3; print(x)
x <<= 2; print(x)
x >>= 1; print(x)
x &= 0xF; print(x)
x |= 0x30; print(x)
x ^= 0xFF; print(x)
x /= 4; print(x)
s = "ab"; s += "cd"; s *= 2; print(s)
t = (1,); t += (2,); print(t)
d = {"k": 1}; d["k"] += 10; d["k"] *= 2; print(d)
class C:
    v = 1
C.v += 41; print(C.v)
o = C(); o.v += 1; print(o.v, C.v)
lst = [1, 2]; lst[-1] **= 5; print(lst)
