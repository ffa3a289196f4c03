/**
 * Human output of the chain commands: ANSI colours (only when {@link useColor}),
 * aligned tables, key/value blocks and CBY amounts. Machine output is `--json`,
 * built by each command from the same data.
 */
import { io, useColor } from "./io.ts";

const codes = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;

type Style = keyof typeof codes;

/** `text` in `style` when colours are on. */
export function paint(style: Style, text: string): string {
  if (!useColor()) return text;
  const [open, close] = codes[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
const ANSI = /\u001b\[[0-9;]*m/g;

/** The printed width of `text` (colour codes do not count). */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, "")].length;
}

/** An aligned table with a bold header row; cells are already-formatted strings. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) =>
    Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? ""))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c + " ".repeat((widths[i] as number) - visibleWidth(c))))
      .join("  ")
      .trimEnd();
  return `${[line(header.map((h) => paint("bold", h))), ...rows.map(line)].join("\n")}\n`;
}

/** `key  value` lines with the keys aligned and dimmed. */
export function fields(entries: ReadonlyArray<readonly [string, string]>): string {
  const w = Math.max(...entries.map(([k]) => k.length));
  return `${entries.map(([k, v]) => `${paint("dim", k.padEnd(w))}  ${v}`).join("\n")}\n`;
}

/** Base units per CBY. */
export const UNITS_PER_CBY = 1_000_000_000n;

/** `1500000000` → `1.5 CBY`; exact (no float). */
export function formatCby(units: bigint): string {
  const whole = units / UNITS_PER_CBY;
  const frac = (units % UNITS_PER_CBY).toString().padStart(9, "0").replace(/0+$/, "");
  return `${whole.toLocaleString("en-US")}${frac === "" ? "" : `.${frac}`} CBY`;
}

/** A receipt status, coloured. */
export function status(s: string): string {
  return s === "success" ? paint("green", s) : paint("red", s);
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Shows `label` with a spinner and the elapsed seconds on stderr while `work` runs —
 * only on a terminal (never in pipes, scripts or `--json` output) — then clears it.
 */
export async function withProgress<T>(label: string, work: Promise<T>, enabled = io().isTTY): Promise<T> {
  if (!enabled) return work;
  const started = Date.now();
  let frame = 0;
  const draw = () => {
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    io().stderr(
      `\r${paint("cyan", SPINNER[frame++ % SPINNER.length] as string)} ${label} ${paint("dim", `${secs} s`)}`,
    );
  };
  draw();
  const timer = setInterval(draw, 100);
  try {
    return await work;
  } finally {
    clearInterval(timer);
    io().stderr("\r\u001b[2K");
  }
}
