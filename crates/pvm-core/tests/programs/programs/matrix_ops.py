# Matrix operations with fractions-free exact integer arithmetic and floats.
def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]
def identity(n):
    return [[int(i == j) for j in range(n)] for i in range(n)]
def matpow(M, e):
    R = identity(len(M))
    while e:
        if e & 1:
            R = matmul(R, M)
        M = matmul(M, M)
        e >>= 1
    return R
F = [[1, 1], [1, 0]]
print(matpow(F, 10), matpow(F, 90)[0][1])
def det(M):
    n = len(M)
    if n == 1:
        return M[0][0]
    if n == 2:
        return M[0][0] * M[1][1] - M[0][1] * M[1][0]
    return sum((-1) ** j * M[0][j] * det([row[:j] + row[j + 1:] for row in M[1:]]) for j in range(n))
A = [[2, -1, 0, 3], [1, 4, 2, -2], [0, 5, 1, 1], [3, 0, -3, 2]]
print(det(A), det(identity(4)), det([[1, 2], [2, 4]]))
def transpose(M):
    return [list(r) for r in zip(*M)]
print(transpose(A))
def solve(M, b):
    n = len(M)
    aug = [list(map(float, M[i])) + [float(b[i])] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(aug[r][c]))
        aug[c], aug[p] = aug[p], aug[c]
        for r in range(n):
            if r != c:
                f = aug[r][c] / aug[c][c]
                aug[r] = [x - f * y for x, y in zip(aug[r], aug[c])]
    return [round(aug[i][n] / aug[i][i], 9) for i in range(n)]
print(solve(A, [1, 2, 3, 4]))
print(solve([[2, 1], [1, 3]], [3, 5]))
for row in matmul(A, transpose(A)):
    print(" ".join(f"{v:4d}" for v in row))
