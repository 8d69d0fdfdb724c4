import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './cli_error.ts';
import { readMetrics, resumedMetrics } from './metrics.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-metrics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('readMetrics', () => {
  it('reads complete lines; a missing file has none', async () => {
    const path = join(dir, 'ok.jsonl');
    writeFileSync(path, '{"update":0,"success":0.5}\n\n{"update":1}\n');
    expect((await readMetrics(path)).lines.map((l) => [l.update, l.text])).toEqual([
      [0, '{"update":0,"success":0.5}'],
      [1, '{"update":1}'],
    ]);
    expect(await readMetrics(join(dir, 'absent.jsonl'))).toEqual({ lines: [], partial: 0 });
  });

  it('leaves out a partial last line (an interrupted append), counting its characters', async () => {
    const path = join(dir, 'cut.jsonl');
    writeFileSync(path, '{"update":0}\n{"update":1,"succ');
    const file = await readMetrics(path);
    expect(file.lines.map((l) => l.update)).toEqual([0]);
    expect(file.partial).toBe(17);
  });

  it('refuses a damaged line before the last in one line naming it', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, '{"update":0}\n{"upd\n{"update":2}\n');
    await expect(readMetrics(path)).rejects.toThrow(CliError);
    await expect(readMetrics(path)).rejects.toThrow(/: line 2 is not a JSON object with an "update" count \(.+\)$/);
    writeFileSync(path, `[${'['.repeat(100_000)}\n`);
    await expect(readMetrics(path)).rejects.toThrow(/line 1 is not a JSON object/);
    writeFileSync(path, '{"update":0}\n[1]\n');
    await expect(readMetrics(path)).rejects.toThrow(
      new CliError(`${path}: line 2 is not a JSON object with an "update" count`),
    );
  });

  it('refuses a line with a key "__proto__", naming the line and the key', async () => {
    const path = join(dir, 'proto.jsonl');
    writeFileSync(path, '{"update":0}\n{"update":1,"__proto__":{"algo":"seed"}}\n');
    await expect(readMetrics(path)).rejects.toThrow(
      new CliError(
        `${path}: line 2 is not a JSON object with an "update" count (JSON with a key "__proto__", which no file read here holds)`,
      ),
    );
  });
});

describe('resumedMetrics', () => {
  const line = (update: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ update, algo: 'seed', episodes: 8 * (update + 1), success: 0.25, ...extra });

  it("keeps the run's own lines of the updates its checkpoint holds, and names every other line it drops in one line", async () => {
    const path = join(dir, 'resumed.jsonl');
    const lines = [
      line(0),
      line(1),
      line(1),
      '{"update":2}',
      line(2, { algo: 'grpo' }),
      line(2, { success: 7 }),
      line(2),
      line(3),
      line(4),
    ];
    writeFileSync(path, `${lines.join('\n')}\n{"update":5,"su`);
    const { kept, note } = resumedMetrics(path, await readMetrics(path), { algo: 'seed', updates: 3 });
    expect(kept.map((l) => l.text)).toEqual([line(0), line(1), line(2)]);
    expect(note).toBe(
      `${path}: dropped 7 lines: a partial last line (15 characters, no newline) left by an interrupted write; 3 not of this run's metrics (its algorithm, episodes and success); ` +
        "1 repeating an update of an earlier line; 2 of updates after the checkpoint's update 3, which the run does again",
    );
  });

  it("says nothing when every line is kept; another algorithm's lines are not the run's", async () => {
    const path = join(dir, 'whole.jsonl');
    writeFileSync(path, `${line(0, { algo: 'seed-sibling' })}\n${line(1, { algo: 'seed-sibling' })}\n`);
    const { kept, note } = resumedMetrics(path, await readMetrics(path), { algo: 'seed-sibling', updates: 2 });
    expect([kept.length, note]).toEqual([2, null]);
    writeFileSync(path, `${line(0, { algo: 'seed-shuffled' })}\n${line(1, { algo: 'seed-sibling' })}\n`);
    expect(resumedMetrics(path, await readMetrics(path), { algo: 'seed-sibling', updates: 2 }).kept).toHaveLength(1);
  });
});
