// The trainer's records turned into what the page renders (protocol.ts): plain text and per-token arrays
// sliced per trajectory. Pure functions of the trainer's state, so the numbers on screen are the numbers the
// update used.
import { lossProblemToJson, shortestFloat32, type TokenNote } from '../backend/loss_json.ts';
import type { LossHyper, LossOutput } from '../backend/backend.ts';
import { ANALYZER_OBSERVATION_TOKENS, analyzerContext, openingRoomText } from '../text/prompts.ts';
import { skillKindOf } from '../text/skill_kind.ts';
import { repeatedPhrase } from '../text/skill_repeats.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { ModelConfig } from '../model/config.ts';
import { parameterLayout } from '../model/layout.ts';
import type { WrittenSkill } from '../rl/analyzer.ts';
import type { RlWorld } from '../rl/rl_world.ts';
import { skillPartOf } from '../rl/arms.ts';
import { choiceTokens, creditDiagnostics } from '../rl/diagnostics.ts';
import type { EvalResult, EvalSplit } from '../rl/evaluate.ts';
import { episodeText, totalReward, type RewardConfig, type Trajectory } from '../rl/rollout.ts';
import type { UpdateMetrics as TrainerMetrics } from '../rl/trainer.ts';
import type { UpdateState } from '../rl/update_state.ts';
import type {
  CreditView,
  GroupView,
  ParameterChange,
  RunId,
  SkillTruth,
  SkillView,
  StepView,
  TokenScores,
  TokenTableExport,
  TrajectoryView,
  UpdateMetrics,
  UpdateTimings,
} from './protocol.ts';

/** A trajectory as the page shows it, with whatever the update has computed for it so far. */
export function trajectoryView(
  tok: Tokenizer,
  run: RunId,
  update: number,
  groupSize: number,
  t: Trajectory,
  config: RewardConfig,
  state: UpdateState | null,
  lStudent: Float32Array | null,
  contextLength: number,
  /** How much of each observation the world's analyzer reads (rl_world.ts analyzerObservationTokens). */
  observationTokens = ANALYZER_OBSERVATION_TOKENS,
  /** The world whose truth test checks the skill's claims against the game; none: the skill's truth is not shown. */
  world: Pick<RlWorld, 'truthShares'> | null = null,
): TrajectoryView {
  const steps: StepView[] = [];
  const tokens: string[] = [];
  t.commands.forEach((c, i) => {
    const record = t.records[i + 1];
    steps.push({
      command: record?.action ?? '',
      observation: record?.observation ?? '',
      valid: record?.valid ?? false,
      tokenStart: tokens.length,
      tokenCount: c.ids.length,
    });
    for (const id of c.ids) tokens.push(tok.token(id));
  });
  const i = t.index;
  const advantage = state && state.advantages.length > i ? state.advantages[i] : null;
  return {
    run,
    update,
    index: i,
    task: t.task,
    episode: i % groupSize,
    goal: t.goal,
    taskType: t.taskType,
    opening: openingRoomText(t.records[0].observation),
    steps,
    won: t.won,
    reward: totalReward(t, config),
    invalidSteps: t.invalid,
    tokens,
    choice: choiceTokens(t),
    lOld: t.lOld,
    advantage,
    skill: state ? skillView(tok, t, state, contextLength, observationTokens, world) : null,
    scores: state ? tokenScores(state, i, lStudent) : null,
  };
}

/**
 * The skill the trajectory's policy wrote, with the analyzer's context exactly as the analyzer read it
 * (rl/analyzer.ts); seed-static's library skill when the algorithm writes none; and the skill distillation
 * used instead, when that is another one (seed-sibling, seed-crossgame) or a part control's transform of this
 * one, which is shown even where it reads as the skill written.
 */
