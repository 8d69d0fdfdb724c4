// The options of `seed bench learn` (its `command`: each option once, with its range and default) and the plan
// they ask for (readPlan), checked before any file is read or any run starts. main.ts runs the plan.
import { cpus } from 'node:os';
import { defaultConfig } from '../../rl/config.ts';
import { ALGOS, currentAlgoName, distils, isAlgo, type Algo, usesOpidWeight } from '../../rl/arms.ts';
import { factsOf, theWorld } from '../../worlds/facts.ts';
import { DEFAULT_WORLD, ENVIRONMENT_NAMES, namedWorld, type EnvironmentName } from '../../worlds/names.ts';
import { ENV_OPTION } from '../../cli/environment_option.ts';
import {
  applySetOptions,
  numberList,
  numberOption,
  type parseOptions,
  presetOption,
  settingsSection,
} from '../../cli/args.ts';
import { defineCommand } from '../../cli/help.ts';
import { LIMITS } from '../../cli/limits.ts';
import { quote } from '../../common/json.ts';
import { CliError } from '../../cli/cli_error.ts';
import { warmStartPath, type PresetName } from '../../model/config.ts';
import type { LearnPlan } from './benchmark.ts';
import { reportName } from '../output.ts';
import { lambdaGrid } from './design/lambda_grid.ts';
import { PRESET } from './jobs/job.ts';
import { JOB_STORE_DIR } from './jobs/job_store.ts';
import { DEFAULT_BUDGET_MINUTES } from './jobs/pool.ts';
import { sweepsLambda } from './sweeps/sweep.ts';

const limits = LIMITS.benchLearn;

/** Seeds of each main arm: what fits the default budget, and what --full runs. */
const DEFAULT_SEEDS = 8;
const FULL_SEEDS = 10;
/**
 * The OPD shares of the gradient a distilling arm's lambda grid aims at: from a term that barely moves the step to
 * one as large as GRPO's (bench/notes/opd_share.md).
 */
const DEFAULT_OPD_SHARES = '0.05,0.2,0.5';
/** Seeds per value of a sweep: with 2, values a few points apart could not be told apart (bench/notes/household.md). */
const DEFAULT_SWEEP_SEEDS = 4;
/** opid's A + w * Delta: from a shift that barely moves the advantage to one as large as it. */
const DEFAULT_OPID_WEIGHTS = '0.01,0.1,1';
const DEFAULT_CONTROLS = 'seed,seed-exact-crossgame,seed-crossgame';
const DEFAULT_CONTROL_SEEDS = 3;
/** Enough steps for a grid of three to reach nine times past its edge. */
const DEFAULT_EXTEND = 2;
/** The teacher check at the warm start, and as the teacher's lead is spent (it closed within ~100 updates). */
const DEFAULT_TEACHER_AT = '0,24,48,96';
const DEFAULT_TEACHER_GAMES = 256;

/** The worlds a benchmark's files and options name (all but the default one, whose names predate them). */
const OTHER_WORLDS = ENVIRONMENT_NAMES.filter((name) => namedWorld(name) !== undefined);

