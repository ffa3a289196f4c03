# expect: RecursionError
# __getattr__ touching a missing attribute re-enters __getattr__.
class G:
    def __getattr__(self, name):
        return self.fallback
print(G().anything)
