/**
 * Where chain commands write and what they read from the environment. Tests
 * replace parts with {@link setIo}; the CLI uses the process's streams.
 * Colours are on when stdout is a terminal, unless `NO_COLOR` is set;
 * `FORCE_COLOR=1` forces them.
 */
import { readFileSync } from "node:fs";

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  stdin(): string;
  env: Readonly<Record<string, string | undefined>>;
  cwd(): string;
  /** whether stdout is a terminal */
  isTTY: boolean;
}

const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  stdin: () => readFileSync(0, "utf8"),
  env: process.env,
  cwd: () => process.cwd(),
  isTTY: process.stdout.isTTY === true,
};

let current: CliIo = processIo;

/** The current I/O. */
export function io(): CliIo {
  return current;
}

/** Replaces parts of the I/O (tests); returns a function restoring the previous one. */
export function setIo(partial: Partial<CliIo>): () => void {
  const previous = current;
  current = { ...previous, ...partial };
  return () => {
    current = previous;
  };
}

/** Whether to colour output. */
export function useColor(): boolean {
  const env = current.env;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return current.isTTY;
}
