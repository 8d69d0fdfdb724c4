// Every document that a comment of the code, the shaders, the scripts or the tests, or a document itself, cites
// must exist in the repository, and so must the section it names. A citation is a name or path ending in ".md"
// (`docs/seed-loss.md`, `../bench/notes/TUNING.md`, `README.md`), optionally with a section: a link anchor
// (`seed-loss.md#the-per-token-coefficient`) or a quoted heading after a comma (`docs/seed-loss.md, "Settings"`).
// Left alone: web addresses, the strings of the code (a file name that a command writes is no citation) and
// paths under a placeholder folder (`DIR/learn.md`). A path resolves against the citing file's folder or the
// repository's root; a bare name may also be any document of that name in the repository.
// The settings tables of docs/seed-loss.md and docs/environment.md give the values of src/rl/config.ts's table.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultConfig, isConfigKey, PAPER_CONFIG, TRAIN_KEYS, type TrainKey } from './rl/config.ts';

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
const CITATION =
  /(?<![\w./-])((?:\.{1,2}\/)*\w[\w./-]*?\.md)(?!\w)(?:#([\w-]+))?(?:\)?,\s*(?:(?:\/\/|\*)\s*)?"([^"\n]+)")?/g;
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
  return heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
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
    if (anchor && !titles.some((t) => anchorOf(t) === anchor))
      out.push(`cites ${document}#${anchor}, which has no such heading`);
    if (heading && !titles.some((t) => t.toLowerCase().startsWith(heading.toLowerCase()))) {
      out.push(`cites ${document}, "${heading}", which has no such heading`);
    }
  }
  return out;
}

describe('cited documents', () => {
  const files = [
    ...SCANNED_DIRS.filter((d) => existsSync(join(rootDir, d))).flatMap((d) => walk(join(rootDir, d))),
    ...readdirSync(rootDir)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(rootDir, name)),
  ].filter((path) => TEXT_FILE.test(path));
  const documents = new Set(
    walk(rootDir)
      .filter((path) => path.endsWith('.md'))
      .map((path) => basename(path)),
  );

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
    expect(prose('x.ts', "// see SEED.md\nwriteFile('learn.md', text); /* and docs/x.md */")).toBe(
      '// see SEED.md\n/* and docs/x.md */',
    );
    expect(prose('x.md', "writeFile('learn.md')")).toBe("writeFile('learn.md')");
    const comment =
      '// as SEED.md defines; see [the loss](docs/seed-loss.md#the-per-token-coefficient) (bench/notes/TUNING.md,\n//   "A lambda sweep")';
    expect(citations(comment)).toEqual([
      { document: 'SEED.md' },
      { document: 'docs/seed-loss.md', anchor: 'the-per-token-coefficient' },
      { document: 'bench/notes/TUNING.md', heading: 'A lambda sweep' },
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, with a template literal in it
    const code = "writeFile('../bench/ui.md'); `${name}.md`; https://github.com/onnx/onnx/blob/main/docs/IR.md";
    expect(citations(code)).toEqual([{ document: '../bench/ui.md' }]);
    expect(anchorOf("Settings: the paper's values")).toBe('settings-the-papers-values');

    const here = join(rootDir, 'src', 'x.ts');
    expect(problems(here, '// (SEED.md) (ARCHITECTURE.md, "Sequences") (docs/nowhere.md)', documents)).toHaveLength(3);
    expect(
      problems(here, '// docs/seed-loss.md, "Exact definitions"; docs/architecture.md#nowhere', documents),
    ).toHaveLength(2);
    const fine =
      '// docs/seed-loss.md, "Departures from the paper"; ../docs/architecture.md#sequences; DEVELOPERS.md; README.md; DIR/learn.md';
    expect(problems(here, fine, documents)).toEqual([]);
  });
});

/** A settings table's row or a "`key` value" pair of the prose: the setting and the values the document gives it. */
interface DocumentedSetting {
  key: string;
  paper: number;
  /** The micro and tiny presets' value (they share their training values). */
  tiny: number;
}

/** Every row of the document's tables headed `| setting | paper | micro / tiny |`. */
function settingRows(text: string): DocumentedSetting[] {
  const rows: DocumentedSetting[] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (/^\|\s*setting\s*\|\s*paper\s*\|\s*micro \/ tiny\s*\|/.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable && !/^\|\s*-/.test(line)) {
      const [key, paper, tiny] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      // "10 (= `maxSteps`)": the number the cell starts with.
      rows.push({ key: key.replace(/`/g, ''), paper: Number(paper), tiny: Number(tiny.split(' ')[0]) });
    }
  }
  return rows;
}

/** What a document says that the settings table (src/rl/config.ts) does not: a value, or a setting it lacks. */
function settingProblems(rows: readonly DocumentedSetting[]): string[] {
  const micro = defaultConfig('micro');
  const tiny = defaultConfig('tiny');
  return rows.flatMap(({ key, paper, tiny: value }) => {
    if (!isConfigKey(key)) return [`${key} is no setting`];
    const out: string[] = [];
    if (paper !== PAPER_CONFIG[key]) out.push(`${key}: paper ${paper}, the table says ${PAPER_CONFIG[key]}`);
    if (value !== micro[key] || value !== tiny[key])
      out.push(`${key}: micro / tiny ${value}, the table says ${micro[key]} / ${tiny[key]}`);
    return out;
  });
}

describe("the documents' settings", () => {
  const read = (name: string) => readFileSync(join(rootDir, 'docs', name), 'utf8');
  const lossDoc = read('seed-loss.md');
  const changedKeys = TRAIN_KEYS.filter(
    (k) => defaultConfig('micro')[k] !== PAPER_CONFIG[k] || defaultConfig('tiny')[k] !== PAPER_CONFIG[k],
  );

  it("seed-loss.md lists exactly the settings the tiny presets change, with src/rl/config.ts's values", () => {
    const rows = settingRows(lossDoc);
    expect(rows.map((r) => r.key).sort()).toEqual([...changedKeys].sort());
    expect(settingProblems(rows)).toEqual([]);
  });

  it("seed-loss.md's unchanged settings and environment.md's table hold src/rl/config.ts's values", () => {
    const unchanged = lossDoc.slice(
      lossDoc.indexOf('\nUnchanged:'),
      lossDoc.indexOf('\n\n', lossDoc.indexOf('\nUnchanged:')),
    );
    const pairs = [...unchanged.matchAll(/`(\w+)` (-?[\d.]+(?:e-?\d+)?)\b/g)].map(([, key, value]) => ({
      key,
      paper: Number(value),
      tiny: Number(value),
    }));
    expect(pairs.length).toBeGreaterThan(10);
    expect(settingProblems(pairs)).toEqual([]);
    expect(pairs.filter((p) => changedKeys.includes(p.key as TrainKey))).toEqual([]);
    const environment = settingRows(read('environment.md'));
    expect(environment.map((r) => r.key)).toEqual(['winReward', 'invalidPenalty', 'scoreReward', 'maxSteps']);
    expect(settingProblems(environment)).toEqual([]);
  });

  it('the check finds a value that differs from the table and a setting that does not exist', () => {
    const stale = lossDoc.replace('| `history` | 5 | 10 (= `maxSteps`) |', '| `history` | 5 | 15 (= `maxSteps`) |');
    expect(settingProblems(settingRows(stale))).toEqual(['history: micro / tiny 15, the table says 10 / 10']);
    expect(settingProblems([{ key: 'lambada', paper: 0, tiny: 0 }])).toEqual(['lambada is no setting']);
  });
});
