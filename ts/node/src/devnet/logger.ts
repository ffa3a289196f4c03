/**
 * The logger the devnet takes by injection: the subset of pino's API it uses, so tests can
 * pass `null` (silent) and the process passes a real pino logger ({@link createLogger}).
 * Logs are JSON lines (pino's format) or, for people at a terminal, one readable line per
 * record ({@link prettyLine}).
 */
import pino from "pino";

export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export type LogFormat = "json" | "pretty";

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO ",
  40: "WARN ",
  50: "ERROR",
  60: "FATAL",
};

/** One pino JSON record as `HH:MM:SS.mmm LEVEL message key=value …` (local time); other text unchanged. */
export function prettyLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, time, msg, name: _name, pid: _pid, hostname: _host, err, ...rest } = rec;
  const t = typeof time === "number" ? new Date(time) : new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const clock = `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}.${pad(t.getMilliseconds(), 3)}`;
  const fields = Object.entries(rest).map(
    ([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`,
  );
  let line = `${clock} ${LEVEL_NAMES[level as number] ?? String(level)} ${String(msg ?? "")}`;
  if (fields.length > 0) line += ` ${fields.join(" ")}`;
  if (err !== undefined && err !== null) {
    const e = err as { message?: unknown; stack?: unknown };
    line += `\n  ${String(e.stack ?? e.message ?? JSON.stringify(err))}`;
  }
  return `${line}\n`;
}

/** A pino logger writing to stdout as JSON lines or pretty lines. */
export function createLogger(level: string, format: LogFormat = "json"): Logger {
  const options = { level, base: { name: "cowboyd" } };
  if (format === "json") return pino(options);
  return pino(options, { write: (line: string) => process.stdout.write(prettyLine(line)) });
}
