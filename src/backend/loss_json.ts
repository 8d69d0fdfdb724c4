// The JSON exchange format of one SEED loss evaluation, shared by the `loss` CLI and the page's export:
//
//   in:  {"lambda": 0.01, "beta": 5, "clip": 0.2, "kl_coef": 0.01,
//         "tokens": [{"l_student": -1.2, "l_skill": -0.8, "l_old": -1.1, "l_ref": -1.3,
//                     "advantage": 0.5, "mask": 1, "opd_mask": 1}, ...]}
//   out: {"L_GRPO": x, "L_OPD": x, "KL": x, "total": x, "tokens": [{"delta": x, "gate": x, "coef": x}, ...]}
//
// coef is d total / d l_student (docs/seed-loss.md, "The per-token coefficient"). The gate is always on in this
// format. Every number must be finite as a float32 (the precision of the per-token arrays); masks are 0 or 1;
// lambda, beta, clip and kl_coef (the setting klCoef) in the loss settings' ranges (loss_settings.ts), refused
// with the words of `--set`; at least one token.
// A token may also say where it came from and what a run computed for it (the page's per-token export):
// "trajectory" and "step" (integers >= 0), "token" (its text), and "delta", "gate", "coef", "coef_grpo",
// "coef_opd", "coef_kl" (finite numbers). These are checked for their type and otherwise not read: the loss is
// computed from the inputs alone.
// Unknown fields are refused, so that a misspelt name does not silently fall back to nothing.
import { parseJson, quote } from '../common/json.ts';
import type { LossHyper, LossInputs, LossOutput } from './backend.ts';
import { lossSettingProblem, type LossSettingKey } from './loss_settings.ts';

export interface LossProblem {
  hyper: LossHyper;
  lStudent: Float32Array;
  inputs: LossInputs;
}

/** A malformed loss file; the message names the offending field, e.g. "tokens[3].l_skill must be ...". */
export class LossJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LossJsonError';
  }
}

const HYPER_FIELDS = ['lambda', 'beta', 'clip', 'kl_coef'] as const;
const TOKEN_FIELDS = ['l_student', 'l_skill', 'l_old', 'l_ref', 'advantage', 'mask', 'opd_mask'] as const;
type TokenField = (typeof TOKEN_FIELDS)[number];
const NOTE_NUMBERS = ['delta', 'gate', 'coef', 'coef_grpo', 'coef_opd', 'coef_kl'] as const;
const NOTE_COUNTS = ['trajectory', 'step'] as const;

/** What a run showed beside a token's inputs; `seed loss` checks the types and does not read them. */
export type TokenNote = { token?: string } & Partial<
  Record<(typeof NOTE_NUMBERS)[number] | (typeof NOTE_COUNTS)[number], number>
