// `seed train --algo A --preset P --updates N --seed S --backend cpu|webgpu [--set key=value ...] [--init FILE]
//  [--out DIR] [--resume] [--checkpoint-every N] [--eval-every N] [--eval-episodes N]`
// Trains from a warm-start checkpoint (--init; default public/warmstart-<preset>.ckpt when present) with the
// chosen algorithm. DIR (default bench/runs/<algo>-<preset>-s<seed>) receives metrics.jsonl (one JSON line
// per update, and the evaluations), last.ckpt (weights, AdamW state, run metadata) and reference.ckpt, every
// --checkpoint-every updates and at the end; --resume continues from them exactly. Progress on stderr, the
// final summary (JSON) on stdout.
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Backend } from '../../backend/backend.ts';
import { evalScenes } from '../../env/generate.ts';
import { TINY } from '../../env/scale.ts';
import { CheckpointError, readCheckpoint, writeCheckpoint, type Checkpoint } from '../../model/checkpoint.ts';
import { isPresetName, presetConfig, PRESETS, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { ALGOS, applySettings, defaultConfig, isAlgo, type Algo, type TrainConfig } from '../../rl/config.ts';
import { evaluate, type EvalResult } from '../../rl/evaluate.ts';
import { restoreRun, runCheckpoints } from '../../rl/run_state.ts';
import { Trainer, type UpdateMetrics } from '../../rl/trainer.ts';
import { defaultTokenizer, type Tokenizer } from '../../text/tokenizer.ts';
import { parseIntOption, parseOptions, requireOption } from '../args.ts';
import { openBackend } from '../backend.ts';
import { CliError } from '../cli_error.ts';

export const summary = 'train a policy with grpo, seed or an ablation; JSONL metrics, checkpoints, exact resume';

const usage =
  `npm run seed -- train --algo ${ALGOS.join('|')} --preset P --updates N --seed S --backend cpu|webgpu ` +
  '[--set key=value ...] [--init FILE] [--out DIR] [--resume] [--checkpoint-every N] [--eval-every N] [--eval-episodes N]';

interface Bar {
  update(value: number, payload?: Record<string, string>): void;
  increment(): void;
  stop(): void;
}

/** A cli-progress bar on stderr; when stderr is not a terminal, a plain line every 10% instead. */
export function progressBar(label: string, total: number): Bar {
  if (!process.stderr.isTTY) {
    let value = 0;
    let shown = -1;
    const show = (info = '') => {
      const tenth = total > 0 ? Math.floor((10 * value) / total) : 10;
      if (tenth > shown) {
        shown = tenth;
        process.stderr.write(`${label}: ${value}/${total} ${info}\n`);
      }
    };
    return {
      update(v, payload) {
        value = v;
        show(payload?.info);
      },
      increment() {
        value++;
        show();
      },
      stop() {},
    };
  }
  const { SingleBar, Presets } = createRequire(import.meta.url)('cli-progress') as {
    SingleBar: new (options: object, preset: object) => Bar & { start(total: number, value: number, payload?: object): void };
    Presets: { shades_classic: object };
  };
  const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} {info}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
  bar.start(total, 0, { info: '' });
  return bar;
}

/** Writes beside the target and renames, so a failed write never leaves a half-written file. */
export async function writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  } catch (err) {
    throw new CliError(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export async function readCheckpointFile(path: string, tok: Tokenizer): Promise<Checkpoint> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return readCheckpoint(bytes, { vocabHash: tok.hash });
  } catch (err) {
    if (err instanceof CheckpointError) throw new CliError(`${path}: ${err.message}`);
    throw err;
  }
}

export function defaultInit(preset: PresetName): string {
  return join('public', `warmstart-${preset}.ckpt`);
}

