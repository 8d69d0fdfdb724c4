// Every document that a comment of the code, the shaders, the scripts or the tests, or a document itself, cites
// must exist in the repository, and so must the section it names. A citation is a name or path ending in ".md"
// (`docs/seed-loss.md`, `../bench/notes/TUNING.md`, `README.md`), optionally with a section: a link anchor
// (`seed-loss.md#the-per-token-coefficient`) or a quoted heading after a comma (`docs/seed-loss.md, "Settings"`).
// Left alone: web addresses, the strings of the code (a file name that a command writes is no citation) and
// paths under a placeholder folder (`DIR/learn.md`). A path resolves against the citing file's folder or the
// repository's root; a bare name may also be any document of that name in the repository.
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
// The document, then an optional anchor, then an optional quoted heading (which may continue on the next comment line).
const CITATION = /(?<![\w./-])((?:\.{1,2}\/)*\w[\w./-]*?\.md)(?!\w)(?:#([\w-]+))?(?:\)?,\s*(?:(?:\/\/|\*)\s*)?"([^"\n]+)")?/g;
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|;;[^\n]*/g;

interface Citation {
  document: string;
  anchor?: string;
  heading?: string;
}

/** What a file says in prose: a document's whole text, the comments of anything else. */
function prose(file: string, text: string): string {
  return file.endsWith('.md') ? text : [...text.matchAll(COMMENT)].map((m) => m[0]).join('\n');
}

/** The documents a text cites, in order, with the section each names. */
function citations(text: string): Citation[] {
  return [...text.replace(WEB_ADDRESS, ' ').matchAll(CITATION)].map((m) => ({
    document: m[1],
    ...(m[2] ? { anchor: m[2] } : {}),
    ...(m[3] ? { heading: m[3] } : {}),
  }));
}

/** A heading's link anchor, as Markdown renderers make it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}

function headings(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((m) => m[1]);
}

/** What is wrong with each citation of `text` (the prose of `file`): a document or a section that does not exist. */
function problems(file: string, text: string, documents: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const { document, anchor, heading } of citations(text)) {
    if (/^[A-Z]+\//.test(document)) continue;
    const path = [join(dirname(file), document), join(rootDir, document)].find((p) => existsSync(p));
    if (!path) {
      if (document.includes('/') || !documents.has(document)) out.push(`cites ${document}, which does not exist`);
      continue;
    }
    const titles = anchor || heading ? headings(path) : [];
    if (anchor && !titles.some((t) => anchorOf(t) === anchor)) out.push(`cites ${document}#${anchor}, which has no such heading`);
    if (heading && !titles.some((t) => t.toLowerCase().startsWith(heading.toLowerCase()))) {
      out.push(`cites ${document}, "${heading}", which has no such heading`);
    }
  }
  return out;
}

describe('cited documents', () => {
  const files = [
    ...SCANNED_DIRS.filter((d) => existsSync(join(rootDir, d))).flatMap((d) => walk(join(rootDir, d))),
    ...readdirSync(rootDir).filter((name) => name.endsWith('.md')).map((name) => join(rootDir, name)),
  ].filter((path) => TEXT_FILE.test(path));
  const documents = new Set(walk(rootDir).filter((path) => path.endsWith('.md')).map((path) => basename(path)));

  it('every document and section cited in src/, shaders/, e2e/, scripts/, docs/, bench/ and the top-level documents exists', () => {
    // This file is left out: its own cases cite missing documents on purpose.
    const self = fileURLToPath(import.meta.url);
    let cited = 0;
    let sections = 0;
    const broken: string[] = [];
    for (const file of files.filter((f) => f !== self)) {
      const text = prose(file, readFileSync(file, 'utf8'));
      const found = citations(text);
      cited += found.length;
      sections += found.filter((c) => c.anchor || c.heading).length;
      for (const problem of problems(file, text, documents)) broken.push(`${relative(rootDir, file)} ${problem}`);
    }
    expect(cited).toBeGreaterThan(20);
    expect(sections).toBeGreaterThan(5);
    expect(broken).toEqual([]);
  });

  it('the check finds citations in comments and documents, and refuses documents and sections that do not exist', () => {
    expect(prose('x.ts', "// see SEED.md\nwriteFile('learn.md', text); /* and docs/x.md */")).toBe('// see SEED.md\n/* and docs/x.md */');
    expect(prose('x.md', "writeFile('learn.md')")).toBe("writeFile('learn.md')");
    const comment = '// as SEED.md defines; see [the loss](docs/seed-loss.md#the-per-token-coefficient) (bench/notes/TUNING.md,\n//   "A lambda sweep")';
    expect(citations(comment)).toEqual([
      { document: 'SEED.md' },
      { document: 'docs/seed-loss.md', anchor: 'the-per-token-coefficient' },
      { document: 'bench/notes/TUNING.md', heading: 'A lambda sweep' },
    ]);
    const code = "writeFile('../bench/ui.md'); `${name}.md`; https://github.com/onnx/onnx/blob/main/docs/IR.md";
    expect(citations(code)).toEqual([{ document: '../bench/ui.md' }]);
    expect(anchorOf("Settings: the paper's values")).toBe('settings-the-papers-values');

    const here = join(rootDir, 'src', 'x.ts');
    expect(problems(here, '// (SEED.md) (ARCHITECTURE.md, "Sequences") (docs/nowhere.md)', documents)).toHaveLength(3);
    expect(problems(here, '// docs/seed-loss.md, "Exact definitions"; docs/architecture.md#nowhere', documents)).toHaveLength(2);
    const fine = '// docs/seed-loss.md, "Departures from the paper"; ../docs/architecture.md#sequences; DEVELOPERS.md; README.md; DIR/learn.md';
    expect(problems(here, fine, documents)).toEqual([]);
  });
});
