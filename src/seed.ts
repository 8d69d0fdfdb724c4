// The entry of `npm run seed -- <command> [options]`: runs the command line with every command, the CLI's and the
// lab's (src/lab/commands.ts), and exits with its code.
import { runCli } from './cli/cli.ts';
import { SEED_COMMANDS } from './lab/commands.ts';

void runCli(process.argv.slice(2), SEED_COMMANDS).then((code) => {
  process.exitCode = code;
});
