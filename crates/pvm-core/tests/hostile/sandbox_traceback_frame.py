# expect: SandboxError
# Frames reached through a caught exception's traceback.
try:
    1 / 0
except ZeroDivisionError as e:
    frame = e.__traceback__.tb_frame
    print(frame.f_back)
