// `seed play --scene FILE [--actions FILE] [--max-steps N]`: plays commands (one per line, from the file
// or from stdin as they arrive; an empty line is the empty command) and prints one JSON line per step:
// {"step", "action", "observation", "admissible", "reward", "done", "won"}; step 0 is the opening
// observation, with action null. Commands after the end of the episode are ignored (and counted on stderr).
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { DEFAULT_MAX_STEPS, Game } from '../../env/index.ts';
import { SceneFileError, readSceneFile } from '../../env/scene_file.ts';
import { parseIntOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';

export const summary = 'play commands on a scene JSON file and print each step as a JSON line';

const usage = 'npm run seed -- play --scene FILE [--actions FILE] [--max-steps N]';

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(
    args,
    { scene: { type: 'string' }, actions: { type: 'string' }, 'max-steps': { type: 'string' } },
    usage,
  );
  const path = requireOption(values.scene, 'scene', usage);
  const maxSteps = parseIntOption(values['max-steps'], 'max-steps', DEFAULT_MAX_STEPS);
  if (maxSteps < 1) throw new CliError(`--max-steps must be at least 1, got ${maxSteps}`, 2);
  const scene = await readSceneFile(path).catch((err: unknown) => {
    throw err instanceof SceneFileError ? new CliError(err.message) : err;
  });
  const actions = values.actions === undefined ? createInterface({ input: process.stdin, crlfDelay: Infinity }) : await readLines(values.actions);
  const game = new Game(scene, { maxSteps });
  const emit = (step: number, action: string | null, r: { observation: string; reward: number; done: boolean; won: boolean }) => {
    const admissible = game.done ? [] : game.admissibleCommands();
    const line = { step, action, observation: r.observation, admissible, reward: r.reward, done: r.done, won: r.won };
    process.stdout.write(JSON.stringify(line) + '\n');
  };
  emit(0, null, { observation: game.observation, reward: 0, done: false, won: false });
  let ignored = 0;
  for await (const action of actions) {
    if (game.done) {
      ignored++;
      continue;
    }
    emit(game.steps + 1, action, game.step(action));
  }
  if (ignored > 0) process.stderr.write(`ignored ${ignored} commands after the end of the episode\n`);
  process.stderr.write(`${game.won ? 'won' : 'not won'} in ${game.steps} steps\n`);
  return 0;
}

/** The lines of a file; a final newline does not make an extra empty command. */
async function readLines(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
