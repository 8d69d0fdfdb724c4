// Stage 4 of an update: the inputs of the loss, per scored token (docs/seed-loss.md).
// - l_skill: each command token scored again by the pre-update weights with the trajectory's skill in context
//   (the skill block inserted after the task line, or in every windowed step's context where the run places it,
//   skillAfterPage, or written into the context's skill slot); l_old where the trajectory has no usable skill, and there opd_mask = 0.
// - l_ref: the same tokens scored by the frozen reference weights in the plain context (skipped, l_old, when
//   klCoef is 0); a windowed step whose sequence opens the next step's is scored inside it (batch.ts
//   joinPrefixes: the same bits).
// - advantage: the trajectory's group advantage on each of its tokens; OPID adds opidWeight * Delta to it.
// - seed-exact*: the teacher's whole rows (the skill-conditioned pre-update weights' masked log-probs over the
//   vocabulary), and with advisorAlpha > 0 a weight per token from how far the own-skill teacher is from the
//   other-game-skill teacher; rewardDirected = 1 drops from the OPD mask the tokens whose shift disagrees in
//   sign with the advantage (only under the exact arms: a run of `--set rewardDirected=1` keeps the paper's
//   seed and seed-crossgame as the paper has them, so they stay its controls).
import { maskWords } from '../backend/backend.ts';
import { distilDivergence } from '../backend/cpu/distil.ts';
import { skillTokens, policyContext, skillSlotLength, slotTokens } from '../text/prompts.ts';
import { fillBlock, insertBlock, joinPrefixes, packBatch, scoredCount, type ScoredSequence } from './batch.ts';
import type { TrainConfig } from './config.ts';
import { ARMS } from './arms.ts';
import { episodeText, type Trajectory } from './rollout.ts';
import { withTeacher } from './teacher_weights.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

/** The trajectory's scored sequences with `skill` in the context, scoring the same command tokens. */
export function skillSequences(
  run: UpdateContext,
  t: Trajectory,
  skill: string,
  config: TrainConfig,
): ScoredSequence[] {
  const { tok } = run;
  const maxLen = run.backend.config.contextLength;
  const slot = skillSlotLength(config);
  if (t.layout === 'episode') {
    const seq = t.sequences[0];
    if (slot > 0) return [fillBlock(seq, t.skillAt, slotTokens(tok, skill, slot))];
    return [insertBlock(seq, t.skillAt, skillTokens(tok, skill, maxLen - seq.ids.length))];
  }
  const text = episodeText(t);
  return t.commands.map((c, step) => {
    const before = { ...text, steps: text.steps.slice(0, step) };
    const ctx = policyContext(tok, before, {
      history: config.history,
      maxLen,
      reserve: config.maxCommandTokens + 1,
      skill,
      skillAfterPage: config.skillAfterPage === 1,
      skillSlot: slot,
    });
    const ids = new Int32Array(ctx.length + c.ids.length);
    ids.set(ctx, 0);
    ids.set(c.ids, ctx.length);
    return { ids, positions: Int32Array.from(c.ids, (_, k) => ctx.length + k), masks: c.masks };
  });
}

/** The sampled token at each scored position of a trajectory, in scored order. */
function sampledTokens(t: Trajectory): Int32Array {
  return Int32Array.from(t.sequences.flatMap((seq) => Array.from(seq.positions, (p) => seq.ids[p])));
}

/** The trajectories' skill-conditioned batch scored by the teacher's weights (teacher_weights.ts): per token l_skill, and the whole rows when `rows`. */
async function scoreWithSkills(
  run: UpdateContext,
  ts: readonly Trajectory[],
  skills: readonly string[],
  config: TrainConfig,
  rows: boolean,
): Promise<{ lSkill: Float32Array; rows: Float32Array | null; masks: Uint32Array }> {
  const V = run.backend.config.vocabSize;
  const batch = packBatch(
    ts.flatMap((t, i) => skillSequences(run, t, skills[i], config)),
    run.tok.padId,
  );
  if (!rows)
    return {
      lSkill: await withTeacher(run, config, (set) => run.backend.score(batch, set)),
      rows: null,
      masks: batch.masks,
    };
  const all = await withTeacher(run, config, (set) => run.backend.scoreRows(batch, set));
  const targets = Int32Array.from(ts.flatMap((t) => Array.from(sampledTokens(t))));
  return { lSkill: Float32Array.from(targets, (target, k) => all[k * V + target]), rows: all, masks: batch.masks };
}

