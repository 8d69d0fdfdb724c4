// The exact-distillation kernels (distil_divergence, distil_logit_gradient) against their CPU twins
// (src/backend/cpu/distil.ts), on Node's WebGPU, for the reverse KL and the JSD: random rows with extreme
// logits, vocabularies off the workgroup size, a forced row (one allowed token), and rows that are skipped.
// Tolerances: divergences 2e-6 + 2e-5 |cpu|, gradients 1e-6 + 2e-5 |cpu| (float32 exp, log and tree sums
// over a row against the twin's float64 sums; a row's terms reach |log q| ~ 30 here).
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { maskWords } from '../backend.ts';
import { allowToken, isAllowed } from '../contract.ts';
import { distilDivergence as divergenceCpu, distilLogitGradient as gradientCpu } from '../cpu/distil.ts';
import { maskedLogSoftmax } from '../cpu/log_softmax.ts';
import { distilDivergence, distilLogitGradient } from './distil.ts';
import { runKernels, worstError } from './gpu_testing.ts';
import type { GpuRuntime } from './runtime.ts';
import type { Stage } from './stage.ts';
import { testRuntime } from './test_device.ts';

interface Case {
  rows: number;
  vocab: number;
  student: Float32Array<ArrayBuffer>;
  teacher: Float32Array<ArrayBuffer>;
  masks: Uint32Array<ArrayBuffer>;
}

const FORCED_ROW = 1;

/** Student and teacher rows under shared masks: row 1 forced, row 2 all allowed with logits of +-30 that disagree. */
function randomCase(rng: Rng, rows: number, vocab: number): Case {
  const words = maskWords(vocab);
  const masks = new Uint32Array(rows * words);
  for (let r = 0; r < rows; r++) {
    if (r === FORCED_ROW) {
      allowToken(masks, r, words, rng.int(vocab));
      continue;
    }
    for (let v = 0; v < vocab; v++) if (r === 2 || rng.float() < 0.6) allowToken(masks, r, words, v);
    allowToken(masks, r, words, rng.int(vocab));
  }
  const logits = (spread: number, extreme: number) => {
    const z = Float32Array.from({ length: rows * vocab }, () => spread * rng.normal());
    for (let v = 0; v < vocab; v++) if (v % 3 === extreme) z[2 * vocab + v] = v % 2 === 0 ? 30 : -30;
    return z;
  };
  const student = new Float32Array(rows * vocab);
  const teacher = new Float32Array(rows * vocab);
  maskedLogSoftmax(student, logits(2, 0), masks, rows, vocab);
  maskedLogSoftmax(teacher, logits(3, 1), masks, rows, vocab);
  return { rows, vocab, student, teacher, masks };
}

/** The teacher with NaN in the given rows: a kernel that reads one of them gives itself away. */
function poisoned(c: Case, skipped: number[]): Float32Array<ArrayBuffer> {
  const teacher = c.teacher.slice();
  for (const r of skipped) teacher.fill(NaN, r * c.vocab, (r + 1) * c.vocab);
  return teacher;
}

describe('distil_divergence / distil_logit_gradient on WebGPU against the CPU twin', () => {
  let gpu: GpuRuntime;
  beforeAll(async () => {
    gpu = await testRuntime();
  });

  const SHAPES: [number, number][] = [
    [5, 37],
    [6, 300],
  ];

  for (const alpha of [0, 0.3]) {
    it(`gives every row's divergence, 0 on a forced row and on a skipped one (alpha ${alpha})`, async () => {
      const rng = new Rng(21);
      for (const [rows, vocab] of SHAPES) {
        const c = randomCase(rng, rows, vocab);
        const weight = Float32Array.from({ length: rows }, (_, r) => (r === rows - 1 ? 0 : 0.5 + r));
        const want = new Float32Array(rows);
        divergenceCpu(want, c.student, c.teacher, c.masks, rows, vocab, alpha);
        want[rows - 1] = 0;
        const got = await runKernels(
          gpu,
          { student: c.student, teacher: poisoned(c, [rows - 1]), masks: c.masks, weight },
          { out: rows },
          (s: Stage, b) => {
            distilDivergence(s, b.out, b.student, b.teacher, b.masks, b.weight, rows, vocab, alpha);
          },
        );
        expect(worstError(got.out, want, 2e-6, 2e-5), `rows ${rows} vocab ${vocab}`).toBeLessThanOrEqual(1);
        expect(got.out[FORCED_ROW]).toBe(0);
        expect(got.out[rows - 1]).toBe(0);
        expect(Math.min(...Array.from(want).filter((_, r) => r !== FORCED_ROW && r !== rows - 1))).toBeGreaterThan(
          0.05,
        );
      }
    });

    it(`adds scale p (g - E_p g) to dlogits on allowed tokens and leaves forced and scale-0 rows alone (alpha ${alpha})`, async () => {
      const rng = new Rng(22);
      for (const [rows, vocab] of SHAPES) {
        const c = randomCase(rng, rows, vocab);
        const words = maskWords(vocab);
        const scale = Float32Array.from({ length: rows }, (_, r) => (r === 0 ? 0 : [0.7, -1.3, 2, 0.25][r % 4]));
        const start = Float32Array.from({ length: rows * vocab }, () => rng.normal());
        const want = start.slice();
        gradientCpu(want, c.student, c.teacher, c.masks, scale, rows, vocab, alpha);
        const got = await runKernels(
          gpu,
          { student: c.student, teacher: poisoned(c, [0]), masks: c.masks, scale },
          { dlogits: start },
          (s: Stage, b) => {
            distilLogitGradient(s, b.dlogits, b.student, b.teacher, b.masks, b.scale, rows, vocab, alpha);
          },
        );
        expect(worstError(got.dlogits, want, 1e-6, 2e-5), `rows ${rows} vocab ${vocab}`).toBeLessThanOrEqual(1);
        for (const r of [0, FORCED_ROW])
          expect(Array.from(got.dlogits.subarray(r * vocab, (r + 1) * vocab)), `row ${r}`).toEqual(
            Array.from(start.subarray(r * vocab, (r + 1) * vocab)),
          );
        for (let i = 0; i < rows * vocab; i++)
          if (!isAllowed(c.masks, Math.floor(i / vocab), words, i % vocab)) expect(got.dlogits[i]).toBe(start[i]);
        // The kernel did add something: the rows that count moved by more than the tolerance.
        expect(worstError(got.dlogits, start, 1e-3, 0)).toBeGreaterThan(1);
      }
    });
  }

  it('refuses an alpha outside [0, 1) and a bad shape before recording anything', () => {
    const stage = {} as Stage;
    const b = {} as GPUBuffer;
    expect(() => distilDivergence(stage, b, b, b, b, b, 2, 10, 1)).toThrow(
      /^distil_divergence: alpha must be in \[0, 1\), got 1$/,
    );
    expect(() => distilLogitGradient(stage, b, b, b, b, b, 2, 0, 0)).toThrow(
      /^distil_logit_gradient: rows must be an integer >= 0 and vocab a positive integer/,
    );
  });
});
