// `seed bench learn [--seeds K] [--updates N] [--algos a,b] [--ablations a,b|none] [--set key=value ...]
//   [--lrs x,y] [--sweep-updates N] [--eval-every N] [--eval-episodes N] [--eval-samples K] [--init FILE] [--workers W]`
// Our reproduction of the paper's table on the tiny preset: GRPO and SEED from the same warm start, K seeds
// each, equal episodes, the learning rate of each chosen by the same small sweep (one run per rate, as long
// as the main runs unless --sweep-updates says otherwise, on its own seed, scored on the validation games:
// never on the eval sets it reports). Then the ablations (one seed each). Independent runs go to W child processes (one per
// core). Writes bench/REPORT.md, bench/learn.json and bench/learn_curve.svg; prints the table on stdout.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import { hashString, Rng } from '../../common/rng.ts';
import { evalScenes, validationScenes } from '../../env/generate.ts';
import { TINY } from '../../env/scale.ts';
import { presetConfig } from '../../model/config.ts';
import { ALGOS, applySettings, defaultConfig, isAlgo, type Algo, type TrainConfig } from '../../rl/config.ts';
import { evaluate, summarise, type EvalResult } from '../../rl/evaluate.ts';
import { Trainer } from '../../rl/trainer.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { parseIntOption, parseOptions } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { defaultInit, readCheckpointFile } from '../commands/train.ts';

export const summary = 'GRPO vs SEED from one warm start: success with 95% intervals, data efficiency, ablations, curves';

const usage =
  'npm run seed -- bench learn [--seeds K] [--updates N] [--algos grpo,seed] [--ablations seed-static,seed-shuffled,opid,seed-nogate|none] ' +
  '[--set key=value ...] [--lrs 3e-4,5e-4,1e-3] [--sweep-updates N] [--eval-every N] [--eval-episodes N] [--eval-samples K] [--init FILE] [--workers W]';

const PRESET = 'tiny' as const;
/** The sweep's runs train on this seed's tasks, which no main run (seeds 1..K) draws. */
const SWEEP_SEED = 1000;

interface Job {
  /** run: train, then the curve and the final evaluation; sweep: train, then score on the validation games. */
  kind: 'run' | 'sweep' | 'warmstart';
  algo: Algo;
  seed: number;
  updates: number;
  config: TrainConfig;
  init: string;
  evalEvery: number;
  evalEpisodes: number;
  /** Sampled episodes per eval game in the final evaluation (the curve's evaluations take one). */
  evalSamples: number;
}

interface JobResult {
  algo: Algo;
  seed: number;
  lr: number;
  success_seen: number;
  success_unseen: number;
  /** Sweep runs only: success on the validation games (evalSamples episodes per game); null otherwise. */
  success_validation: number | null;
  per_type: { seen: Record<string, number>; unseen: Record<string, number> };
  curve: [number, number][];
  wall_s: number;
  /** Per eval game, the fraction of its evalSamples episodes won. */
  won_seen: number[];
  won_unseen: number[];
  valid_skill_rate: number | null;
  /** Mean over updates of the skill fidelity (mention F1 against the annotator's skill); null without skills. */
  skill_fidelity: number | null;
  /** Means over updates of the per-update mean Delta and gate over OPD-masked tokens (null without OPD). */
  mean_delta: number | null;
  mean_gate: number | null;
  skipped_updates: number;
}

