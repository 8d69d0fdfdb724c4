// The range of a numeric setting and the one wording of its refusal, shared by every layer that checks a
// setting: the trainer's settings table (rl/config.ts), the loss settings that the backends check
// (backend/loss_settings.ts), `--set`, the page's settings and `seed loss --in`.

/** The values a setting accepts: min..max, the maximum itself refused when belowMax. */
export interface SettingRange {
  kind: 'real' | 'integer' | 'boolean';
  min: number;
  max: number;
  /** The maximum is excluded (clip, beta1, beta2 must stay below 1). */
  belowMax?: boolean;
}

/** The range as text: "[0, 100]", or "[0, 1)" when the maximum is excluded; "0 or 1" for a switch. */
export function describeRange(r: SettingRange): string {
  return r.kind === 'boolean' ? '0 or 1' : `[${r.min}, ${r.max}${r.belowMax ? ')' : ']'}`;
}

/** Why a value is refused for a setting of range r ("not a whole number", "outside [1, 64]"), or null. */
export function rangeProblem(r: SettingRange, value: number): string | null {
  if (!Number.isFinite(value)) return 'not a finite number';
  if (r.kind === 'boolean') return value === 0 || value === 1 ? null : 'not 0 or 1';
  if (r.kind === 'integer' && !Number.isInteger(value)) return 'not a whole number';
  if (value < r.min || value > r.max || (r.belowMax && value === r.max)) return `outside ${describeRange(r)}`;
  return null;
}

/** "setting lambda is outside [0, 100], got -50": why setting `key` refuses `value`, or null when it takes it. */
export function settingProblem(key: string, r: SettingRange, value: unknown): string | null {
  if (typeof value !== 'number') return `setting ${key} must be a number, got ${String(value)}`;
  const problem = rangeProblem(r, value);
  return problem && `setting ${key} is ${problem}, got ${value}`;
}
