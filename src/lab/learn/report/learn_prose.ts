// Every sentence of learn.md and the page that holds them, each a small function of the figures the statistics
// computed (stats/, sweeps/): the title, the provenance line, the paragraph on how the runs were played and
// measured, the headline, the arms, the notes under the diagnostics, the failed and refused runs, the score's
// section, the data-efficiency sentence, the sweeps' section and the curves. The tables are in learn_tables.ts;
// learn_fractions.md's own sentences in fractions_prose.ts, which shares the provenance line, the failures and
// the sweeps' section with this page.
import { cpus } from 'node:os';
import { printable } from '../../../common/json.ts';
import type { PresetName } from '../../../model/config.ts';
import type { Algo } from '../../../rl/arms.ts';
import { ARMS, distils } from '../../../rl/arms.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import { commitText, type SourceCommit } from '../../../cli/provenance.ts';
import { factsOf, theWorld } from '../../../worlds/facts.ts';
import { namedWorld, worldOrDefault, type EnvironmentName } from '../../../worlds/names.ts';
import { PRESET, SWEEP_SEED, type JobResult } from '../jobs/job.ts';
import { DEFAULT_BUDGET_MINUTES } from '../jobs/pool.ts';
import { CROSSGAME_CONTROL } from '../design/arms.ts';
import { evalGameCounts, SWEEP_GAMES } from '../design/games.ts';
import type { TeacherGap, TeacherRow } from '../stats/diagnostics.ts';
import type { Difference } from '../stats/differences.ts';
import type { BestArm } from '../sweeps/headline.ts';
import type { ScoreFigures } from '../stats/score.ts';
import { BOOTSTRAP_REPLICATES, pct, type AlgoRow, type Efficiency, type Estimate } from '../stats/stats.ts';
import type { PromotedControl } from '../sweeps/promote.ts';
import {
  lambdaDuringLrSweep,
  sweepsLambda,
  type ArmSettings,
  type Chosen,
  type FailedRun,
  type SweepPlan,
} from '../sweeps/sweep.ts';
import {
  diagnosticsTable,
  differenceCell,
  differenceTable,
  scoreDifferenceTable,
  scoreSeedOnlyTable,
  scoreTable,
  seedOnlyTable,
  settingsTable,
  sweepTable,
  teacherTable,
  typeTable,
} from './learn_tables.ts';

/** What a report's provenance line needs: the same in learn.md and learn_fractions.md. */
export interface RunFacts {
  commit: SourceCommit | null;
  wallSeconds: number;
  workers: number;
  estimatedSeconds: number;
  resumed?: number;
  planned?: string;
}

/** The line under a report's command: commit, configuration, wall time, and the runs an earlier invocation ran. */
export function provenanceLine(o: RunFacts, configHash: string): string {
  const minutes = (seconds: number) => (seconds / 60).toFixed(1);
  const resumed = o.resumed
    ? ` ${o.resumed} of the runs were taken from an earlier invocation of this command at this commit (--resume); their wall times in the table are those they took then.`
    : '';
  const planned = o.planned
    ? ` The runs ran as the jobs of a plan (${o.planned}, one command per job, on whatever machines ran them) and were collected here: the wall time is the collection's, and each run's own is in the table.`
    : '';
  return `Commit: ${commitText(o.commit)}; configuration hash ${configHash}; wall time ${minutes(o.wallSeconds)} min on ${cpus().length} cores (${o.workers} workers; estimated ${minutes(o.estimatedSeconds)} min before it ran).${resumed}${planned}`;
}

export const AREA_NOTE =
  'Area under the curve: per eval-unseen game, the area under its success against training episodes, from the warm start (0 episodes) to the end of the run ' +
  '(trapezoids between the points of the curve, the last one the final evaluation), divided by the episodes: the mean success over training, a rate like the others.';

