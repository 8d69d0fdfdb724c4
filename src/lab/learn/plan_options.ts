import { theWorld } from '../../worlds/facts.ts';
import { DEFAULT_WORLD, ENVIRONMENT_NAMES, namedWorld } from '../../worlds/names.ts';
import { ENV_OPTION } from '../../cli/environment_option.ts';
import { type parseOptions, presetOption, settingsSection } from '../../cli/args.ts';
import { defineCommand } from '../../cli/help.ts';
import { LIMITS } from '../../cli/limits.ts';
import { warmStartPath } from '../../model/config.ts';
import { reportName } from '../output.ts';
import { PRESET } from './jobs/job.ts';
import { JOB_STORE_DIR } from './jobs/job_store.ts';
import { DEFAULT_BUDGET_MINUTES } from './jobs/pool.ts';

const limits = LIMITS.benchLearn;

/** Seeds of each main arm: what fits the default budget, and what --full runs. */
export const DEFAULT_SEEDS = 8;
export const FULL_SEEDS = 10;
/**
 * The OPD shares of the gradient a distilling arm's lambda grid aims at: from a term that barely moves the step to
 * one as large as GRPO's (bench/notes/opd_share.md).
 */
export const DEFAULT_OPD_SHARES = '0.05,0.2,0.5';
/** Seeds per value of a sweep: with 2, values a few points apart could not be told apart (bench/notes/household.md). */
const DEFAULT_SWEEP_SEEDS = 4;
/** opid's A + w * Delta: from a shift that barely moves the advantage to one as large as it. */
export const DEFAULT_OPID_WEIGHTS = '0.01,0.1,1';
export const DEFAULT_CONTROLS = 'seed,seed-exact-crossgame,seed-crossgame';
export const DEFAULT_CONTROL_SEEDS = 3;
/** Enough steps for a grid of three to reach nine times past its edge. */
const DEFAULT_EXTEND = 2;
/** The teacher check at the warm start, and as the teacher's lead is spent (it closed within ~100 updates). */
const DEFAULT_TEACHER_AT = '0,24,48,96';
export const DEFAULT_TEACHER_GAMES = 256;

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
