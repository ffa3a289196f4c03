# Large-ish dedup and membership workloads.
nums = [(i * i * 31 + 7) % 997 for i in range(3000)]
u = set(nums)
print(len(u), min(u), max(u), sum(u))
print(sorted(u)[:8], sorted(u)[-3:])
missing = [x for x in range(997) if x not in u]
print(len(missing), missing[:10])
a = set(nums[:1000])
b = set(nums[1000:2000])
print(len(a & b), len(a | b), len(a - b), len(a ^ b))
