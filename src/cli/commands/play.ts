// `seed play`: plays commands on a scene and prints one JSON line per step; its options and output are
// declared in `command` below (the --help text).
import { createInterface } from 'node:readline';
import { CliError } from '../cli_error.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { ENV_OPTION, environmentFrom, readWorldScene, SCALE_OPTION, stepBudgets } from '../environment_option.ts';
import { readTextInput } from '../io.ts';
import { defineCommand, usageLine } from '../help.ts';
import { LIMITS, MAX_INPUT_BYTES } from '../limits.ts';

export const command = defineCommand({
  name: 'play',
  summary: 'play commands on a scene JSON file and print each step as a JSON line',
  description:
    'Plays commands, one per line (an empty line is the empty command), from a file or from stdin as they arrive, and prints one JSON line per step: ' +
    '{"step", "action", "observation", "admissible", "reward", "done", "won"}. Step 0 is the opening observation, with action null. ' +
    'Commands after the end of the episode are ignored and counted on stderr. ' +
    "A command the world refuses as typed (the shop's search longer than a policy writes) is refused: in a file before the first step, on stdin at its line.",
  options: {
    scene: {
      type: 'string',
      value: 'FILE',
      required: true,
      description: 'the scene JSON file to play (from `seed scenes`)',
    },
    actions: { type: 'string', value: 'FILE', defaultText: 'stdin', description: 'the commands to play, one per line' },
    'max-steps': {
      type: 'string',
      value: 'N',
      limit: LIMITS.play['max-steps'],
      defaultText: `the world's: ${stepBudgets()}`,
      description: 'the episode ends after N steps',
    },
    env: ENV_OPTION,
    scale: SCALE_OPTION,
  },
});

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const path = requireOption(values.scene, 'scene', usage);
  const env = environmentFrom(values.env, values.scale);
  const maxSteps = numberOption(values['max-steps'], 'max-steps', LIMITS.play['max-steps'], env.defaultMaxSteps);
  const scene = await readWorldScene(env, path);
  // A file is checked whole before the first step; stdin line by line, as its lines arrive.
  const refusal = (action: string, where: string): CliError | null => {
    const why = env.commandRefusal(action);
    return why === null ? null : new CliError(`${where}: ${why}`);
  };
  let actions: AsyncIterable<string> | string[];
  if (values.actions === undefined) {
    actions = createInterface({ input: process.stdin, crlfDelay: Infinity });
  } else {
    actions = await readLines(values.actions);
    for (const [i, action] of actions.entries()) {
      const refused = refusal(action, `${values.actions} line ${i + 1}`);
      if (refused) throw refused;
    }
  }
  const game = env.episode(scene, maxSteps);
  const emit = (
    step: number,
    action: string | null,
    r: { observation: string; reward: number; done: boolean; won: boolean },
  ) => {
    // The shop's search page lists no clicks; it takes search[...] (WebShop's has_search_bar).
    const admissible = game.done
      ? []
      : game.freeText()
        ? [`${game.freeText()!.open}...${game.freeText()!.close}`, ...game.admissibleCommands()]
        : game.admissibleCommands();
    const line = { step, action, observation: r.observation, admissible, reward: r.reward, done: r.done, won: r.won };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  };
  emit(0, null, { observation: game.observation, reward: 0, done: false, won: false });
  let ignored = 0;
  let line = 0;
  for await (const action of actions) {
    line++;
    const refused = values.actions === undefined ? refusal(action, `stdin line ${line}`) : null;
    if (refused) {
      // Nothing more is read: a writer that keeps stdin open would otherwise keep the command waiting.
      process.stdin.destroy();
      throw refused;
    }
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
  const text = await readTextInput(path, MAX_INPUT_BYTES.actions);
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