/** The runs that gave no result, and those some of whose updates were refused (non-finite values). */
export function failureSection(failed: readonly FailedRun[], runs: readonly JobResult[], updates: number): string {
  const lines = [
    ...failed.map(
      (f) =>
        `- ${f.algo} seed ${f.seed} (${f.kind === 'sweep' ? 'sweep run, ' : ''}lr ${f.lr}${distils(f.algo) ? `, lambda ${f.lambda}` : ''}${f.rehearsal > 0 ? `, rehearsal ${f.rehearsal}` : ''}${f.trainGames > 0 ? `, ${f.trainGames} training games` : ''}): failed, no result: ${printable(f.error)}`,
    ),
    ...runs
      .filter((r) => r.skipped_updates > 0)
      .map(
        (r) =>
          `- ${r.algo} seed ${r.seed}: ${r.skipped_updates} of ${updates} updates refused for a non-finite loss or gradient (the weights kept their last good values)`,
      ),
  ];
  if (lines.length === 0) return 'None: every run finished, and no update was refused.';
  const note =
    'A failed run is left out of the tables and of every difference, which pairs only the seeds both of its arms finished.';
  return [...(failed.length ? [note, ''] : []), ...lines].join('\n');
}

/** "ahead (interval above zero)", "behind (...)" or "not separable (interval includes zero)". */
export function verdict(e: Estimate): string {
  if (!Number.isFinite(e.value)) return 'without a figure (no seeds in common)';
  if (e.ci[0] > 0) return 'ahead (95% interval above zero)';
  if (e.ci[1] < 0) return 'behind (95% interval below zero)';
  return 'not separable (95% interval includes zero)';
}

/** Why the headline's arm is the one: its validation success and the others', or that no sweep chose it. */
export function bestWhy(best: BestArm): string {
  if (best.validation === null)
    return best.candidates > 1 ? 'no sweep ran: the first distilling arm given' : 'the only distilling main arm';
  const others =
    best.scored.length > 1
      ? `, the best of ${best.scored.map((s) => `${s.algo} ${pct(s.validation)}%`).join(', ')}`
      : '';
  return `${pct(best.validation)}% on the ${SWEEP_GAMES} games at its chosen ${best.param}${others}`;
}

export const NO_DISTILLING_ARM = 'No main arm distils: no hindsight arm to compare with GRPO.';

/** The headline: the best distilling arm against GRPO and against its cross-game control, or why there is none. */
export function headlineText(
  best: BestArm | null,
  settings: ReadonlyMap<Algo, ArmSettings>,
  diffs: readonly Difference[],
): string {
  if (!best) return NO_DISTILLING_ARM;
  const s = settings.get(best.algo);
  const against = (b: Algo, name: string): string => {
    const d = diffs.find((x) => x.a === best.algo && x.b === b);
    if (!d) return `No ${b} runs: no difference to ${name}.`;
    return `Against ${name} (${d.label}): final success ${differenceCell(d.unseen)} points, ${verdict(d.unseen)}; area under the curve ${differenceCell(d.auc)}, ${verdict(d.auc)}.`;
  };
  const control = CROSSGAME_CONTROL[best.algo];
  return [
    `Best distilling arm: ${best.algo}${s ? ` (lambda ${s.lambda}, lr ${s.lr}, rehearsal ${s.rehearsal})` : ''}, ${bestWhy(best)}. On eval-unseen, paired by seed:`,
    against('grpo', 'GRPO'),
    control ? against(control, 'its cross-game control') : 'It has no cross-game control.',
  ].join(' ');
}

/** What the promoted controls did: each led GRPO on the controls' seeds, so it ran as many as a main arm. */
export function promotedText(promoted: readonly PromotedControl[], seeds: number): string {
  return promoted
    .map(
      (p) =>
        `${p.algo} led grpo on eval-unseen over seeds ${p.seeds.join(', ')} (+${(100 * p.lead).toFixed(1)} points, mean of the paired differences), so it ran ${seeds} seeds, as a main arm. `,
    )
    .join('');
}