/** One run (or the warm start's evaluation), in this process. */
async function runJob(job: Job): Promise<JobResult> {
  const tok = defaultTokenizer();
  const ck = await readCheckpointFile(job.init, tok);
  const model = presetConfig(PRESET, tok.vocabSize);
  const backend = new CpuBackend(model, ck.params);
  const t0 = performance.now();
  const cut = <T>(list: T[]) => (job.evalEpisodes > 0 ? list.slice(0, job.evalEpisodes) : list);
  const seenScenes = cut(evalScenes('seen', TINY));
  const unseenScenes = cut(evalScenes('unseen', TINY));
  const play = async (scenes: typeof seenScenes, samples = 1): Promise<{ result: EvalResult; won: number[] }> => {
    const wins = new Array<number>(scenes.length).fill(0);
    const types: string[] = [];
    const flags: boolean[] = [];
    for (let k = 0; k < samples; k++) {
      const byIndex = new Map<number, boolean>();
      await evaluate(backend, tok, scenes, job.config, (t) => byIndex.set(t.task, t.won), k);
      scenes.forEach((scene, i) => {
        const won = byIndex.get(i) ?? false;
        wins[i] += won ? 1 : 0;
        types.push(scene.task.type);
        flags.push(won);
      });
    }
    return { result: summarise(types, flags), won: wins.map((w) => w / samples) };
  };
  const curve: [number, number][] = [];
  let validSum = 0;
  let validCount = 0;
  let fidelitySum = 0;
  let fidelityCount = 0;
  let deltaSum = 0;
  let gateSum = 0;
  let opdCount = 0;
  let skipped = 0;
  if (job.kind !== 'warmstart') {
    const trainer = new Trainer({ backend, tokenizer: tok, algo: job.algo, config: job.config, seed: job.seed, scale: TINY });
    // The curve's first point, the warm start's eval-unseen success, is the same for every run (same weights,
    // same sampling stream): the parent takes it from the warm start's own evaluation.
    while (trainer.updates < job.updates) {
      const m = await trainer.update();
      if (m.validSkillRate !== null) {
        validSum += m.validSkillRate;
        validCount++;
      }
      if (m.skillFidelity !== null) {
        fidelitySum += m.skillFidelity;
        fidelityCount++;
      }
      if (m.skipped) skipped++;
      if (m.meanGate > 0) {
        deltaSum += m.meanDelta;
        gateSum += m.meanGate;
        opdCount++;
      }
      if (job.kind === 'run' && (trainer.updates % job.evalEvery === 0 || trainer.updates === job.updates)) {
        curve.push([trainer.episodes, trainer.updates === job.updates ? NaN : (await play(unseenScenes)).result.success]);
      }
    }
  }
  if (job.kind === 'sweep') {
    const validation = await play(cut(validationScenes(TINY)), job.evalSamples);
    const none = { success: NaN, per_type: {} };
    return {
      algo: job.algo, seed: job.seed, lr: job.config.lr, success_seen: NaN, success_unseen: NaN, success_validation: validation.result.success,
      per_type: { seen: none.per_type, unseen: none.per_type }, curve, wall_s: (performance.now() - t0) / 1000, won_seen: [], won_unseen: [],
      valid_skill_rate: validCount ? validSum / validCount : null, skill_fidelity: fidelityCount ? fidelitySum / fidelityCount : null, mean_delta: opdCount ? deltaSum / opdCount : null,
      mean_gate: opdCount ? gateSum / opdCount : null, skipped_updates: skipped,
    };
  }
  const seen = await play(seenScenes, job.evalSamples);
  const unseen = await play(unseenScenes, job.evalSamples);
  if (curve.length && Number.isNaN(curve[curve.length - 1][1])) curve[curve.length - 1][1] = unseen.result.success;
  return {
    algo: job.algo,
    seed: job.seed,
    lr: job.config.lr,
    success_seen: seen.result.success,
    success_unseen: unseen.result.success,
    success_validation: null,
    per_type: { seen: seen.result.per_type, unseen: unseen.result.per_type },
    curve,
    wall_s: (performance.now() - t0) / 1000,
    won_seen: seen.won,
    won_unseen: unseen.won,
    valid_skill_rate: validCount ? validSum / validCount : null,
    skill_fidelity: fidelityCount ? fidelitySum / fidelityCount : null,
    mean_delta: opdCount ? deltaSum / opdCount : null,
    mean_gate: opdCount ? gateSum / opdCount : null,
    skipped_updates: skipped,
  };
}

/** Relative cost of one update (measured per-run wall times of the tiny preset): skills and re-scoring cost extra. */
const UPDATE_COST: Record<Algo, number> = { grpo: 5.4, seed: 7.3, 'seed-static': 6.6, 'seed-shuffled': 7.3, opid: 7.4, 'seed-nogate': 8.8 };

/**
 * Runs jobs in child processes, at most `workers` at a time, longest first (so that no long run starts last
 * and leaves the other workers idle); results come back in the order given.
 */
