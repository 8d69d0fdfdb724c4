// The SEED trainer: runs one update as six inspectable stages (the page's "Step one update" walks them), each
// in a file of its own (src/rl/README.md maps them to their kernels and tests):
//   1 rollout            B tasks x G episodes in lockstep, l_old per token            rollout.ts
//   2 rewards            R_i, group advantages A_i and the group statistics           advantages.ts
//   3 hindsight skills   one skill per trajectory, as the algorithm has it            hindsight.ts
//   4 re-scoring         l_skill (skill in context), l_ref (reference weights)        rescore.ts
//   5 loss               Delta, gate, per-token coefficients and the gradient         loss.ts
//   6 optimizer          one AdamW step (or `epochs` of them)                         optimizer_step.ts
// The config is read when an update begins, so a change of lambda or beta takes effect at the next one.
// The metrics carry the diagnostics of diagnostics.ts and, every teacherEvery updates, the teacher check on
// validation games with the weights the update left (teacher_check.ts).
// A NaN or Inf in a loss term or gradient (NonFiniteError) ends the update before the weights change; it is
// reported in the metrics and the next update starts from the last good state.
//
// Randomness: update u draws from Rng(hash("update/u", seed)), so a run resumed from the checkpoint after
// update u continues exactly as if it had never stopped; the update counter is the whole Rng state. The
// skills a run keeps between updates (seed-static's library, seed-crossgame's pool) are saved with it.
import { NonFiniteError, type Backend } from '../backend/backend.ts';
import type { EpisodeStep } from '../env/environment.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { isDegenerateSkill } from '../text/skill_repeats.ts';
import { rewardProblem, rewardsStage } from './advantages.ts';
import { checkConfig, type TrainConfig } from './config.ts';
import { annotatorWrites, ARMS, readsSkills, type Algo } from './arms.ts';
import {
  buildStaticLibrary,
  hindsightStage,
  type CrossgamePool,
  type RunSkills,
  type SkillLibrary,
} from './hindsight.ts';
import { creditDiagnostics, zeroVarianceGroups } from './diagnostics.ts';
import { lossHyper, lossStage, meanDivergence } from './loss.ts';
import { opdDeltaShare, opdShareOfNorms } from './opd_share.ts';
import { optimizerStage } from './optimizer_step.ts';
import { rehearsalCorpus } from './rehearsal.ts';
import type { Corpus } from './warmstart.ts';
import { rescoreStage } from './rescore.ts';
import type { Trajectory } from './rollout.ts';
import { rolloutStage, updateScenes } from './rollout_stage.ts';
import { teacherCheck } from './teacher_check.ts';
import { refreshTeacher } from './teacher_weights.ts';
import { validationDivergence } from './validation_kl.ts';
import type { RlWorld } from './rl_world.ts';
import { STAGES, type CrossgameSources, type Stage, type UpdateContext, type UpdateState } from './update_state.ts';

export interface TrainerCallbacks<S = unknown, R extends EpisodeStep = EpisodeStep> {
  onTrajectory?(t: Trajectory<S, R>, update: number): void;
  onStage?(stage: Stage, state: UpdateState<S, R>): void;
}

