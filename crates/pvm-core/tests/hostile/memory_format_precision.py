# expect: MemoryError
# A float precision far beyond the heap cap is refused before any work.
print(format(1.5, ".100000000f"))
