// Every world folder has the same files for the same roles, so that a reader who knows one world finds a part of
// another by its name alone: the required names of each layer's folder are listed here once, and a world's
// own extra files (the household's rooms.ts, the shop's catalogue.ts) carry no world's name or short prefix.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_NAMES } from './worlds/names.ts';

const worldsDir = join(import.meta.dirname, 'worlds');

/**
 * The files every world has in each of its layers' folders (docs/architecture.md, "Worlds"). A folder that only
 * some worlds have (ui/, the page's view; cli/ and lab/, commands of its own) is checked only where it has it.
 */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  env: ['environment.ts', 'game.ts', 'facts.ts', 'scene.ts', 'expert.ts', 'vocabulary.ts', 'splits.ts'],
  skills: ['skill.ts', 'grammar.ts', 'parser.ts', 'parts.ts'],
  rl: ['adapter.ts', 'annotator.ts', 'corpus.ts', 'explorer.ts', 'observed.ts', 'skill_truth.ts'],
  ui: ['view.ts'],
  cli: [],
  lab: [],
};
/** The folders every world has; the others of REQUIRED only where it has them. */
const ALWAYS = ['env', 'skills', 'rl'];

/** The worlds of the tests (src/worlds/testing/<world>/), each with the files of a shipped world. */
const TEST_WORLDS = readdirSync(join(worldsDir, 'testing')).map((name) => `testing/${name}`);

/**
 * The words a world's name is written as in code: its registry name, the search-QA world's short one, and a
 * world of the tests' folder name.
 */
const WORLD_WORDS = new Set<string>([...ENVIRONMENT_NAMES, 'qa', ...TEST_WORLDS.map((w) => w.split('/')[1])]);

/** A file name's words: split at `_`, `-`, `.` and where a lower-case letter meets a capital. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .map((w) => w.toLowerCase());
}

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

/** The names a folder's file would break: those that carry a world's name as one of their words. */
function worldNamed(files: readonly string[]): string[] {
  return files.filter((file) => wordsOf(file.split('/').at(-1) ?? file).some((w) => WORLD_WORDS.has(w)));
}

describe("the worlds' file scheme", () => {
  it('reads a world in a file name as one of its words', () => {
    expect(worldNamed(['rl/shop_rl.ts', 'ui/QaPage.tsx', 'env/household_environment.ts', 'rl/qa_corpus.ts'])).toEqual([
      'rl/shop_rl.ts',
      'ui/QaPage.tsx',
      'env/household_environment.ts',
      'rl/qa_corpus.ts',
    ]);
    expect(worldNamed(['env/rooms.ts', 'skills/parts.test.ts', 'ui/Page.tsx', 'env/questions.ts'])).toEqual([]);
  });

  it('checks the worlds of the tests too', () => {
    expect(TEST_WORLDS).toContain('testing/counter');
  });

  for (const world of [...ENVIRONMENT_NAMES, ...TEST_WORLDS]) {
    const dir = join(worldsDir, world);
    it(`${world} has the required files of each of its layers' folders and its README`, () => {
      expect(existsSync(join(dir, 'README.md'))).toBe(true);
      // An empty folder is none: git keeps no folder without files.
      const folders = readdirSync(dir).filter(
        (n) => statSync(join(dir, n)).isDirectory() && filesUnder(join(dir, n)).length > 0,
      );
      for (const folder of folders)
        expect(Object.keys(REQUIRED), `${world}/${folder}/ is a layer's folder`).toContain(folder);
      for (const [folder, names] of Object.entries(REQUIRED)) {
        if (!ALWAYS.includes(folder) && !existsSync(join(dir, folder))) continue;
        for (const name of names) expect(existsSync(join(dir, folder, name)), `${world}/${folder}/${name}`).toBe(true);
      }
    });

    it(`no file of ${world} carries a world's name`, () => {
      expect(worldNamed(filesUnder(dir))).toEqual([]);
    });
  }
});
