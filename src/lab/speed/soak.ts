// `seed bench soak`: resource hygiene of the WebGPU backend over many updates of the micro preset; `command`
// below declares its options and says what it records (the --help text).
import { cpus } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Rng } from '../../common/rng.ts';
import { maskWords, type OptimizerHyper, type TokenBatch } from '../../backend/backend.ts';
import { formatAdapter } from '../../backend/webgpu/device.ts';
import { createNodeRuntime } from '../../backend/webgpu/node_gpu.ts';
import type { GpuRuntime } from '../../backend/webgpu/runtime.ts';
import { WebGpuBackend } from '../../backend/webgpu/webgpu_backend.ts';
import { presetConfig } from '../../model/config.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { numberOption, parseOptions, presetOf, presetOption } from '../../cli/args.ts';
import { defineCommand, usageLine } from '../../cli/help.ts';
import { LIMITS } from '../../cli/limits.ts';
import { CliError } from '../../cli/cli_error.ts';
import { sourceCommit } from '../../cli/provenance.ts';
import { outOption, reportHead, reportPath, writeOutput } from '../output.ts';
import { BENCH_LOSS } from './bench_loss.ts';

const limits = LIMITS.benchSoak;

export const command = defineCommand({
  name: 'bench soak',
  summary: 'WebGPU backend soak: live GPU buffers and JS heap across many micro-preset updates',
  description:
    'Resource hygiene of the WebGPU backend over many updates. Each update decodes a few tokens for several streams in lockstep (a fresh GPU decoder, as a rollout does), ' +
    'scores the episodes with the reference policy, runs loss-backward and the AdamW step. Every --every updates it records the live GPU buffers (pool and staging ring), ' +
    'the compiled pipelines and the JS heap. Live buffers must stay constant; the heap must not trend upward. Writes soak.md.',
  options: {
    updates: { type: 'string', value: 'N', limit: limits.updates, default: '1000', description: 'updates run' },
    preset: presetOption({ default: 'micro', description: 'the model trained' }),
    streams: {
      type: 'string',
      value: 'N',
      limit: limits.streams,
      default: '4',
      description: 'streams decoded in lockstep per update',
    },
    prompt: {
      type: 'string',
      value: 'N',
      limit: limits.prompt,
      default: '16',
      description: "tokens of each stream's prompt",
    },
    decode: {
      type: 'string',
      value: 'N',
      limit: limits.decode,
      default: '8',
      description: 'tokens sampled per stream (prompt + decode must fit the context)',
    },
    every: {
      type: 'string',
      value: 'N',
      limit: limits.every,
      default: '50',
      description: 'records the resources after every Nth update (and after the first and the last)',
    },
    seed: {
      type: 'string',
      value: 'S',
      limit: limits.seed,
      default: '1',
      description: 'the seed of the weights and the tokens',
    },
    out: outOption('soak.md'),
  },
});

