// `seed bench learn [--seeds K] [--updates N] [--algos a,b] [--controls a,b|none] [--control-seeds K]
//   [--ablations a,b|none] [--set key=value ...] [--lrs x,y] [--sweep-updates N] [--eval-every N]
//   [--eval-episodes N] [--eval-samples K] [--init FILE] [--workers W] [--out DIR] [--record FILE]`
// Our reproduction of the paper's table on the tiny preset: the arms are algorithms, all from the same warm
// start with equal episodes. The main arms (GRPO and SEED) run seeds 1..K, the controls (seed-crossgame,
// seed-annotator, seed-sibling) seeds 1..K' at SEED's learning rate, the ablations seed 1; seed k draws the
// same training tasks in every arm, so differences pair by seed. The learning rate of each main arm is chosen
// by the same small sweep (one run per rate, as long as the main runs unless --sweep-updates says otherwise,
// on its own seed, scored on the validation games: never on the eval sets it reports). Independent runs go
// to W child processes (one per core: pool.ts), each a job (job.ts); a run that fails is reported, not fatal.
// Writes DIR/learn.md, DIR/learn.json and DIR/learn_curve.svg (report.ts; DIR defaults to bench/, a named
// run goes to bench/runs/<label>); prints the table on stdout. With --record FILE, also a compact record of the
// runs for the page, listed in index.json beside FILE (record.ts).
import { cpus } from 'node:os';
import { ALGOS, currentAlgoName, defaultConfig, isAlgo, type Algo, type TrainConfig } from '../../../rl/config.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { applySetOptions, noPositionals, numberList, numberOption, parseOptions, settingsSection } from '../../args.ts';
import { defineCommand, usageLine } from '../../help.ts';
import { LIMITS } from '../../limits.ts';
import { quote } from '../../../common/json.ts';
import { CliError } from '../../cli_error.ts';
import { defaultInit } from '../../train_inputs.ts';
import { makeDir, readCheckpointFile } from '../../io.ts';
import { commandLine, portablePath, sourceCommit } from '../../provenance.ts';
import { outPath, writeOutput } from '../output.ts';
import { evalGames } from './games.ts';
import { PRESET, runJob, SWEEP_SEED, type Job, type JobResult } from './job.ts';
import { runAll } from './pool.ts';
import { buildRecord, readRecordIndex, writeRecord } from './record.ts';
import { renderLearn, type FailedRun, type LearnOutcome, type SweepPoint } from './report.ts';
import { episodeUpdates } from '../../../rl/recorded_run.ts';
import { pct } from './stats.ts';

const limits = LIMITS.benchLearn;

export const command = defineCommand({
  name: 'bench learn',
  summary: 'GRPO vs SEED from one warm start: success with 95% intervals, data efficiency, ablations, curves',
  description:
    "The paper's table on the tiny preset: every arm from the same warm start with equal episodes. The main arms run seeds 1..K, the controls seeds 1..K' at SEED's " +
    "learning rate, the ablations seed 1; seed k draws the same training tasks in every arm. Each main arm's learning rate is chosen by the same sweep, scored on the " +
    'validation games. Runs go to W child processes; a run that fails is reported, not fatal. Writes learn.md, learn.json and learn_curve.svg and prints the table.',
  options: {
    worker: { type: 'string', value: 'JSON', defaultText: 'none', description: "runs one job given as JSON and prints its result (how the benchmark's child processes are started)" },
    seeds: { type: 'string', value: 'K', limit: limits.seeds, default: '6', description: 'seeds of each main arm' },
    updates: { type: 'string', value: 'N', limit: limits.updates, default: '192', description: 'updates per run' },
    algos: { type: 'string', value: 'a,b', default: 'grpo,seed', description: 'the main arms (algorithms, comma-separated)' },
    controls: { type: 'string', value: 'a,b|none', default: 'seed-crossgame,seed-annotator,seed-sibling', description: "the controls, run at SEED's learning rate" },
    'control-seeds': { type: 'string', value: 'K', limit: limits['control-seeds'], default: '3', description: 'seeds of each control' },
    ablations: { type: 'string', value: 'a,b|none', default: 'none', description: "ablations, one seed each at SEED's learning rate (seed-static, opid, seed-nogate)" },
    set: { type: 'string', value: 'key=value', multiple: true, default: [], description: "changes a training setting of every run (settings below)" },
    lrs: { type: 'string', value: 'x,y', limit: limits.lrs, list: true, default: '3e-4,5e-4,1e-3', description: 'the learning rates of the sweep (one rate: no sweep)' },
    'sweep-updates': { type: 'string', value: 'N', limit: limits['sweep-updates'], defaultText: '--updates', description: 'updates per sweep run' },
    'eval-every': { type: 'string', value: 'N', limit: limits['eval-every'], default: '16', description: 'a point of the curve every N updates' },
    'eval-episodes': { type: 'string', value: 'N', limit: limits['eval-episodes'], default: '0', description: 'games per split of each evaluation (0: every game)' },
    'eval-samples': { type: 'string', value: 'K', limit: limits['eval-samples'], default: '4', description: 'sampled episodes per game in the final evaluation (the curve takes one)' },
    init: { type: 'string', value: 'FILE', defaultText: defaultInit(PRESET), description: 'the warm start every run begins from' },
    workers: { type: 'string', value: 'W', limit: limits.workers, defaultText: 'the cores, at most 2', description: 'child processes running jobs at once' },
    out: { type: 'string', value: 'DIR', defaultText: 'bench/', description: 'the directory of the report (a named run goes to bench/runs/<label>)' },
    record: {
      type: 'string', value: 'FILE', defaultText: 'none',
      description:
        'also writes a record of the runs for the page to FILE (under 2 MB: every arm and seed\'s eval-seen and eval-unseen curves, the final figures with their intervals, ' +
        'and 2 episodes per arm at up to 4 evaluated updates with per-token Delta, gate and coefficient) and lists it in index.json beside FILE; the page shows the newest ' +
        'record of public/runs/. Each point of the curves then evaluates eval-seen too',
    },
  },
  sections: [settingsSection()],
});

