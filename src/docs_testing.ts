// For the documents' tests (docs_facts.test.ts, docs_names.test.ts): the repository's files as text, the facts a
// document states by the sentence that states them, and the rows of its tables.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const rootDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** A file of the repository, by its path from the root. */
export function read(path: string): string {
  return readFileSync(join(rootDir, path), 'utf8');
}

/** The groups of every match of `pattern` in `text`; a document that no longer states the fact fails. */
export function stated(text: string, pattern: RegExp): string[][] {
  const found = [...text.matchAll(pattern)].map((m) => m.slice(1));
  expect(found.length, `no match of ${pattern}`).toBeGreaterThan(0);
  return found;
}

/** The cells of the rows of the table whose header line matches `header`. */
export function tableRows(text: string, header: RegExp): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => header.test(l));
  expect(start, `no table headed ${header}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}