interface Sample {
  update: number;
  live: number;
  inUse: number;
  staging: number;
  pipelines: number;
  gpuMB: number;
  heapMB: number;
  seconds: number;
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, command);
  const commit = sourceCommit();
  const updates = numberOption(values.updates, 'updates', limits.updates);
  const streams = numberOption(values.streams, 'streams', limits.streams);
  const promptLen = numberOption(values.prompt, 'prompt', limits.prompt);
  const decode = numberOption(values.decode, 'decode', limits.decode);
  const every = numberOption(values.every, 'every', limits.every);
  const seed = numberOption(values.seed, 'seed', limits.seed);
  const preset = presetOf(values.preset, usageLine(command));
  const config = presetConfig(preset, defaultTokenizer().vocabSize);
  const seqLen = promptLen + decode;
  if (seqLen > config.contextLength)
    throw new CliError(`--prompt + --decode = ${seqLen} exceeds the context length ${config.contextLength}`, 2);

  let gpu: GpuRuntime;
  try {
    gpu = await createNodeRuntime();
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
  const adapter = formatAdapter(gpu.adapter);
  const V = config.vocabSize;
  const words = maskWords(V);
  const backend = WebGpuBackend.fromSeed(gpu, config, seed);
  const adam: OptimizerHyper = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1 };
  const rng = new Rng(seed).fork('bench-soak');
  const samples: Sample[] = [];
  const t0 = performance.now();
  // A full collection before each sample, so that the heap figures show retained memory, not garbage.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const record = (update: number) => {
    collect();
    const s = gpu.stats();
    samples.push({
      update,
      live: s.live + s.stagingBuffers,
      inUse: s.inUse,
      staging: s.stagingBuffers,
      pipelines: s.pipelines,
      gpuMB: s.bytes / 2 ** 20,
      heapMB: process.memoryUsage().heapUsed / 2 ** 20,
      seconds: (performance.now() - t0) / 1000,
    });
    process.stderr.write(`bench soak: update ${update}/${updates}, live GPU buffers ${s.live + s.stagingBuffers}\n`);
  };
  try {
    for (let u = 1; u <= updates; u++) {
      // Rollout: streams decode in lockstep from their prompts.
      const decoder = backend.openDecoder(streams);
      const tokens = new Int32Array(streams * seqLen);
      for (let s = 0; s < streams; s++) {
        const prompt = Int32Array.from({ length: promptLen }, () => rng.int(V));
        tokens.set(prompt, s * seqLen);
        await decoder.feed(s, prompt);
      }
      const ids = Int32Array.from({ length: streams }, (_, i) => i);
      const lOld: number[] = [];
      const allowAll = new Uint32Array(streams * words).fill(0xffffffff);
      for (let p = 0; p < decode; p++) {
        const sampled = await decoder.sample(
          ids,
          allowAll,
          1,
          Float32Array.from(ids, () => rng.float()),
        );
        for (let s = 0; s < streams; s++) tokens[s * seqLen + promptLen + p] = sampled.tokens[s];
        lOld.push(...sampled.logprobs);
      }
      decoder.dispose();
      // Update: the sampled tokens are the scored targets.
      const targets = new Int32Array(streams * seqLen).fill(-1);
      for (let s = 0; s < streams; s++)
        for (let p = 0; p < decode; p++) targets[s * seqLen + promptLen + p - 1] = tokens[s * seqLen + promptLen + p];
      const nScored = streams * decode;
      const batch: TokenBatch = {
        nSeq: streams,
        seqLen,
        tokens,
        targets,
        masks: new Uint32Array(nScored * words).fill(0xffffffff),
      };
      const lRef = await backend.score(batch, 'reference');
      const advantage = Float32Array.from({ length: nScored }, (_, k) => (Math.floor(k / decode) % 2 === 0 ? 1 : -1));
      const ones = new Float32Array(nScored).fill(1);
      await backend.lossBackward(
        batch,
        { advantage, mask: ones, opdMask: ones, lSkill: lRef, lOld: lRef, lRef },
        BENCH_LOSS,
      );
      await backend.optimizerStep(adam);
      if (u === 1 || u % every === 0 || u === updates) record(u);
    }
  } finally {
    backend.dispose();
    gpu.dispose();
  }

  const first = samples[0];
  const last = samples[samples.length - 1];
  const afterFirst = samples.slice(1);
  const constant = afterFirst.every((s) => s.live === (afterFirst[0] ?? first).live);
  const heap = samples.map((s) => s.heapMB);
  const table = [
    '| update | live GPU buffers | in use | staging | pipelines | GPU MB | JS heap MB | seconds |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...samples.map(
      (s) =>
        `| ${s.update} | ${s.live} | ${s.inUse} | ${s.staging} | ${s.pipelines} | ${s.gpuMB.toFixed(2)} | ${s.heapMB.toFixed(1)} | ${s.seconds.toFixed(1)} |`,
    ),
  ];
  const verdict =
    `Live GPU buffers: ${first.live} after update 1, ${last.live} after update ${last.update}; ` +
    `${constant ? `constant from update ${(afterFirst[0] ?? first).update} on` : 'NOT constant'}. ` +
    `JS heap: ${Math.min(...heap).toFixed(1)}-${Math.max(...heap).toFixed(1)} MB (${first.heapMB.toFixed(1)} MB after update 1, ${last.heapMB.toFixed(1)} MB at the end). ` +
    `${(last.seconds / updates).toFixed(2)} s per update.`;
  process.stdout.write(`${[verdict, '', ...table].join('\n')}\n`);
  const report = [
    ...reportHead('Soak benchmark: WebGPU backend resource hygiene', 'soak', args, commit),
    `Adapter: ${adapter}. Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} logical cores), Node ${process.version}.`,
    `Each update: a fresh GPU decoder for ${streams} streams (prompt ${promptLen} tokens, ${decode} tokens sampled in lockstep), a reference-policy score, loss-backward and AdamW on the ${preset} preset.`,
    "Live GPU buffers = the pool's live buffers (in use + free) + the staging ring. The heap is sampled after a full garbage collection.",
    '',
    verdict,
    '',
    ...table,
    '',
  ].join('\n');
  await writeOutput(reportPath(values.out, 'soak.md'), report);
  return constant ? 0 : 1;
}