const usage = usageLine(command);

function algoList(text: string, name: string): Algo[] {
  if (text === 'none' || text === '') return [];
  return text.split(',').map((s) => {
    const given = s.trim();
    const algo = currentAlgoName(given);
    if (!isAlgo(algo)) throw new CliError(`--${name}: unknown algorithm ${quote(given)} (known: ${ALGOS.join(', ')})`, 2);
    if (algo !== given) process.stderr.write(`--${name}: ${given} is the former name of ${algo}: running ${algo}\n`);
    return algo;
  });
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  if (values.worker !== undefined) {
    let job: Job;
    try {
      job = JSON.parse(values.worker) as Job;
    } catch (err) {
      throw new CliError(`--worker takes the JSON of a job (${(err as Error).message})`, 2);
    }
    const result = await runJob(job);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  }
  const seeds = numberOption(values.seeds, 'seeds', limits.seeds);
  const controlSeeds = numberOption(values['control-seeds'], 'control-seeds', limits['control-seeds']);
  const updates = numberOption(values.updates, 'updates', limits.updates);
  const sweepUpdates = numberOption(values['sweep-updates'], 'sweep-updates', limits['sweep-updates'], updates);
  const evalEvery = numberOption(values['eval-every'], 'eval-every', limits['eval-every']);
  const evalEpisodes = numberOption(values['eval-episodes'], 'eval-episodes', limits['eval-episodes']);
  const evalSamples = numberOption(values['eval-samples'], 'eval-samples', limits['eval-samples']);
  const workers = numberOption(values.workers, 'workers', limits.workers, Math.max(1, Math.min(2, cpus().length)));
  const algos = algoList(values.algos!, 'algos');
  const controls = algoList(values.controls!, 'controls').filter((a) => !algos.includes(a));
  const ablations = algoList(values.ablations!, 'ablations').filter((a) => !algos.includes(a) && !controls.includes(a));
  const lrs = numberList(values.lrs!, 'lrs', limits.lrs);
  const base: TrainConfig = applySetOptions(defaultConfig(PRESET), values.set as string[]);
  const init = values.init ?? defaultInit(PRESET);
  await readCheckpointFile(init, defaultTokenizer());
  // A directory that cannot be made fails now, not after the runs.
  if (values.out?.endsWith('.md')) throw new CliError(`--out names the directory of learn.md, learn.json and learn_curve.svg, got ${quote(values.out)}`, 2);
  await makeDir(outPath(values.out, '.'));
  const recordFile = values.record;
  if (recordFile !== undefined) await readRecordIndex(recordFile);
  const log = (s: string) => process.stderr.write(s + '\n');
  const commit = sourceCommit();
  const t0 = performance.now();
  const job = (kind: Job['kind'], algo: Algo, seed: number, n: number, config: TrainConfig): Job => ({
    kind, algo, seed, updates: n, config, init, evalEvery, evalEpisodes, evalSamples,
    // A recorded benchmark keeps the episodes of each arm's first seed.
    ...(recordFile !== undefined && kind === 'run' ? { record: { episodeUpdates: seed === 1 ? episodeUpdates(n, evalEvery) : [] } } : {}),
  });

  const failed: FailedRun[] = [];
  const failure = (j: Job, error: string): FailedRun => ({ kind: j.kind === 'sweep' ? 'sweep' : 'run', algo: j.algo, seed: j.seed, lr: j.config.lr, error });

  // 1. The same learning-rate sweep for every main algorithm: one run per rate on seed 1000, scored on the
  // validation games (a rate picked on the eval sets would flatter the figures reported on them).
  const chosen = new Map<Algo, number>();
  const sweep: SweepPoint[] = [];
  if (lrs.length > 1) {
    log(`lr sweep: ${lrs.join(', ')} x ${algos.join(', ')}, ${sweepUpdates} updates each, scored on the validation games`);
    const outcomes = await runAll(algos.flatMap((a) => lrs.map((lr) => job('sweep', a, SWEEP_SEED, sweepUpdates, { ...base, lr }))), workers, log);
    for (const o of outcomes) if (o.error !== undefined) failed.push(failure(o.job, o.error));
    for (const a of algos) {
      const mine = outcomes.flatMap((o) => (o.result && o.job.algo === a ? [o.result] : []));
      if (!mine.length) throw new CliError(`every sweep run of ${a} failed (${failed.find((f) => f.algo === a)?.error}): no learning rate to choose`);
      for (const r of mine) sweep.push({ algo: a, lr: r.lr, success_validation: r.success_validation! });
      chosen.set(a, mine.reduce((best, r) => (r.success_validation! > best.success_validation! ? r : best)).lr);
    }
  } else for (const a of algos) chosen.set(a, lrs[0]);
  const seedLr = chosen.get('seed') ?? lrs[0];

  // 2. The warm start's own evaluation, the main runs, the controls and the ablations (at SEED's learning rate).
  const jobs: Job[] = [job('warmstart', 'grpo', 0, 0, base)];
  for (let s = 1; s <= seeds; s++) for (const a of algos) jobs.push(job('run', a, s, updates, { ...base, lr: chosen.get(a)! }));
  for (let s = 1; s <= controlSeeds; s++) for (const a of controls) jobs.push(job('run', a, s, updates, { ...base, lr: seedLr }));
  for (const a of ablations) jobs.push(job('run', a, 1, updates, { ...base, lr: seedLr }));
  log(`${jobs.length - 1} runs of ${updates} updates (${base.tasksPerUpdate} x ${base.groupSize} episodes each), ${workers} workers`);
  const outcomes = await runAll(jobs, workers, log);
  const warm = outcomes[0].result;
  if (!warm) throw new CliError(`the warm start's evaluation failed: ${outcomes[0].error}`);
  const runs: JobResult[] = [];
  for (const o of outcomes.slice(1)) {
    if (o.result) runs.push(o.result);
    else failed.push(failure(o.job, o.error));
  }
  for (const r of runs) r.curve.unshift([0, warm.success_unseen]);
  const wall = (performance.now() - t0) / 1000;

  const outcome: LearnOutcome = {
    command: commandLine('bench learn', args),
    commit,
    init: portablePath(init),
    base, algos, controls, ablations, seeds, controlSeeds, updates, sweepUpdates, evalEvery, evalEpisodes, evalSamples, lrs, chosen, sweep, warm, runs, failed,
    evalGames: evalGames(evalEpisodes),
    wallSeconds: wall,
    workers,
  };
  const report = renderLearn(outcome);
  await writeOutput(outPath(values.out, 'learn.md'), report.markdown);
  await writeOutput(outPath(values.out, 'learn.json'), JSON.stringify(report.json, null, 2) + '\n');
  await writeOutput(outPath(values.out, 'learn_curve.svg'), report.svg);
  if (recordFile !== undefined) {
    const bytes = await writeRecord(recordFile, buildRecord(outcome, report, new Date()));
    log(`record: ${bytes} bytes`);
  }
  process.stdout.write(report.table + '\n\n' + report.efficiency + '\n');
  process.stderr.write(`warm start seen ${pct(warm.success_seen)}%\n`);
  if (failed.length) process.stderr.write(`${failed.length} run${failed.length === 1 ? '' : 's'} failed: listed in the report\n`);
  return 0;
}
