// How `bench learn` reports its settings: each arm's as learn.json keeps them, and the report's section on the
// sweeps (every value's validation success per seed, the grid's growth, the arm --pick-best kept) and on how
// each setting was chosen (sweep.ts chooses them).
import { environmentOf } from '../../../worlds/environments.ts';
import type { Algo } from '../../../rl/arms.ts';
import { SWEEP_SEED } from '../jobs/job.ts';
import { pct } from '../stats/stats.ts';
import { lambdaDuringLrSweep, type ArmSettings, type Chosen, type SweepPlan } from '../sweeps/sweep.ts';
import { worldOrDefault } from '../../../worlds/names.ts';
import { distils, usesOpidWeight } from '../../../rl/arms.ts';

/** Every arm's settings as learn.json keeps them; the OPID weight only for the arm it changes (OPID's). */
export function settingsJson(settings: ReadonlyMap<Algo, ArmSettings>): Record<string, unknown> {
  return Object.fromEntries(
    [...settings].map(([a, s]) => [
      a,
      usesOpidWeight(a)
        ? { lr: s.lr, lambda: s.lambda, opidWeight: s.opidWeight, how: s.how }
        : { lr: s.lr, lambda: s.lambda, how: { lr: s.how.lr, lambda: s.how.lambda } },
    ]),
  );
}

/** The report's section on the sweeps and on how each arm's settings were chosen. */
export function sweepSection(
  c: Pick<Chosen, 'settings' | 'points'> & Partial<Pick<Chosen, 'edges' | 'picked'>>,
  plan: SweepPlan,
  evalEpisodes: number,
  evalSamples: number,
): string {
  const all = environmentOf(worldOrDefault(plan.env)).validationScenes().length;
  const games = evalEpisodes > 0 ? Math.min(evalEpisodes, all) : all;
  const fixed = (x: number | null) => (x === null || !Number.isFinite(x) ? 'n/a' : x.toFixed(2));
  const parts: string[] = [];
  if (c.points.length) {
    parts.push(
      `Each value ran ${plan.sweepSeeds} seeds (${SWEEP_SEED} to ${SWEEP_SEED + plan.sweepSeeds - 1}, tasks no main run draws) of ${plan.sweepUpdates} update${plan.sweepUpdates === 1 ? '' : 's'} per arm, scored on the ${games} validation games ` +
        `(games of training rooms that neither training nor the eval sets hold), ${evalSamples} sampled episode${evalSamples > 1 ? 's' : ''} per game; the eval sets play no part in any choice. ` +
        (plan.lrs.length > 1 && plan.lambdas.length > 1
          ? `The learning rates were swept first, at lambda ${lambdaDuringLrSweep(plan)}; the lambdas at each arm's chosen rate. `
          : '') +
        (plan.extend
          ? `A grid whose best value sat at an edge grew by one step past it (the ratio of its two values nearest that edge), for each arm on its own, at most ${plan.extend} time${plan.extend === 1 ? '' : 's'}. `
          : '') +
        'OPD / GRPO norm: the mean over updates of the ratio of the distillation and GRPO gradient norms, mean over seeds.',
      '',
      '| algorithm | setting | value | validation % (mean) | per seed % | OPD / GRPO norm |',
      '|---|---|---|---|---|---|',
      ...c.points.map(
        (p) =>
          `| ${p.algo} | ${p.param} | ${p.value} | ${pct(p.success)} | ${p.per_seed.map(pct).join(', ')} | ${fixed(p.grad_norm_ratio)} |`,
      ),
      '',
    );
    if (c.picked)
      parts.push(
        `The distilling arm that ran: ${c.picked.best}, best on validation at its chosen settings (${[c.picked.best, ...c.picked.dropped].map((a) => `${a} ${pct(c.picked!.success[a])}%`).join(', ')}); the others ran their sweeps only, and their controls ran as ${c.picked.best}'s.`,
        '',
      );
    if (c.edges?.length)
      parts.push(
        `Still at an edge of its grid when it stopped growing (the best may lie beyond): ${c.edges.map((e) => `${e.algo}'s ${e.param} ${e.value}`).join(', ')}.`,
        '',
      );
    const ratios = c.points
      .filter((p) => p.param === 'lambda' && p.grad_norm_ratio !== null)
      .map((p) => p.grad_norm_ratio!);
    if (ratios.length)
      parts.push(
        `The lambda grid spans OPD / GRPO norm ratios from ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}.`,
        '',
      );
  } else parts.push('No sweep: one learning rate and one lambda were given.', '');
  parts.push(
    '| arm | lr | chosen by | lambda or OPID weight | chosen by |',
    '|---|---|---|---|---|',
    ...[...c.settings].map(([a, s]) => {
      const [weight, how] = usesOpidWeight(a)
        ? [`opid weight ${s.opidWeight}`, s.how.opidWeight]
        : [distils(a) ? String(s.lambda) : '-', s.how.lambda];
      return `| ${a} | ${s.lr} | ${s.how.lr} | ${weight} | ${how} |`;
    }),
  );
  return parts.join('\n');
}
