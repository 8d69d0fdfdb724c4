// One job of `bench learn`, run in a child process: a training run (train, then the eval-unseen curve and
// the final evaluation), a sweep run (train, then the validation games) or the warm start's own evaluation.
// A run of a benchmark that is recorded for the page (record.ts) also evaluates eval-seen at each point of
// its curve, and keeps a few episodes with their per-token numbers at the updates it is told.
import { CpuBackend } from '../../../backend/cpu/cpu_backend.ts';
import type { Backend } from '../../../backend/backend.ts';
import { validationScenes } from '../../../env/generate.ts';
import { TINY } from '../../../env/scale.ts';
import type { Scene } from '../../../env/scene.ts';
import { presetConfig, type PresetName } from '../../../model/config.ts';
import type { Algo, TrainConfig } from '../../../rl/config.ts';
import { evaluate, summarise, type EvalResult } from '../../../rl/evaluate.ts';
import type { CrossgameSources } from '../../../rl/hindsight.ts';
import { pickEpisodes, recordedEpisode, type CurvePoint, type RecordedEpisode } from '../../../rl/recorded_run.ts';
import { Trainer, type UpdateMetrics } from '../../../rl/trainer.ts';
import { defaultTokenizer, type Tokenizer } from '../../../text/tokenizer.ts';
import { readCheckpointFile } from '../../io.ts';
import { evalSets } from './games.ts';

export const PRESET = 'tiny' as const;
/** The sweep's runs train on this seed's tasks, which no main run (seeds 1..K) draws. */
export const SWEEP_SEED = 1000;

export interface Job {
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
  /** The model preset of the init checkpoint: the benchmark's PRESET, or the micro preset in tests. */
  preset?: PresetName;
  /** Set when the benchmark is recorded: the updates (from 1) whose episodes this run keeps (none: only the curve). */
  record?: { episodeUpdates: number[] };
}

/** What a recorded run keeps beyond the report's figures. */
interface JobRecord {
  /** Both splits at every point of the curve, by update; update 0 (the warm start) is the parent's. */
  curve: CurvePoint[];
  episodes: RecordedEpisode[];
}

/** Means over a run's updates of the figures that only some updates have. */
interface UpdateMeans {
  valid_skill_rate: number | null;
  /** Mean over updates of the skill fidelity (mention F1 against the annotator's skill); null without skills. */
  skill_fidelity: number | null;
  /** Means over updates of the per-update mean Delta and gate over OPD-masked tokens (null without OPD). */
  mean_delta: number | null;
  mean_gate: number | null;
  /** Mean over the updates where it is defined of corr(Delta, advantage) on decision tokens; null when none. */
  corr_delta_advantage: number | null;
  /** seed-crossgame: where the skills of all its updates came from (summed); null under other algorithms. */
  crossgame: CrossgameSources | null;
  skipped_updates: number;
}

export interface JobResult extends UpdateMeans {
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
  /** Only when the job was given `record`. */
  recorded?: JobRecord;
}

class MeansOfUpdates {
  private valid = [0, 0];
  private fidelity = [0, 0];
  private delta = 0;
  private gate = 0;
  private opd = 0;
  private corr = [0, 0];
  private crossgame: CrossgameSources | null = null;
  private skipped = 0;

  add(m: UpdateMetrics): void {
    if (m.validSkillRate !== null) {
      this.valid[0] += m.validSkillRate;
      this.valid[1]++;
    }
    if (m.skillFidelity !== null) {
      this.fidelity[0] += m.skillFidelity;
      this.fidelity[1]++;
    }
    if (m.corrDeltaAdvantage !== null) {
      this.corr[0] += m.corrDeltaAdvantage;
      this.corr[1]++;
    }
    if (m.crossgame) {
      const sum = (this.crossgame ??= { update: 0, pool: 0, none: 0 });
      sum.update += m.crossgame.update;
      sum.pool += m.crossgame.pool;
      sum.none += m.crossgame.none;
    }
    if (m.skipped) this.skipped++;
    if (m.meanGate > 0) {
      this.delta += m.meanDelta;
      this.gate += m.meanGate;
      this.opd++;
    }
  }

  result(): UpdateMeans {
    return {
      valid_skill_rate: this.valid[1] ? this.valid[0] / this.valid[1] : null,
      skill_fidelity: this.fidelity[1] ? this.fidelity[0] / this.fidelity[1] : null,
      mean_delta: this.opd ? this.delta / this.opd : null,
      mean_gate: this.opd ? this.gate / this.opd : null,
      corr_delta_advantage: this.corr[1] ? this.corr[0] / this.corr[1] : null,
      crossgame: this.crossgame,
      skipped_updates: this.skipped,
    };
  }
}