/**
 * advisorAlpha: per token, exp(-alpha KL(q_own || q_other)) of the two teachers' rows (own skill, another game's
 * skill of the same type), so that positions only this game's facts explain weigh less; 1 where a
 * trajectory has no second teacher.
 */
async function advisorWeights(
  run: UpdateContext,
  st: UpdateState,
  usable: readonly Trajectory[],
  own: Float32Array,
  masks: Uint32Array,
): Promise<Float32Array> {
  const V = run.backend.config.vocabSize;
  const words = maskWords(V);
  const off = st.tokenOffsets;
  const weight = new Float32Array(off[st.trajectories.length]).fill(1);
  const pairs = usable.map((t, u) => ({ t, u })).filter(({ t }) => st.advisor?.[t.index]?.ok);
  if (pairs.length === 0) return weight;
  const other = await scoreWithSkills(
    run,
    pairs.map((p) => p.t),
    pairs.map((p) => st.advisor![p.t.index]!.text),
    st.config,
    true,
  );
  const ownStart: number[] = [];
  let start = 0;
  for (const t of usable) {
    ownStart.push(start);
    start += t.lOld.length;
  }
  const kl = new Float32Array(1);
  let j = 0;
  for (const { t, u } of pairs) {
    for (let i = 0; i < t.lOld.length; i++, j++) {
      const k = ownStart[u] + i;
      distilDivergence(
        kl,
        own.subarray(k * V, (k + 1) * V),
        other.rows!.subarray(j * V, (j + 1) * V),
        masks.subarray(k * words, (k + 1) * words),
        1,
        V,
        0,
      );
      weight[off[t.index] + i] = Math.exp(-st.config.advisorAlpha * Math.max(0, kl[0]));
    }
  }
  return weight;
}

/** Stage 4: fills st.inputs (advantage, masks, l_skill, l_old, l_ref, and the teacher's rows under exact distillation) for the loss. */
export async function rescoreStage(run: UpdateContext, st: UpdateState): Promise<void> {
  const { backend, tok } = run;
  const { config, trajectories: ts, tokenOffsets: off } = st;
  const V = backend.config.vocabSize;
  const exact = st.lossHyper.distil !== undefined;
  const nTok = off[ts.length];
  const lOld = new Float32Array(nTok);
  ts.forEach((t, i) => {
    lOld.set(t.lOld, off[i]);
  });
  const lSkill = lOld.slice();
  const opdMask = new Float32Array(nTok);
  const teacher = exact ? new Float32Array(nTok * V) : undefined;
  let distilWeight: Float32Array | undefined;
  const usable = ts.filter((_, i) => st.used[i]?.ok);
  if (usable.length > 0) {
    const scored = await scoreWithSkills(
      run,
      usable,
      usable.map((t) => st.used[t.index]!.text),
      config,
      exact,
    );
    let k = 0;
    for (const t of usable) {
      const n = t.lOld.length;
      lSkill.set(scored.lSkill.subarray(k, k + n), off[t.index]);
      teacher?.set(scored.rows!.subarray(k * V, (k + n) * V), off[t.index] * V);
      opdMask.fill(1, off[t.index], off[t.index + 1]);
      k += n;
    }
    if (exact && config.advisorAlpha > 0 && st.advisor)
      distilWeight = await advisorWeights(run, st, usable, scored.rows!, scored.masks);
  }
  const all = ts.flatMap((t) => t.sequences);
  const lRef =
    config.klCoef > 0 ? await backend.score(packBatch(joinPrefixes(all), tok.padId), 'reference') : lOld.slice();
  const advantage = new Float32Array(nTok);
  ts.forEach((_, i) => {
    advantage.fill(st.advantages[i], off[i], off[i + 1]);
  });
  if (exact && config.rewardDirected === 1) {
    // Distil only where the skill moves the sampled token the way the reward does.
    for (let k = 0; k < nTok; k++)
      if (opdMask[k] && Math.sign(lSkill[k] - lOld[k]) !== Math.sign(advantage[k])) opdMask[k] = 0;
  }
  if (ARMS[run.algo].signal === 'advantage') {
    // OPID: the shift enters the advantage; before the step l_student = l_old, so Delta = l_skill - l_old.
    for (let k = 0; k < nTok; k++) if (opdMask[k]) advantage[k] += config.opidWeight * (lSkill[k] - lOld[k]);
  }
  st.inputs = { advantage, mask: new Float32Array(nTok).fill(1), opdMask, lSkill, lOld, lRef };
  if (teacher) st.inputs.teacher = teacher;
  if (distilWeight) st.inputs.distilWeight = distilWeight;
  if (scoredCount(all) !== nTok) throw new Error('rescore: token count mismatch (internal error)');
}