async function runAll(jobs: Job[], workers: number, log: (s: string) => void): Promise<JobResult[]> {
  const results: JobResult[] = new Array(jobs.length);
  const cost = (j: Job) => (j.kind === 'warmstart' ? 0 : j.updates * UPDATE_COST[j.algo]);
  const order = jobs.map((_, i) => i).sort((a, b) => cost(jobs[b]) - cost(jobs[a]) || a - b);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < order.length) {
      const i = order[next++];
      results[i] = await runChild(jobs[i]);
      done++;
      const r = results[i];
      const scores = r.success_validation !== null ? `validation ${r.success_validation.toFixed(3)}` : `seen ${r.success_seen.toFixed(3)} unseen ${r.success_unseen.toFixed(3)}`;
      log(`[${done}/${jobs.length}] ${jobs[i].kind === 'warmstart' ? 'warm start' : r.algo} seed ${r.seed} lr ${r.lr}: ${scores} (${r.wall_s.toFixed(0)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, worker));
  return results;
}

function runChild(job: Job): Promise<JobResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1], 'bench', 'learn', '--worker', JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new CliError(`a benchmark run (${job.algo} seed ${job.seed}) exited with code ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as JobResult);
      } catch {
        reject(new CliError(`a benchmark run (${job.algo} seed ${job.seed}) printed no result`));
      }
    });
  });
}

/**
 * Per eval game of one run, its success: won or not, or the fraction of its sampled episodes won (the same
 * games, in the same order, for every run of a benchmark).
 */
export type GameScores = readonly (number | boolean)[];

/** 95% bootstrap interval of the mean success: resample seeds, then games within each seed. */
export function bootstrap(wonPerSeed: readonly GameScores[], rng: Rng, resamples = 2000): [number, number] {
  if (wonPerSeed.length === 0) return [NaN, NaN];
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let s = 0; s < wonPerSeed.length; s++) {
      const games = wonPerSeed[rng.int(wonPerSeed.length)];
      let wins = 0;
      for (let g = 0; g < games.length; g++) wins += +games[rng.int(games.length)];
      sum += games.length ? wins / games.length : 0;
    }
    means.push(sum / wonPerSeed.length);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * resamples)], means[Math.ceil(0.975 * resamples) - 1]];
}

/**
 * 95% bootstrap interval of mean success of `a` minus that of `b`, paired over games: every run plays the same
 * fixed eval games, so one resample of game indices serves both sides (how hard a game is cancels out), and
 * the seeds of each side are resampled on their own.
 */
export function pairedBootstrap(a: readonly GameScores[], b: readonly GameScores[], rng: Rng, resamples = 2000): [number, number] {
  if (a.length === 0 || b.length === 0) return [NaN, NaN];
  const games = a[0].length;
  if ([...a, ...b].some((w) => w.length !== games)) throw new RangeError('pairedBootstrap: every run must play the same games');
  const diffs: number[] = [];
  const picks = new Int32Array(games);
  const side = (runs: readonly GameScores[]) => {
    let sum = 0;
    for (let s = 0; s < runs.length; s++) {
      const won = runs[rng.int(runs.length)];
      let wins = 0;
      for (let g = 0; g < games; g++) wins += +won[picks[g]];
      sum += games ? wins / games : 0;
    }
    return sum / runs.length;
  };
  for (let r = 0; r < resamples; r++) {
    for (let g = 0; g < games; g++) picks[g] = rng.int(games);
    diffs.push(side(a) - side(b));
  }
  diffs.sort((x, y) => x - y);
  return [diffs[Math.floor(0.025 * resamples)], diffs[Math.ceil(0.975 * resamples) - 1]];
}

/**
 * Per eval game, in the fixed order of its split, the number of its sampled episodes won (one digit each, at
 * most 9 samples): what the intervals are recomputed from.
 */
