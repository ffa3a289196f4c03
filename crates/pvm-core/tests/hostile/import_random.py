# expect: ImportError
# Randomness must come from cowboy_sdk.vrf, not random.
import math
import random
print(random.random())