/** The data-efficiency sentence of the distilling arm `arm` (stats.ts, dataEfficiency); null: no main arm distils. */
export function efficiencyText(
  e: Efficiency | null,
  arm: string,
  episodesPerRun: number,
  algos: readonly string[],
): string {
  if (e === null) return 'No main arm distils: no data-efficiency figure.';
  const share = (x: number) => `${x} of ${episodesPerRun} episodes (${pct(x / episodesPerRun)}%)`;
  const reach = (target: number) => `GRPO's final eval-unseen success (${pct(target)}%)`;
  switch (e.kind) {
    case 'missing':
      return `Data efficiency needs both GRPO and ${arm} runs; this benchmark ran only ${algos.join(', ') || 'ablations'}.`;
    case 'low':
      return `GRPO's final eval-unseen success (${pct(e.target)}%) is not above the warm start's (${pct(e.warm)}%), so there is no GRPO result for ${arm} to reach: no data-efficiency figure.`;
    case 'stays':
      return (
        `${arm} reaches ${reach(e.target)} after ${share(e.episodes)} and stays there` +
        (e.touched === null ? '.' : ` (its mean curve first touched it after ${e.touched}).`)
      );
    case 'touches':
      return `${arm} does not reach ${reach(e.target)} to stay: its mean curve touches it after ${share(e.touched)} but ends at ${pct(e.end)}%.`;
    case 'never':
      return `${arm}'s mean curve does not reach ${reach(e.target)} within ${episodesPerRun} episodes.`;
  }
}

/**
 * The teacher gap at each arm's first and last check (diagnostics.ts, teacherGaps), and at the last the gap
 * taken apart into the block and the content effect; empty when no run checked.
 */
function teacherText(
  gaps: readonly { arm: string; first: TeacherGap; last: TeacherGap }[],
  rows: ReadonlyMap<string, TeacherRow[]>,
): string {
  if (gaps.length === 0) return '';
  const gap = (g: TeacherGap) => `${g.value >= 0 ? '+' : ''}${pct(g.value)} points after update ${g.update}`;
  const parts = gaps.map((g) => `${g.arm} ${gap(g.first)}, ${gap(g.last)}`);
  const apart = [...rows].map(([arm, rs]) => {
    const last = rs[rs.length - 1];
    return `${arm} after update ${last.update}: block ${differenceCell(last.block)}, content ${differenceCell(last.content)}`;
  });
  return (
    `Teacher gap (own skill minus no skill on the validation games; mean over seeds): ${parts.join('; ')}. ` +
    "Taken apart at the last check into the block effect (another game's skill minus no skill: a block of advice, " +
    "whatever it says) and the content effect (own skill minus another game's: what its facts add), points with " +
    `95% intervals over seeds: ${apart.join('; ')}. The table gives both at every check, with the blank block ` +
    '(a skill block as long as the own skill that holds no words).'
  );
}

