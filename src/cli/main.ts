// The entry of `npm run seed -- <command> [options]`: runs the command line (cli.ts) and exits with its code.
import { runCli } from './cli.ts';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
