/**
 * pytest-like reports of a {@link RunSummary}: progress (`tests/test_x.py ..F` or, verbose,
 * `tests/test_x.py::test_y PASSED`), a FAILURES section whose tracebacks show the test's and
 * the actor's source lines (`examples/token.py:61: in _move`), and the summary line
 * (`3 passed, 1 failed in 0.42s`). Colours are the caller's choice (`color`).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DRIVER_FILE, HARNESS_FILE, type RunSummary, type TestResult } from "./runner.ts";

/** Styling hooks (identity when colours are off). */
export interface Style {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
}

const ESC = "\u001b[";
/** ANSI styles. */
export const ANSI: Style = {
  red: (s) => `${ESC}31m${s}${ESC}39m`,
  green: (s) => `${ESC}32m${s}${ESC}39m`,
  yellow: (s) => `${ESC}33m${s}${ESC}39m`,
  bold: (s) => `${ESC}1m${s}${ESC}22m`,
};
/** No styling. */
export const PLAIN: Style = { red: (s) => s, green: (s) => s, yellow: (s) => s, bold: (s) => s };

const WIDTH = 80;

/** `==== text ====` centred in the terminal width. */
export function rule(text: string, ch = "="): string {
  const t = text === "" ? "" : ` ${text} `;
  const n = Math.max(4, WIDTH - t.length);
  return ch.repeat(Math.floor(n / 2)) + t + ch.repeat(Math.ceil(n / 2));
}

/** Line `n` (1-based) of `file` (relative to `cwd`), trimmed, or null if unreadable. */
export function sourceLine(file: string, n: number, cwd: string = process.cwd()): string | null {
  try {
    return readFileSync(resolve(cwd, file), "utf8").split("\n")[n - 1]?.trim() ?? null;
  } catch {
    return null;
  }
}

/** A parsed `File "x.py", line N, in f` line. */
export interface Frame {
  file: string;
  line: number;
  func: string;
}

/** Parses traceback lines (others are skipped). */
export function parseFrames(lines: readonly string[]): Frame[] {
  const out: Frame[] = [];
  for (const l of lines) {
    const m = /^File "(.*)", line (\d+)(?:, in (.*))?$/.exec(l.trim());
    if (m) out.push({ file: m[1] as string, line: Number(m[2]), func: m[3] ?? "<module>" });
  }
  return out;
}

const internal = (f: Frame) => f.file === HARNESS_FILE || f.file === DRIVER_FILE || f.file.startsWith("<pvm");

/** The frames shown for a failure: the test program's own frames, then the actor's. */
export function failureFrames(r: TestResult): { frames: Frame[]; actorFrames: Frame[] } {
  const f = r.failure;
  if (f === null) return { frames: [], actorFrames: [] };
  return {
    frames: parseFrames(f.traceback).filter((x) => !internal(x)),
    actorFrames: f.actor === null ? [] : parseFrames(f.actor.traceback).filter((x) => !internal(x)),
  };
}

/** The `E   ...` lines of a failure. */
export function errorLines(r: TestResult): string[] {
  const f = r.failure;
  if (f === null) return [];
  let text: string;
  if (f.type === "AssertionError") text = f.message === "" ? "AssertionError" : f.message;
  else if (f.actor !== null) text = f.message;
  else text = f.message === "" ? f.type : `${f.type}: ${f.message}`;
  return text.split("\n");
}

function frameText(fr: Frame, style: Style, last: boolean, cwd: string): string[] {
  const src = sourceLine(fr.file, fr.line, cwd);
  const head = `${style.bold(`${fr.file}:${fr.line}`)}: in ${fr.func}`;
  return src === null ? [head] : [head, `${last ? ">" : " "}   ${src}`];
}

/** The text of one failure (pytest `--tb=short` style). */
export function failureText(r: TestResult, style: Style = PLAIN, cwd: string = process.cwd()): string {
  const f = r.failure;
  if (f === null) return "";
  const title = f.when === "call" || f.when === "collect" ? r.name : `${f.when} of ${r.name}`;
  const lines = [style.red(style.bold(rule(title, "_")))];
  const { frames, actorFrames } = failureFrames(r);
  const all = [...frames, ...actorFrames];
  if (actorFrames.length > 0 && frames.length > 0) {
    frames.forEach((fr) => {
      lines.push(...frameText(fr, style, false, cwd));
    });
    lines.push(`  (the actor call failed inside the chain:)`);
    actorFrames.forEach((fr, i) => {
      lines.push(...frameText(fr, style, i === actorFrames.length - 1, cwd));
    });
  } else {
    all.forEach((fr, i) => {
      lines.push(...frameText(fr, style, i === all.length - 1, cwd));
    });
  }
  for (const e of errorLines(r)) lines.push(style.red(`E   ${e}`));
  if (r.stdout !== "") {
    lines.push(rule("Captured stdout call", "-"));
    lines.push(r.stdout.replace(/\n$/, ""));
  }
  return `${lines.join("\n")}\n`;
}

