# Sorting, min/max, str/tuple ordering, `is` with bools, `in` on strs, list.append, dict.get,
# len/isinstance, int(str), str slices and module-level stores (the interpreter's fast paths
# for them); each line's cycle budget must not depend on those fast paths.
long_a = "a_fairly_long_string_of_text_0001"
long_b = "a_fairly_long_string_of_text_0002"
words = ["delta", "alpha", long_b, "charlie", long_a, "bravo", "alpha", ""]
print(sorted(words), sorted(words, reverse=True))
pairs = [(3, "c"), (1, long_b), (1, long_a), (2, "b"), (1, long_a), (3, "a")]
print(sorted(pairs), sorted(pairs, key=lambda p: (p[1], -p[0]), reverse=True))
nums = [5, -2, 9, 0, 5, 3, -7, 11, 2]
print(sorted(nums), sorted(nums, key=lambda v: (v % 3, -v)), min(nums), max(nums))
fl = [2.5, -1.0, 0.0, 3.25, -0.0, 1e300]
nan = float("nan")
print(sorted(fl), sorted([(x, 1) for x in fl]), nan < 1.0, (nan, 1) < (2.0, 1), [nan] < [1.0])
mixed = [3, 2.5, True, -1, 7.0]
print(sorted(mixed), max(mixed), min([(1, 2.0), (1, 1), (0, 5)]))
try:
    sorted([1, "x", 2])
except TypeError as e:
    print("TypeError", e)
try:
    sorted([(1, "a"), (1, 2)])
except TypeError as e:
    print("TypeError", e)
nested = [((2, "b"), 1), ((1, "z"), 2), ((2, "a"), 3)]
print(sorted(nested), max(pairs, key=lambda kv: (kv[1], kv[0])))
print(long_a < long_b, long_b <= long_a, "b" > "abc", "" >= "", (1, long_a) < (1, long_b))
print((1, 2) < (1, 2, 0), (2,) > (1, 9), (1.5, "x") <= (1.5, "x"), (1, 2) >= (1, 2.5))
flag = True
print(flag is True, flag is not False, flag is None, nums[0] is not True, None is False)
print("ell" in "hello", "z" not in "hello", "" in "", long_a[2:9] in long_a)
out = []
for ch in long_a[:12]:
    out.append(ch)
    out.append(len(out))
print("".join(str(x) for x in out))
counts = {}
for w in words + words[:3]:
    counts[w] = counts.get(w, 0) + 1
print(counts, counts.get("nope"), counts.get("alpha", -1), {}.get(long_a, long_b))
try:
    counts.get([1])
except TypeError as e:
    print("TypeError", e)
print(isinstance(3, int), isinstance(True, int), isinstance("x", (int, str)), len(words))
try:
    len(5)
except TypeError as e:
    print("TypeError", e)
try:
    isinstance(3, 4)
except TypeError as e:
    print("TypeError", e)
print(int("123"), int("-45"), int("+7"), int(" 8 "), int("1_000"), int("0012"),
      int("999999999999999999"), int("9999999999999999999"), int("-000"))
try:
    int("12a")
except ValueError as e:
    print("ValueError", e)
total = 0
for i in range(30):
    total = total + i
    last = long_a[i:i + 3]
print(total, last, long_a[3:], long_a[-5:-1], long_a[::3], "héllo wörld"[1:7])
s = 'ab"c\\d-12,x'
hits = []
for j in range(len(s)):
    hits.append((s[j] == '"', s[j] != "\\", s[j] in "-0123456789", s[j] not in "ab", s[j] == "ab"))
print(hits[2], hits[4], hits[6], hits[0], sum(1 for h in hits if h[2]), s[-1] == "x", s[3] < "d")
print(",".join(["a", long_a, "b"]), "".join(("x", "y")), "-".join([]), len("+".join(words)))
try:
    "".join(["a", 1, "b"])
except TypeError as e:
    print("TypeError", e)
try:
    " ".join(("a", None))
except TypeError as e:
    print("TypeError", e)
print(list(zip(words, range(3), (7, 8, 9, 10))), list(zip([], nums)), list(zip(nums[:2], "ab")))
z = zip([1, 2, 3], [4, 5])
print(next(z), next(z), list(z), list(z))
print(17 % 5, -17 % 5, 17 % -5, 17 // 5, -17 // 5, 17 // -5, 6 & 3, 6 | 3, 6 ^ 3, -9 >> 1, 5 << 3, 1 >> 70, -1 >> 70)
acc = 7
acc *= 3
acc //= 2
acc %= 7
acc <<= 4
acc >>= 1
acc &= 0xFF
acc |= 1
acc ^= 2
print(acc, (2 ** 62) * 4, -(2 ** 63) // -1, (-2 ** 63) % -1, 3 << 62)
try:
    print(1 // (acc - acc))
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    print(5 % (acc - acc))
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    print(5 >> (acc - acc - 1))
except ValueError as e:
    print("ValueError", e)
try:
    print(5 << (acc - acc - 1))
except ValueError as e:
    print("ValueError", e)
g_total = 0
for g_i in range(12):
    g_total += g_i * g_i
    g_last = [g_i] * 2
print(g_total, g_last)
