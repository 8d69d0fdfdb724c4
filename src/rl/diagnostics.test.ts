import { describe, expect, it } from 'vitest';
import { Game } from '../worlds/household/env/game.ts';
import { generateScene } from '../worlds/household/env/splits.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { choiceTokens, correlation, creditDiagnostics, hadChoice, zeroVarianceGroups } from './diagnostics.ts';
import { expertTokens } from '../worlds/household/rl/expert_tokens.ts';
import { meanDivergence } from './loss.ts';
import type { UpdateState } from './update_state.ts';

// Masks of two 32-bit words per token: a choice between two tokens that lie in different words, and a
// single allowed token.
const CHOICE = [1 << 3, 1 << 7];
const FORCED = [0, 1 << 7];

function command(masks: number[][]) {
  return { ids: new Int32Array(masks.length), masks: Uint32Array.from(masks.flat()) };
}

/**
 * Trajectory 0 (advantage 1, won) has two steps, the second forced; trajectory 1 (advantage -1, lost) one
 * step of three tokens.
 */
function state(
  delta: number[],
  opdMask: number[],
  advantages = [1, -1],
  expert: number[] | null = null,
  gate: number[] = delta.map(() => 0.5),
): UpdateState {
  return {
    trajectories: [
      { won: true, commands: [command([CHOICE, CHOICE]), command([FORCED])] },
      { won: false, commands: [command([CHOICE, CHOICE, CHOICE])] },
    ],
    tokenOffsets: Int32Array.from([0, 3, 6]),
    advantages: Float64Array.from(advantages),
    inputs: { opdMask: Float32Array.from(opdMask) },
    loss: { delta: Float32Array.from(delta), gate: Float32Array.from(gate) },
    expertTokens: expert ? Uint8Array.from(expert) : null,
  } as unknown as UpdateState;
}

describe('decision tokens', () => {
  it('are the tokens whose mask allows more than one token, wherever the bits lie', () => {
    expect(hadChoice(Uint32Array.from(CHOICE), 0, 2)).toBe(true);
    expect(hadChoice(Uint32Array.from(FORCED), 0, 2)).toBe(false);
    expect(hadChoice(Uint32Array.from([0b11]), 0, 1)).toBe(true);
    expect(hadChoice(Uint32Array.from([0, 0, 0b100, 0]), 2, 2)).toBe(false);
    expect(Array.from(choiceTokens(state([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]).trajectories[0]))).toEqual([1, 1, 0]);
  });
});

describe('corr(Delta, advantage) on decision tokens', () => {
  it('matches a hand computation, leaving out forced tokens and tokens without a skill', () => {
    // Decision tokens: (0.5, 1), (0.25, 1), (-0.5, -1), (0.125, -1); token 2 is forced, token 5 has no skill.
    const st = state([0.5, 0.25, 9, -0.5, 0.125, 7], [1, 1, 1, 1, 1, 0]);
    // By hand: mean 0.09375, covariance sum 1.125, variance sums 0.54296875 and 4: r = 1.125 / sqrt(2.171875).
    expect(creditDiagnostics(st).corrDeltaAdvantage).toBeCloseTo(0.76337, 5);
    expect(creditDiagnostics(st).decisionTokens).toBe(4);
  });

  it('is null before the loss, with fewer than 2 decision tokens, or without variance', () => {
    expect(
      creditDiagnostics({ ...state([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]), loss: null }).corrDeltaAdvantage,
    ).toBeNull();
    expect(creditDiagnostics(state([0.5, 0.25, 9, -0.5, 0.125, 7], [1, 0, 1, 0, 0, 0])).corrDeltaAdvantage).toBeNull();
    expect(
      creditDiagnostics(state([0.5, 0.25, 9, -0.5, 0.125, 7], [1, 1, 1, 1, 1, 1], [2, 2])).corrDeltaAdvantage,
    ).toBeNull();
    expect(creditDiagnostics(state([0.5, 0.5, 9, 0.5, 0.5, 0.5], [1, 1, 1, 1, 1, 1])).corrDeltaAdvantage).toBeNull();
  });

  it('splits by won and lost trajectories: within each, the advantages of its groups', () => {
    // Two more trajectories, one won and one lost, in other groups (other advantages).
    const st = state([0.5, 0.25, 9, -0.5, 0.125, 7, 1, 2, -1, -3], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, -1, 0.5, -2]);
    st.trajectories.push(
      { won: true, commands: [command([CHOICE, CHOICE])] } as never,
      { won: false, commands: [command([CHOICE, CHOICE])] } as never,
    );
    st.tokenOffsets = Int32Array.from([0, 3, 6, 8, 10]);
    const d = creditDiagnostics(st);
    // Won: (0.5, 1), (0.25, 1), (1, 0.5), (2, 0.5); lost: (-0.5, -1), (0.125, -1), (7, -1), (-1, -2), (-3, -2).
    expect(d.corrDeltaAdvantageWon).toBeCloseTo(correlation([0.5, 0.25, 1, 2], [1, 1, 0.5, 0.5])!, 12);
    expect(d.corrDeltaAdvantageWon).toBeCloseTo(-0.8392543, 6);
    // Lost by hand: means 0.525 and -1.4, covariance sum 5.05, variance sums 57.8875 and 1.2.
    expect(d.corrDeltaAdvantageLost).toBeCloseTo(5.05 / Math.sqrt(57.8875 * 1.2), 9);
    expect(d.decisionTokens).toBe(9);
  });
});

