// `seed bench cpu`: throughput of the CPU reference backend on a preset, on one thread, then whole GRPO and SEED
// updates of a world, stage by stage, on 1, 2 and all cores; `command` below declares its options and says what
// it measures (the --help text).
import { cpus, loadavg } from 'node:os';
import { maskWords, type LossInputs, type TokenBatch } from '../../backend/backend.ts';
import { CpuBackend } from '../../backend/cpu/cpu_backend.ts';
import { cpuThreads } from '../../backend/cpu/threads.ts';
import { allowToken } from '../../backend/contract.ts';
import { heapFloats } from '../../backend/cpu/heap.ts';
import { dotRows } from '../../backend/cpu/matmul.ts';
import { Rng } from '../../common/rng.ts';
import { forwardFlopsPerToken, presetConfig, type ModelConfig } from '../../model/config.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { numberOption, parseOptions, presetOf, presetOption } from '../../cli/args.ts';
import { defineCommand, usageLine } from '../../cli/help.ts';
import { LIMITS } from '../../cli/limits.ts';
import { sourceCommit } from '../../cli/provenance.ts';
import { ENV_OPTION, environmentFrom } from '../../cli/environment_option.ts';
import { BASELINE, ofAlgo, type Algo } from '../../rl/arms.ts';
import { defaultConfig } from '../../rl/config.ts';
import { theWorld } from '../../worlds/facts.ts';
import { ENVIRONMENT_NAMES, namedWorld, type EnvironmentName } from '../../worlds/names.ts';
import { threadScaling } from './cpu_threads.ts';
import { measureUpdates } from './cpu_updates.ts';
import { fmt, meanTotal, updateTable, type Clock } from './cpu_update_table.ts';
import { outOption, reportHead, reportName, reportPath, writeOutput } from '../output.ts';
import { BENCH_LOSS } from './bench_loss.ts';

/** An episode step as the bench lays it out: observation tokens, then command tokens (scored, sampled). */
const OBSERVATION_TOKENS = 15;
const COMMAND_TOKENS = 5;
const PROMPT_TOKENS = 40;
/** Allowed tokens per scored position, as a command trie typically leaves. */
const ALLOWED_PER_POSITION = 12;

const limits = LIMITS.benchCpu;
/** The worlds whose report carries their name after "cpu_"; the default world's is cpu.md. */
const OTHER_WORLDS = ENVIRONMENT_NAMES.filter((name) => namedWorld(name) !== undefined);

export const command = defineCommand({
  name: 'bench cpu',
  summary:
    "CPU backend: forward, forward+backward and rollout tokens/s, GFLOP/s; a world's GRPO and SEED updates stage by stage on 1, 2 and all cores",
  description:
    'Throughput of the CPU reference backend on a preset: forward (the scoring pass), forward+backward (the SEED loss backward), rollout through the KV-cache decoder, ' +
    'and the matmul kernel alone, on one thread; then what one GRPO/SEED update of the default batch would take; then whole GRPO and SEED updates of the --env world ' +
    'from its warm start, split by stage (rollout, skill writing, each scoring pass, loss and backward, optimizer step), on 1, 2 and all cores ' +
    '(--threads N before the command sets "all"), with the scaling efficiency. Per-pass times are medians of --reps runs after a warm-up, in wall-clock and in this ' +
    "process's CPU time: on one thread, CPU time is the figure that depends least on what else the machine runs. " +
    `Writes cpu.md (${OTHER_WORLDS.map((w) => `${theWorld(w)}: ${reportName('cpu', w)}.md`).join(', ')}).`,
  options: {
    preset: presetOption({ default: 'tiny', description: 'the model measured' }),
    len: {
      type: 'string',
      value: 'N',
      default: '300',
      description: `tokens per sequence: at least a prompt, an observation and a command (${PROMPT_TOKENS + OBSERVATION_TOKENS + COMMAND_TOKENS}), at most the preset's context length`,
    },
    seqs: {
      type: 'string',
      value: 'N',
      limit: limits.seqs,
      default: '8',
      description: 'sequences per forward and backward',
    },
    streams: {
      type: 'string',
      value: 'N',
      limit: limits.streams,
      defaultText: `tasks x group, at most ${limits.streams.max}`,
      description: 'episodes decoded side by side in the rollout',
    },
    tasks: {
      type: 'string',
      value: 'N',
      limit: limits.tasks,
      default: '8',
      description: 'tasks per update of the update estimate',
    },
    group: {
      type: 'string',
      value: 'N',
      limit: limits.group,
      default: '8',
      description: 'episodes per task (the GRPO group) of the update estimate',
    },
    reps: {
      type: 'string',
      value: 'N',
      limit: limits.reps,
      default: '3',
      description: 'timed runs of each pass (the median is reported)',
    },
    updates: {
      type: 'string',
      value: 'N',
      limit: limits.updates,
      default: '5',
      description: 'whole updates timed per algorithm (GRPO, SEED) and thread count',
    },
    env: {
      ...ENV_OPTION,
      description: `the world whose updates are timed: ${ENV_OPTION.description.replace(/^the world: /, '')}`,
    },
    seed: {
      type: 'string',
      value: 'S',
      limit: limits.seed,
      default: '1',
      description: 'the seed of the weights and the inputs',
    },
    out: outOption(`cpu.md (${OTHER_WORLDS.map((w) => `${reportName('cpu', w)}.md`).join(', ')})`),
  },
});

