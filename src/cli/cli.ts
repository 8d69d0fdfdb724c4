// The `seed` command line: `npm run seed -- [--threads N] <command> [options]` (src/seed.ts runs it with these
// commands and the lab's, src/lab/commands.ts).
// Data goes to stdout, progress and logs to stderr. A command module (help.ts CommandModule) exports `run(args)`,
// which returns an exit code, and the declaration of its options or of its group's members. A CliError becomes
// one line on stderr and a non-zero exit, never a stack trace; a help request prints its text on stdout.
import { quote } from '../common/json.ts';
import { MAX_THREADS } from '../backend/cpu/threads.ts';
import { CliError } from './cli_error.ts';
import { HelpRequest, listHelp, summaryOf, type CommandModule } from './help.ts';
import { setUpThreads } from './threads.ts';

/** A command line's commands by name, each loaded when it runs. */
export type CommandTable = Readonly<Record<string, () => Promise<CommandModule>>>;

/** The command line's own commands: playing, training, evaluating and exporting (the lab adds its own). */
export const CLI_COMMANDS: CommandTable = {
  scenes: () => import('./commands/scenes.ts'),
  play: () => import('./commands/play.ts'),
  expert: () => import('./commands/expert.ts'),
  ckpt: () => import('./commands/ckpt.ts'),
  loss: () => import('./commands/loss.ts'),
  warmstart: () => import('./commands/warmstart.ts'),
  train: () => import('./commands/train.ts'),
  eval: () => import('./commands/eval.ts'),
  teacher: () => import('./commands/teacher.ts'),
  'export-onnx': () => import('./commands/export_onnx.ts'),
  'export-verl': () => import('./commands/export_verl.ts'),
};

async function topHelp(commands: CommandTable): Promise<string> {
  const entries = await Promise.all(
    Object.entries(commands).map(
      async ([name, load]) => [name, await load().then(summaryOf, () => '(not available in this build)')] as const,
    ),
  );
  return listHelp(
    'npm run seed -- [--threads N] <command> [options]',
    'The SEED Playground in Node: the same environment, model, backends and training as the page. Data goes to stdout, progress and logs to stderr.',
    'commands',
    entries,
    `--threads N before the command (or SEED_THREADS=N) sets the CPU backend's worker threads, 1..${MAX_THREADS} (default: one per core); the results do not depend on it.\n\n` +
      'Run "npm run seed -- <command> --help" or "npm run seed -- help <command>" for the options of a command.',
  );
}

async function dispatch(argv: string[], commands: CommandTable): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(await topHelp(commands));
    return 2;
  }
  if (name === 'help' && rest.length > 0) return dispatch([...rest, '--help'], commands);
  if (name === '--help' || name === '-h' || name === 'help') throw new HelpRequest(await topHelp(commands));
  // Own keys only: "constructor" or "__proto__" is an unknown command, not a property of every object.
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) throw new CliError(`unknown command ${quote(name)}; run "npm run seed -- help" for the list`);
  return (await load()).run(rest);
}

/** Runs the command line `argv` (without node and the script) over `commands` and returns its exit code. */
export async function runCli(
  argv: string[],
  commands: CommandTable = CLI_COMMANDS,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  try {
    return await dispatch(setUpThreads(argv, env), commands);
  } catch (err) {
    if (err instanceof HelpRequest) {
      process.stdout.write(err.text);
      return 0;
    }
    if (err instanceof CliError) {
      process.stderr.write(`error: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 70;
  }
}