/** The report's section on the sweeps (sweep.ts chose the settings) and on how each arm's settings were chosen. */
export function sweepSection(
  c: Pick<Chosen, 'settings' | 'points'> & Partial<Pick<Chosen, 'edges' | 'picked'>>,
  plan: SweepPlan,
  evalEpisodes: number,
  evalSamples: number,
): string {
  const world = worldOrDefault(plan.env);
  const games = evalGameCounts(evalEpisodes, world).sweep;
  const parts: string[] = [];
  if (c.points.length) {
    parts.push(
      `Each value ran ${plan.sweepSeeds} seeds (${SWEEP_SEED} to ${SWEEP_SEED + plan.sweepSeeds - 1}, tasks no main run draws) of ${plan.sweepUpdates} update${plan.sweepUpdates === 1 ? '' : 's'} per arm, scored on the ${games} ${SWEEP_GAMES} games ` +
        `(of what training holds out, in ${factsOf(world).words.clusters} that neither training nor the eval sets hold), ${evalSamples} sampled episode${evalSamples > 1 ? 's' : ''} per game; the eval sets play no part in any choice. ` +
        (plan.lrs.length > 1 && sweepsLambda(plan)
          ? `The learning rates were swept first, at lambda ${lambdaDuringLrSweep(plan)}; the lambdas at each arm's chosen rate. `
          : '') +
        (plan.rehearsals.length > 1
          ? `The rehearsal weights were swept after the rates and lambdas, at each arm's chosen ones, which were chosen at rehearsal ${plan.base.rehearsal}. `
          : '') +
        (plan.lambdaGrids
          ? `Each distilling arm's lambdas were set for OPD shares of the gradient of ${plan.opdShares!.map((s) => `${pct(s)}%`).join(', ')} by ${theWorld(worldOrDefault(plan.env))}'s measured OPD / GRPO norm ratio per lambda (bench/notes/opd_share.md): ${Object.entries(
              plan.lambdaGrids,
            )
              .map(([a, grid]) => `${a} ${grid.join(', ')}`)
              .join('; ')}. `
          : '') +
        (plan.extend
          ? `A grid whose best value sat at an edge grew by one step past it (the ratio of its two values nearest that edge), for each arm on its own, at most ${plan.extend} time${plan.extend === 1 ? '' : 's'}. `
          : '') +
        'OPD / GRPO norm: the mean over updates of the ratio of the distillation and GRPO gradient norms, mean over seeds; ' +
        'OPD share of the gradient: the mean OPD norm / (the mean GRPO norm + the mean OPD norm), means over updates, then seeds.',
      '',
      sweepTable(c.points),
      '',
    );
    if (c.picked)
      parts.push(
        `The distilling arm that ran: ${c.picked.best}, best on ${SWEEP_GAMES} at its chosen settings (${[c.picked.best, ...c.picked.dropped].map((a) => `${a} ${pct(c.picked!.success[a])}%`).join(', ')}); the others ran their sweeps only, and their controls ran as ${c.picked.best}'s.`,
        '',
      );
    if (c.edges?.length)
      parts.push(
        `Still at an edge of its grid when it stopped growing (the best may lie beyond): ${c.edges.map((e) => `${e.algo}'s ${e.param} ${e.value}`).join(', ')}.`,
        '',
      );
    const shares = c.points.filter((p) => p.param === 'lambda' && p.opd_share !== null).map((p) => p.opd_share!);
    if (shares.length)
      parts.push(
        `The lambda grid spans OPD shares of the gradient from ${pct(Math.min(...shares))}% to ${pct(Math.max(...shares))}%.`,
        '',
      );
  } else parts.push('No sweep: one learning rate, one lambda and one rehearsal weight were given.', '');
  parts.push(settingsTable(c.settings));
  return parts.join('\n');
}

/** The score's section, in a world with a score; `words` says what its score is. */
function scoreSection(s: ScoreFigures, words: string): string {
  return [
    `## Score (${words})`,
    '',
    "The mean of the world's score of each episode, in [0, 1] (0 without an outcome; success is a score of 1), " +
      'reported beside success as the benchmark the world is modelled on reports it: on the same final evaluations and curves ' +
      "as success, with the same intervals. Its differences are paired as success's are.",
    '',
    scoreTable(s),
    '',
    scoreDifferenceTable(s),
    '',
    'The same differences with intervals over seeds alone, and how many of the common seeds are ahead:',
    '',
    scoreSeedOnlyTable(s),
  ].join('\n');
}

/** The cross-game controls' sources of skills, summed over their runs (job.ts, JobResult.crossgame). */
interface SkillSources {
  update: number;
  pool: number;
  none: number;
}

