// `seed probe <name>`: the shop's diagnostic probes (bench/notes/shop.md), each a table on stdout. Their logic is
// src/rl's (option_copy.ts, reading_ceiling.ts, skill_probe.ts); their options are declared below
// (the --help texts).
import { quote } from '../../../common/json.ts';
import { SHOP } from '../env/environment.ts';
import { presetConfig } from '../../../model/config.ts';
import { initParameters } from '../../../model/init.ts';
import {
  chanceOf,
  scoreChoices,
  shopChoices,
  syntheticChoices,
  trainOnChoices,
  type OptionChoice,
} from './option_copy.ts';
import { CEILING_ARMS, readingCeiling } from './reading_ceiling.ts';
import { PROBE_ARMS, skillProbes, tallyProbes } from './skill_probe.ts';
import { SKILL_WRITERS, type SkillWriter } from '../../../rl/teacher_check.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { choiceOption, noPositionals, numberOption, parseOptions, requireOption } from '../../../cli/args.ts';
import { backendOption, openBackend } from '../../../cli/backend.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { runGroup } from '../../../cli/group.ts';
import { defineCommand, usageLine, type GroupSpec } from '../../../cli/help.ts';
import { progressBar, readCheckpointFile } from '../../../cli/io.ts';
import { LIMITS } from '../../../cli/limits.ts';
import { evalConfigOf } from '../../../cli/commands/eval.ts';

const CHOICES = ['synthetic', 'first', 'all'] as const;
/** The held-out choices' corpus seed (the training choices' is 1). */
const HELD_OUT_SEED = 7;
const DEFAULTS = { steps: 2000, taskWords: 15, filler: 0, trainExamples: 20_000, trainGames: 5000, heldOut: 300 };

export const optionCopyCommand = defineCommand({
  name: 'probe option-copy',
  summary: 'whether the tiny model learns to choose the option value its task line names',
  description:
    "Trains the tiny preset from seed 1 on the shop's option choices alone (batch 8, lr 5e-3, the warm start's schedule in each fifth of the steps), " +
    'each scored at the value token under the mask of the values listed, and prints the accuracy and mean NLL of the choice on held-out choices (corpus seed 7) ' +
    'before training and after each fifth; chance is 1 over the listed values. ' +
    "With --ckpt it trains nothing and prints a shop checkpoint's accuracy on the held-out first choices and on the later ones (an option already selected).",
  options: {
    choices: {
      type: 'string',
      choices: CHOICES,
      defaultText: 'all',
      description:
        "synthetic: a task line naming one of 5 listed words; first: the shop corpus's first choice of each item (nothing selected yet); all: every choice of the corpus",
    },
    steps: {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeOptionCopy.steps,
      defaultText: String(DEFAULTS.steps),
      description: 'optimizer steps, in five parts',
    },
    'task-words': {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeOptionCopy['task-words'],
      defaultText: `${DEFAULTS.taskWords} (synthetic only)`,
      description: "the synthetic task line's words, one of them the value",
    },
    filler: {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeOptionCopy.filler,
      defaultText: `${DEFAULTS.filler} (synthetic only)`,
      description: 'synthetic filler words between the task line and the list',
    },
    after: {
      type: 'boolean',
      description:
        "synthetic only: the naming words follow the list in a skill block instead of the task line (where the shop's skill sits)",
    },
    'train-examples': {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeOptionCopy['train-examples'],
      defaultText: `${DEFAULTS.trainExamples} (synthetic only)`,
      description: 'synthetic training choices (seed 1)',
    },
    'train-games': {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeOptionCopy['train-games'],
      defaultText: `${DEFAULTS.trainGames} (first and all only)`,
      description: 'the games of the shop corpus (seed 1) the training choices come from',
    },
    'held-out': {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeOptionCopy['held-out'],
      default: String(DEFAULTS.heldOut),
      description: 'held-out choices at most, from as many games of the seed-7 corpus (or as many synthetic examples)',
    },
    ckpt: {
      type: 'string',
      value: 'FILE',
      defaultText: 'none: train',
      description: 'score this shop checkpoint instead of training (no other option but --held-out and --backend)',
    },
    backend: backendOption('the backend that trains and scores'),
  },
});

