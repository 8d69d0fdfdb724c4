// Everything `seed train` reads, read and checked before it writes or removes anything in its run directory:
// the checkpoint a new run starts from (its whole model header against the preset, weights whose forward is
// finite), or the checkpoints (the teacher's too, when the run holds one) and the metrics of a run it resumes (rl/run_metadata.ts checks every field
// of the run's metadata). A refusal is one line naming the file; the old run stays as it was.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentName } from '../worlds/names.ts';
import type { Checkpoint } from '../model/checkpoint.ts';
import { configDifference, presetOfConfig, warmStartPath, type ModelConfig, type PresetName } from '../model/config.ts';
import { initParameters } from '../model/init.ts';
import { unusableWeights } from '../rl/policy_probe.ts';
import type { TrainConfig } from '../rl/config.ts';
import { skillSlotDifference } from '../rl/skill_slot.ts';
import { checkRunReference, checkRunTeacher, runMetadata, type RunMetadata } from '../rl/run_metadata.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { CliError } from './cli_error.ts';
import { readCheckpointFile } from './io.ts';
import { readMetrics, resumedMetrics, type MetricsLine } from './metrics.ts';

/** Refuses weights whose model is not the preset's (naming each field that differs) or whose forward overflows. */
function checkWeights(ck: Checkpoint, path: string, preset: PresetName, model: ModelConfig): void {
  const difference = configDifference(ck.config, model);
  if (difference) {
    const of = presetOfConfig(ck.config);
    throw new CliError(
      `${path} is ${of ? `a checkpoint of the ${of} preset` : "no preset's checkpoint"}, not of ${preset}: ${difference}`,
    );
  }
  const unusable = unusableWeights(ck.config, ck.params, path);
  if (unusable) throw new CliError(unusable);
}

/** The weights a new run starts from: --init, else the preset's warm start when there is one, else a seeded random init. */
export async function readStartWeights(
  init: string | undefined,
  preset: PresetName,
  model: ModelConfig,
  seed: number,
  tok: Tokenizer,
  world: EnvironmentName,
  settings: Pick<TrainConfig, 'skillSlot' | 'maxSkillTokens'>,
): Promise<Float32Array> {
  const path = init ?? warmStartPath(preset, world);
  if (init === undefined && !existsSync(path)) {
    process.stderr.write(`no ${path}: starting from a seeded random init (run warmstart first for a meaningful run)\n`);
    return initParameters(model, seed);
  }
  const ck = await readCheckpointFile(path, tok);
  checkWeights(ck, path, preset, model);
  const slot = skillSlotDifference(ck.metadata, settings, init === undefined ? path : `--init ${path}`);
  if (slot) throw new CliError(slot);
  return ck.params;
}

export interface ResumeInputs {
  current: Checkpoint;
  reference: Checkpoint;
  /** The held teacher's weights of a run that refreshes its teacher every K > 1 updates; null otherwise. */
  teacher: Checkpoint | null;
  meta: RunMetadata;
  /** The metrics lines the resumed run keeps, and the line that says what it dropped (null when nothing). */
  metrics: { kept: MetricsLine[]; note: string | null };
}

/** The run in `out` that --resume continues: both checkpoints and the metrics, every field checked. */
export async function readResumeInputs(
  out: string,
  preset: PresetName,
  model: ModelConfig,
  tok: Tokenizer,
): Promise<ResumeInputs> {
  const lastPath = join(out, 'last.ckpt');
  const refPath = join(out, 'reference.ckpt');
  const missing = [lastPath, refPath].filter((p) => !existsSync(p));
  if (missing.length === 2)
    throw new CliError(
      `--resume: ${out} holds no checkpoint (its run stopped before its first one): --force starts the run over`,
    );
  if (missing.length === 1)
    throw new CliError(`--resume: ${out} holds no ${missing[0]}, so its run cannot go on: --force starts it over`);
  const current = await readCheckpointFile(lastPath, tok);
  const reference = await readCheckpointFile(refPath, tok);
  let meta: RunMetadata;
  try {
    meta = runMetadata(current, preset);
  } catch (err) {
    throw new CliError(`--resume: ${lastPath}: ${(err as Error).message}`);
  }
  try {
    checkRunReference(reference, current, meta);
  } catch (err) {
    throw new CliError(`--resume: ${refPath}: ${(err as Error).message}`);
  }
  const teacherPath = join(out, 'teacher.ckpt');
  const teacher = existsSync(teacherPath) ? await readCheckpointFile(teacherPath, tok) : null;
  try {
    checkRunTeacher(teacher, current, meta);
  } catch (err) {
    throw new CliError(`--resume: ${teacherPath}: ${(err as Error).message}`);
  }
  checkWeights(current, lastPath, preset, model);
  checkWeights(reference, refPath, preset, model);
  if (teacher) checkWeights(teacher, teacherPath, preset, model);
  const metricsPath = join(out, 'metrics.jsonl');
  const metrics = resumedMetrics(metricsPath, await readMetrics(metricsPath), meta);
  return { current, reference, teacher, meta, metrics };
}
