// No code outside src/worlds names a world (docs/architecture.md, "Worlds"): every layer asks a registry of
// src/worlds for what differs between worlds, so that adding a world changes registry lines only. This test reads
// every source file of src/ outside src/worlds/ (the registries lie there) and scripts/, with its comments and the
// inside of its longer strings left out, and fails on a world's name written as a string of its own ('shop', a
// comparison with one, a case of a switch), as a key of an object or a type (a per-world table), and on a table
// typed by the worlds' names (Record<EnvironmentName, ...>), naming the file and the line.
//
// Tests and their helpers (*.test.ts, *_testing.ts, src/**/testing/, e2e/) may name worlds: a test picks the
// world it plays, and a fixture is a world's. A default world, where one is meant, is DEFAULT_WORLD
// (src/worlds/names.ts), never a name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_NAMES } from './worlds/names.ts';

const srcDir = dirname(fileURLToPath(import.meta.url));
const rootDir = dirname(srcDir);
const worldsDir = join(srcDir, 'worlds');

/** Every world's name: those the registry lists, every folder of src/worlds/, and the world being written. */
const NAMES = [
  ...new Set([
    ...ENVIRONMENT_NAMES,
    ...readdirSync(worldsDir).filter((name) => statSync(join(worldsDir, name)).isDirectory()),
    'searchqa',
  ]),
];

const isTest = (path: string) => /\.(test|spec)\.tsx?$|_testing\.tsx?$|[\\/]testing[\\/]/.test(path);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (path === worldsDir || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(tsx?|mjs)$/.test(name) && !isTest(path) ? [path] : [];
  });
}

/**
 * The code of a source text with its comments blanked, and every string blanked but one that is a whole
 * identifier-like word ('shop'), which is kept with its quotes: line breaks stay, so lines keep their numbers.
 * Regular expression literals are read as code (their characters name no world).
 */
function codeOf(source: string): string {
  let out = '';
  let i = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  const braces: number[] = [];
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\') {
          text += source.slice(j, j + 2);
          j += 2;
        } else if (c === '`' && source[j] === '$' && source[j + 1] === '{') {
          break;
        } else {
          text += source[j++];
        }
      }
      if (c === '`' && source[j] === '$') {
        // A template's expression is code: its text so far is blanked, the expression read on, the rest after `}`.
        out += ` ${blank(text)}  `;
        braces.push(0);
        i = j + 2;
        continue;
      }
      out += /^\w+$/.test(text) ? `${c}${text}${c}` : ` ${blank(text)} `;
      i = j + 1;
    } else if (c === '{' && braces.length > 0) {
      braces[braces.length - 1]++;
      out += c;
      i++;
    } else if (c === '}' && braces.length > 0 && braces[braces.length - 1] === 0) {
      // The end of a template's expression: the template goes on, as a string that is never a whole word.
      braces.pop();
      let j = i + 1;
      while (j < source.length && source[j] !== '`' && !(source[j] === '$' && source[j + 1] === '{'))
        j += source[j] === '\\' ? 2 : 1;
      out += ` ${blank(source.slice(i + 1, j))}`;
      if (source[j] === '$') {
        out += '  ';
        braces.push(0);
        i = j + 2;
      } else {
        out += ' ';
        i = j + 1;
      }
    } else {
      if (c === '}' && braces.length > 0) braces[braces.length - 1]--;
      out += c;
      i++;
    }
  }
  return out;
}

/** The lines of a source text that name a world, each as "line: what". */
function worldNames(source: string): string[] {
  const names = NAMES.join('|');
  const patterns: readonly [RegExp, string][] = [
    [new RegExp(`(['"\`])(${names})\\1`, 'g'), 'a world by name'],
    [new RegExp(`(?:^|[{,(])[ \\t]*(${names})\\??[ \\t]*:`, 'gm'), 'a key per world'],
    [/\bRecord<\s*EnvironmentName\b/g, 'a table per world'],
  ];
  const code = codeOf(source);
  const found: string[] = [];
  for (const [pattern, what] of patterns) {
    for (const match of code.matchAll(pattern)) {
      const line = code.slice(0, match.index).split('\n').length;
      found.push(`${line}: ${what} (${match[0].trim()})`);
    }
  }
  return found.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
}

describe('world names', () => {
  it('no source file outside src/worlds names a world, keys a table by the worlds or types one by their names', () => {
    const files = [...sourceFiles(srcDir), ...sourceFiles(join(rootDir, 'scripts'))];
    expect(files.length).toBeGreaterThan(200);
    const found = files.flatMap((file) =>
      worldNames(readFileSync(file, 'utf8')).map((hit) => `${relative(rootDir, file)}:${hit}`),
    );
    expect(found).toEqual([]);
  });

  it('the check finds a name compared, defaulted, switched on or keyed, and a table typed by the names', () => {
    const source = [
      "if (env.name === 'shop') go();",
      'const world = name ?? "household";',
      'switch (w) { case `shop`: break; }',
      'const COST = {',
      '  household: 1,',
      '  shop: 11,',
      '};',
      'const T: Record<EnvironmentName, number> = COST;',
      "const u = { household: 'x' };",
    ].join('\n');
    expect(worldNames(source)).toEqual([
      "1: a world by name ('shop')",
      '2: a world by name ("household")',
      '3: a world by name (`shop`)',
      '5: a key per world (household:)',
      '6: a key per world (shop:)',
      '8: a table per world (Record<EnvironmentName)',
      '9: a key per world ({ household:)',
    ]);
  });

  it('the check leaves alone a name in a comment, in a longer string or a template, and a variable', () => {
    const source = [
      "// the shop's pages: 'shop'",
      "/* 'household' */ const text = 'the shop: 5 games';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal's text, as a source file holds it
      'const t = `a ${name} of the shop`; const u = `${shop ? `${world}` : "x"}`;',
      'const shop = isShop ? shopPage : household ? 1 : 2;',
      "const re = /shop's/g;",
    ].join('\n');
    expect(worldNames(source)).toEqual([]);
  });
});
