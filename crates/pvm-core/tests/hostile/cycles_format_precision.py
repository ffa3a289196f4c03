# expect: OutOfCycles
# cycles: 80000000
# A float precision under the heap cap still costs its (super-linear) work up front.
x = f"{1.5:.1000000f}"
print(len(x))