/** Success over `samples` independent sampling streams, and per game the fraction of its episodes won. */
async function play(backend: Backend, tok: Tokenizer, config: TrainConfig, scenes: readonly Scene[], samples = 1): Promise<{ result: EvalResult; won: number[] }> {
  const wins = new Array<number>(scenes.length).fill(0);
  const types: string[] = [];
  const flags: boolean[] = [];
  for (let k = 0; k < samples; k++) {
    const byIndex = new Map<number, boolean>();
    await evaluate(backend, tok, scenes, config, (t) => byIndex.set(t.task, t.won), k);
    scenes.forEach((scene, i) => {
      const won = byIndex.get(i) ?? false;
      wins[i] += won ? 1 : 0;
      types.push(scene.task.type);
      flags.push(won);
    });
  }
  return { result: summarise(types, flags), won: wins.map((w) => w / samples) };
}

/** One run (or the warm start's evaluation), in this process. */
export async function runJob(job: Job): Promise<JobResult> {
  const tok = defaultTokenizer();
  const ck = await readCheckpointFile(job.init, tok);
  const backend = new CpuBackend(presetConfig(job.preset ?? PRESET, tok.vocabSize), ck.params);
  const t0 = performance.now();
  const cut = <T>(list: T[]) => (job.evalEpisodes > 0 ? list.slice(0, job.evalEpisodes) : list);
  const { seen: seenScenes, unseen: unseenScenes } = evalSets(job.evalEpisodes);
  const curve: [number, number][] = [];
  const record = job.kind === 'run' && job.record ? { curve: [] as CurvePoint[], episodes: [] as RecordedEpisode[] } : null;
  const means = new MeansOfUpdates();
  if (job.kind !== 'warmstart') {
    const trainer = new Trainer({ backend, tokenizer: tok, algo: job.algo, config: job.config, seed: job.seed, scale: TINY });
    // The curve's first point, the warm start's eval-unseen success, is the same for every run (same weights,
    // same sampling stream): the parent takes it from the warm start's own evaluation.
    while (trainer.updates < job.updates) {
      means.add(await trainer.update());
      if (record && job.record!.episodeUpdates.includes(trainer.updates)) {
        const state = trainer.current!;
        for (const i of pickEpisodes(state)) record.episodes.push(recordedEpisode(tok, state, i, job.seed));
      }
      if (job.kind === 'run' && (trainer.updates % job.evalEvery === 0 || trainer.updates === job.updates)) {
        const last = trainer.updates === job.updates;
        const unseen = last ? NaN : (await play(backend, tok, job.config, unseenScenes)).result.success;
        curve.push([trainer.episodes, unseen]);
        if (record && !last) record.curve.push([trainer.updates, trainer.episodes, (await play(backend, tok, job.config, seenScenes)).result.success, unseen]);
      }
    }
  }
  const common = { algo: job.algo, seed: job.seed, lr: job.config.lr };
  if (job.kind === 'sweep') {
    const validation = await play(backend, tok, job.config, cut(validationScenes(TINY)), job.evalSamples);
    return {
      ...common, success_seen: NaN, success_unseen: NaN, success_validation: validation.result.success,
      per_type: { seen: {}, unseen: {} }, curve, wall_s: (performance.now() - t0) / 1000, won_seen: [], won_unseen: [],
      ...means.result(),
    };
  }
  const seen = await play(backend, tok, job.config, seenScenes, job.evalSamples);
  const unseen = await play(backend, tok, job.config, unseenScenes, job.evalSamples);
  if (curve.length && Number.isNaN(curve[curve.length - 1][1])) curve[curve.length - 1][1] = unseen.result.success;
  if (record && curve.length) record.curve.push([job.updates, curve[curve.length - 1][0], seen.result.success, unseen.result.success]);
  return {
    ...common,
    success_seen: seen.result.success,
    success_unseen: unseen.result.success,
    success_validation: null,
    per_type: { seen: seen.result.per_type, unseen: unseen.result.per_type },
    curve,
    wall_s: (performance.now() - t0) / 1000,
    won_seen: seen.won,
    won_unseen: unseen.won,
    ...means.result(),
    ...(record ? { recorded: record } : {}),
  };
}
