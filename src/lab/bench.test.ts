// `npm run seed -- bench <name>`: a name that is no benchmark is refused with the list, whatever it is named like.
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli/cli_error.ts';
import { run as bench } from './bench.ts';

describe('bench', () => {
  it('refuses a benchmark named like a property of every object as unknown, in one line', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const err = await bench([name]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CliError);
      expect((err as CliError).message).toMatch(new RegExp(`^unknown benchmark "${name}"; usage: [^\\n]*$`));
    }
  });
});
