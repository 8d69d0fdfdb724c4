import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './cli_error.ts';
import { readMetrics } from './metrics.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-metrics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('readMetrics', () => {
  it('reads complete lines; a missing file has none', async () => {
    const path = join(dir, 'ok.jsonl');
    writeFileSync(path, '{"update":0,"success":0.5}\n\n{"update":1}\n');
    expect((await readMetrics(path)).map((l) => [l.update, l.text])).toEqual([[0, '{"update":0,"success":0.5}'], [1, '{"update":1}']]);
    expect(await readMetrics(join(dir, 'absent.jsonl'))).toEqual([]);
  });

  it('drops a partial last line (an interrupted append) and says so on stderr', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const path = join(dir, 'cut.jsonl');
    writeFileSync(path, '{"update":0}\n{"update":1,"succ');
    expect((await readMetrics(path)).map((l) => l.update)).toEqual([0]);
    expect(stderr).toHaveBeenCalledWith(`${path}: dropped a partial last line (17 characters, no newline), left by an interrupted write\n`);
  });

  it('refuses a damaged line before the last in one line naming it', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, '{"update":0}\n{"upd\n{"update":2}\n');
    await expect(readMetrics(path)).rejects.toThrow(new CliError(`${path}: line 2 is not a JSON object with an "update" count`));
    writeFileSync(path, `[${'['.repeat(100_000)}\n`);
    await expect(readMetrics(path)).rejects.toThrow(/line 1 is not a JSON object/);
  });
});
