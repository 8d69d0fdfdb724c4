// The ranges of the SEED loss's settings. The trainer's settings table (rl/config.ts) takes these four
// from here, so that `--set`, the page, a resumed run, `seed loss --in` (loss_json.ts) and both backends'
// lossBackward (contract.ts, checkLossHyper) refuse the same values with the same words.
import { settingProblem, type SettingRange } from '../common/setting_range.ts';
import type { LossHyper } from './backend.ts';

export type LossSettingKey = Exclude<keyof LossHyper, 'gate' | 'distil'>;

export const LOSS_RANGES: Readonly<Record<LossSettingKey, Readonly<SettingRange>>> = {
  lambda: { kind: 'real', min: 0, max: 100 },
  beta: { kind: 'real', min: 0, max: 100 },
  // A clip of 1 or more would let the clipped ratio reach 0 or below.
  clip: { kind: 'real', min: 0, max: 1, belowMax: true },
  klCoef: { kind: 'real', min: 0, max: 10 },
};

export const LOSS_SETTING_KEYS = Object.keys(LOSS_RANGES) as LossSettingKey[];

/** Why a loss setting refuses `value` ("setting clip is outside [0, 1), got 7"), or null. */
export function lossSettingProblem(key: LossSettingKey, value: unknown): string | null {
  return settingProblem(key, LOSS_RANGES[key], value);
}
