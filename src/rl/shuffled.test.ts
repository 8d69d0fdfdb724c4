// The analyzer is replaced by canned skills here, so that the skill assignment of seed and seed-shuffled can
// be checked exactly whatever a random-init policy would write.
import { describe, expect, it, vi } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { TINY } from '../env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig, type Algo } from './config.ts';
import { Trainer } from './trainer.ts';

vi.mock('./analyzer.ts', async (original) => ({
  ...(await original<typeof import('./analyzer.ts')>()),
  // Trajectory i writes a usable skill naming its index, except every third one.
  writeSkills: async (_b: unknown, _t: unknown, ts: readonly unknown[]) =>
    ts.map((_, i) => ({ text: `workflow: go to the cabinet ${i + 1}, open the cabinet ${i + 1}.`, ok: i % 3 !== 2, reason: i % 3 === 2 ? 'canned' : '' })),
}));

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);

async function skillsOf(algo: Algo) {
  const config = { ...defaultConfig('micro'), groupSize: 3, tasksPerUpdate: 2, maxSteps: 2, history: 2 };
  const t = new Trainer({ backend: CpuBackend.fromSeed(model, 1), tokenizer: tok, algo, config, seed: 3, scale: TINY });
  for (let s = 0; s < 4; s++) await t.nextStage();
  return t.current!;
}

describe('skill assignment', () => {
  it('seed: each trajectory distils from its own skill; unusable skills give no OPD signal', async () => {
    const st = await skillsOf('seed');
    st.used.forEach((s, i) => expect(s).toBe(st.written[i]));
    st.trajectories.forEach((_, i) => {
      const mask = Array.from(st.inputs!.opdMask.subarray(st.tokenOffsets[i], st.tokenOffsets[i + 1]));
      expect(new Set(mask)).toEqual(new Set([i % 3 === 2 ? 0 : 1]));
    });
  });

  it('seed-shuffled: each trajectory gets the usable skill of another trajectory of its own group', async () => {
    const st = await skillsOf('seed-shuffled');
    st.trajectories.forEach((t, i) => {
      const used = st.used[i];
      const donors = st.trajectories.filter((u, j) => j !== i && u.task === t.task && st.written[j]!.ok);
      if (donors.length === 0) {
        expect(used).toBeNull();
        return;
      }
      expect(used!.ok).toBe(true);
      expect(used).not.toBe(st.written[i]);
      expect(donors.map((d) => st.written[d.index])).toContain(used);
    });
  });
});
