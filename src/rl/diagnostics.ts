// What an update's numbers say about why distillation helps or not: the diagnostics of the metrics.
//
// Delta (l_skill - l_student) and the gate say something only at decision tokens: command tokens with a usable
// skill (opd_mask 1) at which the decoding mask allowed more than one token. Where the command trie allows a
// single token, that token has probability 1 with or without the skill: Delta = 0, gate 0.5 and no gradient.
// Such forced tokens are most of a constrained rollout's tokens, and they would pull every mean toward 0 and
// 0.5, so every Delta and gate figure here is over decision tokens only.
//
// - Expert tokens: a token is credited when it is on one of the expert's shortest plans from the state the
//   agent was in (the world's RlWorld.expertTokens: the household's expert_tokens.ts, the shop's next move): it agrees with such a plan's next command at its position, the sampled
//   prefix of the command agreeing too. corr(Delta, expert) tests step-level credit: whether the skill raises
//   the tokens that solve the game.
// - corr(Delta, A) is a weaker test: the group advantage is the same on every token of a trajectory, so it
//   mostly says whether won trajectories get a larger Delta. It is also reported within won and within lost
//   trajectories apart.
// - Zero-variance groups: the share of groups whose rewards are all equal, which give GRPO no signal.
import { sampleCorrelation } from 'simple-statistics';
import type { Environment, EpisodeStep } from '../env/environment.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { Trajectory } from './rollout.ts';
import type { UpdateState } from './update_state.ts';

/** Whether a token had a choice: its mask (`words` 32-bit words from `at`) allows more than one token. */
export function hadChoice(masks: Uint32Array, at: number, words: number): boolean {
  let allowed = 0;
  for (let w = at; w < at + words; w++) {
    // Clearing the lowest set bit twice tells "at least two" without a full count.
    let bits = masks[w];
    while (bits !== 0) {
      if (++allowed > 1) return true;
      bits &= bits - 1;
    }
  }
  return false;
}

/** Per scored token of a trajectory (its commands' tokens in order): 1 where the mask allowed a choice. */
export function choiceTokens(t: Pick<Trajectory, 'commands'>): Uint8Array {
  const out: number[] = [];
  for (const c of t.commands) {
    const words = c.ids.length ? c.masks.length / c.ids.length : 0;
    for (let j = 0; j < c.ids.length; j++) out.push(hadChoice(c.masks, j * words, words) ? 1 : 0);
  }
  return Uint8Array.from(out);
}

/**
 * expertTokens for a world that plans one way from each state (the shop): the episode is replayed through the
 * world's interface, and a token counts when the expert's next command from that state agrees with the sampled
 * one up to it. Worlds with several shortest plans (the household) count every one of them (its expert_tokens.ts).
 */
export function expertMoveTokens<S, R extends EpisodeStep>(
  env: Environment<S, R>,
  trajectories: readonly Trajectory<S, R>[],
  tok: Pick<Tokenizer, 'encode' | 'endId'>,
): Uint8Array {
  const out = new Uint8Array(trajectories.reduce((n, t) => n + t.commands.reduce((m, c) => m + c.ids.length, 0), 0));
  let k = 0;
  for (const t of trajectories) {
    const episode = env.episode(t.scene, t.records.length + 1);
    t.commands.forEach((c, step) => {
      const next = episode.done ? undefined : episode.expertPlan()[0];
      const expert = next === undefined ? [] : [...tok.encode(next), tok.endId];
      for (let j = 0; j < c.ids.length && j < expert.length && expert[j] === c.ids[j]; j++) out[k + j] = 1;
      k += c.ids.length;
      const record = t.records[step + 1];
      if (record && !episode.done) episode.step(record.action);
    });
  }
  return out;
}

/** Pearson correlation; null with fewer than 2 pairs or when either side is constant. */
export function correlation(xs: readonly number[], ys: readonly number[]): number | null {
  const constant = (v: readonly number[]) => v.every((x) => x === v[0]);
  if (xs.length < 2 || constant(xs) || constant(ys)) return null;
  return sampleCorrelation(xs as number[], ys as number[]);
}