>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${quote(v.length > 20 ? `${v.slice(0, 20)}...` : v)}`;
  if (typeof v === 'number') return String(v);
  return `a ${typeof v}`;
}

function finite(obj: Record<string, unknown>, key: string, where: string): number {
  const v = obj[key];
  if (v === undefined) throw new LossJsonError(`${where} is missing (it must be a finite number)`);
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new LossJsonError(`${where} must be a finite number (got ${describe(v)})`);
  }
  if (!Number.isFinite(Math.fround(v))) {
    throw new LossJsonError(`${where} must be a finite number (got ${v}, which overflows float32)`);
  }
  return v;
}

/** A loss setting: a finite number, then in its range from the settings table. */
function lossSetting(obj: Record<string, unknown>, field: string, key: LossSettingKey): number {
  const v = finite(obj, field, field);
  const problem = lossSettingProblem(key, v);
  if (problem) throw new LossJsonError(problem);
  return v;
}

function rejectUnknown(obj: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) {
      const prefix = where ? `${where}.` : '';
      const name = /^[A-Za-z_]\w*$/.test(key) ? key : quote(key);
      throw new LossJsonError(`unknown field ${prefix}${name} (expected ${known.join(', ')})`);
    }
  }
}

/** Validates a parsed JSON value as a loss input. */
export function lossProblemFromJson(value: unknown): LossProblem {
  if (!isRecord(value)) throw new LossJsonError(`the loss input must be a JSON object (got ${describe(value)})`);
  rejectUnknown(value, [...HYPER_FIELDS, 'tokens'], '');
  const lambda = lossSetting(value, 'lambda', 'lambda');
  const beta = lossSetting(value, 'beta', 'beta');
  const clip = lossSetting(value, 'clip', 'clip');
  const klCoef = lossSetting(value, 'kl_coef', 'klCoef');

  const tokens = value.tokens;
  if (!Array.isArray(tokens)) throw new LossJsonError(`tokens must be an array (got ${describe(tokens)})`);
  if (tokens.length === 0) throw new LossJsonError('tokens must hold at least one token (got an empty array)');
  // Every token is checked before the columns are allocated: an array of empty entries is refused at its
  // first, not after allocating columns for all of them.
  const checked = tokens.map((t: unknown, k) => {
    const where = `tokens[${k}]`;
    if (!isRecord(t)) throw new LossJsonError(`${where} must be an object (got ${describe(t)})`);
    rejectUnknown(t, [...TOKEN_FIELDS, 'token', ...NOTE_COUNTS, ...NOTE_NUMBERS], where);
    checkNote(t, where);
    return TOKEN_FIELDS.map((f) => {
      const v = finite(t, f, `${where}.${f}`);
      if ((f === 'mask' || f === 'opd_mask') && v !== 0 && v !== 1) {
        throw new LossJsonError(`${where}.${f} must be 0 or 1 (got ${v})`);
      }
      return v;
    });
  });
  const cols = Object.fromEntries(
    TOKEN_FIELDS.map((f, i) => [f, Float32Array.from(checked, (values) => values[i])]),
  ) as Record<TokenField, Float32Array>;
  return {
    hyper: { lambda, beta, clip, klCoef, gate: true },
    lStudent: cols.l_student,
    inputs: {
      advantage: cols.advantage,
      mask: cols.mask,
      opdMask: cols.opd_mask,
      lSkill: cols.l_skill,
      lOld: cols.l_old,
      lRef: cols.l_ref,
    },
  };
}

function checkNote(t: Record<string, unknown>, where: string): void {
  if (t.token !== undefined && typeof t.token !== 'string')
    throw new LossJsonError(`${where}.token must be a string (got ${describe(t.token)})`);
  for (const f of NOTE_NUMBERS) if (t[f] !== undefined) finite(t, f, `${where}.${f}`);
  for (const f of NOTE_COUNTS) {
    if (t[f] === undefined) continue;
    const v = finite(t, f, `${where}.${f}`);
    if (!Number.isInteger(v) || v < 0) throw new LossJsonError(`${where}.${f} must be an integer >= 0 (got ${v})`);
  }
}

/** Parses and validates the text of a loss input file. */
export function parseLossProblem(text: string): LossProblem {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw new LossJsonError(`not valid JSON: ${(err as Error).message}`);
  }
  return lossProblemFromJson(value);
}

/** The input format of a loss evaluation (the gate is always on in this format), each token with its note if given. */
export function lossProblemToJson(p: LossProblem, notes?: readonly TokenNote[]): object {
  const { inputs } = p;
  return {
    lambda: p.hyper.lambda,
    beta: p.hyper.beta,
    clip: p.hyper.clip,
    kl_coef: p.hyper.klCoef,
    tokens: Array.from(p.lStudent, (ls, k) => ({
      l_student: shortestFloat32(ls),
      l_skill: shortestFloat32(inputs.lSkill[k]),
      l_old: shortestFloat32(inputs.lOld[k]),
      l_ref: shortestFloat32(inputs.lRef[k]),
      advantage: shortestFloat32(inputs.advantage[k]),
      mask: inputs.mask[k],
      opd_mask: inputs.opdMask[k],
      ...noteJson(notes?.[k]),
    })),
  };
}

function noteJson(note: TokenNote | undefined): Record<string, number | string> {
  if (!note) return {};
  const out: Record<string, number | string> = {};
  if (note.trajectory !== undefined) out.trajectory = note.trajectory;
  if (note.step !== undefined) out.step = note.step;
  if (note.token !== undefined) out.token = note.token;
  for (const f of NOTE_NUMBERS) if (note[f] !== undefined) out[f] = shortestFloat32(note[f]);
  return out;
}

/** The shortest decimal that reads back as the same float32: per-token values print as 0.4, not 0.4000000059604645. */
export function shortestFloat32(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  for (let digits = 1; digits < 9; digits++) {
    const y = Number(x.toPrecision(digits));
    if (Math.fround(y) === x) return y;
  }
  return Number(x.toPrecision(9));
}

/**
 * The output format: loss terms (float64) and, per token, Delta, g and coef = d total / d l_student (float32,
 * printed with the fewest digits that identify them).
 */
export function lossOutputToJson(out: LossOutput): object {
  return {
    L_GRPO: out.L_GRPO,
    L_OPD: out.L_OPD,
    KL: out.KL,
    total: out.total,
    tokens: Array.from(out.coef, (coef, k) => ({
      delta: shortestFloat32(out.delta[k]),
      gate: shortestFloat32(out.gate[k]),
      coef: shortestFloat32(coef),
    })),
  };
}
