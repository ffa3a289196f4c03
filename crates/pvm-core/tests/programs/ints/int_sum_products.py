# Accumulations, sum with start, math.prod.
import math
nums = list(range(-10, 11))
print(sum(nums), sum(nums, 100), sum(x * x for x in nums))
print(math.prod(range(1, 11)), math.prod([]), math.prod([2] * 100).bit_length())
print(sum(range(10**5)), sum(range(0, 10**5, 7)))
tri = [n * (n + 1) // 2 for n in range(15)]
print(tri)
print(sum(1 / n for n in range(1, 11)) > 2.9)
squares = {n: n * n for n in range(10)}
print(sum(squares.values()), sum(squares))
