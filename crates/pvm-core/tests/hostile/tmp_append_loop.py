# expect: OSError
# Appending 1 KiB at a time until the budget runs out.
line = "y" * 1023 + "\n"
n = 0
while True:
    with open("/tmp/log.txt", "a") as f:
        f.write(line)
    n += 1
