# Recursion: factorial, fibonacci, ackermann (small), hanoi, permutations.
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(10), fact(50))
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(15)])
def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))
print(ack(2, 3), ack(1, 5))
moves = []
def hanoi(n, a, b, c):
    if n:
        hanoi(n - 1, a, c, b)
        moves.append((a, c))
        hanoi(n - 1, b, a, c)
hanoi(4, "A", "B", "C")
print(len(moves), moves[:5])
def perms(s):
    if len(s) <= 1:
        return [s]
    return [s[i] + p for i in range(len(s)) for p in perms(s[:i] + s[i + 1:])]
print(perms("abc"), len(perms("abcde")))
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(150))