interface Timing {
  wallMs: number;
  cpuMs: number;
}

async function measure(reps: number, fn: () => Promise<unknown>): Promise<Timing> {
  await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return { wallMs: med(wall), cpuMs: med(cpu) };
}

/** nSeq episodes of len tokens: a prompt, then steps of observation + command; command tokens are scored. */
function episodeBatch(config: ModelConfig, nSeq: number, len: number, rng: Rng): TokenBatch {
  const V = config.vocabSize;
  const words = maskWords(V);
  const tokens = Int32Array.from({ length: nSeq * len }, () => rng.int(V));
  const targets = new Int32Array(nSeq * len).fill(-1);
  const masks: number[] = [];
  for (let s = 0; s < nSeq; s++) {
    for (let t = PROMPT_TOKENS; t + 1 < len; t++) {
      if ((t - PROMPT_TOKENS) % (OBSERVATION_TOKENS + COMMAND_TOKENS) < OBSERVATION_TOKENS - 1) continue;
      const target = tokens[s * len + t + 1];
      targets[s * len + t] = target;
      const row = new Uint32Array(words);
      allowToken(row, 0, words, target);
      for (let k = 1; k < ALLOWED_PER_POSITION; k++) allowToken(row, 0, words, rng.int(V));
      masks.push(...row);
    }
  }
  return { nSeq, seqLen: len, tokens, targets, masks: Uint32Array.from(masks) };
}

/** Rollout of `streams` episodes in lockstep: prompt, then (sample a command, feed an observation) to len. */
async function rollout(backend: CpuBackend, streams: number, len: number, rng: Rng): Promise<number> {
  const V = backend.config.vocabSize;
  const words = maskWords(V);
  const dec = backend.openDecoder(streams);
  const all = Int32Array.from({ length: streams }, (_, i) => i);
  const masks = new Uint32Array(streams * words).fill(0xffffffff);
  for (let s = 0; s < streams; s++)
    await dec.feed(
      s,
      Int32Array.from({ length: PROMPT_TOKENS }, () => rng.int(V)),
    );
  let length = PROMPT_TOKENS;
  let sampled = 0;
  while (length + COMMAND_TOKENS + OBSERVATION_TOKENS <= len) {
    for (let k = 0; k < COMMAND_TOKENS; k++) {
      await dec.sample(
        all,
        masks,
        1,
        Float32Array.from({ length: streams }, () => rng.float()),
      );
      sampled += streams;
    }
    for (let s = 0; s < streams; s++)
      await dec.feed(
        s,
        Int32Array.from({ length: OBSERVATION_TOKENS }, () => rng.int(V)),
      );
    length += COMMAND_TOKENS + OBSERVATION_TOKENS;
  }
  dec.dispose();
  return sampled;
}

/** The textbook loop, for comparison with the blocked kernel: out[n, m] = a[n] . b[m]. */
function plainMatmul(out: Float32Array, a: Float32Array, b: Float32Array, N: number, K: number, M: number): void {
  for (let n = 0; n < N; n++) {
    for (let m = 0; m < M; m++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += a[n * K + k] * b[m * K + k];
      out[n * M + m] = s;
    }
  }
}

