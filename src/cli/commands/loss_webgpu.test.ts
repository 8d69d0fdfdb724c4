// `seed loss --backend webgpu` against `--backend cpu` on the same files: the WebGPU SEED kernels must
// print the same JSON numbers. Tolerance: 1e-6 + 1e-5 |cpu| per number (float32 exp and sigmoid on the GPU,
// float64 on the CPU).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../../common/rng.ts';
import { run } from './loss.ts';
import { runCaptured } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-loss-webgpu-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function jsonOf(args: string[]): Promise<Record<string, unknown>> {
  const { code, stdout } = await runCaptured(run, args);
  expect(code).toBe(0);
  return JSON.parse(stdout) as Record<string, unknown>;
}

function numbersOf(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'number') out.push(value);
  else if (Array.isArray(value)) for (const v of value) numbersOf(v, out);
  else if (value && typeof value === 'object')
    for (const k of Object.keys(value).sort()) numbersOf((value as Record<string, unknown>)[k], out);
  return out;
}

describe('seed loss --backend webgpu', () => {
  it('prints the CPU numbers for random token files, clipped and unclipped ratios, empty OPD mask included', async () => {
    const rng = new Rng(21);
    for (let f = 0; f < 3; f++) {
      const n = [1, 17, 70][f];
      const tokens = Array.from({ length: n }, () => {
        const l = -rng.float() * 6;
        return {
          l_student: l,
          l_skill: -rng.float() * 6,
          l_old: l + (rng.float() - 0.5),
          l_ref: l + (rng.float() - 0.5) * 2,
          advantage: rng.normal(),
          mask: rng.float() < 0.8 ? 1 : 0,
          opd_mask: f === 1 ? 0 : rng.float() < 0.6 ? 1 : 0,
        };
      });
      const path = join(dir, `case${f}.json`);
      writeFileSync(path, JSON.stringify({ lambda: 0.3, beta: 5, clip: 0.2, kl_coef: 0.05, tokens }));
      const cpu = numbersOf(await jsonOf(['--in', path, '--backend', 'cpu']));
      const gpu = numbersOf(await jsonOf(['--in', path, '--backend', 'webgpu']));
      expect(gpu.length).toBe(cpu.length);
      cpu.forEach((want, i) => {
        expect(Math.abs(gpu[i] - want), `file ${f} number ${i}`).toBeLessThanOrEqual(1e-6 + 1e-5 * Math.abs(want));
      });
    }
  });
});