export const readingCeilingCommand = defineCommand({
  name: 'probe reading-ceiling',
  summary: 'how much reading its skill perfectly could be worth to a shop policy',
  description:
    "Plays the teacher check's games from the check's streams (its no-skill and own-skill plays are the check's) and adds plays where a better player takes over some steps: " +
    'every step the skill decides, taken as the explorer primed with the skill takes it (a policy that reads its skill perfectly and is otherwise itself), ' +
    "for the game's own skill and another game's; and, with no skill and with the own skill read perfectly, every option value the policy clicks replaced by the instruction's. " +
    `Prints a table of success in % per play (${CEILING_ARMS.join(' / ')}) for all games, those after a won first episode and those after a failed one, ` +
    "then own - none with its 95% interval paired by game (the check's own_gain).",
  options: {
    ckpt: { type: 'string', value: 'FILE', required: true, description: 'the shop checkpoint whose policy plays' },
    games: {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeReadingCeiling.games,
      default: '1000',
      description: "the teacher check's games played (its first N)",
    },
    skills: {
      type: 'string',
      choices: SKILL_WRITERS,
      default: 'own',
      description: "who writes each game's skill: the policy's analyzer (own) or the rule-based annotator (annotator)",
    },
    backend: backendOption('the backend that runs the policy'),
  },
});

export const skillCommand = defineCommand({
  name: 'probe skill',
  summary: 'whether a shop policy reads the words of its skill or only its form',
  description:
    "On held-out games (seed 7): an explorer episode, its annotated skill and a replay by the explorer primed with it. At each replay step the skill decided, the first token where the primed and unprimed commands part is scored under the step's mask " +
    `in three contexts that differ only in the skill block (${PROBE_ARMS.join(' / ')}): the skill the replay acted on; none; and, where the step leaves an item whose skill says it lacked an option value, that value swapped for another the page offers ` +
    "(elsewhere another game's skill). Prints per kind of step, after a won or a failed first episode: how often the primed command's token is the most probable allowed one, and its probability renormalised over the allowed tokens.",
  options: {
    ckpt: { type: 'string', value: 'FILE', required: true, description: 'the shop checkpoint whose policy is scored' },
    games: {
      type: 'string',
      value: 'N',
      limit: LIMITS.probeSkill.games,
      default: '300',
      description: 'held-out games whose decided steps are scored',
    },
    backend: backendOption('the backend that scores'),
  },
});

export const group: GroupSpec = {
  name: 'probe',
  summary: "the shop's diagnostic probes: option-copy, reading-ceiling, skill",
  description:
    "Each probe asks one question of the shop's tiny model (bench/notes/shop.md) and prints its answer as lines and tables on stdout.",
  noun: 'probe',
  members: {
    'option-copy': async () => ({ command: optionCopyCommand, run: optionCopy }),
    'reading-ceiling': async () => ({ command: readingCeilingCommand, run: readingCeilingRun }),
    skill: async () => ({ command: skillCommand, run: skill }),
  },
};

export function run(args: string[]): Promise<number> {
  return runGroup(group, args);
}

const percent = (fraction: number) => `${(100 * fraction).toFixed(1)}%`;
const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function optionCopy(args: string[]): Promise<number> {
  const usage = usageLine(optionCopyCommand);
  const { values, positionals } = parseOptions(args, optionCopyCommand);
  noPositionals(positionals, usage);
  const tok = tokenizerOf(SHOP);
  const limits = LIMITS.probeOptionCopy;
  const heldOut = numberOption(values['held-out'], 'held-out', limits['held-out']);
  const given = (names: readonly (keyof typeof values)[]) => names.find((n) => values[n] !== undefined);
  const synthetic = ['task-words', 'filler', 'after', 'train-examples'] as const;
  const scored = async (backend: Awaited<ReturnType<typeof openBackend>>, held: readonly OptionChoice[]) => {
    const { accuracy, nll } = await scoreChoices(backend, tok, held);
    return `accuracy ${percent(accuracy)}, NLL ${nll.toFixed(3)}`;
  };
  if (values.ckpt !== undefined) {
    const extra = given(['choices', 'steps', 'train-games', ...synthetic]);
    if (extra !== undefined) throw new CliError(`--ckpt trains nothing: --${extra} does not apply`, 2);
    const ck = await readCheckpointFile(values.ckpt, tok);
    const backend = await openBackend(values.backend!, ck.config, ck.params);
    for (const which of ['first', 'later'] as const) {
      const held = shopChoices(tok, HELD_OUT_SEED, heldOut, which).slice(0, heldOut);
      print(`${which} choices (${held.length}, chance ${percent(chanceOf(held))}): ${await scored(backend, held)}`);
    }
    return 0;
  }
  const kind = choiceOption(values.choices ?? 'all', 'choices', CHOICES);
  const misplaced = kind === 'synthetic' ? given(['train-games']) : given(synthetic);
  if (misplaced !== undefined) throw new CliError(`--${misplaced} does not apply to --choices ${kind}`, 2);
  const steps = numberOption(values.steps, 'steps', limits.steps, DEFAULTS.steps);
  let train: OptionChoice[];
  let held: OptionChoice[];
  let title: string;
  if (kind === 'synthetic') {
    const taskWords = numberOption(values['task-words'], 'task-words', limits['task-words'], DEFAULTS.taskWords);
    const filler = numberOption(values.filler, 'filler', limits.filler, DEFAULTS.filler);
    const after = values.after === true;
    const examples = numberOption(
      values['train-examples'],
      'train-examples',
      limits['train-examples'],
      DEFAULTS.trainExamples,
    );
    train = syntheticChoices(tok, 1, examples, taskWords, filler, after);
    held = syntheticChoices(tok, HELD_OUT_SEED, heldOut, taskWords, filler, after);
    title = `synthetic, ${taskWords} task words, ${filler} filler words, the naming words ${after ? 'after' : 'before'} the list`;
  } else {
    const games = numberOption(values['train-games'], 'train-games', limits['train-games'], DEFAULTS.trainGames);
    train = shopChoices(tok, 1, games, kind);
    held = shopChoices(tok, HELD_OUT_SEED, heldOut, kind).slice(0, heldOut);
    title = `${kind === 'first' ? 'first choices' : 'every choice'} of ${games} shop games`;
  }
  if (train.length === 0 || held.length === 0)
    throw new CliError(`${quote(kind)}: no ${train.length === 0 ? 'training' : 'held-out'} choice in so few games`, 2);
  const config = presetConfig('tiny', tok.vocabSize);
  const longest = Math.max(...[...train, ...held].map((c) => c.sequence.ids.length));
  if (longest > config.contextLength)
    throw new CliError(`a choice of ${longest} tokens outgrows the tiny model's ${config.contextLength}`, 2);
  print(`${title}: ${train.length} training choices, ${held.length} held out, chance ${percent(chanceOf(held))}`);
  const backend = await openBackend(values.backend!, config, initParameters(config, 1));
  print(`steps 0: ${await scored(backend, held)}`);
  await trainOnChoices(backend, tok, train, steps, async (done) =>
    print(`steps ${done}: ${await scored(backend, held)}`),
  );
  return 0;
}