/** What each arm is, how many seeds each kind ran, and where the cross-game controls' skills came from. */
function armsText(p: LearnPage): string {
  const { update, pool, none } = p.sources;
  const total = update + pool + none;
  const seeds = (k: number) => `${k} seed${k === 1 ? '' : 's'}`;
  return [
    ...p.arms.map((a) => `- ${a}: ${ARMS[a].note}`),
    '',
    `The main arms (${p.algos.join(', ') || 'none'}) ran ${seeds(p.seeds)} each, the controls (${p.controls.join(', ') || 'none'}) ${seeds(p.controlSeeds)} each, the ablations (${p.ablations.join(', ') || 'none'}) one seed each, ` +
      "each control and ablation at the learning rate and lambda of the arm it varies (the settings section says which). Each control changes only the skill a trajectory distils from; rollouts, rewards and advantages are its arm's. " +
      promotedText(p.promoted ?? [], p.seeds) +
      "If a distilling arm does no better than its cross-game control, the facts of the trajectory's own game carry no credit." +
      (total
        ? ` The cross-game controls' skills came from another group of the same update for ${pct(update / total)}% of its trajectories, from the pool of earlier updates' skills for ${pct(pool / total)}%, and ${pct(none / total)}% had none (no OPD signal).`
        : ''),
  ].join('\n');
}

const DIAGNOSTICS_NOTE =
  "Skill fidelity: how well the skill used for OPD names what its trajectory met (mention F1 against the rule-based annotator's skill of that trajectory, 1 = the same mentions; each world's RlWorld.skillFidelity). " +
  'corr(Delta, A): per update, the Pearson correlation of Delta with the group advantage over the decision tokens (command tokens with a skill at which the decoding mask allowed more than one token; src/rl/loss.ts). ' +
  "GRPO and OPD gradient norms: the norms of the two parts of an update's gradient before clipping, and their ratio (how much of the step the distillation term drives); divergence to the teacher: the mean D(student, teacher) an exact arm distils, over the decision tokens under the OPD mask (src/rl/trainer.ts, UpdateMetrics). " +
  'OPD share of the gradient: the mean OPD norm / (the mean GRPO norm + the mean OPD norm), a ratio of the means over updates and seeds, not a mean of ratios. ' +
  "Delta-dependent share of the OPD coefficient: per update, over the decision tokens, sum (g - g0)^2 / sum (g0^2 + (g - g0)^2), with g the gate and g0 its value at Delta = 0 (1/2, or 1 with the gate off): the part of the sampled-token coefficient that the skill's shift makes, the rest being self-imitation; n/a under exact distillation, which has no sampled-token coefficient (src/rl/opd_share.ts). " +
  'Every other figure is a mean over the updates where it is defined, then over seeds.';

/** Everything learn.md says: the outcome's facts (report.ts, LearnOutcome) and the figures computed from them. */
export interface LearnPage extends RunFacts, SweepPlan {
  env?: EnvironmentName;
  preset?: PresetName;
  command: string;
  init: string;
  base: TrainConfig;
  full: boolean;
  seeds: number;
  controlSeeds: number;
  updates: number;
  evalEpisodes: number;
  evalSamples: number;
  settings: Map<Algo, ArmSettings>;
  points: Chosen['points'];
  edges?: Chosen['edges'];
  picked?: Chosen['picked'];
  promoted?: PromotedControl[];
  warm: JobResult;
  runs: JobResult[];
  failed: FailedRun[];
  /** Every arm in the report's order: main arms, controls, ablations. */
  arms: Algo[];
  configHash: string;
  episodesPerRun: number;
  /** The room layouts (or the world's clusters) of eval-seen and eval-unseen. */
  clusterCounts: { seen: number; unseen: number };
  headline: string;
  table: string;
  efficiency: string;
  rows: AlgoRow[];
  teacherGaps: { arm: string; first: TeacherGap; last: TeacherGap }[];
  teacherRows: ReadonlyMap<string, TeacherRow[]>;
  differences: Difference[];
  score: ScoreFigures | null;
  sources: SkillSources;
  /** The curve plot's file name beside learn.md. */
  curveFile: string;
}