/** The algorithms whose updates are timed side by side. */
const DISTILLING: Algo = 'seed';
const ALGOS: readonly Algo[] = [BASELINE, DISTILLING];

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, command);
  const commit = sourceCommit();
  const preset = presetOf(values.preset, usageLine(command));
  const env = environmentFrom(values.env);
  const tok = tokenizerOf(env);
  const config = presetConfig(preset, tok.vocabSize);
  // --len: a sequence holds at least a prompt, an observation and a command, and fits the context.
  const len = numberOption(values.len, 'len', {
    integer: true,
    min: PROMPT_TOKENS + OBSERVATION_TOKENS + COMMAND_TOKENS,
    max: config.contextLength,
  });
  const nSeq = numberOption(values.seqs, 'seqs', limits.seqs);
  const tasks = numberOption(values.tasks, 'tasks', limits.tasks);
  const group = numberOption(values.group, 'group', limits.group);
  const streams = numberOption(values.streams, 'streams', limits.streams, Math.min(tasks * group, limits.streams.max));
  const reps = numberOption(values.reps, 'reps', limits.reps);
  const updates = numberOption(values.updates, 'updates', limits.updates);
  const seed = numberOption(values.seed, 'seed', limits.seed);

  const rng = new Rng(seed);
  const backend = CpuBackend.fromSeed(config, seed, { threads: 1 });
  const batch = episodeBatch(config, nSeq, len, rng.fork('batch'));
  const nScored = batch.masks.length / maskWords(config.vocabSize);
  const scoredFraction = nScored / (nSeq * len);
  const lStudent = await backend.score(batch);
  const noise = rng.fork('inputs');
  const near = () => Float32Array.from(lStudent, (l) => l + 0.1 * noise.normal());
  const inputs: LossInputs = {
    advantage: Float32Array.from(lStudent, () => noise.normal()),
    mask: new Float32Array(nScored).fill(1),
    opdMask: new Float32Array(nScored).fill(1),
    lSkill: near(),
    lOld: near(),
    lRef: near(),
  };
  const tokens = nSeq * len;
  process.stderr.write(
    `bench cpu: ${preset} (d ${config.dModel}, ${config.nLayer} layers, V ${config.vocabSize}), ${nSeq} x ${len} tokens, ${reps} reps\n`,
  );

  const fwd = await measure(reps, () => backend.score(batch));
  process.stderr.write('  forward done\n');
  // Two batches of the same shape in turn: a loss pass on the batch and weights of the one before it would
  // reuse that one's forward (cpu_backend.ts), and this row times the forward and the backward.
  const batches = [batch, episodeBatch(config, nSeq, len, rng.fork('batch 2'))];
  let turn = 0;
  const fb = await measure(reps, async () => {
    await backend.lossBackward(batches[turn++ % 2], inputs, BENCH_LOSS);
    await backend.zeroGradients();
  });
  process.stderr.write('  forward+backward done\n');
  let sampled = 0;
  const rollRng = rng.fork('rollout');
  const roll = await measure(reps, async () => {
    sampled = await rollout(backend, streams, len, rollRng);
  });
  const rolled =
    streams *
    (PROMPT_TOKENS +
      Math.floor((len - PROMPT_TOKENS) / (OBSERVATION_TOKENS + COMMAND_TOKENS)) *
        (OBSERVATION_TOKENS + COMMAND_TOKENS));
  process.stderr.write('  rollout done\n');
  const [kn, kk, km] = [len, config.dModel, config.dMlp];
  // operands in the CPU heap, as the backend keeps them, so the kernel reads them in place
  const ka = heapFloats(kn * kk).map(() => rng.float());
  const kb = heapFloats(km * kk).map(() => rng.float());
  const kout = heapFloats(kn * km);
  const kern = await measure(Math.max(reps, 5), async () => {
    for (let i = 0; i < 10; i++) dotRows(kout, 0, km, ka, 0, kk, kb, 0, kk, null, kn, kk, km, false);
  });
  const [ka64, kb64, kout64] = [Float64Array.from(ka), Float64Array.from(kb), new Float64Array(kn * km)];
  const kern64 = await measure(Math.max(reps, 5), async () => {
    for (let i = 0; i < 10; i++) dotRows(kout64, 0, km, ka64, 0, kk, kb64, 0, kk, null, kn, kk, km, false);
  });
  const plain = await measure(Math.max(reps, 5), async () => {
    for (let i = 0; i < 10; i++) plainMatmul(kout, ka, kb, kn, kk, km);
  });

  const loadBefore = loadavg()[0];
  const all = cpuThreads();
  const counts = [...new Set([1, 2, Math.max(2, all)])];
  process.stderr.write(`  ${env.name}: GRPO and SEED updates on ${counts.join(', ')} threads\n`);
  const measured = await measureUpdates(env, config, preset, tok, ALGOS, counts, updates, seed, (line) =>
    process.stderr.write(`    ${line}\n`),
  );
  const loadAfter = loadavg()[0];
  const runOf = (algo: Algo, threads: number) => measured.runs.find((r) => ofAlgo(algo)(r) && r.threads === threads)!;
  const seedRuns = measured.runs.filter(ofAlgo(DISTILLING));
  const scaling = threadScaling(seedRuns);
  const tokensPerUpdate = seedRuns[0].updates.at(-1)?.tokens ?? 0;
  // The timed updates are 1 .. updates, after the warm-up's update 0.
  const shareEvery = defaultConfig(preset).gradShareEvery;
  const sharePasses = shareEvery > 0 ? Math.floor(updates / shareEvery) : 0;

  const attended = (len + 1) / 2;
  const flopFwd = forwardFlopsPerToken(config, attended, scoredFraction);
  const flopRoll = forwardFlopsPerToken(config, attended, sampled / rolled);
  const rate = (n: number, t: Timing) => ({ wall: n / (t.wallMs / 1000), cpu: n / (t.cpuMs / 1000) });
  const rFwd = rate(tokens, fwd);
  const rFb = rate(tokens, fb);
  const rRoll = rate(rolled, roll);
  const kernelGflop = (10 * 2 * kn * kk * km) / (kern.cpuMs / 1000) / 1e9;
  const kernel64Gflop = (10 * 2 * kn * kk * km) / (kern64.cpuMs / 1000) / 1e9;
  const plainGflop = (10 * 2 * kn * kk * km) / (plain.cpuMs / 1000) / 1e9;

  const episodes = tasks * group;
  const epTokens = episodes * len;
  const tRoll = epTokens / rRoll.cpu;
  const tScore = epTokens / rFwd.cpu;
  const tTrain = epTokens / rFb.cpu;
  const seedUpdate = tRoll + 3 * tScore + tTrain;
  const grpoUpdate = tRoll + tScore + tTrain;

  const rows = [
    ['forward (score)', tokens, fwd, rFwd, flopFwd],
    ['forward+backward (loss)', tokens, fb, rFb, 3 * flopFwd],
    [`rollout (${streams} streams, KV cache)`, rolled, roll, rRoll, flopRoll],
  ] as const;
  const table = [
    '| pass | tokens | wall ms | CPU ms | tokens/s (CPU) | tokens/s (wall) | GFLOP/s (CPU) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ([name, n, t, r, flop]) =>
        `| ${name} | ${n} | ${fmt(t.wallMs)} | ${fmt(t.cpuMs)} | ${fmt(r.cpu)} | ${fmt(r.wall)} | ${fmt((r.cpu * flop) / 1e9, 2)} |`,
    ),
    `| matmul kernel dotRows on float32: WebAssembly SIMD, 2 x 4 blocks, ${kn}x${kk} . ${km}x${kk} | | | ${fmt(kern.cpuMs, 1)} (x10) | | | ${fmt(kernelGflop, 2)} |`,
    `| the same on float64: TypeScript, 4 x 4 register blocks (gradient checks) | | | ${fmt(kern64.cpuMs, 1)} (x10) | | | ${fmt(kernel64Gflop, 2)} |`,
    `| same product as a plain triple loop | | | ${fmt(plain.cpuMs, 1)} (x10) | | | ${fmt(plainGflop, 2)} |`,
  ].join('\n');
  const estimate = [
    `| one update: ${tasks} tasks x ${group} episodes x ${len} tokens | seconds (CPU, one core) |`,
    '|---|---:|',
    `| rollout via KV cache (${fmt(epTokens)} tokens) | ${fmt(tRoll, 1)} |`,
    `| one scoring forward (old, ref or skill) | ${fmt(tScore, 1)} |`,
    `| forward+backward | ${fmt(tTrain, 1)} |`,
    `| SEED update: rollout + 3 scoring forwards + forward+backward | ${fmt(seedUpdate, 1)} |`,
    `| GRPO update: rollout + 1 scoring forward (ref) + forward+backward | ${fmt(grpoUpdate, 1)} |`,
  ].join('\n');
  const columns = ALGOS.flatMap((algo) => counts.map((threads) => runOf(algo, threads)));
  const stageTable = updateTable(columns, all, 'wall');
  const cpuTable = updateTable(columns, all, 'cpu');
  const ratios = counts.map((threads) => {
    const ratio = (clock: Clock) => {
      const [grpo, seedRun] = ALGOS.map((algo) => meanTotal(runOf(algo, threads), clock));
      return fmt(seedRun / grpo, 2);
    };
    return `${threads} thread${threads > 1 ? 's' : ''}: SEED / GRPO ${ratio('wall')} in wall-clock time, ${ratio('cpu')} in CPU time`;
  });
  const speedups = ALGOS.map((algo) => {
    const rows = threadScaling(measured.runs.filter(ofAlgo(algo)));
    return `${algo.toUpperCase()} ${rows.map((r) => `${fmt(r.speedup, 2)}x on ${r.threads}`).join(', ')}`;
  });
  const threadTable = [
    `| threads | ms per update | SEED updates per second | speedup over 1 thread | scaling efficiency |`,
    '|---:|---:|---:|---:|---:|',
    ...scaling.map(
      (r) =>
        `| ${r.threads}${r.threads === all ? ' (all cores)' : ''} | ${fmt(r.msPerUpdate)} | ${fmt(r.updatesPerSecond, 2)} | ${fmt(r.speedup, 2)} | ${fmt(r.efficiency * 100)}% |`,
    ),
  ].join('\n');
  process.stdout.write(`${table}\n\n${estimate}\n\n${stageTable}\n\n${cpuTable}\n\n${threadTable}\n`);

  const report = `${reportHead('CPU backend benchmark', 'cpu', args, commit).join('\n')}
Preset **${preset}**: d ${config.dModel}, ${config.nLayer} layers, ${config.nHead} heads, MLP ${config.dMlp},
vocabulary ${config.vocabSize}, context ${config.contextLength}. Workload: ${nSeq} episodes of ${len} tokens
(a ${PROMPT_TOKENS}-token prompt, then steps of ${OBSERVATION_TOKENS} observation + ${COMMAND_TOKENS} command tokens; the
${fmt(scoredFraction * 100, 0)}% command tokens are scored, each with ${ALLOWED_PER_POSITION} allowed tokens). Medians of ${reps} runs
after a warm-up. FLOP per token: 2 (12 d^2 L + V d * head fraction) + 4 L T d with T = ${fmt(attended, 1)}
positions attended on average (${fmt(flopFwd / 1e3, 1)} kFLOP per scored-pass token); forward+backward counts 3x.
On float32 the matmuls (dotRows forward, matAcc backward), attention, LayerNorm and GELU run as WebAssembly
SIMD (src/backend/cpu/wasm/*.wat) on buffers that live in the CPU heap (heap.ts), and so do the log-softmax
and, beyond a few rows, the residual adds and the embedding's position rows (buffers.wat's add_into); the
embedding's token rows are gathered and sampling runs in TypeScript.

Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0].toFixed(2)} at the end. The passes below run on
one thread; CPU time is this process's, so other load on the machine inflates the wall column most, but it
slows the CPU column too (shared cores and caches): compare runs made at a similar load.

${table}

${estimate}

## Whole updates, stage by stage

GRPO and SEED updates in ${theWorld(env.name as EnvironmentName)} (\`--env ${env.name}\`) with the ${preset} preset's training configuration
and the world's own settings, from ${measured.init}: one trainer per algorithm and thread count, the same
weights and seed, so update u of an algorithm does the same work on every thread count; ${updates} updates each after
a warm-up update, taking turns update by update. Milliseconds of wall-clock time per update, means over the
timed updates; each stage's backend passes are timed apart from the rest of the stage (the world's steps,
prompts, masks and packing, in TypeScript). The loss row counts its passes, a mean over the timed updates: a
distilling update measures its gradient's OPD part with a pass of its own (the gradient-share metrics) at every
${shareEvery}-th update (gradShareEvery), the warm-up's included, so that ${updates} timed updates hold ${sharePasses} such pass${sharePasses === 1 ? '' : 'es'}. Same weights after every update
on every thread count, bit for bit: ${ALGOS.map((a) => `${a} ${measured.sameWeights[a] ? 'yes' : 'NO'}`).join(', ')}.
1-minute load average ${loadBefore.toFixed(2)} before and ${loadAfter.toFixed(2)} after, on ${cpus().length} logical cores (a load above the core count means other
processes shared them). The second table is the same updates in this process's CPU time (every thread's, a
worker's brief spin after each job included): on 1 thread the figure that depends least on that load.

${stageTable}

${cpuTable}

SEED's update against GRPO's: ${ratios.join('; ')}. Speedup of whole updates over 1 thread (median of the
per-update ratios): ${speedups.join('; ')}.

## Threads

Whole SEED updates (the same runs as above: ${tokensPerUpdate} tokens in the last update). Medians; the speedup is the
median of the per-update ratios.

${threadTable}
`;
  await writeOutput(reportPath(values.out, `${reportName('cpu', env.name as EnvironmentName)}.md`), report);
  return 0;
}
