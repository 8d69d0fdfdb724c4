// docs/verl.md's tables are the mapping's (mapping_table.ts): a setting, an algorithm or a world whose mapping
// changes fails here until the document says so. The message holds the table as it should read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { algorithmsTable, settingsTable, worldsTable } from './mapping_table.ts';

describe('docs/verl.md', () => {
  const doc = readFileSync(new URL('../../../docs/verl.md', import.meta.url), 'utf8');
  for (const [name, table] of [
    ['settings', settingsTable()],
    ['algorithms', algorithmsTable()],
    ['worlds', worldsTable()],
  ] as const)
    it(`holds the mapping's ${name} table`, () => {
      expect(doc.includes(`${table}\n`), `docs/verl.md should hold this table:\n\n${table}\n`).toBe(true);
    });
});
