// Verification of an exported policy: onnxruntime-web runs the file and its logits must equal the
// playground's own forward within LOGITS_TOLERANCE on random and real token sequences. Only a file that
// passes is offered for download (page) or written (CLI).
import type { Rng } from '../common/rng.ts';
import type { ModelConfig } from '../model/config.ts';
import { OnnxPolicySession, type RuntimeOptions } from './runtime.ts';

/** Largest absolute difference allowed between the runtime's logits and the reference's. */
export const LOGITS_TOLERANCE = 1e-4;

/** The playground's forward: logits [batch, seqLen, vocab] of ids [batch, seqLen], both row-major. */
export type LogitsFn = (ids: Int32Array, batch: number, seqLen: number) => Float32Array | Promise<Float32Array>;

interface VerifyCase {
  label: string;
  batch: number;
  seqLen: number;
  /** [batch * seqLen] token ids, row-major. */
  ids: Int32Array;
}

interface CaseResult {
  label: string;
  batch: number;
  seqLen: number;
  maxAbsDiff: number;
  ok: boolean;
}

export interface VerifyReport {
  ok: boolean;
  tolerance: number;
  /** Over all cases; NaN when some logits were not finite. */
  maxAbsDiff: number;
  cases: CaseResult[];
}

interface CaseOptions {
  batchSizes?: number[];
  seqLens?: number[];
}

/** Uniformly random token ids for every (batch size, sequence length) pair. */
export function randomCases(config: ModelConfig, rng: Rng, options: CaseOptions = {}): VerifyCase[] {
  const batchSizes = options.batchSizes ?? [1, 3];
  const seqLens = (options.seqLens ?? [1, 7, 32]).filter((t) => t <= config.contextLength);
  const cases: VerifyCase[] = [];
  for (const batch of batchSizes) {
    for (const seqLen of seqLens) {
      const ids = new Int32Array(batch * seqLen);
      for (let i = 0; i < ids.length; i++) ids[i] = rng.int(config.vocabSize);
      cases.push({ label: `random b${batch} t${seqLen}`, batch, seqLen, ids });
    }
  }
  return cases;
}

/**
 * Real token sequences (encoded episodes): each alone at its full length (up to the context), and, when
 * there are at least `batch` of them, the first `batch` together, cut to the shortest.
 */
export function sequenceCases(config: ModelConfig, sequences: Int32Array[], batch = 3, label = 'real'): VerifyCase[] {
  const fits = sequences.map((s) => s.subarray(0, config.contextLength)).filter((s) => s.length > 0);
  const cases: VerifyCase[] = fits.map((s, i) => ({
    label: `${label} #${i} t${s.length}`,
    batch: 1,
    seqLen: s.length,
    ids: Int32Array.from(s),
  }));
  if (fits.length >= batch && batch > 1) {
    const seqLen = Math.min(...fits.slice(0, batch).map((s) => s.length));
    const ids = new Int32Array(batch * seqLen);
    for (let b = 0; b < batch; b++) ids.set(fits[b].subarray(0, seqLen), b * seqLen);
    cases.push({ label: `${label} b${batch} t${seqLen}`, batch, seqLen, ids });
  }
  return cases;
}

/** Largest |a - b|; NaN as soon as either side is not finite, so a broken model never passes. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`cannot compare ${a.length} logits with ${b.length}`);
  let max = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!Number.isFinite(d)) return NaN;
    if (d > max) max = d;
  }
  return max;
}

export async function verifyOnnx(
  bytes: Uint8Array,
  reference: LogitsFn,
  cases: VerifyCase[],
  options: RuntimeOptions & { tolerance?: number } = {},
): Promise<VerifyReport> {
  if (cases.length === 0) throw new RangeError('verification needs at least one case');
  const tolerance = options.tolerance ?? LOGITS_TOLERANCE;
  const session = await OnnxPolicySession.create(bytes, options);
  try {
    const results: CaseResult[] = [];
    for (const c of cases) {
      const got = await session.logits(c.ids, c.batch, c.seqLen);
      const want = await reference(c.ids, c.batch, c.seqLen);
      const diff = maxAbsDiff(got, want);
      results.push({ label: c.label, batch: c.batch, seqLen: c.seqLen, maxAbsDiff: diff, ok: diff <= tolerance });
    }
    const all = results.map((r) => r.maxAbsDiff);
    const worst = all.some(Number.isNaN) ? NaN : Math.max(...all);
    return { ok: results.every((r) => r.ok), tolerance, maxAbsDiff: worst, cases: results };
  } finally {
    await session.release();
  }
}

/** One line per failing case, for error messages. */
export function describeFailures(report: VerifyReport): string {
  return report.cases
    .filter((c) => !c.ok)
    .map(
      (c) =>
        `${c.label}: max |diff| ${Number.isNaN(c.maxAbsDiff) ? 'not finite' : c.maxAbsDiff.toExponential(2)} > ${report.tolerance}`,
    )
    .join('; ');
}
