// The SEED trainer, one update as six inspectable stages (the page's "Step one update" walks them):
//   1 rollout            B tasks x G episodes in lockstep (rollout.ts), l_old per token; with resampleRounds,
//                        a group whose rewards are all equal is replaced by a fresh task (no advantage, no signal)
//   2 rewards            R_i, group advantages A_i (advantages.ts)
//   3 hindsight skills   the current policy writes one skill per trajectory (analyzer.ts); seed-static takes
//                        them from a library written once by the warm-start policy, seed-shuffled gives each
//                        trajectory the skill of another trajectory of its group; annotatorSkills has the
//                        rule-based annotator write them instead of the policy (a faithful-hindsight control)
//   4 re-scoring         l_skill (pre-update weights, skill-injected context) and l_ref (reference weights)
//   5 loss               Delta, gate, per-token coefficients and the gradient (Backend.lossBackward)
//   6 optimizer          one AdamW step (or `epochs` of them, re-running stage 5 on the same rollouts)
// The config is read at stage 1 of every update, so a change of lambda or beta takes effect at the next one.
// A NaN or Inf in a loss term or gradient (NonFiniteError) ends the update before the weights change; it is
// reported in the metrics and the next update starts from the last good state.
//
// Randomness: update u draws from Rng(hash("update/u", seed)), so a run resumed from the checkpoint after
// update u continues exactly as if it had never stopped; the update counter is the whole Rng state.
import { NonFiniteError, type Backend, type LossHyper, type LossInputs, type LossOutput, type StepStats } from '../backend/backend.ts';
import { Rng, hashString } from '../common/rng.ts';
import { generateScene } from '../env/generate.ts';
import type { RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import { skillTokens, policyContext } from '../text/prompts.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { groupAdvantages } from './advantages.ts';
import { checkSkill, writeSkills, type WrittenSkill } from './analyzer.ts';
import { insertBlock, packBatch, scoredCount, type ScoredSequence } from './batch.ts';
import type { Algo, TrainConfig } from './config.ts';
import { episodeText, rollout, totalReward, type RolloutOptions, type Trajectory } from './rollout.ts';
import { referenceSkill, skillFidelity } from './skill_fidelity.ts';

export const STAGES = ['rollout', 'rewards', 'skills', 'rescore', 'loss', 'optimizer'] as const;
export type Stage = (typeof STAGES)[number];

export interface TrainerCallbacks {
  onTrajectory?(t: Trajectory, update: number): void;
  onStage?(stage: Stage, state: UpdateState): void;
}

export interface UpdateMetrics {
  update: number;
  algo: Algo;
  /** Episodes played by the run after this update. */
  episodes: number;
  /** Over every episode played, those of resampled groups included. */
  success: number;
  /** Over the trajectories trained on. */
  meanReward: number;
  L_GRPO: number;
  L_OPD: number;
  KL: number;
  total: number;
  /** Means over the response tokens of trajectories with a usable skill (opd_mask = 1); 0 when none. */
  meanDelta: number;
  meanGate: number;
  /** Fraction of trajectories whose skill was usable; null when the algorithm writes none. */
  validSkillRate: number | null;
  /**
   * Mean fidelity of the skill used for OPD to its trajectory (skill_fidelity.ts: mention F1 against the
   * rule-based annotator's skill of that trajectory), over trajectories with a usable skill; null when none.
   */
  skillFidelity: number | null;
  gradNorm: number;
  tokens: number;
  tokensPerSecond: number;
  wallMs: number;
  /** Set when the update was refused for a non-finite value: the weights did not change. */
  skipped: { term: string; where: string } | null;
}

/** Everything an update computed so far; each stage fills its part. */
export interface UpdateState {
  update: number;
  config: TrainConfig;
  algo: Algo;
  stage: number;
  scenes: Scene[];
  trajectories: Trajectory[];
  rewards: Float64Array;
  advantages: Float64Array;
  /** Per trajectory: the skill it wrote (null when the algorithm writes none) and the skill used for OPD. */
  written: (WrittenSkill | null)[];
  used: (WrittenSkill | null)[];
  /** [n + 1] offsets of each trajectory's tokens in the per-token arrays. */
  tokenOffsets: Int32Array;
  inputs: LossInputs | null;
  loss: LossOutput | null;
  step: StepStats | null;
  skipped: { term: string; where: string } | null;
  startedMs: number;
  tokens: number;
  /** Episodes played and won in the rollout stage, those of replaced (resampled) groups included. */
  played?: number;
  playedWins?: number;
}

export interface TrainerOptions {
  backend: Backend;
  tokenizer: Tokenizer;
  algo: Algo;
  config: TrainConfig;
  seed: number;
  scale: RoomScale;
  callbacks?: TrainerCallbacks;
}

/** Train-task indices of resampled groups start here, far above those of the updates' own tasks. */
export const RESAMPLE_INDEX_BASE = 1 << 28;

/** Per-update Rng streams, derived from the run seed and the update index only. */
export function updateRng(seed: number, update: number, label: string): Rng {
  return new Rng(hashString(`update/${update}/${label}`, seed >>> 0));
}

export class Trainer {
  readonly backend: Backend;
  readonly tok: Tokenizer;
  readonly algo: Algo;
  readonly seed: number;
  readonly scale: RoomScale;
  /** Read at the start of every update. */
  config: TrainConfig;
  callbacks: TrainerCallbacks;
  /** Updates completed (or refused): the index of the next update. */
  updates = 0;
  episodes = 0;
  /** seed-static: skills of the warm-start policy, by task type. */
  staticLibrary: Record<string, string[]> | null = null;
  private state: UpdateState | null = null;

  constructor(options: TrainerOptions) {
    this.backend = options.backend;
    this.tok = options.tokenizer;
    this.algo = options.algo;
    this.config = { ...options.config };
    this.seed = options.seed;
    this.scale = options.scale;
    this.callbacks = options.callbacks ?? {};
  }

  get current(): UpdateState | null {
    return this.state;
  }

  /** The scenes of update u: tasksPerUpdate train games, each repeated groupSize times. */
  scenesOf(update: number, config: TrainConfig): { scenes: Scene[]; tasks: number[] } {
    const scenes: Scene[] = [];
    const tasks: number[] = [];
    for (let b = 0; b < config.tasksPerUpdate; b++) {
      const scene = generateScene('train', update * config.tasksPerUpdate + b, this.scale, this.seed);
      for (let g = 0; g < config.groupSize; g++) {
        scenes.push(scene);
        tasks.push(b);
      }
    }
    return { scenes, tasks };
  }

  rolloutOptions(config: TrainConfig): RolloutOptions {
    return {
      maxSteps: config.maxSteps,
      history: config.history,
      temperature: config.temperature,
      constrained: config.constrained === 1,
      maxCommandTokens: config.maxCommandTokens,
      maxSkillTokens: config.maxSkillTokens,
    };
  }

  /** seed-static: the warm-start policy (the current weights, before any update) writes the library once. */
  async buildStaticLibrary(): Promise<void> {
    if (this.algo !== 'seed-static' || this.staticLibrary) return;
    const config = this.config;
    const scenes: Scene[] = [];
    for (let b = 0; b < config.staticTasks; b++) scenes.push(generateScene('train', 1_000_000 + b, this.scale, this.seed));
    const rng = updateRng(this.seed, -1, 'static');
    const trajectories = await rollout(this.backend, this.tok, scenes, scenes.map((_, i) => i), this.rolloutOptions(config), rng.fork('rollout'));
    const skills = await this.hindsight(trajectories, config, rng.fork('analyzer'));
    const library: Record<string, string[]> = {};
    skills.forEach((s, i) => {
      if (!s.ok) return;
      const type = scenes[i].task.type;
      (library[type] ??= []).push(s.text);
    });
    this.staticLibrary = library;
  }

  /** Runs the next stage of the current update (starting a new update when none is open); returns its state. */
  async nextStage(): Promise<UpdateState> {
    if (this.state === null || this.state.stage >= STAGES.length) await this.beginUpdate();
    const st = this.state!;
    const stage = STAGES[st.stage];
    if (st.skipped === null) {
      try {
        await this.runStage(stage, st);
      } catch (err) {
        if (!(err instanceof NonFiniteError)) throw err;
        await this.backend.zeroGradients();
        st.skipped = { term: err.term, where: err.where };
      }
    }
    st.stage += 1;
    if (st.stage === STAGES.length) {
      this.updates = st.update + 1;
      this.episodes += st.played ?? st.trajectories.length;
    }
    this.callbacks.onStage?.(stage, st);
    return st;
  }

  /** One whole update; returns its metrics. */
  async update(): Promise<UpdateMetrics> {
    do await this.nextStage();
    while (this.state!.stage < STAGES.length);
    return this.metrics(this.state!);
  }

  private async beginUpdate(): Promise<void> {
    if (this.algo === 'seed-static' && !this.staticLibrary) await this.buildStaticLibrary();
    const config = { ...this.config };
    const { scenes } = this.scenesOf(this.updates, config);
    this.state = {
      update: this.updates,
      config,
      algo: this.algo,
      stage: 0,
      scenes,
      trajectories: [],
      rewards: new Float64Array(0),
      advantages: new Float64Array(0),
      written: [],
      used: [],
      tokenOffsets: new Int32Array(0),
      inputs: null,
      loss: null,
      step: null,
      skipped: null,
      startedMs: performance.now(),
      tokens: 0,
      played: 0,
      playedWins: 0,
    };
  }

  private lossHyper(config: TrainConfig): LossHyper {
    const distil = this.algo !== 'grpo' && this.algo !== 'opid';
    return { lambda: distil ? config.lambda : 0, beta: config.beta, clip: config.clip, klCoef: config.klCoef, gate: this.algo !== 'seed-nogate' };
  }

  private async runStage(stage: Stage, st: UpdateState): Promise<void> {
    const { config } = st;
    switch (stage) {
      case 'rollout': {
        const { scenes, tasks } = this.scenesOf(st.update, config);
        st.trajectories = await rollout(this.backend, this.tok, scenes, tasks, this.rolloutOptions(config), updateRng(this.seed, st.update, 'rollout'),
          (t) => this.callbacks.onTrajectory?.(t, st.update));
        st.played = st.trajectories.length;
        st.playedWins = st.trajectories.filter((t) => t.won).length;
        for (let round = 1; round <= config.resampleRounds; round++) {
          if (!(await this.resampleFlatGroups(st, round))) break;
        }
        st.scenes = st.trajectories.map((t) => t.scene);
        const offsets = new Int32Array(st.trajectories.length + 1);
        st.trajectories.forEach((t, i) => (offsets[i + 1] = offsets[i] + t.lOld.length));
        st.tokenOffsets = offsets;
        st.tokens = st.trajectories.reduce((n, t) => n + t.sequences.reduce((m, s) => m + s.ids.length, 0), 0);
        return;
      }
      case 'rewards': {
        const ts = st.trajectories;
        st.rewards = Float64Array.from(ts, (t) => totalReward(t, config.winReward, config.invalidPenalty));
        st.advantages = groupAdvantages(Array.from(st.rewards), ts.map((t) => t.task), ts.map((t) => t.records.length - 1), config.stepNormalised === 1);
        return;
      }
      case 'skills':
        await this.skillsStage(st);
        return;
      case 'rescore':
        await this.rescoreStage(st);
        return;
      case 'loss': {
        const batch = packBatch(st.trajectories.flatMap((t) => t.sequences), this.tok.padId);
        st.loss = await this.backend.lossBackward(batch, st.inputs!, this.lossHyper(config));
        return;
      }
      case 'optimizer': {
        const hyper = { lr: config.lr, beta1: config.beta1, beta2: config.beta2, eps: config.eps, weightDecay: config.weightDecay, gradClip: config.gradClip };
        st.step = await this.backend.optimizerStep(hyper);
        for (let e = 1; e < config.epochs; e++) {
          const batch = packBatch(st.trajectories.flatMap((t) => t.sequences), this.tok.padId);
          st.loss = await this.backend.lossBackward(batch, st.inputs!, this.lossHyper(config));
          st.step = await this.backend.optimizerStep(hyper);
        }
        return;
      }
    }
  }

  /**
   * Replaces every group whose episodes all got the same reward by a group of a fresh train task (drawn from
   * an index range no update uses); returns false when no group was flat.
   */
  private async resampleFlatGroups(st: UpdateState, round: number): Promise<boolean> {
    const { config } = st;
    const G = config.groupSize;
    const flat: number[] = [];
    for (let b = 0; b < config.tasksPerUpdate; b++) {
      const rewards = st.trajectories.slice(b * G, (b + 1) * G).map((t) => totalReward(t, config.winReward, config.invalidPenalty));
      if (rewards.every((r) => r === rewards[0])) flat.push(b);
    }
    if (flat.length === 0) return false;
    const scenes: Scene[] = [];
    const tasks: number[] = [];
    const firstIndex = RESAMPLE_INDEX_BASE + (st.update * config.resampleRounds + round - 1) * config.tasksPerUpdate;
    for (const b of flat) {
      const scene = generateScene('train', firstIndex + b, this.scale, this.seed);
      for (let g = 0; g < G; g++) {
        scenes.push(scene);
        tasks.push(b);
      }
    }
    const fresh = await rollout(this.backend, this.tok, scenes, tasks, this.rolloutOptions(config), updateRng(this.seed, st.update, `rollout/${round}`),
      (t) => this.callbacks.onTrajectory?.(t, st.update));
    st.played = (st.played ?? 0) + fresh.length;
    st.playedWins = (st.playedWins ?? 0) + fresh.filter((t) => t.won).length;
    flat.forEach((b, k) => {
      for (let g = 0; g < G; g++) st.trajectories[b * G + g] = { ...fresh[k * G + g], index: b * G + g };
    });
    return true;
  }

  private async skillsStage(st: UpdateState): Promise<void> {
    const n = st.trajectories.length;
    st.written = new Array(n).fill(null);
    st.used = new Array(n).fill(null);
    if (this.algo === 'grpo') return;
    const rng = updateRng(this.seed, st.update, 'skills');
    if (this.algo === 'seed-static') {
      const library = this.staticLibrary ?? {};
      const all = Object.values(library).flat();
      st.trajectories.forEach((t, i) => {
        const pool = library[t.scene.task.type]?.length ? library[t.scene.task.type] : all;
        st.used[i] = pool.length ? { text: rng.pick(pool), ok: true, reason: '' } : null;
      });
      return;
    }
    st.written = await this.hindsight(st.trajectories, st.config, rng.fork('analyzer'));
    if (this.algo !== 'seed-shuffled') {
      st.used = st.written.slice();
      return;
    }
    // Each trajectory gets the usable skill of another trajectory of its group (drawn at random), or none.
    const shuffle = rng.fork('shuffle');
    st.trajectories.forEach((t, i) => {
      const others = st.trajectories.filter((u, j) => j !== i && u.task === t.task && st.written[j]?.ok).map((u) => u.index);
      st.used[i] = others.length ? st.written[shuffle.pick(others)] : null;
    });
  }

  /** One skill per trajectory: written by the policy (the analyzer), or by the annotator under annotatorSkills. */
  private async hindsight(trajectories: readonly Trajectory[], config: TrainConfig, rng: Rng): Promise<WrittenSkill[]> {
    if (config.annotatorSkills === 1) {
      return trajectories.map((t) => checkSkill(referenceSkill(t.records, t.scene.task, t.won, this.tok, config.maxSkillTokens)));
    }
    return writeSkills(this.backend, this.tok, trajectories, config.maxSkillTokens, config.analyzerTemperature, rng, { grammar: config.skillGrammar === 1 });
  }

  private skillSequences(t: Trajectory, skill: string, config: TrainConfig): ScoredSequence[] {
    const maxLen = this.backend.config.contextLength;
    if (t.layout === 'episode') {
      const seq = t.sequences[0];
      return [insertBlock(seq, t.skillAt, skillTokens(this.tok, skill, maxLen - seq.ids.length))];
    }
    const text = episodeText(t);
    return t.commands.map((c, step) => {
      const before = { ...text, steps: text.steps.slice(0, step) };
      const ctx = policyContext(this.tok, before, { history: config.history, maxLen, reserve: config.maxCommandTokens + 1, skill });
      const ids = new Int32Array(ctx.length + c.ids.length);
      ids.set(ctx, 0);
      ids.set(c.ids, ctx.length);
      return { ids, positions: Int32Array.from(c.ids, (_, k) => ctx.length + k), masks: c.masks };
    });
  }

  private async rescoreStage(st: UpdateState): Promise<void> {
    const { config, trajectories: ts, tokenOffsets: off } = st;
    const nTok = off[ts.length];
    const lOld = new Float32Array(nTok);
    ts.forEach((t, i) => lOld.set(t.lOld, off[i]));
    const lSkill = lOld.slice();
    const opdMask = new Float32Array(nTok);
    const usable = ts.filter((_, i) => st.used[i]?.ok);
    if (usable.length > 0) {
      const seqs = usable.flatMap((t) => this.skillSequences(t, st.used[t.index]!.text, config));
      const scored = await this.backend.score(packBatch(seqs, this.tok.padId), 'current');
      let k = 0;
      for (const t of usable) {
        lSkill.set(scored.subarray(k, k + t.lOld.length), off[t.index]);
        opdMask.fill(1, off[t.index], off[t.index + 1]);
        k += t.lOld.length;
      }
    }
    const all = ts.flatMap((t) => t.sequences);
    const lRef = config.klCoef > 0 ? await this.backend.score(packBatch(all, this.tok.padId), 'reference') : lOld.slice();
    const advantage = new Float32Array(nTok);
    ts.forEach((_, i) => advantage.fill(st.advantages[i], off[i], off[i + 1]));
    if (this.algo === 'opid') {
      // OPID: the shift enters the advantage; before the step l_student = l_old, so Delta = l_skill - l_old.
      for (let k = 0; k < nTok; k++) if (opdMask[k]) advantage[k] += config.opidWeight * (lSkill[k] - lOld[k]);
    }
    st.inputs = { advantage, mask: new Float32Array(nTok).fill(1), opdMask, lSkill, lOld, lRef };
    if (scoredCount(all) !== nTok) throw new Error('rescore: token count mismatch (internal error)');
  }

  metrics(st: UpdateState): UpdateMetrics {
    const ts = st.trajectories;
    const loss = st.loss;
    // Delta and the gate mean something only where a skill was injected: averaged over opd_mask.
    let dSum = 0;
    let gSum = 0;
    let n = 0;
    if (loss && st.inputs) {
      for (let k = 0; k < loss.delta.length; k++) {
        if (!st.inputs.opdMask[k]) continue;
        dSum += loss.delta[k];
        gSum += loss.gate[k];
        n++;
      }
    }
    const wallMs = performance.now() - st.startedMs;
    const writes = st.algo !== 'grpo';
    const skills = st.algo === 'seed-static' ? st.used : st.written;
    const valid = skills.filter((s) => s?.ok).length;
    let fidelitySum = 0;
    let fidelityCount = 0;
    ts.forEach((t, i) => {
      const used = st.used[i];
      if (!used?.ok) return;
      fidelitySum += skillFidelity(used.text, t.records, t.scene.task, t.won, this.tok, st.config.maxSkillTokens);
      fidelityCount++;
    });
    const skipped = st.skipped;
    const played = st.played ?? ts.length;
    const wins = st.playedWins ?? ts.filter((t) => t.won).length;
    return {
      update: st.update,
      algo: st.algo,
      episodes: this.episodes,
      success: played ? wins / played : 0,
      meanReward: ts.length ? st.rewards.reduce((a, b) => a + b, 0) / ts.length : 0,
      L_GRPO: skipped ? NaN : (loss?.L_GRPO ?? 0),
      L_OPD: skipped ? NaN : (loss?.L_OPD ?? 0),
      KL: skipped ? NaN : (loss?.KL ?? 0),
      total: skipped ? NaN : (loss?.total ?? 0),
      meanDelta: n ? dSum / n : 0,
      meanGate: n ? gSum / n : 0,
      validSkillRate: writes && ts.length ? valid / ts.length : null,
      skillFidelity: fidelityCount ? fidelitySum / fidelityCount : null,
      gradNorm: st.step?.gradNorm ?? 0,
      tokens: st.tokens,
      tokensPerSecond: wallMs > 0 ? (st.tokens / wallMs) * 1000 : 0,
      wallMs,
      skipped,
    };
  }
}
