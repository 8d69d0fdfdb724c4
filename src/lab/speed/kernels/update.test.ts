// The host round trips of whole GRPO and SEED updates in every world (bench kernels): each stage's submits and
// readbacks are those its backend calls make, GRPO writes no skill and scores once, and SEED scores once more
// (with the skill) from the same rollouts. Counting is deterministic; nothing here reads a clock.
import { describe, expect, it } from 'vitest';
import { testRuntime } from '../../../backend/webgpu/test_device.ts';
import { STAGES } from '../../../rl/update_state.ts';
import { environmentOf } from '../../../worlds/environments.ts';
import { ENVIRONMENT_NAMES } from '../../../worlds/names.ts';
import { factsOf } from '../../../worlds/facts.ts';
import { COUNTED_ALGOS, measureUpdates, ROUND_TRIP_CALLS, updateTable, type Calls, type UpdateCost } from './update.ts';

/** What the calls imply: the submits and readbacks they make together. */
function implied(calls: Calls): { submits: number; readbacks: number } {
  let submits = 0;
  let readbacks = 0;
  for (const [name, trips] of Object.entries(ROUND_TRIP_CALLS)) {
    submits += (calls[name] ?? 0) * trips.submits;
    readbacks += (calls[name] ?? 0) * trips.readbacks;
  }
  return { submits, readbacks };
}

const scoringPasses = (u: UpdateCost) => {
  const rescore = u.stages.find((s) => s.stage === 'rescore')!;
  return (rescore.calls['score current'] ?? 0) + (rescore.calls['score reference'] ?? 0);
};

describe('round trips of whole updates, per world', () => {
  for (const world of ENVIRONMENT_NAMES)
    it(`${world}: the counts are those of the code path`, async () => {
      const gpu = await testRuntime();
      const env = environmentOf(world);
      // A small batch and short episodes: the software adapter runs at about a GFLOP/s. The shop keeps its
      // windowed steps (history 2 < 3 steps).
      const settings = { tasksPerUpdate: 1, groupSize: 2, maxSteps: 3 };
      const costs: UpdateCost[] = [];
      for (const algo of COUNTED_ALGOS)
        costs.push(await measureUpdates(gpu, { env, preset: 'micro', algo, seed: 1, updates: 1, settings }));
      const [g, s] = costs;
      expect([g.algo, s.algo]).toEqual(['grpo', 'seed']);
      const history = factsOf(world).trainDefaults.history;
      // The world trains with its own settings (the shop's windowed steps), under the test's.
      expect(g.layout).toEqual(s.layout);
      expect(g.layout.maxSteps).toBe(3);
      if (history !== undefined) expect(g.layout.history).toBe(history);

      for (const u of costs) {
        expect(u.stages.map((st) => st.stage)).toEqual([...STAGES]);
        for (const st of [...u.stages, u.total]) {
          const { submits, readbacks } = implied(st.calls);
          expect({ submits: st.counters.submits, readbacks: st.counters.readbacks }, `${u.algo} ${st.stage}`).toEqual({
            submits,
            readbacks,
          });
        }
        const decoded = u.stages.find((st) => st.stage === 'rollout')!;
        expect(decoded.counters.submits).toBeGreaterThan(0);
        // Every readback of a decoding step is the sampled token and its log-prob (4 bytes each) per stream.
        expect(decoded.counters.bytesRead % 8).toBe(0);
        const optimizer = u.stages.find((st) => st.stage === 'optimizer')!;
        expect(optimizer.calls.optimizerStep).toBe(1);
        expect(u.stages.find((st) => st.stage === 'rewards')!.counters.submits).toBe(0);
      }
      // The same seed plays the same rollouts: the algorithms differ only after them.
      expect(s.stages[0].counters).toMatchObject({
        dispatches: g.stages[0].counters.dispatches,
        submits: g.stages[0].counters.submits,
        bytesRead: g.stages[0].counters.bytesRead,
      });
      // GRPO writes no skill and scores with the reference weights only; SEED writes a skill per trajectory
      // and scores once more, with the skill in context, when the teacher reads any of them.
      const skills = (u: UpdateCost) => u.stages.find((st) => st.stage === 'skills')!.counters.submits;
      expect(skills(g)).toBe(0);
      expect(skills(s)).toBeGreaterThan(0);
      expect(g.usableSkills).toBe(0);
      expect(scoringPasses(g)).toBe(1);
      expect(scoringPasses(s)).toBe(scoringPasses(g) + (s.usableSkills > 0 ? 1 : 0));

      const table = updateTable(costs);
      expect(table).toHaveLength(2 + costs.length * (STAGES.length + 1));
      const whole = table.filter((line) => line.includes('**whole update**'));
      expect(whole.map((line) => line.split(' | ')[5])).toEqual(costs.map((u) => String(u.total.counters.submits)));
    }, 300_000);
});
