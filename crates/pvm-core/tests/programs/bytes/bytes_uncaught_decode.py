# Ends with an uncaught UnicodeDecodeError.
data = bytes([0x68, 0x69, 0x20, 0xC3, 0xA9])
print(data.decode("utf-8"))
bad = data + b"\xff"
print(len(bad), bad.hex())
print(bad.decode("utf-8"))
