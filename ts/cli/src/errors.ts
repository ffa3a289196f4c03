/** A failure the CLI reports to its user: a stable `code`, a message, an exit code. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(code: string, message: string, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** Ends the command with `exitCode` after it has already reported the outcome itself (nothing more is printed). */
export class CliExit extends Error {
  readonly exitCode: number;

  constructor(exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = "CliExit";
    this.exitCode = exitCode;
  }
}