function skillView(
  tok: Tokenizer,
  t: Trajectory,
  state: UpdateState,
  contextLength: number,
  observationTokens: number,
  world: Pick<RlWorld, 'truthShares'> | null,
): SkillView | null {
  const i = t.index;
  const written: WrittenSkill | null = state.written[i] ?? null;
  const used: WrittenSkill | null = state.used[i] ?? null;
  const skill = written ?? used;
  if (!skill) return null;
  const outcome = t.won ? 'success' : 'failure';
  const reason = skill.ok ? null : skill.reason || 'unusable';
  const kind = skillKindOf(skill.text);
  const repeats = repeatedPhrase(skill.text);
  const truth = world ? skillTruth(world, skill.text, t.scene) : null;
  if (!written)
    return {
      text: skill.text,
      valid: skill.ok,
      reason,
      truth,
      repeats,
      outcome,
      kind,
      prompt: '',
      origin: 'library',
      usedInstead: null,
    };
  const prompt = tok.decode(
    analyzerContext(tok, episodeText(t), t.won, {
      maxLen: contextLength,
      reserve: state.config.maxSkillTokens + 1,
      maxObservationTokens: observationTokens,
    }),
  );
  const part = skillPartOf(state.algo);
  const usedInstead =
    used && used !== written && (part !== null || used.text !== written.text)
      ? { text: used.text, valid: used.ok, part }
      : null;
  return {
    text: skill.text,
    valid: skill.ok,
    reason,
    truth,
    repeats,
    outcome,
    kind,
    prompt,
    origin: 'written',
    usedInstead,
  };
}

/** The world's truth test on one skill of one game: its shares over a single skill are 0 or 1. */
function skillTruth(world: Pick<RlWorld, 'truthShares'>, text: string, scene: unknown): SkillTruth | null {
  const shares = world.truthShares([{ text, scene }]);
  return shares && { statesTrue: shares.placeTrue > 0, statesFalse: shares.placeFalse > 0 };
}

/** The trajectory's slice of the update's per-token arrays; null before re-scoring (stage 4). */
function tokenScores(state: UpdateState, i: number, lStudent: Float32Array | null): TokenScores | null {
  const inputs = state.inputs;
  if (!inputs || state.tokenOffsets.length <= i + 1) return null;
  const a = state.tokenOffsets[i];
  const b = state.tokenOffsets[i + 1];
  const loss: LossOutput | null = state.loss;
  const slice = (x: Float32Array | undefined) => (x ? x.slice(a, b) : new Float32Array(b - a).fill(Number.NaN));
  return {
    lStudent: loss ? loss.lStudent.slice(a, b) : slice(lStudent ?? undefined),
    lSkill: inputs.lSkill.slice(a, b),
    lRef: inputs.lRef.slice(a, b),
    delta: slice(loss?.delta),
    gate: slice(loss?.gate),
    coef: slice(loss?.coef),
    coefGrpo: slice(loss?.coefGrpo),
    coefOpd: slice(loss?.coefOpd),
    coefKl: slice(loss?.coefKl),
    divergence: slice(loss?.divergence),
    mask: inputs.mask.slice(a, b),
    opdMask: inputs.opdMask.slice(a, b),
  };
}

/** The update's credit figures over its decision tokens, once the loss ran; null before. */
export function creditView(state: UpdateState): CreditView | null {
  if (!state.loss) return null;
  const { decisionTokens, corrDeltaExpert, meanDelta, meanGate } = creditDiagnostics(state);
  return { decisionTokens, corrDeltaExpert, meanDelta, meanGate };
}

/** Each group's rewards and advantages, with the statistics the advantages were computed with (stage 2). */
export function groupViews(state: UpdateState): GroupView[] | null {
  if (state.groups.length === 0) return null;
  return state.groups.map((g) => ({
    task: g.task,
    goal: state.trajectories[g.members[0]].goal,
    rewards: g.members.map((i) => state.rewards[i]),
    mean: g.mean,
    std: g.std,
    advantages: g.members.map((i) => state.advantages[i]),
  }));
}

