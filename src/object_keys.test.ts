// Every reader of outside input looks a parsed key up among its own entries (Object.hasOwn, a Map, a list):
// a key or value named like a member of every object ("constructor", "__proto__", "toString") is refused, or
// ignored, exactly as an ordinary unknown name is, never found on Object.prototype. Each case compares the
// reader's answer for such a name with its answer for a plain unknown name put in the same place.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateScene } from './worlds/household/env/splits.ts';
import { environmentOf } from './worlds/environments.ts';
import { isObjectType, isReceptacleType } from './worlds/household/env/knowledge.ts';
import { sceneFromJson, sceneToJson } from './worlds/household/env/scene.ts';
import { Rng } from './common/rng.ts';
import { catalogueOf, DEFAULT_CATALOGUE } from './worlds/shop/env/catalogue.ts';
import { drawGoal } from './worlds/shop/env/goal.ts';
import { shopSceneFromJson, shopSceneToJson } from './worlds/shop/env/scene.ts';
import { lossProblemFromJson } from './backend/loss_json.ts';
import type { Checkpoint } from './model/checkpoint.ts';
import { isPresetName, presetConfig } from './model/config.ts';
import { parameterLayout } from './model/layout.ts';
import { defaultTokenizer } from './text/tokenizer.ts';
import { applySettings, defaultConfig, isConfigKey } from './rl/config.ts';
import { currentAlgoName, isAlgo } from './rl/arms.ts';
import { RECORD_FORMAT, RECORD_VERSION } from './rl/recorded_run.ts';
import { parseRecordedRun } from './rl/recorded_run_check.ts';
import { runMetadata } from './rl/run_metadata.ts';
import { parseHash, settingsFrom } from './rl/page_settings.ts';

const MEMBERS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];
const PLAIN = 'zzplain';
const member = fc.constantFrom(...MEMBERS);

