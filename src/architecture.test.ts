// The layer rule (docs/architecture.md, "Layers"), enforced: data flows downward and nothing imports upward.
// Every folder under src/ has a place in the rule, and a module may reach only the folders its place allows,
// whether by a static import, a dynamic import() or a `new URL(..., import.meta.url)` (how Vite finds a
// worker's script). An import into a folder that has no place in the rule fails too.
//
// The worlds (src/worlds, "Worlds") lie across the layers: a file of src/worlds/<world>/<folder>/ is in the
// layer its folder names (WORLD_FOLDERS), and each registry of src/worlds/ in the layer of those that ask it
// (REGISTRIES). A world imports no other world and no registry but the names; outside src/worlds, a module
// asks a registry and never reaches into a world (a test or a test's helper may, to use a world as its fixture).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The stack, bottom first: each may use those before it. shaders/ (WGSL, outside src/) belongs to the backend. */
const STACK = ['common', 'env', 'text', 'model', 'shaders', 'backend', 'rl', 'onnx', 'worker', 'ui'] as const;
const CORE = STACK.slice(0, STACK.indexOf('worker'));

/** What each folder may use besides itself. `main` is a file directly in src/ (the page's entry), `seed` the command line's entry. */
const MAY_USE: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(STACK.map((name, i) => [name, STACK.slice(0, i)])),
  // The command line sits beside the worker and the page: it runs the same code below them in Node. The lab sits
  // on the command line, whose options, files and errors its experiments use; the command line's entry joins both.
  cli: CORE,
  lab: [...CORE, 'cli'],
  seed: [...CORE, 'cli', 'lab'],
  main: STACK,
};

/** A world's folders and the layer each lies in: its environment, its skill language, its training side, its views, its commands. */
const WORLD_FOLDERS: Readonly<Record<string, string>> = {
  env: 'env',
  skills: 'text',
  rl: 'rl',
  ui: 'ui',
  cli: 'cli',
  lab: 'lab',
};

/** The registries of src/worlds/ and the layer each lies in (a registry's test lies in its registry's). */
const REGISTRIES: Readonly<Record<string, string>> = {
  'names.ts': 'env',
  'facts.ts': 'env',
  'environments.ts': 'env',
  'languages.ts': 'text',
  'rl_worlds.ts': 'rl',
  'views.ts': 'ui',
  'lab.ts': 'lab',
};
/** The registry that a world may import: the worlds' names, which name no world's parts. */
const NAMES_REGISTRY = 'names.ts';

const srcDir = dirname(fileURLToPath(import.meta.url));
const rootDir = dirname(srcDir);
const shadersDir = join(rootDir, 'shaders');
const worldsDir = join(srcDir, 'worlds');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const isTest = (path: string) => /\.test\.tsx?$|_testing\.tsx?$/.test(path);

/** The folder of the worlds of the tests (src/worlds/testing/<world>/), each laid out as a shipped world's. */
const TEST_WORLDS = 'testing';

/** Where a path lies among the worlds: a world's folder (world and folder), a registry, or neither. */
function worldPlace(path: string): { world: string; folder: string | null } | { registry: string } | null {
  const inWorlds = relative(worldsDir, path);
  if (inWorlds.startsWith('..') || inWorlds.startsWith(sep)) return null;
  const parts = inWorlds.split(/[\\/]/);
  if (parts.length === 1) return { registry: parts[0].replace(/(\.property)?\.test\.ts$/, '.ts') };
  // A world of the tests is named by its two folders, and its own folders lie one deeper.
  const [world, ...rest] =
    parts[0] === TEST_WORLDS && parts.length > 2 ? [parts.slice(0, 2).join('/'), ...parts.slice(2)] : parts;
  return { world, folder: rest.length > 1 ? rest[0] : null };
}