export const command = defineCommand({
  name: 'bench learn',
  summary:
    'GRPO vs hindsight distillation from one warm start: success and area under the curve with 95% intervals, diagnostics, data fractions',
  description:
    "The paper's table on the tiny preset: every arm from the same warm start with equal episodes. The main arms run seeds S..S+K-1 (--first-seed S, 1 by default), the controls S..S+K'-1, the ablations " +
    "seed S; seed k draws the same training tasks in every arm. Each distilling main arm's lambda (and each main arm's learning rate and rehearsal weight, when several are given) is chosen on the " +
    'validation-unseen games (of what training holds out, none of them in an eval set) from --sweep-seeds seeds per value; controls and ablations take the settings of the arm they vary. Runs go to W child processes; a run that fails is ' +
    `reported, not fatal. Its defaults fit ${DEFAULT_BUDGET_MINUTES} minutes on 2 cores. Writes learn.md, learn.json and learn_curve.svg and prints the table; with --fractions, ` +
    'learn_fractions.md and learn_fractions.json instead.',
  options: {
    plan: {
      type: 'string',
      value: 'DIR',
      defaultText: 'none',
      description:
        'runs nothing: writes the jobs of the first phase (the sweeps, or every run when nothing is swept) to DIR/jobs/N.json with the invocation and a copy of --init, for any machines to run (docs/cluster.md)',
    },
    collect: {
      type: 'string',
      value: 'DIR',
      defaultText: 'none',
      description:
        "takes the results in DIR/results of a plan's jobs: writes the next phase's jobs (what a sweep chose decides them) or those still missing, or once all are there, the reports a local run writes (to --out, else the planned --out)",
    },
    worker: {
      type: 'string',
      value: 'FILE|JSON',
      defaultText: 'none',
      description:
        "runs one job, a plan's job file (DIR/jobs/N.json) or a job's JSON (how the benchmark's child processes are started), and prints its result",
    },
    result: {
      type: 'string',
      value: 'FILE',
      defaultText: 'stdout',
      description:
        "with --worker: writes the job's result (or its failure) to FILE instead, as --collect reads it (in a plan's folder, its job's results/N.json alone)",
    },
    progress: {
      type: 'string',
      value: 'DIR',
      defaultText: 'none',
      description:
        "with --worker: keeps the run's progress in DIR after each point of its curve and goes on from what DIR holds of the same job, commit and init (a run killed midway loses at most --eval-every updates, and ends as if never cut); DIR is removed once the result is out, so a folder that holds anything else (the job's files, this folder) is refused. On a tree with uncommitted changes no progress is kept",
    },
    preset: presetOption({
      default: PRESET,
      description: 'the model preset of --init (micro: a check of the machinery in seconds, not a measurement)',
    }),
    seeds: {
      type: 'string',
      value: 'K',
      limit: limits.seeds,
      defaultText: `${DEFAULT_SEEDS} (${FULL_SEEDS} with --full)`,
      description: 'seeds of each main arm (and of each arm at each fraction)',
    },
    updates: { type: 'string', value: 'N', limit: limits.updates, default: '192', description: 'updates per run' },
    algos: {
      type: 'string',
      value: 'a,b',
      default: 'grpo,seed-exact',
      description: 'the main arms (algorithms, comma-separated)',
    },
    controls: {
      type: 'string',
      value: 'a,b|none',
      defaultText: DEFAULT_CONTROLS,
      description: 'the controls, each at the settings of the arm it varies (none with --fractions)',
    },
    'control-seeds': {
      type: 'string',
      value: 'K',
      limit: limits['control-seeds'],
      defaultText: String(DEFAULT_CONTROL_SEEDS),
      description:
        "seeds of each control; a control that leads grpo on eval-unseen over them (paired by seed) runs the main arms' other seeds too",
    },
    ablations: {
      type: 'string',
      value: 'a,b|none',
      defaultText: 'none',
      description: 'ablations, one seed each at the settings of the arm they vary (seed-static, opid, seed-nogate)',
    },
    set: {
      type: 'string',
      value: 'key=value',
      multiple: true,
      default: [],
      description:
        'changes a training setting of every run (settings below); lr, lambda and rehearsal given here are not swept',
    },
    lrs: {
      type: 'string',
      value: 'x,y',
      limit: limits.lrs,
      list: true,
      defaultText: '5e-4, or --set lr',
      description: 'learning rates: one for every arm, or a sweep of each main arm over several',
    },
    lambdas: {
      type: 'string',
      value: 'x,y',
      limit: limits.lambdas,
      list: true,
      defaultText: 'the lambdas of --opd-shares, or --set lambda',
      description: 'lambdas of the sweep of each distilling main arm (one value: no sweep)',
    },
    rehearsals: {
      type: 'string',
      value: 'x,y',
      limit: limits.rehearsals,
      list: true,
      defaultText: '0, or --set rehearsal',
      description:
        "weights of the rehearsal term (the warm start's skill examples in each step, bench/notes/teacher.md): one for every arm, or a sweep of each main arm over several, at its chosen learning rate and lambda",
    },
    'opd-shares': {
      type: 'string',
      value: 's,t',
      limit: limits['opd-shares'],
      list: true,
      defaultText: `${DEFAULT_OPD_SHARES}, unless --lambdas or --set lambda`,
      description:
        "each distilling main arm's lambda grid stated by the OPD share of the gradient (OPD norm / (GRPO norm + OPD norm)) its values should give: " +
        "lambda = s / ((1 - s) r), r the world's measured OPD / GRPO norm ratio per lambda for the arm's kind of distillation (sampled-token or exact; bench/notes/opd_share.md); " +
        "the sweep's table gives the shares the runs measured (one value: no sweep)",
    },
    'opid-weights': {
      type: 'string',
      value: 'x,y',
      limit: limits['opid-weights'],
      list: true,
      defaultText: `${DEFAULT_OPID_WEIGHTS}, or --set opidWeight`,
      description: "opid's weights of Delta swept when opid runs, as a main arm or an ablation (one value: no sweep)",
    },
    'sweep-seeds': {
      type: 'string',
      value: 'K',
      limit: limits['sweep-seeds'],
      default: String(DEFAULT_SWEEP_SEEDS),
      description: 'seeds per value of a sweep (at least 2 when sweeping)',
    },
    'extend-grid': {
      type: 'string',
      value: 'N',
      limit: limits['extend-grid'],
      default: String(DEFAULT_EXTEND),
      description:
        "steps an arm's sweep grid grows past the edge that holds its best value, one value at a time, until the best lies inside (0: the grid as given)",
    },
    'pick-best': {
      type: 'boolean',
      description:
        "of the distilling main arms, only the one whose chosen settings score best on the validation-unseen games runs the main seeds; each control of another arm runs as the winner's same control (seed-procedure for seed-exact-procedure)",
    },
    'first-seed': {
      type: 'string',
      value: 'S',
      limit: limits['first-seed'],
      default: '1',
      description:
        "the first seed of every arm: the main arms run seeds S..S+K-1, the controls S..S+K'-1 (a later invocation adds seeds to an earlier one)",
    },
    'teacher-at': {
      type: 'string',
      value: 'u,v|none',
      list: true,
      default: DEFAULT_TEACHER_AT,
      description:
        'the updates after which every run (not the sweeps) plays the teacher check on --teacher-games validation games, 0 before the first, with the KL to its teacher; none for none',
    },
    'teacher-games': {
      type: 'string',
      value: 'N',
      limit: limits['teacher-games'],
      defaultText: `${DEFAULT_TEACHER_GAMES}, or --set teacherGames`,
      description: 'validation games of each teacher check of --teacher-at (the same games at every check)',
    },
    'sweep-updates': {
      type: 'string',
      value: 'N',
      limit: limits['sweep-updates'],
      defaultText: '--updates',
      description: 'updates per sweep run',
    },
    full: {
      type: 'boolean',
      description: `${FULL_SEEDS} seeds per main arm and 3 per control: longer than the default's ${DEFAULT_BUDGET_MINUTES}-minute budget, and the report says so`,
    },
    fractions: {
      type: 'string',
      value: 'f,g',
      limit: limits.fractions,
      list: true,
      defaultText: 'none',
      description:
        'instead of the main benchmark, grpo and each main distilling arm trained on these fractions of the training games (learn_fractions.md)',
    },
    'eval-every': {
      type: 'string',
      value: 'N',
      limit: limits['eval-every'],
      default: '16',
      description: 'a point of the curve every N updates',
    },
    'eval-episodes': {
      type: 'string',
      value: 'N',
      limit: limits['eval-episodes'],
      default: '0',
      description: 'games per split of each evaluation (0: every game)',
    },
    'eval-samples': {
      type: 'string',
      value: 'K',
      limit: limits['eval-samples'],
      default: '4',
      description: 'sampled episodes per game in the final evaluation (the curve takes one)',
    },
    init: {
      type: 'string',
      value: 'FILE',
      defaultText: `${warmStartPath(PRESET, DEFAULT_WORLD)} (${OTHER_WORLDS.map((w) => `${theWorld(w)}: ${warmStartPath(PRESET, w)}`).join('; ')}; the --preset's warm start)`,
      description: 'the warm start every run begins from',
    },
    env: {
      ...ENV_OPTION,
      description: `the world the runs play (its tiny scale); ${OTHER_WORLDS.map((w) => `${theWorld(w)}'s report files are named ${reportName('learn', w)}*, ${reportName('learn_fractions', w)}*`).join('; ')}`,
    },
    workers: {
      type: 'string',
      value: 'W',
      limit: limits.workers,
      defaultText: 'the cores, at most 2',
      description: 'child processes running jobs at once',
    },
    out: {
      type: 'string',
      value: 'DIR',
      defaultText: 'bench/',
      description:
        'the directory of the report (a named run goes to bench/runs/<label>), held by one invocation at a time (DIR/run.lock)',
    },
    resume: {
      type: 'boolean',
      description: `takes the runs an earlier invocation finished, kept in DIR/${JOB_STORE_DIR}/ by job, commit and init checkpoint, instead of running them again, and a run it cut short goes on from the last point of its curve (needs a clean git checkout)`,
    },
    record: {
      type: 'string',
      value: 'FILE',
      defaultText: 'none',
      description:
        "also writes a record of the runs for the page to FILE (under 2 MB: every arm and seed's eval-seen and eval-unseen curves, the final figures with their intervals, " +
        'and 2 episodes per arm at up to 4 evaluated updates with per-token Delta, gate and coefficient) and lists it in index.json beside FILE; the page shows the newest ' +
        'record of public/runs/. Each point of the curves then evaluates eval-seen too',
    },
  },
  sections: [settingsSection()],
});

