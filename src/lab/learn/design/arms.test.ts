// How `bench learn` relates a part control to its arm: the arm it is compared with and takes its settings from,
// its note in the report, its colour in the plot, and the cost the plan estimates for it.
import { describe, expect, it } from 'vitest';
import { ALGOS, ARMS, armOf, skillPartOf, type Algo } from '../../../rl/arms.ts';
import { parseOptions } from '../../../cli/args.ts';
import { CROSSGAME_CONTROL, settingsSource } from './arms.ts';
import { estimatePlan } from '../benchmark.ts';
import { command } from '../plan_options.ts';
import { readPlan } from '../plan_read.ts';
import { COLORS } from '../report/plot.ts';

const plan = (...args: string[]) => readPlan(parseOptions(args, command).values);
const parts = ALGOS.filter((a) => skillPartOf(a) !== null);

describe('bench learn: part controls', () => {
  it('compares each part control with its arm and runs it at the arm’s settings', () => {
    expect(CROSSGAME_CONTROL).toEqual({ seed: 'seed-crossgame', 'seed-exact': 'seed-exact-crossgame' });
    for (const a of parts) {
      expect(ARMS[a].varies, a).toBe(armOf(a));
      expect(settingsSource(a, ['grpo', 'seed', 'seed-exact']), a).toBe(armOf(a));
    }
    expect(ARMS.seed.varies).toBe('seed-exact');
    expect(ARMS['seed-sibling'].varies).toBe('seed');
    expect(settingsSource('seed-sibling', ['grpo', 'seed-exact'])).toBe('seed-exact');
  });

  it('has a note naming its arm and a colour of its own for every algorithm', () => {
    for (const a of ALGOS) expect(ARMS[a].note.length, a).toBeGreaterThan(0);
    for (const a of parts) expect(ARMS[a].note.startsWith(`${armOf(a)} distilling the teacher given`), a).toBe(true);
    expect(ARMS['seed-facts'].note).toContain('instance facts');
    expect(new Set(ALGOS.map((a) => COLORS[a])).size).toBe(ALGOS.length);
  });

  it('takes part controls in --controls, each costing about what its arm does', () => {
    const controls = parts.filter((a) => skillPartOf(a) !== 'crossgame');
    const p = plan('--algos', 'grpo,seed,seed-exact', '--controls', controls.join(','), '--workers', '2');
    expect(p.controls).toEqual(controls);
    const alone = (control: Algo) =>
      estimatePlan(plan('--algos', 'grpo', '--controls', control, '--lambdas', '0.1', '--workers', '1'));
    for (const a of controls) expect(alone(a), a).toBe(alone(armOf(a)));
  });
});