/** learn.md: its sections in order, each sentence from the figures. */
export function learnMarkdown(p: LearnPage): string {
  const { base, warm, updates, evalSamples } = p;
  const world = worldOrDefault(p.env);
  const { words } = factsOf(world);
  const layouts = `${p.clusterCounts.seen} and ${p.clusterCounts.unseen} ${words.clusters}`;
  return [
    `# Learning benchmark: GRPO and hindsight distillation on the ${p.preset ?? PRESET} preset${namedWorld(world) ? `, in ${theWorld(world)}` : ''}`,
    '',
    `Command: \`${p.command}\`  `,
    provenanceLine(p, p.configHash),
    ...(p.full
      ? [
          '',
          `A --full run: ${p.seeds} seeds per main arm and ${p.controlSeeds} per control, longer than the default's budget of ${DEFAULT_BUDGET_MINUTES} minutes on 2 cores.`,
        ]
      : []),
    '',
    `Every run starts from the same warm start (${p.init}) and plays ${base.resampleRounds > 0 ? 'at least ' : ''}${p.episodesPerRun} training episodes (${updates} updates of ${base.tasksPerUpdate} tasks x ${base.groupSize} episodes). ` +
      `Seed k draws the same training tasks in every arm (the tasks of update u depend only on the run seed and u), so differences are paired by seed${base.resampleRounds > 0 ? ` up to the replaced groups: a group whose episodes all got the same reward is replaced by a fresh task, up to ${base.resampleRounds} rounds per update, which depends on the rewards; the curves count every episode played` : ''}. ` +
      `Success is measured on the fixed eval-seen (${warm.won_seen.length} games) and eval-unseen (${warm.won_unseen.length} games) sets, ${layouts}, at temperature ${base.evalTemperature}${evalSamples > 1 ? `, ${evalSamples} sampled episodes per game at the end of a run (the curves sample each game once)` : ''}. ` +
      `${AREA_NOTE} ` +
      `95% intervals: percentile bootstrap over seeds and ${words.clusters} (${BOOTSTRAP_REPLICATES} replicates from a seeded Rng): a replicate draws seeds and clusters with replacement and averages over the games of the drawn clusters, since ${words.clusterShares}.`,
    '',
    p.headline,
    '',
    p.table,
    '',
    '## Arms',
    '',
    armsText(p),
    '',
    '## Diagnostics (mean over updates, then seeds)',
    '',
    diagnosticsTable(p.rows),
    '',
    DIAGNOSTICS_NOTE,
    '',
    teacherText(p.teacherGaps, p.teacherRows),
    '',
    teacherTable(p.teacherRows),
    '',
    '## Runs that failed or were refused',
    '',
    failureSection(p.failed, p.runs, updates),
    '',
    '## Per task type (mean over seeds, %)',
    '',
    typeTable(warm, p.rows),
    '',
    '## Differences, paired by seed, over layouts',
    '',
    "Each arm against grpo and against the warm start, each distilling arm against its cross-game control, and each other control or ablation against the arm it varies. A difference uses the seeds both arms ran (listed); a replicate draws the same seeds and the same layouts for both sides, so what a seed's training tasks or a room make easy cancels out.",
    '',
    differenceTable(p.differences),
    '',
    'The same differences with intervals over seeds alone: a bootstrap of the per-seed differences with the eval games held fixed (what another draw of training runs would change), and how many of the common seeds are ahead.',
    '',
    seedOnlyTable(p.differences),
    '',
    ...(p.score ? [scoreSection(p.score, words.score ?? '0 to 1'), ''] : []),
    '## Data efficiency',
    '',
    p.efficiency,
    '',
    '## Settings chosen on validation',
    '',
    sweepSection(p, p, p.evalEpisodes, evalSamples),
    '',
    '## Settings',
    '',
    "The base configuration; each run's lr, lambda and rehearsal weight are those its row above gives.",
    '',
    '```json',
    JSON.stringify(base, null, 2),
    '```',
    '',
    `![learning curves](${p.curveFile}.svg)`,
    '',
    '## Eval-unseen curves (training episodes: success)',
    '',
    ...p.runs.map((r) => `- ${r.algo} seed ${r.seed}: ${r.curve.map(([e, v]) => `${e}: ${pct(v)}%`).join(', ')}`),
    '',
  ].join('\n');
}
