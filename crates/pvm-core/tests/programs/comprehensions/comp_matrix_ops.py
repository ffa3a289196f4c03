# Matrix operations written as comprehensions.
A = [[1, 2, 3], [4, 5, 6]]
B = [[7, 8], [9, 10], [11, 12]]
T = [list(r) for r in zip(*A)]
P = [[sum(a * b for a, b in zip(row, col)) for col in zip(*B)] for row in A]
print(T)
print(P)
I = [[1 if i == j else 0 for j in range(3)] for i in range(3)]
print(I)
S = [[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(A, A)]
print(S)
print([sum(r) for r in A], [sum(c) for c in zip(*A)], sum(sum(r) for r in A))
