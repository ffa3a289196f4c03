# Ends with an uncaught TypeError from a bad call.
def transfer(src, dst, amount):
    print("transfer", src, dst, amount)
transfer("a", "b", 5)
transfer("a", "b")