export interface UpdateMetrics {
  update: number;
  algo: Algo;
  /** Episodes played by the run after this update. */
  episodes: number;
  /** Over every episode played, those of resampled groups included. */
  success: number;
  /** The mean score of the same episodes (Environment.score: the shop's WebShop score); absent where the world has none. */
  score?: number;
  /** Over the trajectories trained on. */
  meanReward: number;
  L_GRPO: number;
  L_OPD: number;
  KL: number;
  total: number;
  /**
   * The OPD weight and the gate's sharpness the update's loss ran with (UpdateState.lossHyper: lambda is 0
   * under grpo and opid); both can change between updates.
   */
  lambda: number;
  beta: number;
  /**
   * Means over the decision tokens (diagnostics.ts: opd_mask 1 and more than one allowed token; the tokens the
   * command trie forces have Delta 0 and gate 0.5 whatever the skill); 0 when none.
   */
  meanDelta: number;
  meanGate: number;
  /** Mean |Delta| over the decision tokens; null when none. */
  meanAbsDelta: number | null;
  /** Share of the OPD-masked tokens that the decoding mask forced (no decision); null when none is masked. */
  forcedShare: number | null;
  /** Fraction of trajectories whose skill was usable; null when the algorithm writes none. */
  validSkillRate: number | null;
  /**
   * Fraction of trajectories whose skill repeats a phrase right after itself (text/skill_repeats.ts), usable
   * or not: counted apart, since such a skill can parse and so count as valid; null when none is written.
   */
  degenerateSkillRate: number | null;
  /**
   * Mean fidelity of the skill used for OPD to its trajectory (skill_fidelity.ts: mention F1 against the
   * rule-based annotator's skill of that trajectory), over trajectories with a usable skill; null when none.
   */
  skillFidelity: number | null;
  /**
   * Over the skills the update wrote, each about its own trajectory (skill_truth.ts): the share that states a
   * receptacle where an object of the task's type started, as where it was, and the share that states one where
   * none started (the goal receptacle among them); null when the update wrote none.
   */
  skillPlaceTrue: number | null;
  skillPlaceFalse: number | null;
  /**
   * Pearson correlation of Delta with the group advantage over the decision tokens (diagnostics.ts): whether
   * the skill raises the tokens of the trajectories that the reward credits; null when not defined (no skills,
   * fewer than 2 decision tokens, no variance, a refused update). The same within won and within lost
   * trajectories apart.
   */
  corrDeltaAdvantage: number | null;
  corrDeltaAdvantageWon: number | null;
  corrDeltaAdvantageLost: number | null;
  /**
   * Pearson correlation of Delta with "the token is on the expert's shortest plan" over the decision tokens:
   * whether the skill raises the steps that solve the game; null when not defined, as above.
   */
  corrDeltaExpert: number | null;
  /** Share of the update's groups whose rewards are all equal (no GRPO signal). */
  zeroVarianceGroups: number | null;
  /**
   * The teacher check after this update (config teacherEvery), on teacherGames validation games with skills
   * written as the run writes them: success with no skill, the game's own skill, another game's, the blank block;
   * null when none ran.
   */
  teacherNoSkill: number | null;
  teacherOwnSkill: number | null;
  teacherOtherSkill: number | null;
  teacherBlankSkill: number | null;
  /**
   * With the teacher check: KL(student || own-skill teacher) on the validation games' states, mean over the
   * decision tokens of the student's own play (validation_kl.ts); null without a check.
   */
  validationKl: number | null;
  /** seed-crossgame: where the update's skills came from (another group, the pool, none); null otherwise. */
  crossgame: CrossgameSources | null;
  gradNorm: number;
  /**
   * Norms of the GRPO part (with its KL term) and the OPD part of the update's gradient, before clipping, and
   * opd / grpo: how much of the step the distillation term drives. Without an OPD term the GRPO part is the
   * whole gradient and the OPD part 0; null when refused, or on an update that does not measure them
   * (config.gradShareEvery).
   */
  gradNormGrpo: number | null;
  gradNormOpd: number | null;
  gradNormRatio: number | null;
  /**
   * The OPD share of the gradient, gradNormOpd / (gradNormGrpo + gradNormOpd) (opd_share.ts): 0 without an OPD
   * term; null where the norms are. A run's figure is the ratio of the mean norms, not the mean of this.
   */
  opdShare: number | null;
  /**
   * The share of the squared sampled-token OPD coefficient, over the decision tokens, that depends on the skill's
   * shift Delta rather than being there at Delta = 0 (self-imitation; opd_share.ts); null without that term.
   */
  opdDeltaShare: number | null;
  /** Exact distillation: mean D(student || teacher) over the decision tokens under the OPD mask; null otherwise. */
  meanDivergence: number | null;
  tokens: number;
  tokensPerSecond: number;
  wallMs: number;
  /** Set when the update was refused for a non-finite value: the weights did not change. */
  skipped: { term: string; where: string } | null;
}

export interface TrainerOptions<S = unknown, R extends EpisodeStep = EpisodeStep> {
  backend: Backend;
  tokenizer: Tokenizer;
  algo: Algo;
  config: TrainConfig;
  seed: number;
  /** The world the run plays, with its skills (each world's rl/adapter.ts). */
  world: RlWorld<S, R>;
  callbacks?: TrainerCallbacks<S, R>;
}

/**
 * A frozen copy of the config once it passed the settings table's check (which throws a RangeError naming the
 * setting) and the world's (a reward from a score it has not).
 */
function checkedCopy(config: TrainConfig, env: RlWorld['env']): Readonly<TrainConfig> {
  const checked = checkConfig({ ...config });
  const problem = rewardProblem(env, checked);
  if (problem) throw new RangeError(problem);
  return Object.freeze(checked);
}

