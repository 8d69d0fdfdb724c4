// The `seed` command line: `npm run seed -- <command> [options]`.
// Data goes to stdout, progress and logs to stderr. A command module exports `run(args)` and returns an exit
// code; a CliError becomes one line on stderr and a non-zero exit, never a stack trace.
import { quote } from '../common/json.ts';
import { CliError } from './cli_error.ts';
import { setUpThreads } from './threads.ts';

type Command = { run(args: string[]): Promise<number>; summary: string };

const commands: Record<string, () => Promise<Command>> = {
  scenes: () => import('./commands/scenes.ts'),
  play: () => import('./commands/play.ts'),
  expert: () => import('./commands/expert.ts'),
  ckpt: () => import('./commands/ckpt.ts'),
  loss: () => import('./commands/loss.ts'),
  warmstart: () => import('./commands/warmstart.ts'),
  train: () => import('./commands/train.ts'),
  eval: () => import('./commands/eval.ts'),
  teacher: () => import('./commands/teacher.ts'),
  bench: () => import('./commands/bench.ts'),
  'export-onnx': () => import('./commands/export_onnx.ts'),
};

async function listCommands(): Promise<string> {
  const lines: string[] = [];
  for (const [name, load] of Object.entries(commands)) {
    const summary = await load().then((m) => m.summary, () => '(not available in this build)');
    lines.push(`  ${name.padEnd(12)} ${summary}`);
  }
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = setUpThreads(argv, process.env);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stderr.write(`usage: npm run seed -- [--threads N] <command> [options]\n\ncommands:\n${await listCommands()}\n`);
    return name === undefined ? 2 : 0;
  }
  // Own keys only: "constructor" or "__proto__" is an unknown command, not a property of every object.
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) throw new CliError(`unknown command ${quote(name)}; run "npm run seed -- help" for the list`);
  const command = await load();
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof CliError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exitCode = err.exitCode;
    } else {
      process.stderr.write(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 70;
    }
  },
);
