// Stage 4 of an update: the inputs of the loss, per scored token (docs/seed-loss.md).
// - l_skill: each command token scored again by the pre-update weights with the trajectory's skill in context
//   (the skill block inserted after the task line, or in every windowed step's context); l_old where the
//   trajectory has no usable skill, and there opd_mask = 0.
// - l_ref: the same tokens scored by the frozen reference weights in the plain context (skipped, l_old, when
//   klCoef is 0).
// - advantage: the trajectory's group advantage on each of its tokens; OPID adds opidWeight * Delta to it.
import { skillTokens, policyContext } from '../text/prompts.ts';
import { insertBlock, packBatch, scoredCount, type ScoredSequence } from './batch.ts';
import type { TrainConfig } from './config.ts';
import { episodeText, type Trajectory } from './rollout.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

/** The trajectory's scored sequences with `skill` in the context, scoring the same command tokens. */
export function skillSequences(run: UpdateContext, t: Trajectory, skill: string, config: TrainConfig): ScoredSequence[] {
  const { tok } = run;
  const maxLen = run.backend.config.contextLength;
  if (t.layout === 'episode') {
    const seq = t.sequences[0];
    return [insertBlock(seq, t.skillAt, skillTokens(tok, skill, maxLen - seq.ids.length))];
  }
  const text = episodeText(t);
  return t.commands.map((c, step) => {
    const before = { ...text, steps: text.steps.slice(0, step) };
    const ctx = policyContext(tok, before, { history: config.history, maxLen, reserve: config.maxCommandTokens + 1, skill });
    const ids = new Int32Array(ctx.length + c.ids.length);
    ids.set(ctx, 0);
    ids.set(c.ids, ctx.length);
    return { ids, positions: Int32Array.from(c.ids, (_, k) => ctx.length + k), masks: c.masks };
  });
}

/** Stage 4: fills st.inputs (advantage, masks, l_skill, l_old, l_ref) for the loss. */
export async function rescoreStage(run: UpdateContext, st: UpdateState): Promise<void> {
  const { backend, tok } = run;
  const { config, trajectories: ts, tokenOffsets: off } = st;
  const nTok = off[ts.length];
  const lOld = new Float32Array(nTok);
  ts.forEach((t, i) => lOld.set(t.lOld, off[i]));
  const lSkill = lOld.slice();
  const opdMask = new Float32Array(nTok);
  const usable = ts.filter((_, i) => st.used[i]?.ok);
  if (usable.length > 0) {
    const seqs = usable.flatMap((t) => skillSequences(run, t, st.used[t.index]!.text, config));
    const scored = await backend.score(packBatch(seqs, tok.padId), 'current');
    let k = 0;
    for (const t of usable) {
      lSkill.set(scored.subarray(k, k + t.lOld.length), off[t.index]);
      opdMask.fill(1, off[t.index], off[t.index + 1]);
      k += t.lOld.length;
    }
  }
  const all = ts.flatMap((t) => t.sequences);
  const lRef = config.klCoef > 0 ? await backend.score(packBatch(all, tok.padId), 'reference') : lOld.slice();
  const advantage = new Float32Array(nTok);
  ts.forEach((_, i) => advantage.fill(st.advantages[i], off[i], off[i + 1]));
  if (run.algo === 'opid') {
    // OPID: the shift enters the advantage; before the step l_student = l_old, so Delta = l_skill - l_old.
    for (let k = 0; k < nTok; k++) if (opdMask[k]) advantage[k] += config.opidWeight * (lSkill[k] - lOld[k]);
  }
  st.inputs = { advantage, mask: new Float32Array(nTok).fill(1), opdMask, lSkill, lOld, lRef };
  if (scoredCount(all) !== nTok) throw new Error('rescore: token count mismatch (internal error)');
}
