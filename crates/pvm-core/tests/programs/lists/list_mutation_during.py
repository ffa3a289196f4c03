# Mutating lists while looping over copies; in-place filtering.
nums = list(range(12))
for x in nums[:]:
    if x % 3 == 0:
        nums.remove(x)
print(nums)
nums[:] = [x for x in nums if x % 2]
print(nums)
i = 0
vals = [1, 2, 2, 3, 3, 3, 4]
while i < len(vals):
    if vals[i] == 3:
        del vals[i]
    else:
        i += 1
print(vals)
seen = []
for v in [3, 1, 3, 2, 1, 5]:
    if v not in seen:
        seen.append(v)
print(seen)
it = [1, 2, 3]
out = []
for v in it:
    out.append(v)
    if v == 1:
        it.append(4)
print(out)