/** The algorithms a list names, each once: one named twice would run each of its seeds twice at once. */
function algoList(text: string, name: string): Algo[] {
  if (text === 'none' || text === '') return [];
  const algos = text.split(',').map((s) => {
    const given = s.trim();
    const algo = currentAlgoName(given);
    if (!isAlgo(algo))
      throw new CliError(`--${name}: unknown algorithm ${quote(given)} (known: ${ALGOS.join(', ')})`, 2);
    if (algo !== given) process.stderr.write(`--${name}: ${given} is the former name of ${algo}: running ${algo}\n`);
    return algo;
  });
  const twice = algos.find((a, i) => algos.indexOf(a) !== i);
  if (twice !== undefined) throw new CliError(`--${name} names ${twice} twice: name each algorithm once`, 2);
  return algos;
}

/** The values of --set for `key`, if any. */
function setsKey(settings: readonly string[], key: string): boolean {
  return settings.some((s) => s.slice(0, Math.max(0, s.indexOf('='))).trim() === key);
}

/** `args` without the options of `names` (given as --name VALUE or --name=VALUE). */
export function withoutOptions(args: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith('--') ? args[i].slice(2).split('=')[0] : '';
    if (!names.includes(name)) out.push(args[i]);
    else if (!args[i].includes('=') && command.options[name as keyof typeof command.options]?.type === 'string') i++;
  }
  return out;
}

