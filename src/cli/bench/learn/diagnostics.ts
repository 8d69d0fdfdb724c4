// The diagnostics table of `bench learn`: per arm, the skill, Delta and gate figures and the means of the
// update metrics listed in MEAN_METRICS (update_means.ts), each a mean over updates, then over seeds.
import type { AlgoRow } from './stats.ts';
import { pct } from './stats.ts';
import { MEAN_METRIC_KEYS, MEAN_METRICS } from './update_means.ts';

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
/** Three significant digits: the norms span orders of magnitude. */
const figure = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(3)).toString() : 'n/a');

export function diagnosticsTable(rows: readonly AlgoRow[]): string {
  return [
    `| algorithm | valid skills % | skill fidelity | mean Delta / gate | corr(Delta, A) | ${MEAN_METRIC_KEYS.map((k) => MEAN_METRICS[k]).join(' | ')} |`,
    `|---|---|---|---|---|${MEAN_METRIC_KEYS.map(() => '---').join('|')}|`,
    ...rows.map(
      (r) =>
        `| ${r.algo} | ${pct(r.validSkill)} | ${fixed(r.fidelity, 2)} | ${Number.isFinite(r.gate) ? `${r.delta.toFixed(3)} / ${r.gate.toFixed(3)}` : 'n/a'} | ${fixed(r.corr, 3)} | ` +
        `${MEAN_METRIC_KEYS.map((k) => figure(r.metrics[k])).join(' | ')} |`,
    ),
  ].join('\n');
}

/** Per arm, per metric of MEAN_METRICS, its mean over updates and seeds (null when no run had one): for learn.json. */
export function diagnosticsJson(rows: readonly AlgoRow[]): Record<string, Record<string, number | null>> {
  return Object.fromEntries(rows.map((r) => [r.algo, Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, Number.isFinite(r.metrics[k]) ? r.metrics[k] : null]))]));
}