/** The layer a path belongs to, or null when it lies outside every layer. */
function folderOf(path: string): string | null {
  const inShaders = relative(shadersDir, path);
  if (!inShaders.startsWith('..') && !inShaders.startsWith(sep)) return 'shaders';
  const inSrc = relative(srcDir, path);
  if (inSrc.startsWith('..') || inSrc.startsWith(sep)) return null;
  const place = worldPlace(path);
  if (place !== null)
    return 'registry' in place
      ? (REGISTRIES[place.registry] ?? null)
      : place.folder === null
        ? null
        : (WORLD_FOLDERS[place.folder] ?? null);
  const parts = inSrc.split(/[\\/]/);
  if (parts.length > 1) return parts[0];
  // Two entries lie directly in src/: the command line's (seed.ts) and the page's (main.tsx, with the tests of the whole tree).
  return parts[0] === 'seed.ts' ? 'seed' : 'main';
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

/** What a reference from `file` to `target` breaks among the worlds, or null. */
function worldViolation(file: string, target: string): string | null {
  const from = worldPlace(file);
  const to = worldPlace(target);
  if (to === null || (from !== null && 'registry' in from)) return null;
  if ('registry' in to)
    return from !== null && to.registry !== NAMES_REGISTRY && !isTest(file)
      ? `the ${from.world} world asks ${to.registry}, a registry of every world`
      : null;
  if (from === null) return isTest(file) ? null : `it reaches into the ${to.world} world: ask a registry`;
  return from.world === to.world ? null : `the ${from.world} world imports the ${to.world} world`;
}

/** What breaks the rule in one file: a reference above its layer, into no layer at all, or across the worlds. */
function violations(file: string, source: string): string[] {
  const from = folderOf(file);
  const name = relative(rootDir, file);
  if (from === null || MAY_USE[from] === undefined)
    return [`${name} lies in ${from ?? 'no folder'}, which has no place in the layers`];
  const out: string[] = [];
  for (const { spec, kind } of references(source)) {
    const target = normalize(join(dirname(file), spec.replace(/\?.*$/, '')));
    const to = folderOf(target);
    // A URL may name data outside the code (test fixtures beside the repository); only code has a layer.
    if (to === null && kind === 'url') continue;
    const world = worldViolation(file, target);
    if (to === null || MAY_USE[to] === undefined) out.push(`${name} refers to ${spec}, outside every layer`);
    else if (to !== from && !MAY_USE[from].includes(to)) out.push(`${name} (${from}) refers to ${spec} (${to})`);
    else if (world !== null) out.push(`${name} refers to ${spec}: ${world}`);
  }
  return out;
}

describe('layers', () => {
  it('every folder under src/ has a place in the layers', () => {
    const folders = readdirSync(srcDir).filter((name) => statSync(join(srcDir, name)).isDirectory());
    expect(folders.length).toBeGreaterThan(8);
    expect(folders.filter((name) => name !== 'worlds' && MAY_USE[name] === undefined)).toEqual([]);
  });

  it("every folder of a world is a layer's, and every file directly in src/worlds/ a registry", () => {
    const entries = (dir: string) => readdirSync(dir).map((name) => join(dir, name));
    const worlds = entries(worldsDir)
      .filter((path) => statSync(path).isDirectory())
      .flatMap((path) => (basename(path) === TEST_WORLDS ? entries(path) : [path]));
    expect(worlds.length).toBeGreaterThan(1);
    expect(worlds.map((path) => relative(worldsDir, path))).toContain(`${TEST_WORLDS}/counter`);
    const misplaced = [
      ...entries(worldsDir).filter(
        (path) => statSync(path).isFile() && /\.tsx?$/.test(path) && folderOf(path) === null,
      ),
      ...worlds
        .flatMap(entries)
        .filter((path) =>
          statSync(path).isDirectory() ? WORLD_FOLDERS[basename(path)] === undefined : basename(path) !== 'README.md',
        ),
    ];
    expect(misplaced.map((path) => relative(rootDir, path))).toEqual([]);
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

  it('the worlds: a world folder in its layer, no world importing another or a registry, no module reaching into a world', () => {
    const world = (name: string, ...path: string[]) => join(worldsDir, name, ...path);
    expect(folderOf(world('shop', 'skills', 'x.ts'))).toBe('text');
    expect(folderOf(world('shop', 'x.ts'))).toBeNull();
    expect(folderOf(join(worldsDir, 'rl_worlds.test.ts'))).toBe('rl');
    expect(folderOf(join(worldsDir, 'unlisted.ts'))).toBeNull();
    const shopEnv = world('shop', 'env', 'x.ts');
    expect(violations(shopEnv, "import { Game } from '../../household/env/game.ts';")).toHaveLength(1);
    expect(violations(shopEnv, "import { environmentOf } from '../../environments.ts';")).toHaveLength(1);
    expect(violations(shopEnv, "import { rlWorldOf } from '../../rl_worlds.ts';")).toHaveLength(1);
    expect(violations(world('shop', 'rl', 'x.ts'), "import { SHOP } from '../env/environment.ts';")).toEqual([]);
    expect(violations(shopEnv, "import { DEFAULT_WORLD } from '../../names.ts';")).toEqual([]);
    expect(violations(world('shop', 'ui', 'x.test.ts'), "import { viewOf } from '../../views.ts';")).toEqual([]);
    const cli = join(srcDir, 'cli', 'x.ts');
    expect(violations(cli, "import { SHOP } from '../worlds/shop/env/environment.ts';")).toHaveLength(1);
    expect(
      violations(join(srcDir, 'cli', 'x.test.ts'), "import { SHOP } from '../worlds/shop/env/environment.ts';"),
    ).toEqual([]);
    expect(violations(cli, "import { environmentOf } from '../worlds/environments.ts';")).toEqual([]);
    expect(
      violations(join(srcDir, 'text', 'x.ts'), "import { rlWorldOf } from '../worlds/rl_worlds.ts';"),
    ).toHaveLength(1);
    expect(violations(join(worldsDir, 'facts.ts'), "import { SHOP_FACTS } from './shop/env/facts.ts';")).toEqual([]);
    expect(violations(join(worldsDir, 'facts.ts'), "import { shopRl } from './shop/rl/adapter.ts';")).toHaveLength(1);
    // A world of the tests: its folders lie one deeper, in the same layers, under the same rules.
    const counterRl = world(TEST_WORLDS, 'counter', 'rl', 'x.ts');
    expect(folderOf(counterRl)).toBe('rl');
    expect(folderOf(world(TEST_WORLDS, 'counter', 'x.ts'))).toBeNull();
    expect(violations(counterRl, "import { COUNTER } from '../env/environment.ts';")).toEqual([]);
    expect(violations(counterRl, "import { SHOP } from '../../../shop/env/environment.ts';")).toHaveLength(1);
    expect(violations(counterRl, "import { registerRlWorld } from '../../../rl_worlds.ts';")).toHaveLength(1);
    expect(
      violations(
        world(TEST_WORLDS, 'counter', 'rl', 'x.test.ts'),
        "import { rlWorldOf } from '../../../rl_worlds.ts';",
      ),
    ).toEqual([]);
  });
});
