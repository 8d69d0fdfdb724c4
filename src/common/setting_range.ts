// The range of a numeric setting and the one wording of its refusal, shared by every layer that checks a
// setting: the trainer's settings table (rl/config.ts), the loss settings that the backends check
// (backend/loss_settings.ts), `--set`, the page's settings and `seed loss --in`; and the one reading of a value
// written in decimal (the command line's numbers and the page's link).

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

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A number written in decimal, an exponent allowed ("1e-3", "0.5", "12"); NaN for "", "0x10", " 5", "Infinity". */
export function parseDecimal(text: string): number {
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

export const ROUNDS_TO_ZERO = 'too small: it rounds to 0 in float32';

/**
 * Why a value is refused for a setting of range r ("not a whole number", "outside [1, 64]"), or null. A value
 * that is not 0 but rounds to 0 in float32, as the backends compute (1e-320), is refused like one out of
 * range: the run would silently use 0.
 */
export function rangeProblem(r: SettingRange, value: number): string | null {
  if (!Number.isFinite(value)) return 'not a finite number';
  if (value !== 0 && Math.fround(value) === 0) return ROUNDS_TO_ZERO;
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

/** Whether a number written as not 0 read as 0: 1e-400 underflows before it is a number. */
export function underflows(text: string, value: number): boolean {
  return value === 0 && /[1-9]/.test(text.split(/[eE]/)[0]);
}

/**
 * Why a setting's value written as `text` (decimal) and read as `value` is refused, or null: rangeProblem's
 * rule, and a text that is not 0 but read as 0 rounds to 0 too.
 */
export function writtenValueProblem(r: SettingRange, text: string, value: number): string | null {
  return underflows(text, value) ? ROUNDS_TO_ZERO : rangeProblem(r, value);
}