/** What the loss's Delta and gate say, over the decision tokens of an update (null where not defined). */
export interface CreditDiagnostics {
  /** Decision tokens: opd_mask 1 and a choice. */
  decisionTokens: number;
  /** Share of the OPD-masked tokens that the decoding mask forced (one allowed token). */
  forcedShare: number | null;
  meanDelta: number | null;
  meanAbsDelta: number | null;
  meanGate: number | null;
  /** corr(Delta, token on the expert's plan); null without the update's expert tokens. */
  corrDeltaExpert: number | null;
  corrDeltaAdvantage: number | null;
  corrDeltaAdvantageWon: number | null;
  corrDeltaAdvantageLost: number | null;
}

/** Per scored token of the update: 1 at a decision token (opd_mask 1 and a choice); null before the loss. */
export function decisionMask(st: Pick<UpdateState, 'trajectories' | 'tokenOffsets' | 'inputs'>): Uint8Array | null {
  const { inputs } = st;
  if (!inputs) return null;
  const out = new Uint8Array(inputs.opdMask.length);
  st.trajectories.forEach((t, i) => {
    const choice = choiceTokens(t);
    const at = st.tokenOffsets[i];
    for (let j = 0; j < choice.length; j++) out[at + j] = inputs.opdMask[at + j] && choice[j] ? 1 : 0;
  });
  return out;
}

/** The credit diagnostics of an update whose loss ran; every figure null (and no decision token) before. */
export function creditDiagnostics(
  st: Pick<UpdateState, 'trajectories' | 'tokenOffsets' | 'inputs' | 'loss' | 'advantages' | 'expertTokens'>,
): CreditDiagnostics {
  const decision = decisionMask(st);
  const { loss, inputs } = st;
  const none: CreditDiagnostics = {
    decisionTokens: 0,
    forcedShare: null,
    meanDelta: null,
    meanAbsDelta: null,
    meanGate: null,
    corrDeltaExpert: null,
    corrDeltaAdvantage: null,
    corrDeltaAdvantageWon: null,
    corrDeltaAdvantageLost: null,
  };
  if (!decision || !loss || !inputs) return none;
  const delta: number[] = [];
  const gate: number[] = [];
  const expert: number[] = [];
  const advantage: number[] = [];
  const won = { delta: [] as number[], advantage: [] as number[] };
  const lost = { delta: [] as number[], advantage: [] as number[] };
  let opd = 0;
  st.trajectories.forEach((t, i) => {
    for (let k = st.tokenOffsets[i]; k < st.tokenOffsets[i + 1]; k++) {
      if (inputs.opdMask[k]) opd++;
      if (!decision[k]) continue;
      delta.push(loss.delta[k]);
      gate.push(loss.gate[k]);
      advantage.push(st.advantages[i]);
      if (st.expertTokens) expert.push(st.expertTokens[k]);
      const side = t.won ? won : lost;
      side.delta.push(loss.delta[k]);
      side.advantage.push(st.advantages[i]);
    }
  });
  const n = delta.length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return {
    decisionTokens: n,
    forcedShare: opd ? (opd - n) / opd : null,
    meanDelta: mean(delta),
    meanAbsDelta: mean(delta.map(Math.abs)),
    meanGate: mean(gate),
    corrDeltaExpert: st.expertTokens ? correlation(delta, expert) : null,
    corrDeltaAdvantage: correlation(delta, advantage),
    corrDeltaAdvantageWon: correlation(won.delta, won.advantage),
    corrDeltaAdvantageLost: correlation(lost.delta, lost.advantage),
  };
}

/** Share of the update's groups whose rewards are all equal (no GRPO signal); null before the rewards stage. */
export function zeroVarianceGroups(st: Pick<UpdateState, 'groups' | 'rewards'>): number | null {
  if (st.groups.length === 0) return null;
  const flat = st.groups.filter((g) => g.members.every((i) => st.rewards[i] === st.rewards[g.members[0]]));
  return flat.length / st.groups.length;
}