export class Trainer<S = unknown, R extends EpisodeStep = EpisodeStep> implements UpdateContext<S, R>, RunSkills {
  readonly backend: Backend;
  readonly tok: Tokenizer;
  readonly algo: Algo;
  readonly seed: number;
  readonly world: RlWorld<S, R>;
  callbacks: TrainerCallbacks<S, R>;
  /** Updates completed (or refused): the index of the next update. */
  updates = 0;
  episodes = 0;
  /** seed-static: skills of the warm-start policy, by task type. */
  staticLibrary: SkillLibrary | null = null;
  /** seed-crossgame: the newest usable skills of earlier updates, by task type. */
  crossgamePool: CrossgamePool = {};
  /** The teacher's weights while the config holds a copy (teacherRefresh > 1: teacher_weights.ts). */
  teacherParams: Float32Array | null = null;
  /** The run's rehearsal examples (rehearsal.ts), built when a step first rehearses. */
  private rehearsalExamples: Corpus | null = null;
  private state: UpdateState<S, R> | null = null;
  private checked: Readonly<TrainConfig>;

  constructor(options: TrainerOptions<S, R>) {
    this.backend = options.backend;
    this.tok = options.tokenizer;
    this.algo = options.algo;
    this.checked = checkedCopy(options.config, options.world.env);
    this.seed = options.seed;
    this.world = options.world;
    this.callbacks = options.callbacks ?? {};
  }

  /**
   * Read at the start of every update. A config is checked against the settings table when it is set, and
   * kept frozen: a value out of range is refused where it is set, not at the next update.
   */
  get config(): Readonly<TrainConfig> {
    return this.checked;
  }

  set config(next: TrainConfig) {
    this.checked = checkedCopy(next, this.world.env);
  }

  get current(): UpdateState<S, R> | null {
    return this.state;
  }

  /** Runs the next stage of the current update (starting a new update when none is open); returns its state. */
  async nextStage(): Promise<UpdateState<S, R>> {
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
      if (st.config.teacherEvery > 0 && this.updates % st.config.teacherEvery === 0) {
        const started = performance.now();
        st.teacher = await this.teacherCheck(st);
        st.teacherMs = performance.now() - started;
      }
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
    // seed-static: the warm-start policy (the current weights, before any update) writes the library once.
    if (ARMS[this.algo].teacherSkill === 'library' && !this.staticLibrary)
      this.staticLibrary = await buildStaticLibrary(this, this.config);
    const config = { ...this.config };
    await refreshTeacher(this, config, this.updates, this);
    this.state = {
      update: this.updates,
      config,
      algo: this.algo,
      lossHyper: lossHyper(this.algo, config),
      stage: 0,
      scenes: updateScenes(this, this.updates, config).scenes,
      trajectories: [],
      rewards: new Float64Array(0),
      advantages: new Float64Array(0),
      groups: [],
      written: [],
      used: [],
      tokenOffsets: new Int32Array(0),
      inputs: null,
      loss: null,
      step: null,
      gradParts: null,
      skipped: null,
      startedMs: performance.now(),
      tokens: 0,
      played: 0,
      playedWins: 0,
    };
  }

  private async runStage(stage: Stage, st: UpdateState<S, R>): Promise<void> {
    switch (stage) {
      case 'rollout':
        await rolloutStage(this, st, (t) => this.callbacks.onTrajectory?.(t, st.update));
        st.expertTokens = this.world.expertTokens(st.trajectories, this.tok);
        return;
      case 'rewards':
        return rewardsStage(st);
      case 'skills':
        return hindsightStage(this, st, this);
      case 'rescore':
        return rescoreStage(this, st);
      case 'loss':
        return lossStage(this, st);
      case 'optimizer':
        return optimizerStage(this, st, () => (this.rehearsalExamples ??= rehearsalCorpus(this, st.config)));
    }
  }

  /** The teacher check after an update (teacherEvery). */
  private async teacherCheck(st: UpdateState<S, R>): Promise<UpdateState['teacher']> {
    return this.checkTeacher(st.config);
  }

  /**
   * The teacher check of the current weights on `config.teacherGames` validation games (the same games and
   * sampling stream at every call), skills written as this run writes them, with the KL from the student to
   * the teacher the run distils on those games' states. Leaves the run as it was: a caller may check at any
   * point between updates, before the first among them.
   */
  async checkTeacher(config: TrainConfig = this.config): Promise<NonNullable<UpdateState['teacher']>> {
    const writer = annotatorWrites(this.algo, config) ? 'annotator' : 'own';
    // Before the first update a held teacher has not been taken yet: it is the current weights, as the update
    // about to begin takes them.
    await refreshTeacher(this, config, this.updates, this);
    let kl: number | null = null;
    const check = await teacherCheck(
      this.world,
      this.backend,
      this.tok,
      this.world.env.validationScenes(config.teacherGames),
      config,
      undefined,
      writer,
      async (first, skills) => {
        kl = await validationDivergence(this, first, skills, config);
      },
    );
    return {
      games: check.games,
      no_skill: check.no_skill,
      own_skill: check.own_skill,
      other_skill: check.other_skill,
      blank_skill: check.blank_skill,
      kl,
    };
  }

