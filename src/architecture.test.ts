// The layer rule of ARCHITECTURE.md, enforced: data flows downward and nothing imports upward.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LAYERS = ['common', 'env', 'text', 'model', 'backend', 'rl', 'onnx', 'worker', 'ui'] as const;
const rank = new Map<string, number>(LAYERS.map((name, i) => [name, i]));
const srcDir = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function layerOf(path: string): string {
  return relative(srcDir, path).split(/[\\/]/)[0];
}

describe('layers', () => {
  it('no module imports from a layer above its own (the CLI may use every layer)', () => {
    const upward: string[] = [];
    let checked = 0;
    for (const file of sourceFiles(srcDir)) {
      const from = layerOf(file);
      const fromRank = rank.get(from);
      if (fromRank === undefined) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = match[1] ?? match[2];
        const target = normalize(join(dirname(file), spec));
        const toRank = rank.get(layerOf(target));
        checked++;
        if (toRank !== undefined && toRank > fromRank) upward.push(`${relative(srcDir, file)} imports ${spec}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(upward).toEqual([]);
  });
});
