// Reading a run's metrics.jsonl: one JSON object per line, each ending in a newline and naming its update.
// A last line without its newline is what an interrupted append leaves (the process killed mid-write, a
// full disk): it is dropped, and stderr says so. Its update is never one the run's last checkpoint
// covers (a checkpoint is saved after the line of its last update), so a resumed run redoes it.
import { readFile } from 'node:fs/promises';
import { parseJson } from '../common/json.ts';
import { CliError } from './cli_error.ts';

export interface MetricsLine {
  /** The line as written, without its newline. */
  text: string;
  /** The update it reports (0-based). */
  update: number;
  value: Record<string, unknown>;
}

/** The complete lines of a metrics file; a file that does not exist has none. */
export async function readMetrics(path: string): Promise<MetricsLine[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lines = text.split('\n');
  const partial = lines.pop()!;
  if (partial !== '') {
    process.stderr.write(`${path}: dropped a partial last line (${partial.length} characters, no newline), left by an interrupted write\n`);
  }
  const out: MetricsLine[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = parseJson(line);
    } catch {
      value = undefined;
    }
    const update = (value as { update?: unknown } | null | undefined)?.update;
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Number.isInteger(update) || (update as number) < 0) {
      throw new CliError(`${path}: line ${i + 1} is not a JSON object with an "update" count`);
    }
    out.push({ text: line, update: update as number, value: value as Record<string, unknown> });
  });
  return out;
}
