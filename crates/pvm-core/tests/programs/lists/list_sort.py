# sort/sorted with key and reverse; stability.
people = [("amy", 31), ("bob", 25), ("cat", 31), ("dan", 19), ("eve", 25)]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: p[1], reverse=True))
print(sorted(people, key=lambda p: (-p[1], p[0])))
words = ["banana", "Apple", "cherry", "apple", "Banana", "date"]
words.sort(key=str.lower); print(words)
words.sort(key=len); print(words)
nums = [5, -3, 2, -8, 7, 0, -1]
print(sorted(nums, key=abs), sorted(nums, key=lambda x: x * x, reverse=True), sorted(nums)[::-1])
print(sorted([[3, 1], [1, 2], [3, 0], [1]]), sorted(["b", "a"], reverse=True))
try:
    sorted([1, "a", 2])
except TypeError as e:
    print("TypeError", e)
data = list(range(20))
data.sort(key=lambda x: x % 3)
print(data)