function label(o: TestResult["outcome"], style: Style): string {
  if (o === "passed") return style.green("PASSED");
  if (o === "failed") return style.red("FAILED");
  return style.red("ERROR");
}

/** One progress token: `.`, `F`, `E` (or a `PASSED` line in verbose mode). */
export function progress(r: TestResult, verbose: boolean, style: Style = PLAIN): string {
  if (verbose) return `${r.nodeid} ${label(r.outcome, style)}\n`;
  if (r.outcome === "passed") return style.green(".");
  return style.red(r.outcome === "failed" ? "F" : "E");
}

/** pytest's progress mark after a file's tests: `[ 40%]` of the tests collected in all files. */
export function percentDone(progress: { done: number; total: number }): string {
  const pct = progress.total === 0 ? 100 : Math.floor((progress.done * 100) / progress.total);
  return `[${String(pct).padStart(3)}%]`;
}

/** `3 passed, 1 failed in 0.42s`. */
export function summaryLine(s: RunSummary, style: Style = PLAIN): string {
  const parts: string[] = [];
  if (s.failed) parts.push(style.red(`${s.failed} failed`));
  if (s.passed) parts.push(style.green(`${s.passed} passed`));
  if (s.errors) parts.push(style.red(`${s.errors} error${s.errors === 1 ? "" : "s"}`));
  if (s.deselected) parts.push(style.yellow(`${s.deselected} deselected`));
  if (parts.length === 0) parts.push(style.yellow("no tests ran"));
  return `${parts.join(", ")} in ${(s.durationMs / 1000).toFixed(2)}s`;
}

/** The failures section and summary (everything after the progress lines). */
export function finalReport(s: RunSummary, style: Style = PLAIN): string {
  const bad = s.results.filter((r) => r.outcome !== "passed");
  const out: string[] = [];
  if (bad.length > 0) {
    out.push(rule("FAILURES"));
    for (const r of bad) out.push(failureText(r, style, s.cwd).replace(/\n$/, ""));
    out.push(rule("short test summary info"));
    for (const r of bad) {
      const e = errorLines(r)[0] ?? "";
      out.push(`${r.outcome === "failed" ? style.red("FAILED") : style.red("ERROR")} ${r.nodeid} - ${e}`);
    }
  }
  const warned = s.results.filter((r) => r.warnings.length > 0);
  if (warned.length > 0) {
    out.push(rule("warnings summary"));
    for (const r of warned) {
      out.push(r.nodeid);
      for (const w of r.warnings) out.push(style.yellow(`  ${w}`));
    }
  }
  const ok = s.failed === 0 && s.errors === 0 && s.results.length > 0;
  const line = rule(summaryLine(s));
  out.push(ok ? style.green(line) : s.results.length === 0 ? style.yellow(line) : style.red(line));
  return `${out.join("\n")}\n`;
}

/** The machine-readable form of a run (`cowboy test --json`). */
export function jsonReport(s: RunSummary): unknown {
  return {
    passed: s.passed,
    failed: s.failed,
    errors: s.errors,
    deselected: s.deselected,
    durationMs: Math.round(s.durationMs),
    tests: s.results.map((r) => {
      const { frames, actorFrames } = failureFrames(r);
      return {
        nodeid: r.nodeid,
        file: r.file,
        name: r.name,
        outcome: r.outcome,
        durationMs: Math.round(r.durationMs),
        cycles: r.cycles,
        stdout: r.stdout,
        warnings: r.warnings,
        error:
          r.failure === null
            ? null
            : {
                type: r.failure.type,
                message: r.failure.message,
                when: r.failure.when,
                traceback: frames,
                actor:
                  r.failure.actor === null ? null : { type: r.failure.actor.type, traceback: actorFrames },
              },
      };
    }),
  };
}
