// No file of the project's own source (src/, shaders/, e2e/) is over MAX_LINES lines: a longer one is split
// where its parts meet (DEVELOPERS.md, "Conventions"). Files copied unchanged from elsewhere are left out,
// each named below with where it comes from.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 450;
const rootDir = dirname(dirname(fileURLToPath(import.meta.url)));
const SOURCE_DIRS = ['src', 'shaders', 'e2e'];
/** Copied unchanged from elsewhere, so not split here. */
const COPIED: Readonly<Record<string, string>> = {
  'src/onnx/onnx.proto': "ONNX's schema as released with onnx 1.12",
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The files of `dirs` over `max` lines, as "path: N lines". */
function overLong(dirs: readonly string[], max: number): string[] {
  return dirs
    .flatMap((d) => files(join(rootDir, d)))
    .map((path) => ({
      name: relative(rootDir, path).split('\\').join('/'),
      lines: readFileSync(path, 'utf8').split('\n').length - 1,
    }))
    .filter(({ name, lines }) => lines > max && !(name in COPIED))
    .map(({ name, lines }) => `${name}: ${lines} lines`);
}

describe('source files', () => {
  it(`hold at most ${MAX_LINES} lines each`, () => {
    expect(overLong(SOURCE_DIRS, MAX_LINES)).toEqual([]);
    expect(Object.keys(COPIED).every((name) => statSync(join(rootDir, name)).isFile())).toBe(true);
  });

  it('the check names a file over the limit, and only such a file', () => {
    const lines = readFileSync(join(rootDir, 'src/worlds/household/skills/skill.ts'), 'utf8').split('\n').length - 1;
    expect(overLong(['src/worlds/household/skills'], lines - 1)).toContain(
      `src/worlds/household/skills/skill.ts: ${lines} lines`,
    );
    expect(
      overLong(['src/worlds/household/skills'], lines).filter((line) =>
        line.startsWith('src/worlds/household/skills/skill.ts:'),
      ),
    ).toEqual([]);
  });
});