/**
 * The open update's per-token table, every scored token of the batch in the order the loss saw them: the
 * `seed loss --in` format (backend/loss_json.ts) with the update's hyper-parameters, each token noted with its
 * trajectory, step and text and, once the loss ran (stage 5), Delta, the gate and the coefficients; and the
 * same rows as CSV. l_student is the loss pass's, or before it the scoring pass of stage 4 when the
 * step-through ran one.
 */
export function tokenTableOf(
  tok: Tokenizer,
  run: RunId,
  state: UpdateState,
  hyper: LossHyper,
  rescored: Float32Array | null,
): TokenTableExport {
  const loss = state.loss;
  const lStudent = loss?.lStudent ?? rescored;
  if (!state.inputs || !lStudent)
    throw new Error(
      'the per-token table exists once stage 4 (re-scoring) has run in the step-through, or stage 5 (loss)',
    );
  if (!hyper.gate)
    throw new Error('the loss JSON format has the gate always on; this run (seed-nogate) cannot be exported in it');
  const inputs = state.inputs;
  const notes: TokenNote[] = [];
  for (const t of state.trajectories) {
    t.commands.forEach((c, step) => {
      for (const id of c.ids) {
        const k = notes.length;
        const note: TokenNote = { trajectory: t.index, step: step + 1, token: tok.token(id) };
        if (loss)
          Object.assign(note, {
            delta: loss.delta[k],
            gate: loss.gate[k],
            coef: loss.coef[k],
            coef_grpo: loss.coefGrpo[k],
            coef_opd: loss.coefOpd[k],
            coef_kl: loss.coefKl[k],
          });
        notes.push(note);
      }
    });
  }
  if (notes.length !== lStudent.length)
    throw new Error(`the batch has ${lStudent.length} scored tokens, its commands ${notes.length}`);
  const json = JSON.stringify(lossProblemToJson({ hyper, lStudent, inputs }, notes), null, 1);
  const columns: [string, (k: number) => number][] = [
    ['l_old', (k) => inputs.lOld[k]],
    ['l_student', (k) => lStudent[k]],
    ['l_skill', (k) => inputs.lSkill[k]],
    ['l_ref', (k) => inputs.lRef[k]],
    ['advantage', (k) => inputs.advantage[k]],
    ['mask', (k) => inputs.mask[k]],
    ['opd_mask', (k) => inputs.opdMask[k]],
  ];
  if (loss) {
    columns.push(['delta', (k) => loss.delta[k]], ['gate', (k) => loss.gate[k]], ['coef', (k) => loss.coef[k]]);
    columns.push(
      ['coef_grpo', (k) => loss.coefGrpo[k]],
      ['coef_opd', (k) => loss.coefOpd[k]],
      ['coef_kl', (k) => loss.coefKl[k]],
    );
  }
  const rows = [['trajectory', 'step', 'token', ...columns.map(([name]) => name)].join(',')];
  notes.forEach((n, k) => {
    rows.push(
      [n.trajectory, n.step, csvText(n.token ?? ''), ...columns.map(([, get]) => shortestFloat32(get(k)))].join(','),
    );
  });
  return { run, update: state.update + 1, stage: loss ? 5 : 4, json, csv: `${rows.join('\n')}\n` };
}

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
function csvText(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The trainer's metrics of an update as the page keeps them (protocol.ts UpdateMetrics), with its evaluation if it ran one. */
export function metricsView(
  m: TrainerMetrics,
  evaluation: Record<EvalSplit, EvalResult> | null,
  timings: UpdateTimings,
): UpdateMetrics {
  const { update, algo, success, score, skipped, crossgame: _sources, ...shared } = m;
  return {
    ...shared,
    ...timings,
    run: algo,
    update: update + 1,
    successTrain: success,
    evalSeen: evaluation?.seen.success ?? null,
    evalUnseen: evaluation?.unseen.success ?? null,
    scoreTrain: score ?? null,
    scoreSeen: evaluation?.seen.score ?? null,
    scoreUnseen: evaluation?.unseen.score ?? null,
    skipped: skipped ? `non-finite ${skipped.term} (${skipped.where})` : null,
  };
}

/** The timings of a point with no update behind it (update_timing.ts). */
export const UNTIMED: UpdateTimings = {
  rolloutMs: null,
  rewardsMs: null,
  skillsMs: null,
  rescoreMs: null,
  lossMs: null,
  optimizerMs: null,
  currentPassMs: null,
  referencePassMs: null,
  evalMs: null,
  updateMs: null,
};

/**
 * The curve's point at update 0: the warm start's evaluation, before any training (every training figure
 * null), with its mean scores in a world with a score.
 */
export function warmStartPoint(
  run: RunId,
  evalSeen: number,
  evalUnseen: number,
  /** The evaluation's results, whose mean scores the point keeps (a world with a score). */
  scores: Partial<Record<EvalSplit, Pick<EvalResult, 'score'>>> = {},
  /** Milliseconds the evaluation took, where it was timed. */
  evalMs: number | null = null,
): UpdateMetrics {
  return {
    ...UNTIMED,
    evalMs,
    run,
    update: 0,
    episodes: 0,
    evalSeen,
    evalUnseen,
    scoreSeen: scores.seen?.score ?? null,
    scoreUnseen: scores.unseen?.score ?? null,
    scoreTrain: null,
    successTrain: null,
    skipped: null,
    lambda: null,
    beta: null,
    meanReward: null,
    L_GRPO: null,
    L_OPD: null,
    KL: null,
    total: null,
    meanDelta: null,
    meanGate: null,
    meanAbsDelta: null,
    forcedShare: null,
    validSkillRate: null,
    degenerateSkillRate: null,
    skillFidelity: null,
    skillPlaceTrue: null,
    skillPlaceFalse: null,
    corrDeltaAdvantage: null,
    corrDeltaAdvantageWon: null,
    corrDeltaAdvantageLost: null,
    corrDeltaExpert: null,
    zeroVarianceGroups: null,
    teacherNoSkill: null,
    teacherOwnSkill: null,
    teacherOtherSkill: null,
    teacherBlankSkill: null,
    validationKl: null,
    gradNorm: null,
    gradNormGrpo: null,
    gradNormOpd: null,
    gradNormRatio: null,
    opdShare: null,
    opdDeltaShare: null,
    meanDivergence: null,
    tokens: null,
    tokensPerSecond: null,
    wallMs: null,
  };
}

/** Row-major multi-index of a flat offset within a shape. */
function unravel(offset: number, shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = offset % shape[d];
    offset = Math.floor(offset / shape[d]);
  }
  return out;
}

