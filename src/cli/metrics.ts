// Reading a run's metrics.jsonl: one JSON object per line, each ending in a newline and naming its update.
// A last line without its newline is what an interrupted append leaves (the process killed mid-write, a
// full disk): it is dropped. Its update is never one the run's last checkpoint covers (a checkpoint is saved
// after the line of its last update), so a resumed run redoes it. A resumed run also drops the lines that
// are not its metrics, repeat an update, or report updates after its checkpoint (it runs those again), and
// says in one line what it dropped.
import { readFile } from 'node:fs/promises';
import { parseJsonWithoutProto } from '../common/json.ts';
import { currentAlgoName } from '../rl/arms.ts';
import { CliError } from './cli_error.ts';

export interface MetricsLine {
  /** The line as written, without its newline. */
  text: string;
  /** The update it reports (0-based). */
  update: number;
  value: Record<string, unknown>;
}

export interface MetricsFile {
  /** The complete lines. */
  lines: MetricsLine[];
  /** Characters of a last line without its newline (0 when there is none), which is not among `lines`. */
  partial: number;
}

/** The complete lines of a metrics file; a file that does not exist has none. */
export async function readMetrics(path: string): Promise<MetricsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], partial: 0 };
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lines = text.split('\n');
  const partial = lines.pop()!.length;
  const out: MetricsLine[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const refuse = (why = '') =>
      new CliError(`${path}: line ${i + 1} is not a JSON object with an "update" count${why && ` (${why})`}`);
    let value: unknown;
    try {
      value = parseJsonWithoutProto(line);
    } catch (err) {
      throw refuse((err as Error).message);
    }
    const update = (value as { update?: unknown } | null | undefined)?.update;
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !Number.isInteger(update) ||
      (update as number) < 0
    ) {
      throw refuse();
    }
    out.push({ text: line, update: update as number, value: value as Record<string, unknown> });
  });
  return { lines: out, partial };
}

/** Whether a line is a metrics line of the run's algorithm: the fields every update writes, of their types. */
function isRunLine(line: MetricsLine, algo: string): boolean {
  const { algo: named, episodes, success } = line.value;
  return (
    typeof named === 'string' &&
    currentAlgoName(named) === algo &&
    Number.isInteger(episodes) &&
    (episodes as number) >= 0 &&
    typeof success === 'number' &&
    success >= 0 &&
    success <= 1
  );
}

/**
 * The lines a run resumed after update `updates` keeps: its own metrics lines, the first of each update,
 * of the updates its checkpoint holds. `note` says what was dropped and why, in one line (null when nothing was).
 */
export function resumedMetrics(
  path: string,
  file: MetricsFile,
  run: { algo: string; updates: number },
): { kept: MetricsLine[]; note: string | null } {
  const kept: MetricsLine[] = [];
  const seen = new Set<number>();
  let foreign = 0;
  let repeated = 0;
  let later = 0;
  for (const line of file.lines) {
    if (!isRunLine(line, run.algo)) foreign++;
    else if (line.update >= run.updates) later++;
    else if (seen.has(line.update)) repeated++;
    else {
      seen.add(line.update);
      kept.push(line);
    }
  }
  const parts = [
    file.partial > 0 ? `a partial last line (${file.partial} characters, no newline) left by an interrupted write` : '',
    foreign > 0 ? `${foreign} not of this run's metrics (its algorithm, episodes and success)` : '',
    repeated > 0 ? `${repeated} repeating an update of an earlier line` : '',
    later > 0 ? `${later} of updates after the checkpoint's update ${run.updates}, which the run does again` : '',
  ].filter((p) => p !== '');
  const dropped = (file.partial > 0 ? 1 : 0) + foreign + repeated + later;
  return {
    kept,
    note: parts.length ? `${path}: dropped ${dropped} line${dropped === 1 ? '' : 's'}: ${parts.join('; ')}` : null,
  };
}
