/**
 * The logger the devnet takes by injection: the subset of pino's API it uses, so tests can
 * pass `null` (silent) and the process passes a real pino logger ({@link createLogger}).
 */
import pino from "pino";

export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** A pino logger writing JSON lines to stdout (pipe through `pino-pretty` to read them nicely). */
export function createLogger(level: string): Logger {
  return pino({ level, base: { name: "cowboyd" } });
}