/**
 * The k largest |after - before| entries, named by the parameter layout; a row of the token embedding is
 * labelled with its token, a row of the position embedding with its position.
 */
export function largestChanges(
  config: ModelConfig,
  before: Float32Array,
  after: Float32Array,
  k: number,
  tokenName: (id: number) => string = String,
): { largest: ParameterChange[]; rms: number } {
  const top: { i: number; d: number }[] = [];
  let sq = 0;
  for (let i = 0; i < after.length; i++) {
    const d = Math.abs(after[i] - before[i]);
    sq += d * d;
    if (d === 0 || (top.length === k && d <= top[k - 1].d)) continue;
    top.push({ i, d });
    top.sort((x, y) => y.d - x.d);
    if (top.length > k) top.pop();
  }
  const views = parameterLayout(config).list;
  const largest = top.map(({ i }) => {
    const view = views.find((v) => i >= v.offset && i < v.offset + v.size);
    if (!view) return { name: 'padding', index: [i], row: null, before: before[i], after: after[i] };
    const index = unravel(i - view.offset, view.shape);
    const row =
      view.name === 'wte' ? `token “${tokenName(index[0])}”` : view.name === 'wpe' ? `position ${index[0]}` : null;
    return { name: view.name, index, row, before: before[i], after: after[i] };
  });
  return { largest, rms: Math.sqrt(sq / Math.max(1, after.length)) };
}
