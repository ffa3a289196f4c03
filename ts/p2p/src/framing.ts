/**
 * Length-prefixed frames on a byte stream: `len:u32 (big-endian) ‖ payload`.
 *
 * A {@link FrameDecoder} refuses a frame as soon as its header announces more than the
 * maximum size (before buffering the payload), so a peer cannot make us hold more than
 * `maxFrameBytes + 4` bytes per stream.
 */
import { P2pError } from "./errors.ts";

/** Bytes of the length header in front of every frame. */
export const FRAME_HEADER_BYTES = 4;

/** Prefixes `payload` with its length. Throws `FRAME_TOO_LARGE` above `maxFrameBytes`. */
export function encodeFrame(payload: Uint8Array, maxFrameBytes: number): Uint8Array {
  if (payload.length > maxFrameBytes)
    throw new P2pError("FRAME_TOO_LARGE", `frame of ${payload.length} bytes exceeds ${maxFrameBytes}`, {
      size: payload.length,
      max: maxFrameBytes,
    });
  const out = new Uint8Array(FRAME_HEADER_BYTES + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length);
  out.set(payload, FRAME_HEADER_BYTES);
  return out;
}

/** Incremental frame parser for one stream. */
export class FrameDecoder {
  private readonly max: number;
  private chunks: Uint8Array[] = [];
  private buffered = 0;

  constructor(maxFrameBytes: number) {
    this.max = maxFrameBytes;
  }

  /** Bytes received but not yet returned as a frame. */
  get pending(): number {
    return this.buffered;
  }

  /**
   * Adds received bytes and returns every complete frame now available, in order.
   * Throws `FRAME_TOO_LARGE` when a header announces more than the maximum; the decoder
   * is then unusable (the stream must be dropped).
   */
  push(chunk: Uint8Array): Uint8Array[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const frames: Uint8Array[] = [];
    for (;;) {
      if (this.buffered < FRAME_HEADER_BYTES) break;
      const head = this.peek(FRAME_HEADER_BYTES);
      const len = new DataView(head.buffer, head.byteOffset, 4).getUint32(0);
      if (len > this.max)
        throw new P2pError("FRAME_TOO_LARGE", `peer announced a frame of ${len} bytes, limit ${this.max}`, {
          size: len,
          max: this.max,
        });
      if (this.buffered < FRAME_HEADER_BYTES + len) break;
      const all = this.take(FRAME_HEADER_BYTES + len);
      frames.push(all.subarray(FRAME_HEADER_BYTES));
    }
    return frames;
  }

  /** Throws `FRAME_TRUNCATED` if the stream ended inside a frame. */
  end(): void {
    if (this.buffered !== 0)
      throw new P2pError(
        "FRAME_TRUNCATED",
        `stream ended with ${this.buffered} bytes of an unfinished frame`,
        {
          pending: this.buffered,
        },
      );
  }

  private flatten(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0] as Uint8Array;
    const all = new Uint8Array(this.buffered);
    let o = 0;
    for (const c of this.chunks) {
      all.set(c, o);
      o += c.length;
    }
    this.chunks = [all];
    return all;
  }

  private peek(n: number): Uint8Array {
    const first = this.chunks[0] as Uint8Array;
    if (first.length >= n) return first.subarray(0, n);
    return this.flatten().subarray(0, n);
  }

  private take(n: number): Uint8Array {
    const all = this.flatten();
    const out = new Uint8Array(all.subarray(0, n));
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }
}