function wonDigits(won: number[], samples: number): string {
  return won.map((w) => String(Math.round(w * samples))).join('');
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/** Mean curve over seeds (the runs share their evaluation points). */
function meanCurve(runs: JobResult[]): [number, number][] {
  if (!runs.length) return [];
  return runs[0].curve.map(([e], i) => [e, mean(runs.map((r) => r.curve[i]?.[1] ?? NaN))]);
}

/**
 * The episodes SEED needs to reach GRPO's final eval-unseen success. Curve points sample each eval game once,
 * so a single point above the target can be noise: the figure is the first point from which SEED's mean
 * curve stays at or above it to the end, and a first touch that does not last is reported as such.
 */
export function dataEfficiency(
  grpoCurve: readonly [number, number][],
  seedCurve: readonly [number, number][],
  warmUnseen: number,
  episodesPerRun: number,
  algos: readonly string[],
): string {
  if (!(grpoCurve.length && seedCurve.length)) {
    return 'Data efficiency needs both GRPO and SEED runs; this benchmark ran only ' + (algos.join(', ') || 'ablations') + '.';
  }
  const target = grpoCurve[grpoCurve.length - 1][1];
  if (!(target > warmUnseen)) {
    return `GRPO's final eval-unseen success (${pct(target)}%) is not above the warm start's (${pct(warmUnseen)}%), so there is no GRPO result for SEED to reach: no data-efficiency figure.`;
  }
  const trained = seedCurve.slice(1);
  const touch = trained.find(([, v]) => v >= target);
  const stayFrom = trained.findIndex((_, i) => trained.slice(i).every(([, v]) => v >= target));
  const share = (e: number) => `${e} of ${episodesPerRun} episodes (${pct(e / episodesPerRun)}%)`;
  if (stayFrom >= 0) {
    const e = trained[stayFrom][0];
    return `SEED reaches GRPO's final eval-unseen success (${pct(target)}%) after ${share(e)} and stays there` +
      (touch && touch[0] < e ? ` (its mean curve first touched it after ${touch[0]}).` : '.');
  }
  return touch
    ? `SEED does not reach GRPO's final eval-unseen success (${pct(target)}%) to stay: its mean curve touches it after ${share(touch[0])} but ends at ${pct(seedCurve[seedCurve.length - 1][1])}%.`
    : `SEED's mean curve does not reach GRPO's final eval-unseen success (${pct(target)}%) within ${episodesPerRun} episodes.`;
}

function curveSvg(series: { label: string; color: string; curve: [number, number][]; seeds: [number, number][][] }[]): string {
  const W = 640;
  const H = 360;
  const m = { l: 56, r: 150, t: 20, b: 44 };
  const all = series.flatMap((s) => [...s.curve, ...s.seeds.flat()]);
  const xMax = Math.max(1, ...all.map(([e]) => e));
  const yMax = Math.min(1, Math.max(0.1, ...all.map(([, y]) => y)) * 1.1);
  const x = (e: number) => m.l + (e / xMax) * (W - m.l - m.r);
  const y = (v: number) => H - m.b - (v / yMax) * (H - m.t - m.b);
  const path = (c: [number, number][]) => c.map(([e, v], i) => `${i ? 'L' : 'M'}${x(e).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${m.l}" y1="${H - m.b}" x2="${W - m.r}" y2="${H - m.b}" stroke="black"/>`,
    `<line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${H - m.b}" stroke="black"/>`,
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 8}" text-anchor="middle">training episodes</text>`,
    `<text x="14" y="${(m.t + H - m.b) / 2}" transform="rotate(-90 14 ${(m.t + H - m.b) / 2})" text-anchor="middle">success on eval-unseen</text>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const v = (yMax * k) / 4;
    parts.push(`<text x="${m.l - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`);
    const e = (xMax * k) / 4;
    parts.push(`<text x="${x(e)}" y="${H - m.b + 16}" text-anchor="middle">${Math.round(e)}</text>`);
  }
  series.forEach((s, i) => {
    for (const c of s.seeds) parts.push(`<path d="${path(c)}" fill="none" stroke="${s.color}" stroke-opacity="0.25"/>`);
    parts.push(`<path d="${path(s.curve)}" fill="none" stroke="${s.color}" stroke-width="2.5"/>`);
    parts.push(`<text x="${W - m.r + 10}" y="${m.t + 16 + 18 * i}" fill="${s.color}">${s.label}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

const COLORS: Record<string, string> = {
  grpo: '#1f77b4', seed: '#d62728', 'seed-static': '#2ca02c', 'seed-shuffled': '#9467bd', opid: '#ff7f0e', 'seed-nogate': '#8c564b',
};

function pct(x: number): string {
  return Number.isFinite(x) ? (100 * x).toFixed(1) : 'n/a';
}

function algoList(text: string, name: string): Algo[] {
  if (text === 'none' || text === '') return [];
  const list = text.split(',').map((s) => s.trim());
  for (const a of list) if (!isAlgo(a)) throw new CliError(`--${name}: unknown algorithm "${a}" (known: ${ALGOS.join(', ')})`, 2);
  return list as Algo[];
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      worker: { type: 'string' },
      seeds: { type: 'string', default: '3' },
      updates: { type: 'string', default: '192' },
      algos: { type: 'string', default: 'grpo,seed' },
      ablations: { type: 'string', default: 'seed-static,seed-shuffled,opid,seed-nogate' },
      set: { type: 'string', multiple: true, default: [] },
      lrs: { type: 'string', default: '3e-4,5e-4,1e-3' },
      'sweep-updates': { type: 'string' },
      'eval-every': { type: 'string', default: '16' },
      'eval-episodes': { type: 'string', default: '0' },
      'eval-samples': { type: 'string', default: '4' },
      init: { type: 'string' },
      workers: { type: 'string' },
    },
    usage,
  );
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\nusage: ${usage}`, 2);
  if (values.worker !== undefined) {
    const result = await runJob(JSON.parse(values.worker) as Job);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  }
  const seeds = parseIntOption(values.seeds, 'seeds');
  const updates = parseIntOption(values.updates, 'updates');
  const sweepUpdates = values['sweep-updates'] === undefined ? updates : parseIntOption(values['sweep-updates'], 'sweep-updates');
  const evalEvery = parseIntOption(values['eval-every'], 'eval-every');
  const evalEpisodes = parseIntOption(values['eval-episodes'], 'eval-episodes');
  const evalSamples = parseIntOption(values['eval-samples'], 'eval-samples');
  if (!(evalSamples >= 1 && evalSamples <= 9)) throw new CliError(`--eval-samples must be 1 to 9, got ${evalSamples}`, 2);
  const workers = parseIntOption(values.workers, 'workers', Math.max(1, Math.min(2, cpus().length)));
  if (seeds < 1 || updates < 1 || evalEvery < 1 || workers < 1) throw new CliError('--seeds, --updates, --eval-every and --workers must be at least 1', 2);
  const algos = algoList(values.algos!, 'algos');
  const ablations = algoList(values.ablations!, 'ablations').filter((a) => !algos.includes(a));
  const lrs = values.lrs!.split(',').map((s) => Number(s.trim()));
  if (lrs.some((v) => !(v > 0))) throw new CliError(`--lrs must be positive numbers, got "${values.lrs}"`, 2);
  let base: TrainConfig;
  try {
    base = applySettings(defaultConfig(PRESET), values.set as string[]);
  } catch (err) {
    throw new CliError(`--set: ${(err as Error).message}`, 2);
  }
  const init = values.init ?? defaultInit(PRESET);
  await readCheckpointFile(init, defaultTokenizer());
  const log = (s: string) => process.stderr.write(s + '\n');
  const t0 = performance.now();
  const job = (kind: Job['kind'], algo: Algo, seed: number, n: number, config: TrainConfig): Job => ({ kind, algo, seed, updates: n, config, init, evalEvery, evalEpisodes, evalSamples });

  // 1. The same learning-rate sweep for every main algorithm: one run per rate on seed 1000, scored on the
  // validation games (a rate picked on the eval sets would flatter the figures reported on them).
  const chosen = new Map<Algo, number>();
  const sweep: { algo: Algo; lr: number; success_validation: number }[] = [];
  if (lrs.length > 1) {
    log(`lr sweep: ${lrs.join(', ')} x ${algos.join(', ')}, ${sweepUpdates} updates each, scored on the validation games`);
    const sweepJobs = algos.flatMap((a) => lrs.map((lr) => job('sweep', a, SWEEP_SEED, sweepUpdates, { ...base, lr })));
    const results = await runAll(sweepJobs, workers, log);
    for (const a of algos) {
      const mine = results.filter((r) => r.algo === a);
      for (const r of mine) sweep.push({ algo: a, lr: r.lr, success_validation: r.success_validation! });
      chosen.set(a, mine.reduce((best, r) => (r.success_validation! > best.success_validation! ? r : best)).lr);
    }
  } else for (const a of algos) chosen.set(a, lrs[0]);
  const seedLr = chosen.get('seed') ?? lrs[0];

  // 2. The warm start's own evaluation, the main runs and the ablations (at SEED's learning rate).
  const jobs: Job[] = [job('warmstart', 'grpo', 0, 0, base)];
  for (let s = 1; s <= seeds; s++) for (const a of algos) jobs.push(job('run', a, s, updates, { ...base, lr: chosen.get(a)! }));
  for (const a of ablations) jobs.push(job('run', a, 1, updates, { ...base, lr: seedLr }));
  log(`${jobs.length - 1} runs of ${updates} updates (${base.tasksPerUpdate} x ${base.groupSize} episodes each), ${workers} workers`);
  const results = await runAll(jobs, workers, log);
  const warm = results[0];
  const runs = results.slice(1);
  for (const r of runs) r.curve.unshift([0, warm.success_unseen]);
  const wall = (performance.now() - t0) / 1000;

  // 3. Figures.
  const rng = new Rng(hashString('bench/learn/bootstrap'));
  const byAlgo = (a: Algo) => runs.filter((r) => r.algo === a);
  const episodesPerRun = updates * base.tasksPerUpdate * base.groupSize;
  const rows = [...algos, ...ablations].map((a) => {
    const rs = byAlgo(a);
    const types = Object.keys(rs[0]?.per_type.unseen ?? {});
    const perType: Record<string, { seen: number; unseen: number }> = {};
    for (const type of new Set([...types, ...Object.keys(rs[0]?.per_type.seen ?? {})])) {
      perType[type] = { seen: mean(rs.map((r) => r.per_type.seen[type] ?? NaN)), unseen: mean(rs.map((r) => r.per_type.unseen[type] ?? NaN)) };
    }
    return {
      algo: a,
      seeds: rs.length,
      lr: rs[0]?.lr ?? NaN,
      seen: mean(rs.map((r) => r.success_seen)),
      unseen: mean(rs.map((r) => r.success_unseen)),
      seenCi: bootstrap(rs.map((r) => r.won_seen), rng),
      unseenCi: bootstrap(rs.map((r) => r.won_unseen), rng),
      perType,
      validSkill: mean(rs.map((r) => r.valid_skill_rate ?? NaN)),
      fidelity: mean(rs.map((r) => r.skill_fidelity ?? NaN)),
      gate: mean(rs.map((r) => r.mean_gate ?? NaN)),
      delta: mean(rs.map((r) => r.mean_delta ?? NaN)),
      wall: mean(rs.map((r) => r.wall_s)),
    };
  });
  const grpoCurve = meanCurve(byAlgo('grpo'));
  const seedCurve = meanCurve(byAlgo('seed'));
  const efficiency = dataEfficiency(grpoCurve, seedCurve, warm.success_unseen, episodesPerRun, algos);

  const table = [
    '| algorithm | seeds | lr | eval-seen % [95% CI] | eval-unseen % [95% CI] | valid skills % | skill fidelity | mean Delta / gate | wall s/run |',
    '|---|---|---|---|---|---|---|---|---|',
    `| warm start | - | - | ${pct(warm.success_seen)} [${pct(bootstrap([warm.won_seen], rng)[0])}, ${pct(bootstrap([warm.won_seen], rng)[1])}] | ${pct(warm.success_unseen)} [${pct(bootstrap([warm.won_unseen], rng)[0])}, ${pct(bootstrap([warm.won_unseen], rng)[1])}] | - | - | - | - |`,
    ...rows.map((r) => `| ${r.algo} | ${r.seeds} | ${r.lr} | ${pct(r.seen)} [${pct(r.seenCi[0])}, ${pct(r.seenCi[1])}] | ${pct(r.unseen)} [${pct(r.unseenCi[0])}, ${pct(r.unseenCi[1])}] | ${pct(r.validSkill)} | ${Number.isFinite(r.fidelity) ? r.fidelity.toFixed(2) : 'n/a'} | ${Number.isFinite(r.gate) ? `${r.delta.toFixed(3)} / ${r.gate.toFixed(3)}` : 'n/a'} | ${r.wall.toFixed(0)} |`),
  ].join('\n');
  const types = Object.keys(warm.per_type.seen).sort();
  const typeTable = [
    `| task type | warm start seen / unseen | ${rows.map((r) => `${r.algo} seen / unseen`).join(' | ')} |`,
    `|---|---|${rows.map(() => '---').join('|')}|`,
    ...types.map((t) => `| ${t} | ${pct(warm.per_type.seen[t])} / ${pct(warm.per_type.unseen[t] ?? NaN)} | ${rows.map((r) => `${pct(r.perType[t]?.seen ?? NaN)} / ${pct(r.perType[t]?.unseen ?? NaN)}`).join(' | ')} |`),
  ].join('\n');
  // Paired differences: every main algorithm and ablation against the warm start, and each main algorithm after
  // the first against the first (SEED against GRPO by default).
  const pairs: [string, GameScores[], GameScores[], GameScores[], GameScores[]][] = [];
  for (const a of [...algos, ...ablations]) pairs.push([`${a} - warm start`, byAlgo(a).map((r) => r.won_seen), [warm.won_seen], byAlgo(a).map((r) => r.won_unseen), [warm.won_unseen]]);
  for (const a of algos.slice(1)) {
    pairs.push([`${a} - ${algos[0]}`, byAlgo(a).map((r) => r.won_seen), byAlgo(algos[0]).map((r) => r.won_seen), byAlgo(a).map((r) => r.won_unseen), byAlgo(algos[0]).map((r) => r.won_unseen)]);
  }
  const meanWon = (runs: GameScores[]) => mean(runs.map((w) => (w.length ? w.reduce((n: number, x) => n + +x, 0) / w.length : NaN)));
  const points = (d: number) => (Number.isFinite(d) ? `${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)}` : 'n/a');
  const diffCell = (a: GameScores[], b: GameScores[]) => {
    const [lo, hi] = pairedBootstrap(a, b, rng);
    return `${points(meanWon(a) - meanWon(b))} [${points(lo)}, ${points(hi)}]`;
  };
  const diffTable = [
    '| difference | eval-seen points [95% CI] | eval-unseen points [95% CI] |',
    '|---|---|---|',
    ...pairs.filter(([, sa, sb]) => sa.length > 0 && sb.length > 0).map(([label, sa, sb, ua, ub]) => `| ${label} | ${diffCell(sa, sb)} | ${diffCell(ua, ub)} |`),
  ].join('\n');
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  const configHash = hashString(JSON.stringify({ base, chosen: [...chosen], updates, seeds, evalEvery, evalEpisodes, ...(evalSamples > 1 ? { evalSamples } : {}), init, lrs, sweepUpdates })).toString(16).padStart(8, '0');
  const command = `npm run seed -- bench learn ${args.join(' ')}`.trim();
  const svg = curveSvg(
    [...algos, ...ablations].map((a) => ({ label: a, color: COLORS[a] ?? '#333', curve: meanCurve(byAlgo(a)), seeds: byAlgo(a).map((r) => r.curve) })),
  );
  const report = [
    '# Learning benchmark: GRPO vs SEED on the tiny preset',
    '',
    `Command: \`${command}\`  `,
    `Commit: ${commit}; configuration hash ${configHash}; wall time ${(wall / 60).toFixed(1)} min on ${cpus().length} cores (${workers} workers).`,
    '',
    `Every run starts from the same warm start (${init}) and plays ${base.resampleRounds > 0 ? 'at least ' : ''}${episodesPerRun} training episodes (${updates} updates of ${base.tasksPerUpdate} tasks x ${base.groupSize} episodes). ` +
      (base.resampleRounds > 0
        ? `A group whose episodes all got the same reward is replaced by a fresh task, up to ${base.resampleRounds} rounds per update; the curves count every episode played. `
        : '') +
      `Success is measured on the fixed eval-seen (${warm.won_seen.length} games) and eval-unseen (${warm.won_unseen.length} games) sets at temperature ${base.evalTemperature}${evalSamples > 1 ? `, ${evalSamples} sampled episodes per game at the end of a run (the curves sample each game once)` : ''}. ` +
      '95% intervals: bootstrap over seeds, then over games within a seed (2000 resamples).',
    '',
    table,
    '',
    '## Per task type (mean over seeds, %)',
    '',
    typeTable,
    '',
    '## Differences, paired over games',
    '',
    'Every run plays the same eval games, so a resample of the games serves both sides of a difference (the seeds of each side are resampled on their own): how hard a game is cancels out, and these intervals are narrower than the unpaired ones above.',
    '',
    diffTable,
    '',
    '## Data efficiency',
    '',
    efficiency,
    '',
    '## Learning rate sweep',
    '',
    sweep.length
      ? `One run of ${sweepUpdates} update${sweepUpdates === 1 ? '' : 's'} per rate and algorithm (seed ${SWEEP_SEED}), scored on the ${evalEpisodes > 0 ? Math.min(evalEpisodes, validationScenes(TINY).length) : validationScenes(TINY).length} validation games ` +
        `(games of training rooms that neither training nor the eval sets hold), ${evalSamples} sampled episode${evalSamples > 1 ? 's' : ''} per game.\n\n` +
        ['| algorithm | lr | validation % |', '|---|---|---|', ...sweep.map((s) => `| ${s.algo} | ${s.lr} | ${pct(s.success_validation)} |`)].join('\n') +
        `\n\nChosen: ${[...chosen].map(([a, lr]) => `${a} ${lr}`).join(', ')} (ablations use SEED's).`
      : `No sweep (one rate given): lr ${lrs[0]}.`,
    '',
    '## Settings',
    '',
    "The base configuration; each run's lr is the one its row above gives.",
    '',
    '```json',
    JSON.stringify(base, null, 2),
    '```',
    '',
    `The ablations (${ablations.join(', ') || 'none'}) ran one seed each. seed-shuffled gives every trajectory the skill of another trajectory of its task: if it does as well as seed, skill content did not matter. ` +
      "Skill fidelity: how well the skill used for OPD names the objects and places of its trajectory (mention F1 against the rule-based annotator's skill of that trajectory, 1 = the same mentions; src/rl/skill_fidelity.ts), mean over updates.",
    '',
    '![learning curves](learn_curve.svg)',
    '',
    '## Eval-unseen curves (training episodes: success)',
    '',
    ...runs.map((r) => `- ${r.algo} seed ${r.seed}: ${r.curve.map(([e, v]) => `${e}: ${pct(v)}%`).join(', ')}`),
    '',
  ].join('\n');
  const json = {
    preset: PRESET,
    episodes_per_run: episodesPerRun,
    eval_samples: evalSamples,
    warmstart: { success_seen: warm.success_seen, success_unseen: warm.success_unseen, won_seen: wonDigits(warm.won_seen, evalSamples), won_unseen: wonDigits(warm.won_unseen, evalSamples) },
    runs: runs.map((r) => ({
      algo: r.algo, seed: r.seed, lr: r.lr, success_seen: r.success_seen, success_unseen: r.success_unseen, per_type: r.per_type,
      curve: r.curve, wall_s: Number(r.wall_s.toFixed(1)), valid_skill_rate: r.valid_skill_rate, skill_fidelity: r.skill_fidelity, mean_delta: r.mean_delta, mean_gate: r.mean_gate,
      skipped_updates: r.skipped_updates, won_seen: wonDigits(r.won_seen, evalSamples), won_unseen: wonDigits(r.won_unseen, evalSamples),
    })),
    sweep,
    config_hash: configHash,
    commit,
    command,
    wall_s: Number(wall.toFixed(1)),
  };
  await mkdir('bench', { recursive: true });
  await writeFile('bench/REPORT.md', report);
  await writeFile('bench/learn.json', JSON.stringify(json, null, 2) + '\n');
  await writeFile('bench/learn_curve.svg', svg);
  process.stdout.write(table + '\n\n' + efficiency + '\n');
  process.stderr.write(`wrote bench/REPORT.md, bench/learn.json, bench/learn_curve.svg (warm start seen ${pct(warm.success_seen)}%)\n`);
  return 0;
}
