# Ends with an uncaught IndexError raised deep inside a method call chain.
class Queue:
    def __init__(self):
        self.items = []
    def push(self, x):
        self.items.append(x)
    def pop(self):
        return self.items.pop(0)
q = Queue()
q.push("job1")
print("popped", q.pop())
print("popping from empty queue")
print(q.pop())
