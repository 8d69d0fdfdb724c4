// The rollout plays the shop through the environment interface: constrained decoding keeps every action one
// the page takes (a listed click, or a search of catalogue words), and the trajectory holds what training needs.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../backend/cpu/cpu_backend.ts';
import { Rng } from '../../../common/rng.ts';
import { SHOP } from '../env/environment.ts';
import { presetConfig } from '../../../model/config.ts';
import { CommandTrie } from '../../../text/command_trie.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { defaultConfig } from '../../../rl/config.ts';
import { skillSequences } from '../../../rl/rescore.ts';
import { rollout } from '../../../rl/rollout.ts';
import { shopRl } from './adapter.ts';

const tok = tokenizerOf(SHOP);

describe('rollout in the shop', () => {
  it('plays shop games with valid actions only, and records their tokens, masks and log-probs', async () => {
    const backend = CpuBackend.fromSeed(presetConfig('micro', tok.vocabSize), 3);
    const scenes = [0, 1, 2, 3].map((i) => SHOP.trainScene(i, 4));
    const options = {
      maxSteps: 5,
      history: 1,
      temperature: 1,
      constrained: true,
      maxCommandTokens: 16,
      maxSkillTokens: 32,
    };
    const trajectories = await rollout(SHOP, backend, tok, scenes, [0, 1, 2, 3], options, new Rng(6));
    expect(trajectories.map((t) => t.goal)).toEqual(scenes.map((s) => s.goal.instruction));
    for (const t of trajectories) {
      expect(t.layout).toBe('window');
      const actions = t.records.slice(1);
      expect(actions.length).toBeGreaterThan(0);
      expect(actions.every((r) => r.valid)).toBe(true);
      // The first page is the search page: the first action is a search, written in WebShop's form.
      expect(actions[0].action).toMatch(/^search\[[a-z0-9' -]+\]$/);
      expect(actions[0].page).toBe('results');
      const scored = t.commands.reduce((n, c) => n + c.ids.length, 0);
      expect(t.lOld.length).toBe(scored);
      expect(t.sequences.length).toBe(t.commands.length);
      for (const c of t.commands) expect(c.ids[c.ids.length - 1]).toBe(tok.endId);
      expect(Array.from(t.lOld).every((l) => Number.isFinite(l) && l <= 0)).toBe(true);
    }
  });

  it('re-scores a skill in the same contexts as the rollout that acted with it, the skill after the page', async () => {
    const backend = CpuBackend.fromSeed(presetConfig('micro', tok.vocabSize), 3);
    const scenes = [0, 1].map((i) => SHOP.trainScene(i, 4));
    const skill = 'workflow: search cotton shirt, click next, buy now.';
    const options = {
      maxSteps: 4,
      history: 1,
      temperature: 1,
      constrained: true,
      maxCommandTokens: 16,
      maxSkillTokens: 32,
      skillAfterPage: true,
    };
    const trajectories = await rollout(SHOP, backend, tok, scenes, [0, 1], options, new Rng(6), undefined, [
      skill,
      skill,
    ]);
    const config = { ...defaultConfig('micro'), maxSteps: 4, history: 1, maxCommandTokens: 16, skillAfterPage: 1 };
    const run = { backend, tok, algo: 'seed' as const, seed: 1, world: shopRl() };
    for (const t of trajectories) {
      const again = skillSequences(run, t, skill, config);
      expect(again.map((s) => Array.from(s.ids))).toEqual(t.sequences.map((s) => Array.from(s.ids)));
      for (const s of again)
        expect(tok.decode(s.ids.subarray(0, s.positions[0]))).toMatch(/<obs> .* <skill> .* <end> <act>$/);
    }
  });

  it('decodes the search bar under its free-text mask: the search words, then the closing bracket', () => {
    const game = SHOP.episode(SHOP.trainScene(0, 0));
    const trie = CommandTrie.fromCommands(tok, game.admissibleCommands(), game.freeText());
    const ids = tok.encode('search[cotton oxford shirt]');
    expect(trie.isComplete(trie.walk(ids))).toBe(true);
    expect(trie.walk(tok.encode('search[cotton thank shirt]'))).toBe(-1);
    expect(trie.walk(tok.encode('click[buy now]'))).toBe(-1);
  });
});
