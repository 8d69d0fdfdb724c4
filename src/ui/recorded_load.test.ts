// The loading of the recorded run (recorded_load.ts): the newest record of the page's world that the index lists
// (a line that names no world is the household's), or one line saying why none can be shown.
import { describe, expect, it } from 'vitest';
import { RECORD_INDEX_FORMAT } from '../rl/recorded_run.ts';
import { record } from './curves_testing.ts';
import { loadNewestRecord } from './recorded_load.ts';

describe('loading the recorded run', () => {
  const index = (runs: { file: string; created: string; env?: string }[]) =>
    JSON.stringify({ format: RECORD_INDEX_FORMAT, runs: runs.map((r) => ({ ...r, command: 'c', commit: 'x' })) });
  const server = (files: Record<string, string>) => async (url: string) => {
    const body = files[url];
    return { ok: body !== undefined, status: body === undefined ? 404 : 200, text: async () => body ?? 'not found' };
  };

  it('loads the newest record the index lists', async () => {
    const files = {
      'runs/index.json': index([
        { file: 'old.json', created: '2025-01-01T00:00:00Z' },
        { file: 'new.json', created: '2025-02-01T00:00:00Z' },
      ]),
      'runs/new.json': JSON.stringify(record()),
    };
    const loaded = await loadNewestRecord('household', server(files));
    expect(loaded).toEqual({ state: 'ready', run: record(), url: 'runs/new.json' });
  });

  it("loads each world's newest record from an index of both, and says so of a world with none", async () => {
    const shop = { ...record(), env: 'shop' as const, command: 'npm run seed -- bench learn --env shop' };
    const files = {
      'runs/index.json': index([
        { file: 'household-old.json', created: '2025-01-01T00:00:00Z' },
        { file: 'shop-old.json', created: '2025-02-01T00:00:00Z', env: 'shop' },
        { file: 'household.json', created: '2025-03-01T00:00:00Z' },
        // The newest line of all is the shop's: the household's page still shows the household's newest.
        { file: 'shop.json', created: '2025-04-01T00:00:00Z', env: 'shop' },
      ]),
      'runs/household.json': JSON.stringify(record()),
      'runs/shop.json': JSON.stringify(shop),
    };
    expect(await loadNewestRecord('household', server(files))).toEqual({
      state: 'ready',
      run: record(),
      url: 'runs/household.json',
    });
    expect(await loadNewestRecord('shop', server(files))).toEqual({ state: 'ready', run: shop, url: 'runs/shop.json' });

    const householdOnly = { ...files, 'runs/index.json': index([{ file: 'h.json', created: '2025-01-01T00:00:00Z' }]) };
    expect(await loadNewestRecord('shop', server(householdOnly))).toEqual({
      state: 'none',
      message: 'No recorded run of the shop: runs/index.json lists none.',
    });
    // A record that played another world than its index line says is not shown as that line's.
    const mislisted = { ...files, 'runs/index.json': index([{ file: 'shop.json', created: '2025-01-01T00:00:00Z' }]) };
    expect(await loadNewestRecord('household', server(mislisted))).toEqual({
      state: 'failed',
      message:
        "The recorded run runs/shop.json was not shown: it played the shop, but runs/index.json lists it as the household's.",
    });
  });

  it('ends in one line when there is no index, an HTML page instead, no record, or a corrupt one', async () => {
    const message = async (files: Record<string, string>) => {
      const loaded = await loadNewestRecord('household', server(files));
      expect(loaded.state).not.toBe('ready');
      const text = (loaded as { message: string }).message;
      expect(text).not.toContain('\n');
      return [loaded.state, text];
    };
    expect(await message({})).toEqual(['failed', 'No recorded run: runs/index.json was not read (HTTP 404).']);
    expect(await message({ 'runs/index.json': '<!doctype html><html></html>' })).toEqual([
      'failed',
      'No recorded run: runs/index.json was not read (it is not JSON).',
    ]);
    expect(await message({ 'runs/index.json': index([]) })).toEqual([
      'none',
      'No recorded run of the household: runs/index.json lists none.',
    ]);
    const listed = index([{ file: 'r.json', created: '2025-01-01T00:00:00Z' }]);
    expect(await message({ 'runs/index.json': listed })).toEqual([
      'failed',
      'The recorded run runs/r.json was not shown: HTTP 404.',
    ]);
    const corrupt = JSON.stringify({ ...record(), arms: [{ ...record().arms[0], algo: 'ppo' }] });
    expect(await message({ 'runs/index.json': listed, 'runs/r.json': corrupt })).toEqual([
      'failed',
      'The recorded run runs/r.json was not shown: arms[0].algo is "ppo", not an algorithm.',
    ]);
    const unknownWorld = index([{ file: 'r.json', created: '2025-01-01T00:00:00Z', env: 'mall' }]);
    expect(await message({ 'runs/index.json': unknownWorld })).toEqual([
      'failed',
      'No recorded run: runs/index.json was not read (runs[0].env: "mall" is not a world (the worlds: household, shop, searchqa)).',
    ]);
    const failing = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect((await loadNewestRecord('household', failing)).state).toBe('failed');
  });
});
