import { printable } from '../common/json.ts';

/** An error meant for the user of the CLI: printed as one line on stderr, no stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The message as printed: one line, control characters escaped (common/json.ts `printable`). */
export const oneLine = printable;
