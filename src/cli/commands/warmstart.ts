// `seed warmstart`: builds the warm-start corpus, trains a preset on it, evaluates it and writes the checkpoint
// and its card; its options and files are declared in `command` below (the --help text).
import { Rng } from '../../common/rng.ts';
import { ENVIRONMENT_NAMES, namedWorld } from '../../worlds/names.ts';
import { configDifference, presetConfig } from '../../model/config.ts';
import { writeCheckpoint } from '../../model/checkpoint.ts';
import { initParameters } from '../../model/init.ts';
import { writeSkills } from '../../rl/analyzer.ts';
import { defaultConfig } from '../../rl/config.ts';
import { evalSplitScenes, evaluateSplits } from '../../rl/evaluate.ts';
import {
  SKILL_WRITERS,
  TEACHER_PLAYS,
  teacherCheck,
  type SkillWriter,
  type TeacherCheck,
} from '../../rl/teacher_check.ts';
import type { Trajectory } from '../../rl/rollout.ts';
import type { RlWorld } from '../../rl/rl_world.ts';
import { skillSlotDifference } from '../../rl/skill_slot.ts';
import { theWorld } from '../../worlds/facts.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';
import {
  EXAMPLE_KINDS,
  FOCUS_KINDS,
  FOLLOW_KINDS,
  trainWarmStart,
  WARMSTART_DEFAULTS,
  type FocusKind,
  type WarmStartOptions,
} from '../../rl/warmstart.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { backendOption, openBackend } from '../backend.ts';
import {
  choiceList,
  choiceOption,
  noPositionals,
  numberOption,
  parseOptions,
  presetOf,
  presetOption,
  requireOption,
} from '../args.ts';
import { CliError } from '../cli_error.ts';
import { defineCommand, usageLine } from '../help.ts';
import { checkOutputsApart, checkWritable, progressBar, readCheckpointFile, writeAtomic } from '../io.ts';
import { LIMITS } from '../limits.ts';
import { commandLine, portablePath } from '../provenance.ts';
import { ENV_OPTION, environmentFrom, SCALE_OPTION } from '../environment_option.ts';

const limits = LIMITS.warmstart;

export const command = defineCommand({
  name: 'warmstart',
  summary: 'build the warm-start corpus, train a preset on it, write the checkpoint and its card',
  description:
    "Builds the warm-start corpus from a seed (the explorer acting, episodes replayed with a skill to follow, the analyzer writing the annotator's skill), " +
    'trains the preset on it from a seeded init, evaluates it, and writes the checkpoint and its JSON card (FILE with .json for .ckpt): corpus seed, steps, loss, ' +
    'success on eval-seen and eval-unseen, valid-skill rate and skill fidelity. The card goes to stdout too.',
  options: {
    preset: presetOption({ required: true, description: "the model's size" }),
    seed: {
      type: 'string',
      value: 'S',
      limit: limits.seed,
      required: true,
      description: 'the seed of the corpus and of the initial weights',
    },
    out: {
      type: 'string',
      value: 'FILE',
      required: true,
      description: 'the checkpoint to write; its card goes beside it',
    },
    env: ENV_OPTION,
    scale: SCALE_OPTION,
    backend: backendOption(
      'the backend that trains and evaluates the model (the corpus is built on the CPU either way)',
    ),
    episodes: {
      type: 'string',
      value: 'N',
      limit: limits.episodes,
      defaultText: worldDefault('episodes'),
      description: "the explorer's episodes in the corpus",
    },
    steps: {
      type: 'string',
      value: 'N',
      limit: limits.steps,
      defaultText: worldDefault('steps'),
      description: 'optimizer steps (0 with --init: only evaluates that checkpoint and writes its card)',
    },
    lr: {
      type: 'string',
      value: 'X',
      limit: limits.lr,
      defaultText: worldDefault('lr'),
      description: 'the learning rate',
    },
    'focus-steps': {
      type: 'string',
      value: 'N',
      limit: limits['focus-steps'],
      defaultText: worldDefault('focusSteps'),
      description:
        "the first steps that train on the corpus's focus alone (the shop's option choices; the household's corpus has none)",
    },
    'focus-share': {
      type: 'string',
      value: 'X',
      limit: limits['focus-share'],
      defaultText: worldDefault('focusShare'),
      description: "the share of every later batch drawn from the corpus's focus",
    },
    focus: {
      type: 'string',
      choices: FOCUS_KINDS,
      list: true,
      defaultText: WARMSTART_DEFAULTS.focus.join(','),
      description:
        "what the corpus's focus holds: the shop's option choices, the follow steps whose command its skill decides (read), the analyzer examples (the household's corpus has no focus)",
    },
    init: {
      type: 'string',
      value: 'FILE',
      defaultText: "a seeded random init (the preset's)",
      description: "continues the training of an earlier warm start (its steps add to this one's in the card)",
    },
    'eval-episodes': {
      type: 'string',
      value: 'N',
      limit: limits['eval-episodes'],
      default: '0',
      description: 'games per split of the evaluation (0: every game)',
    },
    'teacher-games': {
      type: 'string',
      value: 'N',
      limit: limits['teacher-games'],
      default: '512',
      description: "games of the card's teacher check, with each skill writer (0: no check)",
    },
    'skill-slot': {
      type: 'boolean',
      default: false,
      description:
        'every policy context of the corpus holds a skill slot of one fixed length, empty where no skill is read: the warm start of runs with --set skillSlot=1 (the checkpoint says so, and a run without it is refused)',
    },
    'score-random': {
      type: 'boolean',
      default: false,
      description:
        "scores the explorer's random commands too (by default they only lead it to the states a weak agent reaches)",
    },
    follow: {
      type: 'string',
      choices: FOLLOW_KINDS,
      default: WARMSTART_DEFAULTS.follow,
      description:
        'the follow examples: the won episodes again with their own skill, or primed replays of every episode, whose skill changes the actions',
    },
    kinds: {
      type: 'string',
      choices: EXAMPLE_KINDS,
      list: true,
      default: WARMSTART_DEFAULTS.kinds.join(','),
      description:
        "the kinds of example the corpus keeps (follow and analyze alone, continued from an --init that acts, are the paper's stage 1)",
    },
  },
});

