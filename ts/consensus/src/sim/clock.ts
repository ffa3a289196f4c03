/**
 * Simulated time: a queue of events ordered by (time, insertion sequence), so runs are
 * exactly repeatable. `run` advances the clock from event to event.
 */
import { BinaryHeap } from "@cowboy/collections";
import type { Clock } from "../voter.ts";

interface Event {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class SimClock implements Clock {
  private time = 0;
  private seq = 0;
  private readonly queue = new BinaryHeap<Event>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq));
  /** events executed so far */
  executed = 0;

  now(): number {
    return this.time;
  }

  schedule(at: number, fn: () => void): () => void {
    const event: Event = { at: Math.max(at, this.time), seq: this.seq++, fn, cancelled: false };
    this.queue.push(event);
    return () => {
      event.cancelled = true;
    };
  }

  /** Runs events until the queue is empty or the next one is after `until`. */
  run(until: number): void {
    for (;;) {
      const next = this.queue.peek();
      if (next === undefined || next.at > until) break;
      this.queue.pop();
      if (next.cancelled) continue;
      this.time = next.at;
      this.executed++;
      next.fn();
    }
    this.time = Math.max(this.time, until);
  }
}
