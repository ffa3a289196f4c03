# An operating-system scheduler simulation in the style of the Richards benchmark:
# prioritised tasks (idle, worker, two handlers, two devices) exchange packets through
# a scheduler loop. Class/attribute heavy. Written for the PVM suite.
ROUNDS = 40
IDLE_COUNT = 2000

I_IDLE, I_WORK, I_HANDLER_A, I_HANDLER_B, I_DEV_A, I_DEV_B = range(6)
K_DEV, K_WORK = 0, 1
DATA_SIZE = 4


class Packet:
    __slots__ = ("link", "ident", "kind", "datum", "data")

    def __init__(self, link, ident, kind):
        self.link = link
        self.ident = ident
        self.kind = kind
        self.datum = 0
        self.data = [0] * DATA_SIZE

    def append_to(self, queue):
        self.link = None
        if queue is None:
            return self
        p = queue
        while p.link is not None:
            p = p.link
        p.link = self
        return queue


class Task:
    def __init__(self, sched, ident, prio, queue):
        self.sched = sched
        self.ident = ident
        self.prio = prio
        self.queue = queue
        self.waiting = queue is None
        self.held = False
        self.has_work = queue is not None
        self.next = sched.tasks_list
        sched.tasks_list = self
        sched.tasks[ident] = self

    def runnable(self):
        return not self.held and (self.has_work if self.waiting else True)

    def take_packet(self):
        p = self.queue
        self.queue = p.link
        self.has_work = self.queue is not None
        return p

    def receive(self, packet, current):
        # packet arrives for this task; returns the task that should run next
        if self.queue is None:
            self.queue = packet
            packet.link = None
            self.has_work = True
            if self.prio > current.prio:
                return self
        else:
            self.queue = packet.append_to(self.queue)
        return current


class IdleTask(Task):
    def __init__(self, sched, ident, prio, count):
        super().__init__(sched, ident, prio, None)
        self.waiting = False
        self.control = 1
        self.count = count

    def run(self, packet):
        self.count -= 1
        if self.count == 0:
            return self.sched.hold_self()
        if self.control & 1 == 0:
            self.control >>= 1
            return self.sched.release(I_DEV_A)
        self.control = (self.control >> 1) ^ 0xD008
        return self.sched.release(I_DEV_B)


class WorkTask(Task):
    def __init__(self, sched, ident, prio, queue):
        super().__init__(sched, ident, prio, queue)
        self.dest = I_HANDLER_A
        self.count = 0

    def run(self, packet):
        if packet is None:
            return self.sched.wait()
        self.dest = I_HANDLER_B if self.dest == I_HANDLER_A else I_HANDLER_A
        packet.ident = self.dest
        packet.datum = 0
        for i in range(DATA_SIZE):
            self.count += 1
            if self.count > 26:
                self.count = 1
            packet.data[i] = 64 + self.count
        return self.sched.send(packet)


class HandlerTask(Task):
    def __init__(self, sched, ident, prio, queue):
        super().__init__(sched, ident, prio, queue)
        self.work_in = None
        self.dev_in = None

    def run(self, packet):
        if packet is not None:
            if packet.kind == K_WORK:
                self.work_in = packet.append_to(self.work_in)
            else:
                self.dev_in = packet.append_to(self.dev_in)
        if self.work_in is not None:
            work = self.work_in
            n = work.datum
            if n >= DATA_SIZE:
                self.work_in = work.link
                return self.sched.send(work)
            if self.dev_in is not None:
                dev = self.dev_in
                self.dev_in = dev.link
                dev.datum = work.data[n]
                work.datum = n + 1
                return self.sched.send(dev)
        return self.sched.wait()


class DeviceTask(Task):
    def __init__(self, sched, ident, prio):
        super().__init__(sched, ident, prio, None)
        self.pending = None

    def run(self, packet):
        if packet is None:
            if self.pending is None:
                return self.sched.wait()
            p = self.pending
            self.pending = None
            return self.sched.send(p)
        self.pending = packet
        self.sched.checksum = (self.sched.checksum * 31 + packet.datum) & 0xFFFFFFFF
        return self.sched.hold_self()


class Scheduler:
    def __init__(self):
        self.tasks = [None] * 6
        self.tasks_list = None
        self.current = None
        self.queue_count = 0
        self.hold_count = 0
        self.checksum = 7

    def release(self, ident):
        t = self.tasks[ident]
        t.held = False
        if t.prio > self.current.prio:
            return t
        return self.current

    def hold_self(self):
        self.hold_count += 1
        self.current.held = True
        return self.current.next

    def wait(self):
        self.current.waiting = True
        return self.current

    def send(self, packet):
        target = self.tasks[packet.ident]
        self.queue_count += 1
        packet.link = None
        packet.ident = self.current.ident
        return target.receive(packet, self.current)

    def schedule(self):
        t = self.tasks_list
        while t is not None:
            if t.held or (t.waiting and not t.has_work):
                t = t.next
                continue
            self.current = t
            packet = None
            if t.waiting and t.has_work:
                packet = t.take_packet()
                t.waiting = False
            t = t.run(packet)


def build(sched):
    IdleTask(sched, I_IDLE, 0, IDLE_COUNT)
    q = Packet(None, 0, K_WORK)
    q = Packet(q, 0, K_WORK)
    WorkTask(sched, I_WORK, 1000, q)
    q = Packet(None, I_DEV_A, K_DEV)
    q = Packet(q, I_DEV_A, K_DEV)
    q = Packet(q, I_DEV_A, K_DEV)
    HandlerTask(sched, I_HANDLER_A, 2000, q)
    q = Packet(None, I_DEV_B, K_DEV)
    q = Packet(q, I_DEV_B, K_DEV)
    q = Packet(q, I_DEV_B, K_DEV)
    HandlerTask(sched, I_HANDLER_B, 3000, q)
    DeviceTask(sched, I_DEV_A, 4000)
    DeviceTask(sched, I_DEV_B, 5000)


total_q = total_h = 0
acc = 0
for r in range(ROUNDS):
    s = Scheduler()
    build(s)
    s.schedule()
    total_q += s.queue_count
    total_h += s.hold_count
    acc = (acc * 1000003 + s.checksum) % (2 ** 61 - 1)
print(f"richards rounds={ROUNDS} queued={total_q} held={total_h} checksum={acc}")
