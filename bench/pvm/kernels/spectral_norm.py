# Spectral norm of an infinite matrix (float arithmetic, nested loops, function calls).
N = 240


def a(i, j):
    ij = i + j
    return 1.0 / (ij * (ij + 1) // 2 + i + 1)


def mul_av(v, out):
    n = len(v)
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += a(i, j) * v[j]
        out[i] = s


def mul_atv(v, out):
    n = len(v)
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += a(j, i) * v[j]
        out[i] = s


def mul_atav(v, out, tmp):
    mul_av(v, tmp)
    mul_atv(tmp, out)


u = [1.0] * N
v = [0.0] * N
tmp = [0.0] * N
for _ in range(10):
    mul_atav(u, v, tmp)
    mul_atav(v, u, tmp)
vbv = vv = 0.0
for ue, ve in zip(u, v):
    vbv += ue * ve
    vv += ve * ve
print(f"spectral_norm n={N} value={(vbv / vv) ** 0.5:.9f}")
