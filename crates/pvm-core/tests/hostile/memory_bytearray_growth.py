# expect: MemoryError
# cycles: 1000000000
# A bytearray extended with a copy of itself until the heap cap.
ba = bytearray(b"0123456789abcdef")
while True:
    ba += ba[:]
