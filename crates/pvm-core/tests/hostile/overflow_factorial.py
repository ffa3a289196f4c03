# expect: OverflowError
# math.factorial(5000) has about 54000 bits.
import math
print(math.factorial(5000) % 97)
