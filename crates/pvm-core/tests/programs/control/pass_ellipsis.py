# pass, Ellipsis, empty bodies.
def nothing():
    pass
class Empty:
    pass
def stub():
    ...
print(nothing(), stub(), Ellipsis, ..., ... is Ellipsis, type(...).__name__)
for _ in range(2):
    pass
while False:
    pass
if True:
    pass
else:
    pass
print("done", Empty.__name__)
