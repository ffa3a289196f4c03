# expect: ImportError
import threading
threading.Thread(target=print, args=("x",)).start()