  metrics(st: UpdateState<S, R>): UpdateMetrics {
    const ts = st.trajectories;
    const loss = st.loss;
    const credit = creditDiagnostics(st);
    const wallMs = performance.now() - st.startedMs - (st.teacherMs ?? 0);
    const writes = readsSkills(st.algo);
    const skills = ARMS[st.algo].teacherSkill === 'library' ? st.used : st.written;
    const valid = skills.filter((s) => s?.ok).length;
    const degenerate = skills.filter((s) => s && isDegenerateSkill(s.text)).length;
    let fidelitySum = 0;
    let fidelityCount = 0;
    ts.forEach((t, i) => {
      const used = st.used[i];
      if (!used?.ok) return;
      fidelitySum += this.world.skillFidelity(used.text, t, this.tok, st.config.maxSkillTokens);
      fidelityCount++;
    });
    const truth = this.world.truthShares(
      ts.flatMap((t, i) => (st.written[i] ? [{ text: st.written[i]!.text, scene: t.scene }] : [])),
    );
    const skipped = st.skipped;
    const played = st.played ?? ts.length;
    const wins = st.playedWins ?? ts.filter((t) => t.won).length;
    return {
      update: st.update,
      algo: st.algo,
      episodes: this.episodes,
      success: played ? wins / played : 0,
      ...(st.playedScore === undefined ? {} : { score: played ? st.playedScore / played : 0 }),
      meanReward: ts.length ? st.rewards.reduce((a, b) => a + b, 0) / ts.length : 0,
      L_GRPO: skipped ? NaN : (loss?.L_GRPO ?? 0),
      L_OPD: skipped ? NaN : (loss?.L_OPD ?? 0),
      KL: skipped ? NaN : (loss?.KL ?? 0),
      total: skipped ? NaN : (loss?.total ?? 0),
      meanDelta: credit.meanDelta ?? 0,
      meanGate: credit.meanGate ?? 0,
      meanAbsDelta: credit.meanAbsDelta,
      forcedShare: credit.forcedShare,
      lambda: st.lossHyper.lambda,
      beta: st.lossHyper.beta,
      validSkillRate: writes && ts.length ? valid / ts.length : null,
      degenerateSkillRate: writes && ts.length ? degenerate / ts.length : null,
      skillFidelity: fidelityCount ? fidelitySum / fidelityCount : null,
      skillPlaceTrue: truth?.placeTrue ?? null,
      skillPlaceFalse: truth?.placeFalse ?? null,
      corrDeltaAdvantage: skipped ? null : credit.corrDeltaAdvantage,
      corrDeltaAdvantageWon: skipped ? null : credit.corrDeltaAdvantageWon,
      corrDeltaAdvantageLost: skipped ? null : credit.corrDeltaAdvantageLost,
      corrDeltaExpert: skipped ? null : credit.corrDeltaExpert,
      zeroVarianceGroups: zeroVarianceGroups(st),
      teacherNoSkill: st.teacher?.no_skill ?? null,
      teacherOwnSkill: st.teacher?.own_skill ?? null,
      teacherOtherSkill: st.teacher?.other_skill ?? null,
      teacherBlankSkill: st.teacher?.blank_skill ?? null,
      validationKl: st.teacher?.kl ?? null,
      crossgame: st.crossgame ?? null,
      gradNorm: st.step?.gradNorm ?? 0,
      ...gradientParts(st),
      opdDeltaShare: skipped ? null : opdDeltaShare(st),
      meanDivergence: skipped ? null : meanDivergence(st),
      tokens: st.tokens,
      tokensPerSecond: wallMs > 0 ? (st.tokens / wallMs) * 1000 : 0,
      wallMs,
      skipped,
    };
  }
}

/** The gradient-norm figures of an update's metrics (see UpdateMetrics.gradNormGrpo). */
function gradientParts(
  st: UpdateState,
): Pick<UpdateMetrics, 'gradNormGrpo' | 'gradNormOpd' | 'gradNormRatio' | 'opdShare'> {
  if (st.skipped || !st.step || st.gradPartsUnmeasured)
    return { gradNormGrpo: null, gradNormOpd: null, gradNormRatio: null, opdShare: null };
  const parts = st.gradParts ?? { grpo: st.step.gradNorm, opd: 0 };
  return {
    gradNormGrpo: parts.grpo,
    gradNormOpd: parts.opd,
    gradNormRatio: parts.grpo > 0 ? parts.opd / parts.grpo : null,
    opdShare: opdShareOfNorms(parts.grpo, parts.opd),
  };
}
