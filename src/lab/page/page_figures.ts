// What `bench page` reads off the page's curves CSV (src/ui/curves_csv.ts): the evaluations, the share of updates
// with a GRPO signal, and where an update's time goes, stage by stage, as the page's engine timed it
// (src/worker/update_timing.ts). Rows are those of one `source` (live: the page's own run; race: a race's arms) and,
// for a race, one arm.

/** The rows of `source` (and of the run `run`, when given) in the curves CSV, each a lookup by column name. */
function csvRows(csv: string, source: string, run?: string): ((column: string) => string)[] {
  const [head, ...rows] = csv.trim().split('\n');
  const columns = head.split(',');
  return rows
    .map((r) => r.split(','))
    .map((cells) => (column: string) => cells[columns.indexOf(column)] ?? '')
    .filter((cell) => cell('source') === source && (run === undefined || cell('run') === run));
}

/** The share of the live run's updates in the curves CSV whose L_GRPO is not zero. */
export function grpoSignalShare(csv: string, source = 'live', run?: string): number | null {
  const values = csvRows(csv, source, run)
    .filter((cell) => cell('L_GRPO') !== '')
    .map((cell) => Number(cell('L_GRPO')));
  return values.length ? values.filter((v) => v !== 0).length / values.length : null;
}

export interface EvalPoint {
  /** Seconds since Play was pressed when the page showed this evaluation. */
  seconds: number;
  update: number;
  seen: number;
  unseen: number;
}

/** A reading of an update count, `seconds` after Play. */
export interface UpdateSample {
  seconds: number;
  update: number;
}

/**
 * The run's evaluations in the curves CSV up to update `through` (the last one shown within the time), each
 * timed by the first reading that showed its update done: the CSV holds every evaluation, where a reading once a
 * second can miss some.
 */
export function evalsFromCsv(
  csv: string,
  samples: readonly UpdateSample[],
  through: number,
  source = 'live',
  run?: string,
): EvalPoint[] {
  const evals: EvalPoint[] = [];
  for (const cell of csvRows(csv, source, run)) {
    if (cell('evalSeen') === '' || cell('evalUnseen') === '') continue;
    const update = Number(cell('update'));
    if (update > through) continue;
    const shown = samples.find((s) => s.update >= update);
    evals.push({
      seconds: shown?.seconds ?? samples[samples.length - 1]?.seconds ?? 0,
      update,
      seen: Number(cell('evalSeen')),
      unseen: Number(cell('evalUnseen')),
    });
  }
  return evals.sort((a, b) => a.update - b.update);
}

/** Eval success in points: the mean of the two splits. */
const meanPoints = (e: EvalPoint) => (100 * (e.seen + e.unseen)) / 2;

export function riseOf(evals: readonly EvalPoint[]): number | null {
  return evals.length < 2 ? null : meanPoints(evals[evals.length - 1]) - meanPoints(evals[0]);
}

/** The seconds of the first reading at or past `update`, null when none was. */
export function secondsTo(samples: readonly UpdateSample[], update: number): number | null {
  return samples.find((s) => s.update >= update)?.seconds ?? null;
}

/** The parts of an update the engine times, as the CSV names them, in the order of the update. */
const STAGE_COLUMNS = [
  'rolloutMs',
  'rewardsMs',
  'skillsMs',
  'rescoreMs',
  'currentPassMs',
  'referencePassMs',
  'lossMs',
  'optimizerMs',
] as const;
type StageColumn = (typeof STAGE_COLUMNS)[number];

/** Where the updates' time went: means per timed update (the scoring passes are within the stages that ran them). */
export interface StageSplit {
  /** Updates from the second whose whole wait the engine timed (updateMs), up to the last one shown within the time. */
  updates: number;
  /** Mean wait per update, its evaluation included. */
  updateMs: number;
  stages: Record<StageColumn, number>;
  /** Evaluation time per update (the evaluations of these updates, spread over them). */
  evalMsPerUpdate: number;
  /** Evaluations among these updates, and the mean time of one. */
  evaluations: number;
  evalMsEach: number | null;
  /** The rest of the wait: the page's events, the checkpoints saved, the gaps between stages. */
  otherMs: number;
  /** The warm start's evaluation (update 0), when the CSV has it. */
  warmStartEvalMs: number | null;
}

const number = (text: string) => (text === '' ? null : Number(text));

/**
 * The split of the timed updates of `source` (and `run`) up to update `through`; null when none was timed. Update 1
 * is left out: its rollout runs at the start, on screen before Play, so its wait does not hold all of it.
 */
export function stageSplit(csv: string, through: number, source = 'live', run?: string): StageSplit | null {
  const rows = csvRows(csv, source, run);
  const timed = rows.filter((cell) => {
    const update = Number(cell('update'));
    return update >= 2 && update <= through && number(cell('updateMs')) !== null;
  });
  const warm = rows.find((cell) => cell('update') === '0');
  const warmStartEvalMs = warm ? number(warm('evalMs')) : null;
  if (timed.length === 0) return null;
  const mean = (column: string) => timed.reduce((sum, cell) => sum + (number(cell(column)) ?? 0), 0) / timed.length;
  const stages = Object.fromEntries(STAGE_COLUMNS.map((c) => [c, mean(c)])) as Record<StageColumn, number>;
  const evaluated = timed.filter((cell) => number(cell('evalMs')) !== null);
  const updateMs = mean('updateMs');
  const evalMsPerUpdate = mean('evalMs');
  const inStages =
    stages.rolloutMs + stages.rewardsMs + stages.skillsMs + stages.rescoreMs + stages.lossMs + stages.optimizerMs;
  return {
    updates: timed.length,
    updateMs,
    stages,
    evalMsPerUpdate,
    evaluations: evaluated.length,
    evalMsEach: evaluated.length ? (evalMsPerUpdate * timed.length) / evaluated.length : null,
    otherMs: updateMs - inStages - evalMsPerUpdate,
    warmStartEvalMs,
  };
}
