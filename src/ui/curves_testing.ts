// The figures the curve tests share: a live run's update metrics and a small recorded run.
import { RECORD_FORMAT, RECORD_VERSION, type RecordedArm, type RecordedRun } from '../rl/recorded_run.ts';
import type { RunId, UpdateMetrics } from '../worker/protocol.ts';

/** A live run's point of `update`: the same figures at every update but the ones given. */
export function metrics(
  run: RunId,
  update: number,
  evalSeen: number | null = null,
  successTrain = 0.25,
): UpdateMetrics {
  return {
    run,
    update,
    episodes: 8 * update,
    successTrain,
    evalSeen,
    evalUnseen: evalSeen,
    meanReward: 1,
    L_GRPO: 0.1,
    L_OPD: 0.2,
    KL: 0.01,
    total: 0.3,
    lambda: 0.1,
    beta: 5,
    meanDelta: 0,
    meanGate: 0.5,
    validSkillRate: null,
    skillFidelity: null,
    skillPlaceTrue: null,
    skillPlaceFalse: null,
    corrDeltaAdvantage: null,
    gradNorm: 1,
    gradNormGrpo: null,
    gradNormOpd: null,
    gradNormRatio: null,
    opdShare: null,
    opdDeltaShare: null,
    meanDivergence: null,
    tokens: 10,
    tokensPerSecond: 100,
    wallMs: 100,
    rolloutMs: 60,
    rewardsMs: 1,
    skillsMs: 10,
    rescoreMs: 9,
    lossMs: 15,
    optimizerMs: 5,
    currentPassMs: 5,
    referencePassMs: 4,
    evalMs: evalSeen === null ? null : 300,
    updateMs: evalSeen === null ? 100 : 400,
    skipped: null,
    meanAbsDelta: null,
    forcedShare: null,
    corrDeltaAdvantageWon: null,
    corrDeltaAdvantageLost: null,
    corrDeltaExpert: null,
    zeroVarianceGroups: null,
    teacherNoSkill: null,
    teacherOwnSkill: null,
    teacherOtherSkill: null,
    teacherBlankSkill: null,
    validationKl: null,
    degenerateSkillRate: null,
  };
}

function arm(algo: 'seed' | 'grpo', curves: [number, number, number | null, number | null][][]): RecordedArm {
  const interval = { value: 0.5, ci: [0.4, 0.6] as [number, number] };
  return {
    algo,
    role: 'main',
    lr: 5e-4,
    final: { seen: interval, unseen: interval },
    seeds: curves.map((curve, i) => ({ seed: i + 1, curve, final: { seen: 0.5, unseen: 0.5 } })),
  };
}

/** A recorded run of eight updates: GRPO over two seeds, SEED over one with a missing eval-unseen point. */
export function record(): RecordedRun {
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    command: 'npm run seed -- bench learn --updates 8',
    commit: 'abc1234',
    created: '2025-05-01T00:00:00.000Z',
    preset: 'tiny',
    updates: 8,
    episodesPerUpdate: 32,
    evalEvery: 4,
    evalGames: { seen: 20, unseen: 20 },
    warmstart: { seen: 0.2, unseen: 0.3 },
    arms: [
      arm('grpo', [
        [
          [0, 0, 0.2, 0.3],
          [4, 128, 0.3, 0.2],
          [8, 256, 0.4, 0.5],
        ],
        [
          [0, 0, 0.2, 0.3],
          [4, 128, 0.5, 0.4],
          [8, 256, 0.4, 0.3],
        ],
      ]),
      arm('seed', [
        [
          [0, 0, 0.2, 0.3],
          [4, 128, 0.6, null],
          [8, 256, 0.6, 0.6],
        ],
      ]),
    ],
    differences: [],
    episodes: [],
  };
}