export type LearnValues = ReturnType<typeof parseOptions<typeof command.options>>['values'];

/** What the options ask for, checked; no file is read. */
export function readPlan(values: LearnValues): LearnPlan {
  const full = values.full === true;
  const fractions =
    values.fractions === undefined
      ? []
      : [...new Set(numberList(values.fractions, 'fractions', limits.fractions))].sort((a, b) => a - b);
  if (fractions.length) {
    for (const name of ['controls', 'control-seeds', 'ablations', 'record', 'full'] as const) {
      if (values[name] !== undefined) {
        throw new CliError(
          `--${name} is for the main benchmark, not for --fractions (grpo and each main distilling arm)`,
          2,
        );
      }
    }
  }
  const seeds = numberOption(values.seeds, 'seeds', limits.seeds, full ? FULL_SEEDS : DEFAULT_SEEDS);
  const firstSeed = numberOption(values['first-seed'], 'first-seed', limits['first-seed']);
  const controlSeeds = numberOption(
    values['control-seeds'],
    'control-seeds',
    limits['control-seeds'],
    DEFAULT_CONTROL_SEEDS,
  );
  const updates = numberOption(values.updates, 'updates', limits.updates);
  const sweepUpdates = numberOption(values['sweep-updates'], 'sweep-updates', limits['sweep-updates'], updates);
  const sweepSeeds = numberOption(values['sweep-seeds'], 'sweep-seeds', limits['sweep-seeds']);
  const algos = algoList(values.algos!, 'algos');
  const controls = fractions.length
    ? []
    : algoList(values.controls ?? DEFAULT_CONTROLS, 'controls').filter((a) => !algos.includes(a));
  const ablations = algoList(values.ablations ?? 'none', 'ablations').filter(
    (a) => !algos.includes(a) && !controls.includes(a),
  );
  const settings = [...(values.set as string[])];
  if (!setsKey(settings, 'teacherGames'))
    settings.push(
      `teacherGames=${numberOption(values['teacher-games'], 'teacher-games', limits['teacher-games'], DEFAULT_TEACHER_GAMES)}`,
    );
  else if (values['teacher-games'] !== undefined)
    throw new CliError('--set teacherGames=... and --teacher-games both give teacherGames: give one', 2);
  const teacherAt =
    values['teacher-at'] === 'none'
      ? []
      : [...new Set(numberList(values['teacher-at']!, 'teacher-at', limits['teacher-at']))].sort((a, b) => a - b);
  const env = (values.env ?? DEFAULT_WORLD) as EnvironmentName;
  const preset = (values.preset ?? PRESET) as PresetName;
  if (preset !== PRESET && values.record !== undefined)
    throw new CliError(`--record keeps the ${PRESET} preset's benchmark for the page, not the ${preset} preset's`, 2);
  // The world's own defaults (a shop episode is played in windows) come between the preset's and --set.
  const base = applySetOptions({ ...defaultConfig(preset), ...factsOf(env).trainDefaults }, settings);
  // A value given with --set is the one every arm runs at: it is not swept.
  const swept = (
    key: 'lr' | 'lambda' | 'opidWeight' | 'rehearsal',
    option: 'lrs' | 'lambdas' | 'opid-weights' | 'rehearsals',
    fallback: string,
  ): number[] => {
    if (setsKey(settings, key)) {
      if (values[option] !== undefined)
        throw new CliError(`--set ${key}=... and --${option} both give ${key}: give one`, 2);
      return [base[key]];
    }
    return [...new Set(numberList(values[option] ?? fallback, option, limits[option]))];
  };
  const lrs = swept('lr', 'lrs', '5e-4');
  // Without lambdas given, each distilling main arm's grid is stated by OPD shares, in the world's measure.
  const lambdasGiven = setsKey(settings, 'lambda') || values.lambdas !== undefined;
  if (lambdasGiven && values['opd-shares'] !== undefined)
    throw new CliError(
      `--opd-shares and ${values.lambdas === undefined ? '--set lambda=...' : '--lambdas'} both give the lambdas: give one`,
      2,
    );
  const lambdas = lambdasGiven ? swept('lambda', 'lambdas', '') : [];
  const opdShares = lambdasGiven
    ? []
    : [...new Set(numberList(values['opd-shares'] ?? DEFAULT_OPD_SHARES, 'opd-shares', limits['opd-shares']))].sort(
        (a, b) => a - b,
      );
  const lambdaGrids = lambdasGiven
    ? undefined
    : Object.fromEntries(algos.filter(distils).map((a) => [a, lambdaGrid(opdShares, factsOf(env), a)]));
  const opidWeights = swept('opidWeight', 'opid-weights', DEFAULT_OPID_WEIGHTS);
  const rehearsals = swept('rehearsal', 'rehearsals', String(base.rehearsal));
  if (lambdas.length === 1) base.lambda = lambdas[0];
  if (lrs.length === 1) base.lr = lrs[0];
  if (opidWeights.length === 1) base.opidWeight = opidWeights[0];
  if (rehearsals.length === 1) base.rehearsal = rehearsals[0];
  const opidSwept = opidWeights.length > 1 && [...algos, ...ablations].some(usesOpidWeight);
  const lambdaSwept = sweepsLambda({ algos, lambdas, ...(lambdaGrids ? { lambdaGrids } : {}) });
  if ((lrs.length > 1 || lambdaSwept || opidSwept || rehearsals.length > 1) && sweepSeeds < 2)
    throw new CliError(
      `--sweep-seeds must be at least 2 when sweeping (a choice from one seed per value is noise), got ${sweepSeeds}`,
      2,
    );
  return {
    algos,
    controls,
    ablations,
    firstSeed,
    teacherAt,
    pickBest: values['pick-best'] === true,
    extend: numberOption(values['extend-grid'], 'extend-grid', limits['extend-grid']),
    base,
    lrs,
    lambdas,
    ...(lambdaGrids ? { opdShares, lambdaGrids } : {}),
    opidWeights,
    rehearsals,
    sweepSeeds,
    sweepUpdates,
    seeds,
    controlSeeds,
    updates,
    fractions,
    evalEvery: numberOption(values['eval-every'], 'eval-every', limits['eval-every']),
    evalEpisodes: numberOption(values['eval-episodes'], 'eval-episodes', limits['eval-episodes']),
    evalSamples: numberOption(values['eval-samples'], 'eval-samples', limits['eval-samples']),
    init: values.init ?? warmStartPath(preset, env),
    // The benchmark's preset is left unsaid, so that its jobs (and the keys of their kept runs) stay as they were.
    ...(preset === PRESET ? {} : { preset }),
    env,
    workers: numberOption(values.workers, 'workers', limits.workers, Math.max(1, Math.min(2, cpus().length))),
    record: values.record !== undefined,
  };
}
