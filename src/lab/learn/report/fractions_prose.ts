// Every sentence and table of learn_fractions.md (the data-fraction runs, stats/fractions.ts), each a function of
// the figures: the title, the paragraph on how the runs were played, the headline, the table per fraction and
// arm, and the differences; the provenance line, the failures and the sweeps' section are learn.md's
// (learn_prose.ts).
import type { Algo } from '../../../rl/arms.ts';
import { distils } from '../../../rl/arms.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import { factsOf } from '../../../worlds/facts.ts';
import { worldOrDefault } from '../../../worlds/names.ts';
import type { JobResult } from '../jobs/job.ts';
import type { FractionDifference, FractionRow } from '../stats/fractions.ts';
import type { BestArm } from '../sweeps/headline.ts';
import { BOOTSTRAP_REPLICATES, pct, type Estimate } from '../stats/stats.ts';
import type { ArmSettings, Chosen, FailedRun, SweepPlan } from '../sweeps/sweep.ts';
import {
  AREA_NOTE,
  bestWhy,
  failureSection,
  NO_DISTILLING_ARM,
  provenanceLine,
  sweepSection,
  verdict,
  type RunFacts,
} from './learn_prose.ts';
import { differenceCell } from './learn_tables.ts';

const label = (d: Pick<FractionDifference, 'a' | 'aFraction' | 'b' | 'bFraction'>) =>
  `${d.a} at ${d.aFraction} - ${d.b} at ${d.bFraction}`;
const interval = (e: Estimate) => `${pct(e.value)} [${pct(e.ci[0])}, ${pct(e.ci[1])}]`;

/** Per fraction and arm: its training games, seeds, lambda, final eval-unseen success, area and wall time. */
export function fractionsTable(rows: readonly FractionRow[], settings: ReadonlyMap<Algo, ArmSettings>): string {
  return [
    '| fraction | training games | algorithm | seeds | lambda | eval-unseen % [95% CI] | area under the curve % [95% CI] | wall s/run |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const lambda = distils(r.algo) ? String(settings.get(r.algo)?.lambda ?? 'n/a') : '-';
      return `| ${r.fraction} | ${r.trainGames} | ${r.algo} | ${r.seeds} | ${lambda} | ${interval(r.unseen)} | ${interval(r.auc)} | ${r.wall.toFixed(0)} |`;
    }),
  ].join('\n');
}

/** The headline: the best distilling arm (on validation) against grpo at each fraction, and with less data against grpo with the most. */
export function fractionsHeadline(best: BestArm | null, diffs: readonly FractionDifference[]): string {
  if (!best) return NO_DISTILLING_ARM;
  const mine = diffs.filter((d) => d.a === best.algo);
  if (!mine.length) return `Best distilling arm: ${best.algo} (${bestWhy(best)}); no GRPO runs to compare it with.`;
  return [
    `Best distilling arm: ${best.algo}, ${bestWhy(best)}. On eval-unseen, paired by seed:`,
    ...mine.map(
      (d) =>
        `${label(d)}: final success ${differenceCell(d.unseen)} points, ${verdict(d.unseen)}; area under the curve ${differenceCell(d.auc)}, ${verdict(d.auc)}.`,
    ),
  ].join(' ');
}

/** Everything learn_fractions.md says: the outcome's facts (FractionsOutcome) and the figures computed from them. */
export interface FractionsPage extends RunFacts, SweepPlan {
  command: string;
  init: string;
  base: TrainConfig;
  updates: number;
  evalEpisodes: number;
  evalSamples: number;
  settings: Map<Algo, ArmSettings>;
  points: Chosen['points'];
  failed: FailedRun[];
  warm: JobResult;
  configHash: string;
  /** The room layouts (or the world's clusters) of eval-unseen. */
  clusterCount: number;
  headline: string;
  table: string;
  differences: readonly FractionDifference[];
  /** Every run of every fraction. */
  runs: readonly JobResult[];
}

/** learn_fractions.md: its sections in order. */
export function fractionsMarkdown(p: FractionsPage): string {
  const { base } = p;
  const tasks = p.updates * base.tasksPerUpdate;
  return [
    '# Data-fraction sweep: GRPO and hindsight distillation with less training data',
    '',
    `Command: \`${p.command}\`  `,
    provenanceLine(p, p.configHash),
    '',
    `Every run starts from the same warm start (${p.init}) and plays ${p.updates} updates of ${base.tasksPerUpdate} tasks x ${base.groupSize} episodes, as in learn.md, ` +
      `but its ${tasks} tasks cycle through a fraction of that many training games (trainGames), so a game comes back once the run has played them all. ` +
      `Seed k draws the same training games in every arm at a fraction, so differences are paired by seed. The eval-unseen set (${p.warm.won_unseen.length} games, ${p.clusterCount} ${factsOf(worldOrDefault(p.env)).words.clusters}) ` +
      `is played at temperature ${base.evalTemperature}${p.evalSamples > 1 ? `, ${p.evalSamples} sampled episodes per game at the end of a run` : ''}. ${AREA_NOTE} ` +
      `95% intervals: percentile bootstrap over seeds and ${factsOf(worldOrDefault(p.env)).words.clusters} (${BOOTSTRAP_REPLICATES} replicates). The warm start's eval-unseen success: ${pct(p.warm.success_unseen)}%.`,
    '',
    p.headline,
    '',
    p.table,
    '',
    '## Differences, paired by seed, over layouts',
    '',
    '| difference | seeds | eval-unseen points [95% CI] | area under the curve, points [95% CI] |',
    '|---|---|---|---|',
    ...p.differences.map(
      (d) =>
        `| ${label(d)} | ${d.unseen.seeds.join(', ') || 'none in common'} | ${differenceCell(d.unseen)} | ${differenceCell(d.auc)} |`,
    ),
    '',
    '## Runs that failed or were refused',
    '',
    failureSection(p.failed, p.runs, p.updates),
    '',
    '## Settings chosen on validation',
    '',
    'The sweeps train on every training game (no fraction).',
    '',
    sweepSection(p, p, p.evalEpisodes, p.evalSamples),
    '',
    '## Settings',
    '',
    '```json',
    JSON.stringify(base, null, 2),
    '```',
    '',
  ].join('\n');
}
