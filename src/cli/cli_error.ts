import { printable } from '../common/json.ts';

/**
 * An error meant for the user of the CLI: printed as one line on stderr, no stack trace. The message is made
 * one printable line here (common/json.ts `printable`), so that a file or option name holding a line break
 * or a terminal escape is shown escaped wherever it appears.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(printable(message));
    this.name = 'CliError';
  }
}
