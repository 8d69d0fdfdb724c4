// `seed train --algo A --preset P --updates N --seed S --backend cpu|webgpu [--set key=value ...] [--init FILE]
//  [--out DIR] [--resume] [--checkpoint-every N] [--eval-every N] [--eval-episodes N]`
// Trains from a warm-start checkpoint (--init; default public/warmstart-<preset>.ckpt when present) with the
// chosen algorithm. DIR (default bench/runs/<algo>-<preset>-s<seed>) receives metrics.jsonl (one JSON line
// per update, and the evaluations), last.ckpt (weights, AdamW state, run metadata) and reference.ckpt, every
// --checkpoint-every updates and at the end; --resume continues from them exactly. Progress on stderr, the
// final summary (JSON) on stdout.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TINY } from '../../env/scale.ts';
import { writeCheckpoint, type Checkpoint } from '../../model/checkpoint.ts';
import { isPresetName, presetConfig, PRESETS, type PresetName } from '../../model/config.ts';
import { initParameters } from '../../model/init.ts';
import { ALGOS, applySettings, defaultConfig, isAlgo, type Algo, type TrainConfig } from '../../rl/config.ts';
import { evalSplitScenes, evaluateSplits } from '../../rl/evaluate.ts';
import { restoreRun, runCheckpoints } from '../../rl/run_checkpoint.ts';
import { Trainer, type UpdateMetrics } from '../../rl/trainer.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { parseIntOption, parseOptions, requireOption } from '../args.ts';
import { openBackend } from '../backend.ts';
import { CliError } from '../cli_error.ts';
import { appendLine, makeDir, progressBar, readCheckpointFile, writeAtomic } from '../io.ts';

export const summary = 'train a policy with grpo, seed or an ablation; JSONL metrics, checkpoints, exact resume';

const usage =
  `npm run seed -- train --algo ${ALGOS.join('|')} --preset P --updates N --seed S --backend cpu|webgpu ` +
  '[--set key=value ...] [--init FILE] [--out DIR] [--resume] [--checkpoint-every N] [--eval-every N] [--eval-episodes N]';

export function defaultInit(preset: PresetName): string {
  return join('public', `warmstart-${preset}.ckpt`);
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
  await makeDir(out);
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
    await writeAtomic(metricsPath, kept.map((l) => l + '\n').join(''));
    process.stderr.write(`resumed ${out} at update ${trainer.updates}\n`);
  } else {
    await writeAtomic(metricsPath, '');
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
      const ev = await evaluateSplits(backend, tok, trainer.config, evalSplitScenes(evalEpisodes));
      line.eval = { seen: ev.seen.success, unseen: ev.unseen.success };
    }
    await appendLine(metricsPath, JSON.stringify(line) + '\n');
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
