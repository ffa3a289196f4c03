# Exceptions raised inside except/finally blocks and nested try statements.
def risky(n):
    if n == 0:
        raise ValueError("zero")
    if n == 1:
        raise KeyError("one")
    return n
log = []
for n in range(3):
    try:
        try:
            log.append(risky(n))
        except ValueError as e:
            log.append("inner caught " + str(e))
            raise RuntimeError("escalated") from e
        finally:
            log.append(f"inner finally {n}")
    except RuntimeError as e:
        log.append(f"outer runtime {e} cause={e.__cause__}")
    except KeyError as e:
        log.append(f"outer key {e}")
for entry in log:
    print(entry)