/** What `read` does with `input`: its value as JSON, or its error's class and message. */
function outcome(read: () => unknown): string {
  try {
    return `value ${JSON.stringify(read())}`;
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
}

/** Whether `read(name)` answers as `read(PLAIN)` does, the name written in place of PLAIN. */
function sameAsPlain(read: (name: string) => unknown, name: string): void {
  const plain = outcome(() => read(PLAIN)).replaceAll(PLAIN, name);
  expect(outcome(() => read(name))).toBe(plain);
}

/** JSON text with `"name": value` as the first entry of the object `open` begins. */
function withKey(text: string, open: string, name: string, value = '1'): string {
  const at = text.indexOf(open) + open.length;
  expect(at).toBeGreaterThanOrEqual(open.length);
  return `${text.slice(0, at)}${JSON.stringify(name)}: ${value}, ${text.slice(at)}`;
}

describe('names of object members in parsed input', () => {
  it('are no type, preset, algorithm or setting of the tables behind the readers', () => {
    for (const name of MEMBERS) {
      expect([isObjectType(name), isReceptacleType(name), isPresetName(name), isAlgo(name), isConfigKey(name)]).toEqual(
        [false, false, false, false, false],
      );
      expect(currentAlgoName(name)).toBe(name);
      expect(() => environmentOf('household', name)).toThrow(/has no .* scale/);
      expect(() => environmentOf('shop', name)).toThrow(/has no .* scale/);
    }
  });

  it('household scene JSON: a key or a type named so is refused as an unknown one', () => {
    const scene = sceneToJson(generateScene('train', 2));
    const doc = JSON.parse(scene);
    fc.assert(
      fc.property(member, (name) => {
        for (const open of ['{', '"task": {', '"receptacles": [\n  {', '"objects": [\n  {'])
          sameAsPlain((n) => sceneFromJson(withKey(scene, open, n)), name);
        const edits: ((d: typeof doc, n: string) => void)[] = [
          (d, n) => (d.room = n),
          (d, n) => (d.task.type = n),
          (d, n) => (d.task.object = n),
          (d, n) => (d.task.target = n),
        ];
        // An instance name is "<type> <number>" in lower case letters: "constructor 1" is one.
        if (/^[a-z]+$/.test(name))
          edits.push(
            (d, n) => (d.receptacles[0].name = `${n} 1`),
            (d, n) => (d.objects[0].name = `${n} 1`),
          );
        for (const edit of edits) {
          sameAsPlain((n) => {
            const d = structuredClone(doc);
            edit(d, n);
            return sceneFromJson(JSON.stringify(d));
          }, name);
        }
      }),
      { numRuns: 20 },
    );
  });

  it('shop scene JSON: a key at any level, or an option, named so is refused as an unknown one', () => {
    const target = catalogueOf(DEFAULT_CATALOGUE)[7];
    const scene = shopSceneToJson({ catalogue: DEFAULT_CATALOGUE, goal: drawGoal(new Rng(5), target) });
    fc.assert(
      fc.property(member, (name) => {
        for (const open of ['"catalogue":{', '"goal":{', '"options":{'])
          sameAsPlain((n) => shopSceneFromJson(withKey(scene, open, n, '"navy"')), name);
        sameAsPlain((n) => shopSceneFromJson(scene.replace(`"targetId":"${target.id}"`, `"targetId":"${n}"`)), name);
      }),
      { numRuns: 20 },
    );
  });

  it("the page's link: a key is not a setting, and a choice is not one of the choices", () => {
    fc.assert(
      fc.property(member, (name) => {
        sameAsPlain((n) => parseHash(`#${n}=1&seed=3`), name);
        for (const key of ['env', 'preset', 'algo', 'decoding', 'backend'])
          sameAsPlain((n) => parseHash(`#${key}=${n}`).notices, name);
        // Saved settings read only the settings' own names: another key is ignored, whatever its name.
        sameAsPlain((n) => settingsFrom(JSON.parse(`{${JSON.stringify(n)}: 5, "seed": 4}`)), name);
      }),
      { numRuns: 20 },
    );
  });

  it('--set key=value and loss JSON: an unknown setting, an unknown field', () => {
    const loss = { lambda: 0.1, beta: 1, clip: 0.2, kl_coef: 0, tokens: [{}] };
    const token = { l_student: -1, l_skill: -1, l_old: -1, l_ref: -1, advantage: 0, mask: 1, opd_mask: 1 };
    const lossText = JSON.stringify({ ...loss, tokens: [token] });
    fc.assert(
      fc.property(member, (name) => {
        sameAsPlain((n) => applySettings(defaultConfig('micro'), [`${n}=1`]), name);
        sameAsPlain((n) => lossProblemFromJson(JSON.parse(withKey(lossText, '{', n))), name);
        sameAsPlain((n) => lossProblemFromJson(JSON.parse(withKey(lossText, '"tokens":[{', n))), name);
      }),
      { numRuns: 20 },
    );
  });

  it("a run checkpoint's metadata: no preset, world, scale, algorithm or task type", () => {
    const config = presetConfig('micro', defaultTokenizer().vocabSize);
    const n = parameterLayout(config).totalFloats;
    const metadata = {
      stage: 'rl',
      algo: 'seed',
      seed: 1,
      preset: 'micro',
      scale: 'tiny',
      updates: 1,
      episodes: 1,
      config: defaultConfig('micro'),
      staticLibrary: null,
    };
    const ck = (m: Record<string, unknown>): Checkpoint => ({
      config,
      vocabHash: defaultTokenizer().hash,
      params: new Float32Array(n).fill(0.01),
      optimizer: { m: new Float32Array(n), v: new Float32Array(n), step: 1 },
      metadata: m,
    });
    expect(() => runMetadata(ck(metadata))).not.toThrow();
    fc.assert(
      fc.property(member, (name) => {
        for (const field of ['algo', 'preset', 'env', 'scale'])
          sameAsPlain((v) => runMetadata(ck({ ...metadata, [field]: v })), name);
        sameAsPlain((v) => runMetadata(ck({ ...metadata, staticLibrary: JSON.parse(`{"${v}": []}`) })), name);
      }),
      { numRuns: 20 },
    );
  });

  it('a recorded run: no preset or algorithm', () => {
    const head = { format: RECORD_FORMAT, version: RECORD_VERSION, updates: 1, evalGames: { seen: 1, unseen: 1 } };
    const texts = { command: 'c', commit: 'x', created: '2026-01-01' };
    fc.assert(
      fc.property(member, (name) => {
        sameAsPlain((v) => parseRecordedRun(JSON.stringify({ ...head, ...texts, preset: v })), name);
        const before = { ...head, ...texts, preset: 'micro', warmstart: { seen: 0, unseen: 0 } };
        sameAsPlain((v) => parseRecordedRun(JSON.stringify({ ...before, arms: [{ algo: v, role: 'main' }] })), name);
        sameAsPlain((v) => parseRecordedRun(JSON.stringify({ ...before, arms: [{ algo: 'seed', role: v }] })), name);
      }),
      { numRuns: 20 },
    );
  });
});