const usage = usageLine(command);

/** A default of the warm start, and each world's where it differs. */
function worldDefault(key: 'episodes' | 'steps' | 'lr' | 'focusSteps' | 'focusShare'): string {
  const differing = ENVIRONMENT_NAMES.flatMap((name) => {
    const own = rlWorldOf(environmentFrom(name)).warmStartDefaults[key];
    return own !== undefined && own !== WARMSTART_DEFAULTS[key] ? [`${theWorld(name)}: ${own}`] : [];
  });
  return `${WARMSTART_DEFAULTS[key]}${differing.length ? ` (${differing.join('; ')})` : ''}`;
}

/**
 * The kinds --focus names, each one the world's corpus can put in its focus (a kind it cannot would be dropped
 * without a word); the default, which a corpus without a focus ignores, when the option is absent.
 */
function focusOf(text: string | undefined, world: RlWorld): FocusKind[] {
  if (text === undefined) return [...WARMSTART_DEFAULTS.focus];
  const kinds = choiceList(text, 'focus', FOCUS_KINDS);
  const foreign = kinds.filter((k) => !world.focusKinds.includes(k));
  if (foreign.length === 0) return kinds;
  // Each world by the name --env takes, a value rather than a noun, so the sentence reads alike for every name.
  const each = ENVIRONMENT_NAMES.map((name) => {
    const own = rlWorldOf(environmentFrom(name)).focusKinds;
    return `${name} ${own.length ? own.join(', ') : 'none'}`;
  });
  throw new CliError(
    `--focus ${foreign.join(',')}: the warm-start corpus of --env ${world.env.name} has no ${foreign.join(' or ')} focus (the focuses of each world: ${each.join('; ')})`,
    2,
  );
}

/** --focus-steps and --focus-share shape the corpus's focus: for a world whose corpus has none they would do nothing. */
function checkFocusOptions(given: { 'focus-steps'?: string; 'focus-share'?: string }, world: RlWorld): void {
  if (world.focusKinds.length > 0) return;
  const named = (['focus-steps', 'focus-share'] as const).filter((name) => given[name] !== undefined);
  if (named.length > 0)
    throw new CliError(
      `${named.map((name) => `--${name}`).join(' and ')}: the warm-start corpus of --env ${world.env.name} has no focus, so ${named.length > 1 ? 'they' : 'it'} would change nothing`,
      2,
    );
}

