// The arm table: every algorithm has one record, a part control differs from its arm in the one part it names,
// the loss settings follow the record, and no code outside the table branches on an algorithm's name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALGOS, ARMS, armOf, isPartArm, teacherRefreshOf, type Algo } from './arms.ts';
import { defaultConfig } from './config.ts';
import { lossHyper } from './loss.ts';

const config = defaultConfig('micro');

describe('the arm table', () => {
  it('holds one record per algorithm, named as its key', () => {
    expect(Object.keys(ARMS).sort()).toEqual([...ALGOS].sort());
    for (const a of ALGOS) expect(ARMS[a].algo, a).toBe(a);
  });

  it('makes a part control its arm with one part changed: the skill the teacher reads, or its weights', () => {
    for (const a of ALGOS) {
      const r = ARMS[a];
      if (r.part === null) continue;
      expect(isPartArm(r.arm), a).toBe(true);
      const arm = ARMS[r.arm];
      const changed = (Object.keys(r) as (keyof typeof r)[]).filter((k) => r[k] !== arm[k]);
      const part = r.part === 'frozen' ? 'teacherWeights' : 'teacherSkill';
      // algo, arm, part, note and varies name the control; advisor: a control has no second teacher.
      expect(
        changed.filter((k) => !['algo', 'arm', 'part', 'note', 'varies', 'advisor'].includes(k)),
        a,
      ).toEqual([part]);
      expect(r.varies, a).toBe(r.arm);
    }
  });

  it('sets the loss from the record: lambda where it distils, the gate, exact rows', () => {
    const hyper = (a: Algo) => lossHyper(a, { ...config, lambda: 0.25 });
    expect(hyper('grpo').lambda).toBe(0);
    expect(hyper('opid').lambda).toBe(0);
    expect(hyper('seed').lambda).toBe(0.25);
    expect(hyper('seed-nogate')).toMatchObject({ lambda: 0.25, gate: false });
    expect(hyper('seed').gate).toBe(true);
    expect(hyper('seed-exact').distil).toEqual({ jsdAlpha: config.jsdAlpha });
    expect(hyper('seed-exact-facts').distil).toEqual({ jsdAlpha: config.jsdAlpha });
    expect(hyper('seed-facts').distil).toBeUndefined();
  });

  it('freezes the teacher only under a frozen control', () => {
    const refresh = { teacherRefresh: 3 };
    for (const a of ALGOS) expect(teacherRefreshOf(a, refresh), a).toBe(ARMS[a].part === 'frozen' ? 0 : 3);
    expect(armOf('seed-exact-frozen')).toBe('seed-exact');
  });
});

const srcDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(dirname(srcDir));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('no branch on an algorithm outside the arm table', () => {
  const names = ALGOS.map((a) => a.replace(/-/g, '\\-')).join('|');
  // An algorithm (a variable named for one: algo, arm, a) compared with an algorithm's name.
  const literal = new RegExp(`\\b(\\w*algo|arm|a)\\s*[!=]==\\s*'(${names})'(?![\\w-])`, 'i');
  const lines = sourceFiles(join(root, 'src'))
    .filter((f) => !f.endsWith(join('rl', 'arms.ts')) && !f.endsWith('arms.test.ts'))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ file: relative(root, f), at: `${relative(root, f)}:${i + 1}: ${line.trim()}`, line })),
    );
  const isTest = (file: string) => /\.test\.tsx?$|_testing\.tsx?$/.test(file);

  it('has no `algo === ` anywhere, tests included: a filter is ofAlgo(a), a question is the record', () => {
    expect(lines.filter((l) => l.line.includes('algo === ')).map((l) => l.at)).toEqual([]);
  });

  it('compares no algorithm with a name in the product: code asks the record (ARMS, isBaseline, distils, ...)', () => {
    expect(lines.filter((l) => !isTest(l.file) && literal.test(l.line)).map((l) => l.at)).toEqual([]);
  });
});