async function readingCeilingRun(args: string[]): Promise<number> {
  const usage = usageLine(readingCeilingCommand);
  const { values, positionals } = parseOptions(args, readingCeilingCommand);
  noPositionals(positionals, usage);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  const games = numberOption(values.games, 'games', LIMITS.probeReadingCeiling.games);
  const writer: SkillWriter = choiceOption(values.skills!, 'skills', SKILL_WRITERS);
  const tok = tokenizerOf(SHOP);
  const ck = await readCheckpointFile(path, tok);
  const config = evalConfigOf(ck, path, undefined, SHOP);
  const backend = await openBackend(values.backend!, ck.config, ck.params);
  const bar = progressBar('reading ceiling', (1 + CEILING_ARMS.length) * games);
  const result = await readingCeiling(backend, tok, games, config, writer, () => bar.increment());
  bar.stop();
  const points = (fraction: number) => (100 * fraction).toFixed(1);
  print(
    `${path}, ${writer} skills (${result.usable} usable), ${games} teacher-check games; first episodes won ${result.firstWon}`,
  );
  print(`| games | n | ${CEILING_ARMS.join(' / ')} |`);
  print('|---|---|---|');
  for (const row of result.rows) print(`| ${row.label} | ${row.games} | ${row.success.map(points).join(' / ')} |`);
  const { mean, ci95 } = result.gain;
  print(`own - none: ${points(mean)} points, 95% interval [${points(ci95[0])}, ${points(ci95[1])}] (paired by game)`);
  return 0;
}

async function skill(args: string[]): Promise<number> {
  const usage = usageLine(skillCommand);
  const { values, positionals } = parseOptions(args, skillCommand);
  noPositionals(positionals, usage);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  const games = numberOption(values.games, 'games', LIMITS.probeSkill.games);
  const tok = tokenizerOf(SHOP);
  const ck = await readCheckpointFile(path, tok);
  const backend = await openBackend(values.backend!, ck.config, ck.params);
  const probes = skillProbes(tok, games);
  const tallies = await tallyProbes(backend, tok, probes);
  print(`${path}: ${probes.length} steps a skill decided in ${games} held-out games`);
  print(`| step | steps | most probable, ${PROBE_ARMS.join(' / ')} | probability, ${PROBE_ARMS.join(' / ')} |`);
  print('|---|---|---|---|');
  for (const t of tallies) {
    const top = t.top.map((n) => `${((100 * n) / t.steps).toFixed(0)}%`).join(' / ');
    const probability = t.probability.map((p) => (p / t.steps).toFixed(2)).join(' / ');
    print(`| ${t.kind} | ${t.steps} | ${top} | ${probability} |`);
  }
  return 0;
}
