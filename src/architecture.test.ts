// The layer rule (docs/architecture.md, "Layers"), enforced: data flows downward and nothing imports upward.
// Every folder under src/ has a place in the rule, and a module may reach only the folders its place allows,
// whether by a static import, a dynamic import() or a `new URL(..., import.meta.url)` (how Vite finds a
// worker's script). An import into a folder that has no place in the rule fails too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The stack, bottom first: each may use those before it. shaders/ (WGSL, outside src/) belongs to the backend. */
const STACK = ['common', 'env', 'text', 'model', 'shaders', 'backend', 'rl', 'onnx', 'worker', 'ui'] as const;
const CORE = STACK.slice(0, STACK.indexOf('worker'));

/** What each folder may use besides itself. `main` is a file directly in src/: the page's entry. */
const MAY_USE: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(STACK.map((name, i) => [name, STACK.slice(0, i)])),
  // The command line sits beside the worker and the page: it runs the same code below them in Node.
  cli: CORE,
  main: STACK,
};

const srcDir = dirname(fileURLToPath(import.meta.url));
const rootDir = dirname(srcDir);
const shadersDir = join(rootDir, 'shaders');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The layer a path belongs to, or null when it lies outside every layer. */
function folderOf(path: string): string | null {
  const inShaders = relative(shadersDir, path);
  if (!inShaders.startsWith('..') && !inShaders.startsWith(sep)) return 'shaders';
  const inSrc = relative(srcDir, path);
  if (inSrc.startsWith('..') || inSrc.startsWith(sep)) return null;
  const parts = inSrc.split(/[\\/]/);
  return parts.length === 1 ? 'main' : parts[0];
}

const MODULE_REFERENCES: readonly [RegExp, 'import' | 'url'][] = [
  [/(?:^|[\s;])(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, 'import'],
  [/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g, 'import'],
  [/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, 'import'],
  [/\bnew\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g, 'url'],
];

/** The relative module references of a source text, with how each is made. */
function references(source: string): { spec: string; kind: 'import' | 'url' }[] {
  const out: { spec: string; kind: 'import' | 'url' }[] = [];
  for (const [pattern, kind] of MODULE_REFERENCES) {
    for (const match of source.matchAll(pattern)) if (match[1].startsWith('.')) out.push({ spec: match[1], kind });
  }
  return out;
}

/** What breaks the rule in one file: a reference above its layer, or into no layer at all. */
function violations(file: string, source: string): string[] {
  const from = folderOf(file);
  const name = relative(rootDir, file);
  if (from === null || MAY_USE[from] === undefined)
    return [`${name} lies in ${from ?? 'no folder'}, which has no place in the layers`];
  const out: string[] = [];
  for (const { spec, kind } of references(source)) {
    const to = folderOf(normalize(join(dirname(file), spec.replace(/\?.*$/, ''))));
    // A URL may name data outside the code (test fixtures beside the repository); only code has a layer.
    if (to === null && kind === 'url') continue;
    if (to === null || MAY_USE[to] === undefined) out.push(`${name} refers to ${spec}, outside every layer`);
    else if (to !== from && !MAY_USE[from].includes(to)) out.push(`${name} (${from}) refers to ${spec} (${to})`);
  }
  return out;
}

describe('layers', () => {
  it('every folder under src/ has a place in the layers', () => {
    const folders = readdirSync(srcDir).filter((name) => statSync(join(srcDir, name)).isDirectory());
    expect(folders.length).toBeGreaterThan(8);
    expect(folders.filter((name) => MAY_USE[name] === undefined)).toEqual([]);
  });

  it('no module refers to a layer above its own or outside the layers (the CLI may use every layer below the worker)', () => {
    let checked = 0;
    const found: string[] = [];
    // This file is left out: its own cases name modules that break the rule on purpose.
    for (const file of sourceFiles(srcDir).filter((f) => f !== fileURLToPath(import.meta.url))) {
      const source = readFileSync(file, 'utf8');
      checked += references(source).length;
      found.push(...violations(file, source));
    }
    expect(checked).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it('the check catches upward imports of every kind, imports into no layer, and the CLI reaching the page', () => {
    const envFile = join(srcDir, 'env', 'game.ts');
    expect(violations(envFile, "import { Trainer } from '../rl/trainer.ts';")).toHaveLength(1);
    expect(violations(envFile, "import type {\n  Trainer,\n} from '../rl/trainer.ts';")).toHaveLength(1);
    expect(violations(envFile, "export { Trainer } from '../rl/trainer.ts';")).toHaveLength(1);
    expect(violations(envFile, "const m = await import('../rl/trainer.ts');")).toHaveLength(1);
    expect(violations(envFile, "new Worker(new URL('../worker/engine.worker.ts', import.meta.url));")).toHaveLength(1);
    expect(violations(envFile, "import '../ui/styles.css';")).toHaveLength(1);
    expect(violations(envFile, "import { x } from '../../e2e/page.ts';")).toHaveLength(1);
    expect(violations(join(srcDir, 'cli', 'main.ts'), "import { Engine } from '../worker/engine.ts';")).toHaveLength(1);
    expect(violations(join(srcDir, 'worker', 'engine.ts'), "import { run } from '../cli/main.ts';")).toHaveLength(1);
    expect(violations(join(srcDir, 'newlayer', 'x.ts'), '')).toHaveLength(1);
    // Allowed: downward, within a layer, WGSL from the backend, data named by URL, packages.
    const allowed = [
      "import { Rng } from '../common/rng.ts';",
      "import { World } from './world.ts';",
      "import data from 'node:fs';",
      "const dir = new URL('../../../shared/fixtures/', import.meta.url);",
    ].join('\n');
    expect(violations(envFile, allowed)).toEqual([]);
    expect(
      violations(join(srcDir, 'backend', 'webgpu', 'x.ts'), "import code from '../../../shaders/adamw.wgsl?raw';"),
    ).toEqual([]);
    expect(violations(join(srcDir, 'cli', 'x.ts'), "import code from '../../shaders/fma_peak.wgsl?raw';")).toEqual([]);
    expect(violations(join(srcDir, 'model', 'x.ts'), "import code from '../../shaders/adamw.wgsl?raw';")).toHaveLength(
      1,
    );
  });
});
