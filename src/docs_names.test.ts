// The names and lists the documents give that the code defines: the npm scripts, the folders, the files of the
// worlds' READMEs, the kernel families and WebAssembly kernels, and every file, constant and identifier a document
// names in code type. src/docs_facts.test.ts holds the numbers, src/lab/docs_commands.test.ts the commands.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read, rootDir, stated } from './docs_testing.ts';
import { ENVIRONMENT_NAMES } from './worlds/names.ts';

const sorted = (items: Iterable<string>) => [...items].sort();
/** The names of a folder's entries that pass `keep`. */
const entries = (dir: string, keep: (name: string) => boolean) => readdirSync(join(rootDir, dir)).filter(keep);
/** The source files of a folder that a README's file table lists: no tests, no test helpers. */
const sources = (dir: string) =>
  entries(dir, (n) => n.endsWith('.ts') && !/\.test\.ts$|_testing\.ts$/.test(n)).filter((n) =>
    statSync(join(rootDir, dir, n)).isFile(),
  );
/** The backticked names of a text. */
const quoted = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

describe('the lists the documents give', () => {
  it("README's npm scripts are package.json's", () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## npm scripts'), readme.indexOf('## The command line'));
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);
    // `dist/` is a folder, not a script.
    expect(sorted(quoted(section).filter((q) => !q.endsWith('/')))).toEqual(sorted(scripts));
  });

  it("README's layout names every folder of src/ and the repository's own folders", () => {
    const layout = read('README.md').split('## Layout')[1].split('\n## ')[0];
    const named = new Set(quoted(layout));
    const folders = entries('src', (n) => statSync(join(rootDir, 'src', n)).isDirectory()).map((n) => `src/${n}`);
    for (const folder of [...folders, 'shaders', 'e2e', 'docs', 'bench', 'public', 'scripts'])
      expect(named.has(folder), folder).toBe(true);
  });

  it("each world's README lists every source file of its folders", () => {
    for (const world of ENVIRONMENT_NAMES) {
      const dir = `src/worlds/${world}`;
      const table = read(`${dir}/README.md`).split('## Files')[1].split('\n## ')[0];
      const listed = new Set(quoted(table));
      const folders = entries(dir, (n) => statSync(join(rootDir, dir, n)).isDirectory()).map((n) => `${dir}/${n}`);
      expect(folders.length).toBeGreaterThan(1);
      for (const folder of folders)
        for (const file of sources(folder))
          expect(listed.has(file), `${dir}/README.md lists ${folder}/${file}`).toBe(true);
    }
  });

  it('DEVELOPERS.md names every kernel family of shaders/ and every WebAssembly kernel of the CPU backend', () => {
    const developers = read('DEVELOPERS.md');
    const [families] = stated(
      developers,
      /its wrapper `src\/backend\/webgpu\/<family>\.ts`\s+\(([\s\S]*?)\),\s+each family/g,
    );
    const listed = families[0]
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map((f) => f.trim());
    const shaders = entries('shaders', (n) => n.endsWith('.wgsl') && n !== 'prelude.wgsl').map((n) => n.slice(0, -5));
    expect(sorted(listed)).toEqual(sorted(shaders));
    const wasm = developers.slice(developers.indexOf('## The CPU backend'), developers.indexOf('### Threads'));
    const kernels = quoted(wasm).filter((q) => /^\w+\.wat$/.test(q));
    expect(sorted(new Set(kernels))).toEqual(sorted(entries('src/backend/cpu/wasm', (n) => n.endsWith('.wat'))));
  });
});

/** The design documents and the folders' READMEs (the transcripts' sources are another project's). */
function documents(): string[] {
  const readmes: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(rootDir, dir))) {
      const path = join(dir, name);
      if (name === 'testdata') continue;
      if (statSync(join(rootDir, path)).isDirectory()) walk(path);
      else if (name === 'README.md') readmes.push(path);
    }
  };
  walk('src');
  return [
    'README.md',
    'DEVELOPERS.md',
    ...entries('docs', (n) => n.endsWith('.md')).map((n) => `docs/${n}`),
    ...readmes,
  ];
}

/** The repository's code and the names of its files, to look a document's names up in. */
function codebase(): { text: string; files: string[] } {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(rootDir, dir))) {
      const path = join(dir, name);
      if (statSync(join(rootDir, path)).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  for (const dir of ['src', 'shaders', 'e2e', 'scripts', 'public']) walk(dir);
  files.push(...entries('.', (n) => statSync(join(rootDir, n)).isFile()));
  const text = files
    // The documents' own tests quote names that do not exist, to show that the check refuses them.
    .filter((f) => /\.(ts|tsx|wgsl|wat|wati|mjs)$/.test(f) && !/^src\/docs(_\w+)?\.test\.ts$/.test(f))
    .map((f) => read(f))
    .join('\n');
  return { text, files };
}

describe('the names the documents give in code type', () => {
  const { text, files } = codebase();

  /** What in `document` names a file, a constant or an identifier that the repository does not have. */
  function missing(document: string, content = read(document)): string[] {
    const out: string[] = [];
    for (const name of quoted(content)) {
      if (/^[\w./-]*\w\.(ts|tsx|wgsl|wat|wati|mjs)$/.test(name)) {
        const here = [join(dirname(document), name), name];
        const found =
          here.some((p) => existsSync(join(rootDir, p))) ||
          files.some((f) => f === name || f.endsWith(`/${name}`) || (!name.includes('/') && basename(f) === name));
        if (!found) out.push(`the file ${name}`);
      } else if (/^[A-Z][A-Z0-9_]{3,}$/.test(name) || /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(name)) {
        if (!new RegExp(`\\b${name}\\b`).test(text)) out.push(`the name ${name}`);
      }
    }
    return out;
  }

  it('every file, constant and identifier the documents name exists in the repository', () => {
    const all = documents();
    expect(all.length).toBeGreaterThan(8);
    expect(all.flatMap((d) => missing(d).map((m) => `${relative(rootDir, join(rootDir, d))}: ${m}`))).toEqual([]);
  });

  it('the check refuses a file, a constant or an identifier the repository does not have', () => {
    const named = '`WARM_START_PRESETS`, `DEFAULT_WORLD`, `nowhere.ts`, `layout.ts`, `noSuchThing`, `parameterLayout`';
    expect(missing('docs/x.md', named)).toEqual([
      'the name WARM_START_PRESETS',
      'the file nowhere.ts',
      'the name noSuchThing',
    ]);
  });
});
