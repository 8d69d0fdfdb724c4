// The command line as the documents give it: README's layout and examples name every command of the registry
// (cli.ts), its benchmark and probe lists are the groups' members, and docs/architecture.md lists every command.
// (The documents' other facts: src/docs_facts.test.ts and src/docs_names.test.ts.)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEED_COMMANDS as commands } from './commands.ts';
import { group as benchGroup } from './bench.ts';
import { group as probeGroup } from '../worlds/shop/lab/probe.ts';

const rootDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const read = (path: string) => readFileSync(join(rootDir, path), 'utf8');
const sorted = (items: Iterable<string>) => [...items].sort();
const quoted = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

/** The groups of every match of `pattern` in `text`; a document that no longer states the fact fails. */
function stated(text: string, pattern: RegExp): string[][] {
  const found = [...text.matchAll(pattern)].map((m) => m.slice(1));
  expect(found.length, `no match of ${pattern}`).toBeGreaterThan(0);
  return found;
}

describe('the command line in the documents', () => {
  const readme = read('README.md');
  const names = Object.keys(commands);

  it("README's layout lists every command of the registry, and its examples run each", () => {
    const [row] = stated(readme, /^\| `src\/cli` \| `npm run seed -- <command>`: ([^|]+)\|$/gm);
    expect(sorted(row[0].split(',').map((c) => c.trim()))).toEqual(sorted(names));
    const block = readme.slice(readme.indexOf('## The command line'), readme.indexOf('## Where the learning stands'));
    for (const name of names) expect(block, name).toContain(`npm run seed -- ${name} `);
  });

  it('README names every benchmark and every probe, architecture.md every command', () => {
    const [bench] = stated(readme, /npm run seed -- bench ([\w|-]+)/g).filter(([list]) => list.includes('|'));
    expect(sorted(bench[0].split('|'))).toEqual(sorted(Object.keys(benchGroup.members)));
    const [probes] = stated(readme, /the shop's probes: ([\w, -]+)/g);
    expect(sorted(probes[0].split(', '))).toEqual(sorted(Object.keys(probeGroup.members)));
    const architecture = read('docs/architecture.md');
    const [list] = stated(architecture, /runs the same `src\/rl` code in\s+Node: ([^.]+)\./g);
    expect(sorted(quoted(list[0]))).toEqual(sorted(names));
  });
});
