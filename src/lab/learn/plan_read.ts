// The plan `seed bench learn`'s options ask for (readPlan), checked before any file is read or any run starts.
import { cpus } from 'node:os';
import { defaultConfig } from '../../rl/config.ts';
import { ALGOS, currentAlgoName, distils, isAlgo, type Algo, usesOpidWeight } from '../../rl/arms.ts';
import { factsOf } from '../../worlds/facts.ts';
import { DEFAULT_WORLD, type EnvironmentName } from '../../worlds/names.ts';
import { applySetOptions, numberList, numberOption } from '../../cli/args.ts';
import { LIMITS } from '../../cli/limits.ts';
import { quote } from '../../common/json.ts';
import { CliError } from '../../cli/cli_error.ts';
import { warmStartPath, type PresetName } from '../../model/config.ts';
import type { LearnPlan } from './benchmark.ts';
import { lambdaGrid } from './design/lambda_grid.ts';
import { PRESET } from './jobs/job.ts';
import { sweepsLambda } from './sweeps/sweep.ts';
import {
  DEFAULT_SEEDS,
  FULL_SEEDS,
  DEFAULT_OPD_SHARES,
  DEFAULT_OPID_WEIGHTS,
  DEFAULT_CONTROLS,
  DEFAULT_CONTROL_SEEDS,
  DEFAULT_TEACHER_GAMES,
  type LearnValues,
} from './plan_options.ts';

const limits = LIMITS.benchLearn;

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
