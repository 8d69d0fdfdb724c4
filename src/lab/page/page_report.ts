// The reports of `bench page`: page (a world's: page_<world>) for Play and page_race (page_race_<world>)
// for the Race, each with its JSON beside it: the headline figures per seed (or arm), when the first evaluation
// and update showed, and where an update's time goes, stage by stage, as the page's engine timed it, closed by a
// paragraph that says it in words.
import { ofAlgo } from '../../rl/arms.ts';
import { theWorld } from '../../worlds/facts.ts';
import type { EnvironmentName } from '../../worlds/names.ts';
import type { SourceCommit } from '../../cli/provenance.ts';
import { reportHead } from '../output.ts';
import type { StageSplit } from './page_figures.ts';
import { TARGET_RISE, type SeedResult } from './page_play.ts';
import type { RaceResult } from './page_race.ts';

/** What every report states of how it ran. */
export interface ReportSetting {
  args: readonly string[];
  env: EnvironmentName;
  link: string;
  minutes: number;
  machine: string;
  commit: SourceCommit | null;
  /** The report's JSON file, named in the report. */
  jsonName: string;
}

export interface Failed {
  seed: number;
  error: string;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const secondsCell = (s: number | null) => (s === null ? 'none within the time' : `${Math.round(s)}`);
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** An update's parts in the order of the update, as the split names them; the scoring passes lie within rescore. */
const PARTS: readonly { label: string; of: (s: StageSplit) => number; within?: boolean }[] = [
  { label: 'rollout', of: (s) => s.stages.rolloutMs },
  { label: 'rewards', of: (s) => s.stages.rewardsMs },
  { label: 'skill writing', of: (s) => s.stages.skillsMs },
  { label: 'rescore', of: (s) => s.stages.rescoreMs },
  { label: 'scoring pass, current weights (the teacher with skills)', of: (s) => s.stages.currentPassMs, within: true },
  { label: 'scoring pass, reference weights (the KL term)', of: (s) => s.stages.referencePassMs, within: true },
  { label: 'loss and backward', of: (s) => s.stages.lossMs },
  { label: 'optimizer step', of: (s) => s.stages.optimizerMs },
  { label: 'evaluation (spread over the updates)', of: (s) => s.evalMsPerUpdate },
  { label: 'the rest (events to the page, checkpoints saved, the gaps between stages)', of: (s) => s.otherMs },
];

function head(title: string, o: ReportSetting, what: string): string[] {
  return [
    ...reportHead(title, 'page', o.args, o.commit),
    `Machine: ${o.machine}. Each seed: a fresh browser profile, the built site served from a sub-path, the page's defaults with \`#seed=S${o.link ? `&${o.link}` : ''}\`, ${what} for ${o.minutes} minute(s).`,
  ];
}

/** One table per seed (or arm): each part's mean milliseconds per update and its share of the update's wait. */
function splitTables(rows: readonly { name: string; split: StageSplit | null }[]): string[] {
  const lines = [
    '',
    '## Where an update’s time goes',
    '',
    "As the page's engine timed it (each update's point in the curves CSV): the mean milliseconds per update of each stage, the scoring passes within the rescore stage by the weights they score with, the evaluations spread over the updates, and each part's share of the wait from one update to the next. From the second update on: the first one's rollout runs at the start, on screen before Play, so its wait does not hold all of it.",
  ];
  for (const { name, split } of rows) {
    lines.push('', `${name}:`, '');
    if (!split) {
      lines.push('no update after the first was timed within the time.');
      continue;
    }
    lines.push(
      `${split.updates} timed update(s), ${ms(split.updateMs)} ms each; ${split.evaluations} evaluation(s) among them, ${split.evalMsEach === null ? '—' : `${ms(split.evalMsEach)} ms`} each; the warm start's evaluation ${split.warmStartEvalMs === null ? '—' : `${ms(split.warmStartEvalMs)} ms`}.`,
      '',
      '| part | ms per update | share of the wait |',
      '|---|---:|---:|',
    );
    for (const part of PARTS) {
      const value = part.of(split);
      const label = part.within ? `  of which ${part.label}` : part.label;
      lines.push(`| ${label} | ${ms(value)} | ${split.updateMs > 0 ? pct(value / split.updateMs) : '—'} |`);
    }
  }
  return lines;
}

/** The paragraph that closes a report: the largest parts of the wait, in words, from the splits' means. */
export function whereTimeGoes(world: string, splits: readonly StageSplit[]): string {
  if (splits.length === 0)
    return `In ${world} no update was timed within the time, so where its time goes is not measured here.`;
  const total = splits.reduce((sum, s) => sum + s.updateMs, 0);
  const mean = (of: (s: StageSplit) => number) => splits.reduce((sum, s) => sum + of(s), 0) / splits.length;
  const parts = PARTS.filter((p) => !p.within)
    .map((p) => ({ label: p.label.replace(/ \(.*\)$/, ''), share: (splits.length * mean(p.of)) / total }))
    .sort((a, b) => b.share - a.share);
  const [first, second, third] = parts;
  const passes = (splits.length * mean((s) => s.stages.currentPassMs + s.stages.referencePassMs)) / total;
  const each = splits.map((s) => s.evalMsEach).filter((x): x is number => x !== null);
  const evaluation = each.length
    ? ` One evaluation takes ${(each.reduce((a, b) => a + b, 0) / each.length / 1000).toFixed(1)} s.`
    : '';
  return (
    `In ${world} an update's wait is ${(mean((s) => s.updateMs) / 1000).toFixed(2)} s on average. ` +
    `Most of it is the ${first.label} (${pct(first.share)}), then the ${second.label} (${pct(second.share)}) and the ${third.label} (${pct(third.share)}); ` +
    `the scoring passes take ${pct(passes)}.${evaluation}`
  );
}

export function playReport(o: ReportSetting, results: readonly SeedResult[], failed: readonly Failed[]): string {
  const world = theWorld(o.env);
  const lines = [
    ...head(`The page's run in ${world}, in headless Chromium`, o, 'Play'),
    `Eval success is the page's last evaluation (eval-seen, eval-unseen); the rise is the mean of the two splits, from the warm start's evaluation (update 0) to the last one shown within the time; the target is ${TARGET_RISE} points. ` +
      'First eval and first update: seconds after Play until the page showed the warm start’s evaluation and its first update (the engine evaluates the warm start as soon as it starts; update 1 shows with its own evaluation).',
    '',
    '| seed | backend | threads | isolated | updates | updates/s | first eval (s) | first update (s) | GRPO signal | first eval (seen / unseen) | last eval (seen / unseen) | rise (points) | target |',
    '|---:|---|---:|---|---:|---:|---:|---:|---:|---|---|---:|---|',
  ];
  for (const r of results) {
    const first = r.evals[0];
    const last = r.evals[r.evals.length - 1];
    lines.push(
      `| ${r.seed} | ${r.backend} | ${r.threads} | ${r.crossOriginIsolated ? 'yes' : 'no'} | ${r.updates} | ${r.updatesPerSecond.toFixed(2)} | ${secondsCell(r.firstEvalSeconds)} | ${secondsCell(r.firstUpdateSeconds)} | ${r.grpoSignalShare === null ? '—' : pct(r.grpoSignalShare)} | ` +
        `${first ? `${pct(first.seen)} / ${pct(first.unseen)} (update ${first.update})` : '—'} | ${last ? `${pct(last.seen)} / ${pct(last.unseen)} (update ${last.update}, ${Math.round(last.seconds)} s)` : '—'} | ` +
        `${r.rise === null ? '—' : r.rise.toFixed(1)} | ${r.reached ? 'reached' : 'missed'} |`,
    );
  }
  for (const f of failed) lines.push(`| ${f.seed} | failed: ${f.error.replace(/\|/g, '/')} | | | | | | | | | | | |`);
  lines.push('', 'Eval curves (seconds after Play: update, eval-seen / eval-unseen):', '');
  for (const r of results)
    lines.push(
      `- seed ${r.seed}: ${r.evals.map((e) => `${Math.round(e.seconds)} s: ${e.update}, ${pct(e.seen)} / ${pct(e.unseen)}`).join('; ')}`,
    );
  lines.push(...splitTables(results.map((r) => ({ name: `Seed ${r.seed}`, split: r.stages }))));
  const splits = results.flatMap((r) => (r.stages ? [r.stages] : []));
  lines.push(
    '',
    whereTimeGoes(world, splits),
    '',
    `${o.jsonName} beside this report holds every evaluation of every seed and the timings.`,
    '',
  );
  return lines.join('\n');
}

export function raceReport(o: ReportSetting, results: readonly RaceResult[], failed: readonly Failed[]): string {
  const world = theWorld(o.env);
  const lines = [
    ...head(
      `The page's Race in ${world}, in headless Chromium`,
      o,
      'after the page’s own warm-start evaluation, the Race (GRPO against the hindsight arm, each arm in a worker of its own on half the cores)',
    ),
    'First eval and first update: seconds after the Race started until the arm showed its warm start’s evaluation and its first update. Paired: the evaluations after training began that both arms reached within the time (SEED − GRPO on eval-unseen, the mean over them as the page shows it).',
    '',
    '| seed | arm | backend | updates | updates/s | first eval (s) | first update (s) | GRPO signal | paired evaluations | first paired (s) | mean SEED − GRPO, eval-unseen |',
    '|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results)
    for (const a of r.arms)
      lines.push(
        `| ${r.seed} | ${a.algo} | ${r.backend} | ${a.updates} | ${a.updatesPerSecond.toFixed(2)} | ${secondsCell(a.firstEvalSeconds)} | ${secondsCell(a.firstUpdateSeconds)} | ${a.grpoSignalShare === null ? '—' : pct(a.grpoSignalShare)} | ` +
          `${r.pairs} | ${secondsCell(r.firstPairSeconds)} | ${r.meanDifference === null ? '—' : `${(100 * r.meanDifference).toFixed(1)} points`} |`,
      );
  for (const f of failed) lines.push(`| ${f.seed} | failed: ${f.error.replace(/\|/g, '/')} | | | | | | | | | |`);
  lines.push(
    ...splitTables(results.flatMap((r) => r.arms.map((a) => ({ name: `Seed ${r.seed}, ${a.algo}`, split: a.stages })))),
  );
  for (const algo of [...new Set(results.flatMap((r) => r.arms.map((a) => a.algo)))]) {
    const splits = results.flatMap((r) => r.arms.filter((a) => ofAlgo(algo)(a) && a.stages).map((a) => a.stages!));
    lines.push('', whereTimeGoes(`${world}'s ${algo} arm`, splits));
  }
  lines.push('', `${o.jsonName} beside this report holds every figure of every seed and arm.`, '');
  return lines.join('\n');
}