function cardPath(ckpt: string): string {
  return ckpt.endsWith('.ckpt') ? `${ckpt.slice(0, -5)}.json` : `${ckpt}.json`;
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const preset = presetOf(values.preset, usage);
  const seed = numberOption(values.seed, 'seed', limits.seed);
  const out = requireOption(values.out, 'out', usage);
  const env = environmentFrom(values.env, values.scale);
  const world = rlWorldOf(env);
  const defaults = { ...WARMSTART_DEFAULTS, ...world.warmStartDefaults };
  const options: WarmStartOptions = {
    ...defaults,
    seed,
    episodes: numberOption(values.episodes, 'episodes', limits.episodes, defaults.episodes),
    steps: numberOption(values.steps, 'steps', limits.steps, defaults.steps),
    lr: numberOption(values.lr, 'lr', limits.lr, defaults.lr),
    focusSteps: numberOption(values['focus-steps'], 'focus-steps', limits['focus-steps'], defaults.focusSteps),
    focusShare: numberOption(values['focus-share'], 'focus-share', limits['focus-share'], defaults.focusShare),
    focus: focusOf(values.focus, world),
    scoreRandom: values['score-random'],
    skillSlot: values['skill-slot'] ? 1 : 0,
    follow: choiceOption(values.follow, 'follow', FOLLOW_KINDS),
    kinds: choiceList(values.kinds, 'kinds', EXAMPLE_KINDS),
  };
  checkFocusOptions(values, world);
  // The settings a run from this warm start must keep: the slot and the skill length that sizes it.
  const fixedSettings = options.skillSlot ? { skillSlot: 1, maxSkillTokens: options.maxSkillTokens } : {};
  const evalEpisodes = numberOption(values['eval-episodes'], 'eval-episodes', limits['eval-episodes']);
  if (options.steps === 0 && values.init === undefined)
    throw new CliError('--steps 0 needs --init (there is nothing to evaluate otherwise)', 2);
  if (values.init !== undefined)
    checkOutputsApart(
      [
        { option: '--out', path: out },
        { option: 'the card of --out', path: cardPath(out) },
      ],
      [{ option: '--init', path: values.init }],
    );
  // The corpus, the training and the evaluation take minutes: an output that cannot be written is refused first.
  await checkWritable(out);
  await checkWritable(cardPath(out));
  const tok = tokenizerOf(env);
  const config = presetConfig(preset, tok.vocabSize);
  const t0 = performance.now();

  const corpus = world.warmStartCorpus(tok, config.contextLength, options);
  process.stderr.write(
    `corpus: ${corpus.sequences.length} examples (${JSON.stringify(corpus.counts)}), explorer success ${corpus.explorerSuccess.toFixed(3)}\n`,
  );
  // --init continues the training of an earlier warm start (its steps add to this run's in the card).
  const init = values.init === undefined ? null : await readCheckpointFile(values.init, tok);
  const difference = init && configDifference(init.config, config);
  if (difference)
    throw new CliError(`--init ${values.init} is not a checkpoint of the ${preset} preset: ${difference}`);
  const slotProblem = init && skillSlotDifference(init.metadata, fixedSettings, `--init ${values.init}`);
  if (slotProblem) throw new CliError(slotProblem);
  const priorSteps =
    init && Number.isInteger(init.metadata.steps) && (init.metadata.steps as number) >= 0
      ? (init.metadata.steps as number)
      : 0;
  const backend = await openBackend(values.backend!, config, init ? init.params : initParameters(config, seed));
  const bar = progressBar('warm start', options.steps);
  let tokens = 0;
  // --steps 0 with --init only evaluates an earlier warm start and writes its card (its loss is carried over).
  const priorLoss = init && typeof init.metadata.loss === 'number' ? init.metadata.loss : NaN;
  const loss =
    options.steps === 0
      ? priorLoss
      : await trainWarmStart(backend, tok, corpus, options, (s) => {
          tokens += s.tokens;
          bar.update(s.step + 1, { info: `loss ${s.loss.toFixed(3)}` });
        });
  bar.stop();
  const trainSeconds = (performance.now() - t0) / 1000;

  const rl = { ...defaultConfig(preset), ...world.trainDefaults, ...fixedSettings };
  const scenes = evalSplitScenes(world.env, evalEpisodes);
  const finished: Trajectory[] = [];
  const evalBar = progressBar('evaluate', scenes.seen.length + scenes.unseen.length);
  const { seen, unseen } = await evaluateSplits(world.env, backend, tok, rl, scenes, (t, split) => {
    if (split === 'seen') finished.push(t);
    evalBar.increment();
  });
  evalBar.stop();
  const sample = finished.slice(0, 48);
  // The card's valid-skill rate is what the policy writes freely; under the grammar mask (the tiny default in
  // training) every finished skill parses, so that rate is reported beside it.
  // Fidelity: how well the usable skills name the objects and places of their trajectories (skill_fidelity.ts).
  const rateOf = async (grammar: boolean) => {
    const skills = await writeSkills(
      world,
      backend,
      tok,
      sample,
      rl.maxSkillTokens,
      rl.analyzerTemperature,
      new Rng(seed).fork('skills'),
      { grammar },
    );
    const usable = skills.map((s, i) => [s, sample[i]] as const).filter(([s]) => s.ok);
    const fidelity = usable.length
      ? usable.reduce((sum, [s, t]) => sum + world.skillFidelity(s.text, t, tok, rl.maxSkillTokens), 0) / usable.length
      : null;
    return { skills, rate: skills.length ? usable.length / skills.length : 0, fidelity };
  };
  const { skills, rate: validSkillRate } = await rateOf(false);
  const { rate: validSkillRateGrammar, fidelity: skillFidelityGrammar } = await rateOf(true);
  // The teacher check (rl/teacher_check.ts) with both skill writers: does the policy play better with its own
  // hindsight skill of a game in context (what SEED distils), and with the annotator's faithful one?
  const teacherGames = numberOption(values['teacher-games'], 'teacher-games', limits['teacher-games'], 512);
  const teacher: Partial<Record<SkillWriter, TeacherCheck>> = {};
  if (teacherGames >= 2) {
    for (const writer of SKILL_WRITERS) {
      const teacherBar = progressBar(`teacher check (${writer})`, TEACHER_PLAYS * teacherGames);
      teacher[writer] = await teacherCheck(
        world,
        backend,
        tok,
        world.teacherScenes(teacherGames),
        rl,
        () => teacherBar.increment(),
        writer,
      );
      teacherBar.stop();
    }
  }

  const card = {
    command: commandLine('warmstart', args),
    ...(namedWorld(env.name) === undefined ? {} : { env: env.name, scale: env.variant }),
    ...(values.backend === 'cpu' ? {} : { backend: values.backend }),
    preset,
    corpus_seed: seed,
    ...(options.skillSlot ? { config: fixedSettings } : {}),
    corpus: {
      episodes: options.episodes,
      explorer_noise: options.noise,
      random_commands_scored: options.scoreRandom,
      follow: options.follow,
      kinds: options.kinds,
      explorer_success: corpus.explorerSuccess,
      examples: corpus.counts,
    },
    steps: priorSteps + options.steps,
    ...(corpus.focus?.length
      ? {
          focus: {
            kinds: options.focus,
            examples: corpus.focus.length,
            steps: Math.min(options.focusSteps, options.steps),
            share: options.focusShare,
          },
        }
      : {}),
    continued_from: values.init === undefined ? null : portablePath(values.init),
    batch: options.batch,
    lr: options.lr,
    tokens,
    loss,
    eval_temperature: rl.evalTemperature,
    success_seen: seen.success,
    success_unseen: unseen.success,
    per_type_seen: seen.per_type,
    per_type_unseen: unseen.per_type,
    eval_episodes: { seen: seen.episodes, unseen: unseen.episodes },
    valid_skill_rate: validSkillRate,
    valid_skill_rate_grammar: validSkillRateGrammar,
    skill_fidelity_grammar: skillFidelityGrammar,
    skill_examples: skills.slice(0, 4).map((s) => s.text),
    teacher,
    train_seconds: Number(trainSeconds.toFixed(1)),
    vocab_hash: tok.hash,
  };
  const bytes = writeCheckpoint({
    config,
    vocabHash: tok.hash,
    params: await backend.readParameters(),
    optimizer: null,
    metadata: {
      stage: 'warmstart',
      ...(options.skillSlot ? { config: fixedSettings } : {}),
      ...(namedWorld(env.name) === undefined ? {} : { env: env.name, scale: env.variant }),
      preset,
      seed,
      steps: priorSteps + options.steps,
      episodes: options.episodes,
      loss,
      success_seen: seen.success,
      success_unseen: unseen.success,
      valid_skill_rate: validSkillRate,
    },
  });
  await writeAtomic(out, bytes);
  await writeAtomic(cardPath(out), `${JSON.stringify(card, null, 2)}\n`);
  process.stderr.write(`wrote ${out} and ${cardPath(out)}\n`);
  process.stdout.write(`${JSON.stringify(card, null, 2)}\n`);
  return 0;
}
