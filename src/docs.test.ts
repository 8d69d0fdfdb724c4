// Every document that a comment of the code, the shaders, the scripts or the tests, or a document itself, cites
// must exist in the repository. A citation is a name or path ending in ".md" (`docs/seed-loss.md`,
// `../bench/notes/TUNING.md`, `README.md`). Left alone: web addresses, the strings of the code (a file name that a
// command writes is no citation) and paths under a placeholder folder (`DIR/learn.md`). A path resolves against
// the citing file's folder or the repository's root; a bare name may also be any document of that name in the
// repository.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const rootDir = dirname(dirname(fileURLToPath(import.meta.url)));
const SCANNED_DIRS = ['src', 'shaders', 'e2e', 'scripts', 'docs', 'bench'];
const TEXT_FILE = /\.(ts|tsx|mjs|js|wgsl|wat|md|css)$/;
/** Not the project's own text: build output, packages, and runs written by the CLI. */
const SKIPPED = new Set(['node_modules', 'dist', 'test-results', '.git', join('bench', 'runs')]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED.has(relative(rootDir, path)) || SKIPPED.has(name)) return [];
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const WEB_ADDRESS = /\b(?:https?:\/\/|www\.|github\.com\/)\S+/g;
const CITATION = /(?<![\w./-])((?:\.{1,2}\/)*\w[\w./-]*?\.md)(?!\w)/g;

const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|;;[^\n]*/g;

/** What a file says in prose: a document's whole text, the comments of anything else. */
function prose(file: string, text: string): string {
  return file.endsWith('.md') ? text : [...text.matchAll(COMMENT)].map((m) => m[0]).join('\n');
}

/** The documents a text cites, in order. */
function citations(text: string): string[] {
  return [...text.replace(WEB_ADDRESS, ' ').matchAll(CITATION)].map((m) => m[1]);
}

/** The citations of `text` (the content of `file`) that name no document of the repository. */
function missing(file: string, text: string, documents: ReadonlySet<string>): string[] {
  return citations(text).filter((cited) => {
    if (/^[A-Z]+\//.test(cited)) return false;
    if (existsSync(join(dirname(file), cited)) || existsSync(join(rootDir, cited))) return false;
    return cited.includes('/') || !documents.has(cited);
  });
}

describe('cited documents', () => {
  const files = [
    ...SCANNED_DIRS.filter((d) => existsSync(join(rootDir, d))).flatMap((d) => walk(join(rootDir, d))),
    ...readdirSync(rootDir).filter((name) => name.endsWith('.md')).map((name) => join(rootDir, name)),
  ].filter((path) => TEXT_FILE.test(path));
  const documents = new Set(walk(rootDir).filter((path) => path.endsWith('.md')).map((path) => basename(path)));

  it('every document cited in src/, shaders/, e2e/, scripts/, docs/, bench/ and the top-level documents exists', () => {
    // This file is left out: its own cases cite missing documents on purpose.
    const self = fileURLToPath(import.meta.url);
    let cited = 0;
    const broken: string[] = [];
    for (const file of files.filter((f) => f !== self)) {
      const text = prose(file, readFileSync(file, 'utf8'));
      cited += citations(text).length;
      for (const name of missing(file, text, documents)) broken.push(`${relative(rootDir, file)} cites ${name}`);
    }
    expect(cited).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it('the check finds citations in comments and documents, and refuses documents that do not exist', () => {
    expect(prose('x.ts', "// see SEED.md\nwriteFile('learn.md', text); /* and docs/x.md */")).toBe('// see SEED.md\n/* and docs/x.md */');
    expect(prose('x.md', "writeFile('learn.md')")).toBe("writeFile('learn.md')");
    expect(citations('// as defined in SEED.md, "Exact definitions"; see [the loss](docs/seed-loss.md#the-per-token-coefficient).')).toEqual([
      'SEED.md',
      'docs/seed-loss.md',
    ]);
    expect(citations("writeFile('../bench/ui.md'); `${name}.md`; https://github.com/onnx/onnx/blob/main/docs/IR.md")).toEqual(['../bench/ui.md']);
    const here = join(rootDir, 'src', 'x.ts');
    expect(missing(here, '// (SEED.md) (ARCHITECTURE.md, "Sequences") (docs/nowhere.md)', documents)).toEqual([
      'SEED.md',
      'ARCHITECTURE.md',
      'docs/nowhere.md',
    ]);
    expect(missing(here, '// docs/seed-loss.md, ../docs/environment.md, DEVELOPERS.md, README.md, DIR/learn.md', documents)).toEqual([]);
  });
});