describe('Delta and gate figures on decision tokens', () => {
  it('leave out forced tokens and tokens without a skill, and count the forced share of the OPD tokens', () => {
    const st = state(
      [0.5, -0.25, 0, -0.5, 0.125, 7],
      [1, 1, 1, 1, 1, 0],
      [1, -1],
      null,
      [0.9, 0.2, 0.5, 0.1, 0.6, 0.99],
    );
    const d = creditDiagnostics(st);
    expect(d.meanDelta).toBeCloseTo((0.5 - 0.25 - 0.5 + 0.125) / 4, 9);
    expect(d.meanAbsDelta).toBeCloseTo((0.5 + 0.25 + 0.5 + 0.125) / 4, 9);
    expect(d.meanGate).toBeCloseTo((0.9 + 0.2 + 0.1 + 0.6) / 4, 6);
    // Five OPD-masked tokens, one of them forced.
    expect(d.forcedShare).toBeCloseTo(0.2, 12);
    const none = creditDiagnostics(state([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]));
    expect([none.decisionTokens, none.meanDelta, none.meanAbsDelta, none.meanGate, none.forcedShare]).toEqual([
      0,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('the mean divergence of exact distillation', () => {
  it('is over the decision tokens, and null without exact distillation', () => {
    const st = state([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0]);
    (st.loss as { divergence?: Float32Array }).divergence = Float32Array.from([0.5, 0.25, 9, 0.75, 0.5, 7]);
    expect(meanDivergence({ ...st, lossHyper: { distil: { jsdAlpha: 0 } } } as UpdateState)).toBeCloseTo(
      (0.5 + 0.25 + 0.75 + 0.5) / 4,
      6,
    );
    expect(meanDivergence({ ...st, lossHyper: {} } as UpdateState)).toBeNull();
  });
});

describe('corr(Delta, expert token)', () => {
  it('correlates Delta with the expert flags of the decision tokens only', () => {
    // Decision tokens 0, 1, 3, 4 with flags 1, 0, 1, 0; the forced token 2 is flagged but left out.
    const st = state([0.5, -0.25, 3, 0.75, 0.25, 7], [1, 1, 1, 1, 1, 0], [1, -1], [1, 0, 1, 1, 0, 1]);
    // Delta 0.5, -0.25, 0.75, 0.25 against 1, 0, 1, 0: mean 0.3125, covariance sum 0.625, variance sums 0.546875 and 1.
    expect(creditDiagnostics(st).corrDeltaExpert).toBeCloseTo(0.625 / Math.sqrt(0.546875), 9);
    expect(creditDiagnostics({ ...st, expertTokens: null }).corrDeltaExpert).toBeNull();
    expect(
      creditDiagnostics(state([0.5, -0.25, 3, 0.75, 0.25, 7], [1, 1, 1, 1, 1, 0], [1, -1], [1, 1, 0, 1, 1, 0]))
        .corrDeltaExpert,
    ).toBeNull();
  });
});

describe('expert tokens', () => {
  const tok = defaultTokenizer();

  /** A trajectory that typed `commands` in the scene, with the records of playing them. */
  function played(sceneIndex: number, commands: string[]) {
    const scene = generateScene('train', sceneIndex, TINY);
    const game = new Game(scene, { maxSteps: commands.length });
    for (const c of commands) game.step(c);
    const typed = commands.map((c) => {
      const ids = Int32Array.from([...tok.encode(c), tok.endId]);
      return { ids, masks: new Uint32Array(ids.length) };
    });
    return { scene, records: game.records, commands: typed };
  }

  it('marks the tokens of a shortest plan, each tied plan counting, and stop where the command leaves them', () => {
    // Two cellphones on sofa 1 to put in the coffeetable: either can be taken first.
    const t = played(0, ['go to sofa 1', 'take cellphone 1 from sofa 1', 'go to shelf 1', 'go to sofa 1', 'look']);
    expect(t.scene.task.goal).toBe('find two cellphone and put them in coffeetable');
    const flags = Array.from(expertTokens(t, tok));
    const lengths = t.commands.map((c) => c.ids.length);
    const per: number[][] = [];
    let k = 0;
    for (const n of lengths) {
      per.push(flags.slice(k, k + n));
      k += n;
    }
    // "go to sofa 1 <end>": the plan's first command.
    expect(per[0]).toEqual([1, 1, 1, 1, 1]);
    // "take cellphone 1 ...": the tied plan that takes cellphone 1 first (the first plan takes cellphone 2).
    expect(per[1]).toEqual([1, 1, 1, 1, 1, 1, 1]);
    // Holding the phone, the plan goes to the coffeetable: "go to" agrees, "shelf" leaves it, and the rest
    // of the command stays off even where its tokens match ("1").
    expect(per[2]).toEqual([1, 1, 0, 0, 0]);
    // From the shelf, back to the sofa is not on a shortest plan; "look" never is.
    expect(per[3]).toEqual([1, 1, 0, 0, 0]);
    expect(per[4]).toEqual([0, 0]);
  });

  it('replays invalid commands as the game did: the state and the plan stay', () => {
    const t = played(1, ['take knife 1 from sinkbasin 1', 'go to sinkbasin 1']);
    expect(t.records[1].valid).toBe(false);
    const flags = Array.from(expertTokens(t, tok));
    // "take" is off the plan (the plan starts with "go to sinkbasin 1"), then the plan's first command.
    expect(flags).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
  });
});

describe('zero-variance groups', () => {
  it('is the share of groups whose rewards are all equal; null before the rewards', () => {
    const groups = [{ members: [0, 1] }, { members: [2, 3] }, { members: [4, 5, 6] }];
    const st = { groups, rewards: Float64Array.from([10, 10, 0, 10, -0.1, -0.1, -0.1]) } as unknown as UpdateState;
    expect(zeroVarianceGroups(st)).toBeCloseTo(2 / 3, 12);
    expect(zeroVarianceGroups({ groups: [], rewards: new Float64Array(0) } as unknown as UpdateState)).toBeNull();
  });
});
