// `seed teacher`: the teacher check (rl/teacher_check.ts) of a checkpoint's policy; its options and output are
// declared in `command` below (the --help text).
import { TINY } from '../../env/scale.ts';
import { teacherCheck, teacherScenes } from '../../rl/teacher_check.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { openBackend } from '../backend.ts';
import { evalConfigOf } from './eval.ts';
import { defineCommand, usageLine } from '../help.ts';
import { progressBar, readCheckpointFile } from '../io.ts';
import { LIMITS } from '../limits.ts';

export const command = defineCommand({
  name: 'teacher',
  summary: "whether a checkpoint's policy acts better with a hindsight skill of the game in its context",
  description:
    "The teacher check: whether the checkpoint's policy wins more with the hindsight skill of its own earlier episode of a game in its context than with none " +
    "or with another game's skill, the premise of SEED's distillation. Prints JSON on stdout: " +
    '{"games", "first", "no_skill", "own_skill", "other_skill", "after_won": {...}, "after_failed": {...}} (success as fractions in [0, 1]).',
  options: {
    ckpt: { type: 'string', value: 'FILE', required: true, description: 'the checkpoint whose policy plays' },
    games: { type: 'string', value: 'N', limit: LIMITS.teacher.games, default: '512', description: "games of training rooms, each played 4 times: once to write its skill, then without a skill, with its own and with another game's (at least 2 games: one game's skill is another's control)" },
    temperature: { type: 'string', value: 'T', limit: LIMITS.teacher.temperature, defaultText: "the checkpoint's run's evalTemperature", description: 'the sampling temperature (0 = greedy)' },
    backend: { type: 'string', value: 'cpu|webgpu', default: 'cpu', description: 'the backend that runs the policy' },
  },
});

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  // At least 2 games: one game's skill is another's control.
  const games = numberOption(values.games, 'games', LIMITS.teacher.games);
  const tok = defaultTokenizer();
  const ck = await readCheckpointFile(path, tok);
  const config = evalConfigOf(ck, path, values.temperature);
  const backend = await openBackend(values.backend!, ck.config, ck.params);
  const bar = progressBar('teacher check', 4 * games);
  const result = await teacherCheck(backend, tok, teacherScenes(games, TINY), config, () => bar.increment());
  bar.stop();
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}
