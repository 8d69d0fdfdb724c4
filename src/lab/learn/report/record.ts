// The record of a finished `bench learn` for the page (src/rl/recorded_run.ts, `--record FILE`): built from the
// benchmark's outcome and its report (the same figures and intervals as learn.md), written to FILE and listed
// in index.json beside it, both naming the world the benchmark played (the outcome's `env`; none for the default
// world). The page loads from public/runs/ the index's newest record of the world it shows.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { quote } from '../../../common/json.ts';
import type { Algo } from '../../../rl/arms.ts';
import {
  MAX_RECORD_BYTES,
  RECORD_FORMAT,
  RECORD_INDEX_FORMAT,
  RECORD_VERSION,
  type ArmRole,
  type CurvePoint,
  type Interval,
  type RecordIndex,
  type RecordedArm,
  type RecordedRun,
  type RecordedTeacherCheck,
} from '../../../rl/recorded_run.ts';
import { checkRecordIndex } from '../../../rl/recorded_run_check.ts';
import { namedWorld, worldOrDefault } from '../../../worlds/names.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { commitId } from '../../../cli/provenance.ts';
import { teacherRows, type TeacherRow } from '../stats/diagnostics.ts';
import { writeOutput } from '../../output.ts';
import type { LearnOutcome, LearnReport } from './report.ts';
import { ofAlgo } from '../../../rl/arms.ts';

/** Success rates and intervals to 4 decimals: what a reader of the page needs, in a small file. */
const r4 = (x: number) => (Number.isFinite(x) ? Math.round(x * 1e4) / 1e4 : x);
const rate = (x: number | null) => (x === null ? null : r4(x));
const interval = (value: number, ci: [number, number]): Interval => ({ value: r4(value), ci: [r4(ci[0]), r4(ci[1])] });
/** One row of the report's teacher table (diagnostics.ts), as the record keeps it. */
const teacherCheck = (r: TeacherRow): RecordedTeacherCheck => ({
  update: r.update,
  seeds: r.seeds,
  none: r4(r.no_skill),
  own: r4(r.own_skill),
  other: r4(r.other_skill),
  blank: r4(r.blank_skill),
  block: interval(r.block.value, r.block.ci),
  content: interval(r.content.value, r.content.ci),
});

export function buildRecord(o: LearnOutcome, report: LearnReport, created: Date): RecordedRun {
  const roles: [Algo, ArmRole][] = [
    ...o.algos.map((a) => [a, 'main'] as [Algo, ArmRole]),
    ...o.controls.map((a) => [a, 'control'] as [Algo, ArmRole]),
    ...o.ablations.map((a) => [a, 'ablation'] as [Algo, ArmRole]),
  ];
  const arms: RecordedArm[] = [];
  const teacher = teacherRows(o.runs);
  for (const [algo, role] of roles) {
    const runs = o.runs.filter(ofAlgo(algo)).sort((a, b) => a.seed - b.seed);
    const row = report.rows.find(ofAlgo(algo));
    if (!runs.length || !row) continue;
    const s = o.settings.get(algo);
    arms.push({
      algo,
      role,
      lr: row.lr,
      ...(s === undefined ? {} : { lambda: s.lambda, rehearsal: s.rehearsal }),
      final: { seen: interval(row.seen, row.seenCi), unseen: interval(row.unseen, row.unseenCi) },
      seeds: runs.map((r) => ({
        seed: r.seed,
        curve: [[0, 0, o.warm.success_seen, o.warm.success_unseen] as CurvePoint, ...(r.recorded?.curve ?? [])].map(
          ([u, e, s, n]): CurvePoint => [u, e, rate(s), rate(n)],
        ),
        final: { seen: r4(r.success_seen), unseen: r4(r.success_unseen) },
      })),
      ...(teacher.has(algo) ? { teacher: teacher.get(algo)!.map(teacherCheck) } : {}),
    });
  }
  const order = (a: Algo) => roles.findIndex(([x]) => x === a);
  const episodes = o.runs
    .flatMap((r) => r.recorded?.episodes ?? [])
    .sort((a, b) => order(a.algo) - order(b.algo) || a.update - b.update);
  const env = namedWorld(worldOrDefault(o.env));
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    ...(env === undefined ? {} : { env }),
    command: o.command,
    commit: commitId(o.commit),
    created: created.toISOString(),
    preset: 'tiny',
    updates: o.updates,
    episodesPerUpdate: o.base.tasksPerUpdate * o.base.groupSize,
    evalEvery: o.evalEvery,
    evalGames: { seen: o.evalGames.seen.length, unseen: o.evalGames.unseen.length },
    config: { ...o.base },
    warmstart: { seen: r4(o.warm.success_seen), unseen: r4(o.warm.success_unseen) },
    ...(report.best && arms.some(ofAlgo(report.best)) ? { headline: report.best } : {}),
    arms,
    differences: report.differences.map((d) => ({
      a: d.a,
      b: d.b,
      seeds: d.unseen.seeds,
      seen: interval(d.seen.value, d.seen.ci),
      unseen: interval(d.unseen.value, d.unseen.ci),
    })),
    episodes,
  };
}

function indexPath(file: string): string {
  return join(dirname(file), 'index.json');
}

/**
 * The index beside a record file: empty when there is none; a CliError when it is not an index, or when the
 * file's name is not one the index can list (the benchmark checks both before it runs).
 */
export async function readRecordIndex(file: string): Promise<RecordIndex> {
  const name = basename(file);
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*\.json$/.test(name))
    throw new CliError(`--record names a .json file of letters, digits, '.', '_' and '-', got ${quote(name)}`, 2);
  const path = indexPath(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { format: RECORD_INDEX_FORMAT, runs: [] };
    throw new CliError(`cannot read ${quote(path)}: ${(err as Error).message}`);
  }
  try {
    return checkRecordIndex(JSON.parse(text));
  } catch (err) {
    throw new CliError(
      `${quote(path)} is not an index of recorded runs (${(err as Error).message}): fix or remove it`,
      2,
    );
  }
}

/** Writes the record to `file` (refused over the byte budget) and lists it in the index beside it. */
export async function writeRecord(file: string, record: RecordedRun): Promise<number> {
  const text = `${JSON.stringify(record)}\n`;
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_RECORD_BYTES)
    throw new CliError(`the record would take ${bytes} bytes, over the ${MAX_RECORD_BYTES}-byte budget: not written`);
  const index = await readRecordIndex(file);
  const name = basename(file);
  const runs = index.runs.filter((r) => r.file !== name);
  const env = record.env === undefined ? undefined : namedWorld(record.env);
  runs.push({
    file: name,
    ...(env === undefined ? {} : { env }),
    created: record.created,
    command: record.command,
    commit: record.commit,
  });
  await writeOutput(file, text);
  await writeOutput(indexPath(file), `${JSON.stringify({ format: RECORD_INDEX_FORMAT, runs }, null, 2)}\n`);
  return bytes;
}
