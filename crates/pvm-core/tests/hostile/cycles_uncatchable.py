# expect: OutOfCycles
# cycles: 2000000
# Running out of cycles cannot be caught, not even with a bare except around the loop.
attempts = 0
while True:
    try:
        while True:
            attempts += 1
    except BaseException:
        print("caught something, retrying")
    except:
        print("bare except")
