import type { Scene } from '../worlds/household/env/scene.ts';
import type { StepRecord } from '../worlds/household/env/game.ts';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { Rng } from '../common/rng.ts';
import { generateScene } from '../worlds/household/env/splits.ts';
import { APPLIANCE, OBJECT_KINDS, RECEPTACLE_KINDS } from '../worlds/household/env/knowledge.ts';
import { requiredState } from '../worlds/household/env/scene.ts';
import { presetConfig } from '../model/config.ts';
import { freeDecodingMask } from '../text/command_trie.ts';
import { splitPieces } from '../text/pieces.ts';
import { parseSkill } from '../worlds/household/skills/parser.ts';
import { skillGrammar } from '../worlds/household/skills/grammar.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { writeSkills } from './analyzer.ts';
import { observedPlaces, trajectoryWords } from '../worlds/household/rl/observed.ts';
import { episodeText, rollout, type Trajectory } from './rollout.ts';
import { skillPlaceTruth } from '../worlds/household/rl/skill_truth.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

const tok = defaultTokenizer();
const words = Math.ceil(tok.vocabSize / 32);

async function setup(): Promise<{ backend: CpuBackend; trajectories: Trajectory<Scene, StepRecord>[] }> {
  const backend = CpuBackend.fromSeed(presetConfig('micro', tok.vocabSize), 4);
  const scenes = [0, 1, 2, 3, 4, 5].map((i) => generateScene('train', i));
  const options = {
    maxSteps: 2,
    history: 2,
    temperature: 1,
    constrained: true,
    maxCommandTokens: 12,
    maxSkillTokens: 48,
  };
  return {
    backend,
    trajectories: await rollout(householdEnvironment(), backend, tok, scenes, [0, 1, 2, 3, 4, 5], options, new Rng(8)),
  };
}

describe('writeSkills', () => {
  it('under the grammar, a random-init policy writes only usable skills of observed types, and records the masks it sampled under', async () => {
    const { backend, trajectories } = await setup();
    const grammar = skillGrammar(tok);
    for (const maxTokens of [48, 9]) {
      const skills = await writeSkills(householdRl(), backend, tok, trajectories, maxTokens, 1, new Rng(3));
      expect(skills.length).toBe(6);
      for (const s of skills) {
        expect(s.reason).toBe('');
        expect(s.ok).toBe(true);
        expect(parseSkill(s.text).ok).toBe(true);
        expect(s.ids!.length).toBeLessThanOrEqual(maxTokens);
        expect(tok.decode(s.ids!)).toBe(s.text);
      }
      let named = 0;
      skills.forEach((s, i) => {
        // Only the type names the trajectory's goal and steps mention, and its task's appliance.
        const e = episodeText(trajectories[i]);
        const seen = new Set(
          splitPieces([e.goal, ...e.steps.flatMap((st) => [st.action, st.observation])].join(' ')).map((w) =>
            w.toLowerCase(),
          ),
        );
        const state = requiredState(trajectories[i].scene.task.type);
        if (state) seen.add(APPLIANCE[state]);
        const types = splitPieces(s.text).filter((w) => w in OBJECT_KINDS || w in RECEPTACLE_KINDS);
        named += types.length;
        // A class the trajectory names none of is left whole (so the grammar can complete).
        const names = (kinds: object) => [...seen].some((w) => w in kinds);
        for (const w of types)
          expect(seen.has(w) || !names(w in OBJECT_KINDS ? OBJECT_KINDS : RECEPTACLE_KINDS)).toBe(true);
        const filter = grammar.entityFilter(
          trajectoryWords(trajectories[i]),
          observedPlaces(trajectories[i].records, trajectories[i].scene.task),
        );
        expect(Array.from(s.masks!)).toEqual(Array.from(grammar.skillMasks(Array.from(s.ids!), maxTokens, filter)));
        expect(skillPlaceTruth(s.text, trajectories[i].scene).statesFalse, s.text).toBe(false);
      });
      expect(named).toBeGreaterThan(0);
    }
  });

  it('decodes freely with grammar off: the masks are the free mask, and the end token alone at the cut', async () => {
    const { backend, trajectories } = await setup();
    const free = Array.from(freeDecodingMask(tok));
    const skills = await writeSkills(householdRl(), backend, tok, trajectories, 6, 1, new Rng(3), { grammar: false });
    // Six free tokens of a random-init policy never make a skill: fewer than 7 tokens cannot hold 5 words.
    expect(skills.filter((s) => s.ok).length).toBe(0);
    for (const s of skills) {
      const n = s.ids!.length;
      expect(n).toBeLessThanOrEqual(6);
      expect(s.masks!.length).toBe((n + 1) * words);
      for (let k = 0; k < Math.min(n + 1, 6); k++)
        expect(Array.from(s.masks!.subarray(k * words, (k + 1) * words))).toEqual(free);
      if (n === 6) expect(Array.from(s.masks!.subarray(6 * words)).reduce((c, w) => c + (w === 0 ? 0 : 1), 0)).toBe(1);
    }
  });

  it('is reproducible from the seed, and a budget below the shortest skill ends unusable at the cut', async () => {
    const { backend, trajectories } = await setup();
    const a = await writeSkills(householdRl(), backend, tok, trajectories, 48, 1, new Rng(11));
    const b = await writeSkills(householdRl(), backend, tok, trajectories, 48, 1, new Rng(11));
    expect(b.map((s) => s.text)).toEqual(a.map((s) => s.text));
    const cut = await writeSkills(householdRl(), backend, tok, trajectories, 4, 1, new Rng(11));
    for (const s of cut) {
      expect(s.ids!.length).toBeLessThanOrEqual(4);
      expect(s.ok).toBe(false);
      expect(s.reason).toMatch(/too short/);
    }
  });

  it('writes in chunks of lockstep streams, the first chunk as one lockstep of the same seed would', async () => {
    const { backend, trajectories } = await setup();
    expect(trajectories.length).toBeGreaterThan(2);
    const whole = await writeSkills(householdRl(), backend, tok, trajectories, 48, 1, new Rng(11));
    const alone = await writeSkills(householdRl(), backend, tok, trajectories, 48, 1, new Rng(11), {
      chunk: trajectories.length,
    });
    expect(alone.map((s) => s.text)).toEqual(whole.map((s) => s.text));
    const chunked = await writeSkills(householdRl(), backend, tok, trajectories, 48, 1, new Rng(11), { chunk: 2 });
    expect(chunked).toHaveLength(trajectories.length);
    expect(chunked.slice(0, 2).map((s) => s.text)).toEqual(
      (await writeSkills(householdRl(), backend, tok, trajectories.slice(0, 2), 48, 1, new Rng(11))).map((s) => s.text),
    );
    for (const s of chunked) expect(s.ok).toBe(true);
  });
});