export async function evaluateBoth(backend: Backend, tok: Tokenizer, config: TrainConfig, episodes: number): Promise<{ seen: EvalResult; unseen: EvalResult }> {
  const cut = <T>(list: T[]) => (episodes > 0 ? list.slice(0, episodes) : list);
  return {
    seen: await evaluate(backend, tok, cut(evalScenes('seen', TINY)), config),
    unseen: await evaluate(backend, tok, cut(evalScenes('unseen', TINY)), config),
  };
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      algo: { type: 'string' },
      preset: { type: 'string' },
      updates: { type: 'string' },
      seed: { type: 'string' },
      backend: { type: 'string', default: 'cpu' },
      set: { type: 'string', multiple: true, default: [] },
      init: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'boolean', default: false },
      'checkpoint-every': { type: 'string' },
      'eval-every': { type: 'string' },
      'eval-episodes': { type: 'string' },
    },
    usage,
  );
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\nusage: ${usage}`, 2);
  const algo = requireOption(values.algo, 'algo', usage);
  if (!isAlgo(algo)) throw new CliError(`unknown --algo "${algo}" (known: ${ALGOS.join(', ')})`, 2);
  const preset = requireOption(values.preset, 'preset', usage);
  if (!isPresetName(preset)) throw new CliError(`unknown preset "${preset}" (known: ${Object.keys(PRESETS).join(', ')})`, 2);
  const updates = parseIntOption(values.updates, 'updates');
  if (updates < 0) throw new CliError('--updates must be >= 0', 2);
  const seed = parseIntOption(values.seed, 'seed');
  if (seed < 0 || seed > 0xffffffff) throw new CliError(`--seed must be in [0, 2^32), got ${seed}`, 2);
  const checkpointEvery = parseIntOption(values['checkpoint-every'], 'checkpoint-every', 10);
  const evalEvery = parseIntOption(values['eval-every'], 'eval-every', 0);
  const evalEpisodes = parseIntOption(values['eval-episodes'], 'eval-episodes', 0);
  let config: TrainConfig;
  try {
    config = applySettings(defaultConfig(preset), values.set as string[]);
  } catch (err) {
    throw new CliError(`--set: ${(err as Error).message}`, 2);
  }
  const tok = defaultTokenizer();
  const model = presetConfig(preset, tok.vocabSize);
  const out = values.out ?? join('bench', 'runs', `${algo}-${preset}-s${seed}`);
  await mkdir(out, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    throw new CliError(`cannot create ${out}: ${err.code ?? err.message}`);
  });
  const lastPath = join(out, 'last.ckpt');
  const refPath = join(out, 'reference.ckpt');
  const metricsPath = join(out, 'metrics.jsonl');

  let params: Float32Array;
  let resumeFrom: { current: Checkpoint; reference: Checkpoint } | null = null;
  if (values.resume) {
    if (!existsSync(lastPath) || !existsSync(refPath)) throw new CliError(`--resume: ${out} holds no last.ckpt and reference.ckpt`);
    resumeFrom = { current: await readCheckpointFile(lastPath, tok), reference: await readCheckpointFile(refPath, tok) };
    params = resumeFrom.current.params;
  } else {
    const init = values.init ?? defaultInit(preset);
    if (values.init === undefined && !existsSync(init)) {
      process.stderr.write(`no ${init}: starting from a seeded random init (run warmstart first for a meaningful run)\n`);
      params = initParameters(model, seed);
    } else {
      params = (await readCheckpointFile(init, tok)).params;
    }
  }
  if (params.length !== initParameters(model, 0).length) throw new CliError(`the checkpoint's parameters do not fit preset ${preset}`);
  const backend = await openBackend(values.backend!, model, params);
  const trainer = new Trainer({ backend, tokenizer: tok, algo: algo as Algo, config, seed, scale: TINY });
  if (resumeFrom) {
    try {
      await restoreRun(trainer, resumeFrom.current, resumeFrom.reference);
    } catch (err) {
      throw new CliError(`--resume: ${(err as Error).message}`);
    }
    if ((values.set as string[]).length) trainer.config = applySettings(trainer.config, values.set as string[]);
    // Lines of updates after the checkpoint are redone, so they are dropped from the metrics file.
    const kept = (await readFile(metricsPath, 'utf8').catch(() => ''))
      .split('\n')
      .filter((line) => line.trim() !== '' && (JSON.parse(line) as { update: number }).update < trainer.updates);
    await writeFile(metricsPath, kept.map((l) => l + '\n').join(''));
    process.stderr.write(`resumed ${out} at update ${trainer.updates}\n`);
  } else {
    await writeFile(metricsPath, '');
  }

  const save = async () => {
    const { current, reference } = await runCheckpoints(trainer, preset, tok.hash);
    await writeAtomic(refPath, writeCheckpoint(reference));
    await writeAtomic(lastPath, writeCheckpoint(current));
  };
  const bar = progressBar(`${algo} ${preset} seed ${seed}`, updates);
  bar.update(Math.min(trainer.updates, updates));
  let last: UpdateMetrics | null = null;
  const t0 = performance.now();
  while (trainer.updates < updates) {
    last = await trainer.update();
    const line: Record<string, unknown> = { ...last };
    if (last.skipped) process.stderr.write(`\nupdate ${last.update} refused: non-finite ${last.skipped.term} (${last.skipped.where}); weights unchanged\n`);
    if (evalEvery > 0 && trainer.updates % evalEvery === 0) {
      const ev = await evaluateBoth(backend, tok, trainer.config, evalEpisodes);
      line.eval = { seen: ev.seen.success, unseen: ev.unseen.success };
    }
    await appendFile(metricsPath, JSON.stringify(line) + '\n');
    if (checkpointEvery > 0 && trainer.updates % checkpointEvery === 0) await save();
    bar.update(trainer.updates, { info: `success ${last.success.toFixed(2)} loss ${Number(last.total).toFixed(3)}` });
  }
  bar.stop();
  await save();
  process.stdout.write(
    JSON.stringify({ algo, preset, seed, updates: trainer.updates, episodes: trainer.episodes, out, wall_s: (performance.now() - t0) / 1000, last }, null, 2) + '\n',
  );
  return 0;
}
