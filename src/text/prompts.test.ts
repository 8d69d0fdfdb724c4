import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Game } from '../worlds/household/env/game.ts';
import { generateScene } from '../worlds/household/env/splits.ts';
import {
  analyzerContext,
  analyzerSequence,
  episodeSequence,
  insertSkill,
  openingRoomText,
  policyContext,
  scoringTargets,
  stepSequence,
  type EpisodeText,
} from './prompts.ts';
import { defaultTokenizer } from './tokenizer.ts';

const tok = defaultTokenizer();
const text = (ids: ArrayLike<number>) => tok.decode(ids);

const episode: EpisodeText = {
  goal: 'put a hot mug in cabinet',
  opening:
    '-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, you see a ' +
    'cabinet 1, a countertop 1, and a microwave 1.\n\nYour task is to: put a hot mug in cabinet.',
  steps: [
    {
      action: 'go to countertop 1',
      observation: 'You arrive at countertop 1. On the countertop 1, you see a mug 1.',
      valid: true,
    },
    { action: 'take mug 1 from cabinet 1', observation: 'Nothing happens.', valid: false },
    {
      action: 'take mug 1 from countertop 1',
      observation: 'You pick up the mug 1 from the countertop 1.',
      valid: true,
    },
  ],
};
const ROOM =
  'You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, and a microwave 1.';
const SKILL = 'workflow: find the mug, take it, heat it with the microwave 1.';
const BLOCK = `<skill> refer to this skill when deciding what action to take: ${SKILL} <end>`;

describe('openingRoomText', () => {
  it('drops the banner, the task line and the blank lines', () => {
    expect(openingRoomText(episode.opening)).toBe(ROOM);
    expect(openingRoomText(ROOM)).toBe(ROOM);
  });
});

describe('episodeSequence', () => {
  const seq = episodeSequence(tok, episode);

  it('lays the episode out as task, observations and commands', () => {
    expect(text(seq.ids)).toBe(
      `<task> put a hot mug in cabinet. <obs> ${ROOM} <act> go to countertop 1 <end> ` +
        '<obs> You arrive at countertop 1. On the countertop 1, you see a mug 1. <act> take mug 1 from cabinet 1 <end> ' +
        '<obs> Nothing happens. <act> take mug 1 from countertop 1 <end>',
    );
    expect(seq.skillAt).toBe(8); // <task> put a hot mug in cabinet .
    expect(seq.skillLength).toBe(0);
  });

  it('marks exactly the command tokens and their end tokens', () => {
    const scored = Array.from(seq.commandPositions, (p) => tok.token(seq.ids[p]));
    expect(scored).toEqual([
      'go',
      'to',
      'countertop',
      '1',
      '<end>',
      'take',
      'mug',
      '1',
      'from',
      'cabinet',
      '1',
      '<end>',
      'take',
      'mug',
      '1',
      'from',
      'countertop',
      '1',
      '<end>',
    ]);
    expect(seq.commandSpans.length).toBe(6);
    for (let s = 0; s < 3; s++) {
      const [a, b] = [seq.commandSpans[2 * s], seq.commandSpans[2 * s + 1]];
      expect(text(seq.ids.subarray(a, b))).toBe(`${episode.steps[s].action} <end>`);
      expect(tok.token(seq.ids[a - 1])).toBe('<act>');
    }
  });

  it('gives next-token targets at the position before each scored token', () => {
    const targets = scoringTargets(seq);
    expect(targets.length).toBe(seq.ids.length);
    const scoredAt = [...targets.keys()].filter((i) => targets[i] >= 0);
    expect(scoredAt).toEqual(Array.from(seq.commandPositions, (p) => p - 1));
    for (const p of seq.commandPositions) expect(targets[p - 1]).toBe(seq.ids[p]);
  });

  it('inserts a skill block after the task line and maps every position', () => {
    const sk = insertSkill(tok, seq, SKILL);
    expect(text(sk.ids)).toBe(`<task> put a hot mug in cabinet. ${BLOCK} ${text(seq.ids.subarray(8))}`);
    expect(sk.skillAt).toBe(8);
    expect(text(sk.ids.subarray(sk.skillAt, sk.skillAt + sk.skillLength))).toBe(BLOCK);
    for (let i = 0; i < seq.ids.length; i++) {
      expect(sk.ids[sk.plainToSkill[i]]).toBe(seq.ids[i]);
      expect(sk.plainToSkill[i]).toBe(i < 8 ? i : i + sk.skillLength);
    }
    expect(Array.from(sk.commandPositions)).toEqual(Array.from(seq.commandPositions, (p) => sk.plainToSkill[p]));
    expect(Array.from(sk.commandPositions, (p) => sk.ids[p])).toEqual(
      Array.from(seq.commandPositions, (p) => seq.ids[p]),
    );
    expect(() => insertSkill(tok, sk, SKILL)).toThrow(/already/);
  });
});

describe('policyContext', () => {
  // Lengths in tokens: task line 8; "<obs> ROOM" 30; the three steps as history ("<obs> observation <act> command
  // <end>") 36, 26 and 12; the current observation 12; the ACT marker 1. All steps: 8 + 36 + 26 + 12 + 12 + 1 = 95.
  const CURRENT = '<obs> You pick up the mug 1 from the countertop 1. <act>';
  const STEP1 =
    '<obs> You arrive at countertop 1. On the countertop 1, you see a mug 1. <act> take mug 1 from cabinet 1 <end>';
  const STEP2 = '<obs> Nothing happens. <act> take mug 1 from countertop 1 <end>';

  it('keeps the room line, the last H steps, the current observation and the ACT marker', () => {
    const ctx = policyContext(tok, episode, { history: 1, maxLen: 512 });
    expect(text(ctx)).toBe(`<task> put a hot mug in cabinet. <obs> ${ROOM} ${STEP2} ${CURRENT}`);
    expect(ctx.length).toBe(8 + 30 + 12 + 12 + 1);
    expect(policyContext(tok, episode, { history: 3, maxLen: 512 }).length).toBe(95);
    const start = policyContext(tok, { ...episode, steps: [] }, { history: 5, maxLen: 512, skill: SKILL });
    expect(text(start)).toBe(`<task> put a hot mug in cabinet. ${BLOCK} <obs> ${ROOM} <act>`);
  });

  it('drops old steps, then the room line, then cuts the observation, then fits the skill into what is left', () => {
    const full = policyContext(tok, episode, { history: 3, maxLen: 512 });
    const withSkill = policyContext(tok, episode, { history: 3, maxLen: 512, skill: SKILL });
    expect(withSkill.length - full.length).toBe(1 + 11 + 16 + 1); // <skill>, the intro, the skill, <end>

    // Four tokens short: the oldest step (36) goes, and 59 tokens remain.
    const short = policyContext(tok, episode, { history: 3, maxLen: 91 });
    expect(text(short)).toBe(`<task> put a hot mug in cabinet. ${STEP1} ${STEP2} ${CURRENT}`);
    // The same budget with a skill: the plain context's history, and the skill (29 tokens) in the 32 left.
    const shortSkill = policyContext(tok, episode, { history: 3, maxLen: 91, skill: SKILL });
    expect(text(shortSkill)).toBe(`<task> put a hot mug in cabinet. ${BLOCK} ${STEP1} ${STEP2} ${CURRENT}`);

    // A window of 2 pins the room line (89 tokens); at 60 both steps go (51 left), at 50 the room line too.
    expect(policyContext(tok, episode, { history: 2, maxLen: 512 }).length).toBe(89);
    expect(text(policyContext(tok, episode, { history: 2, maxLen: 60 }))).toBe(
      `<task> put a hot mug in cabinet. <obs> ${ROOM} ${CURRENT}`,
    );
    expect(text(policyContext(tok, episode, { history: 2, maxLen: 50 }))).toBe(
      `<task> put a hot mug in cabinet. ${CURRENT}`,
    );

    // Task (8) + "<obs> You pick" (3) + <act> = 12: no history, the observation cut, no room for a skill.
    const tiny = policyContext(tok, episode, { history: 3, maxLen: 14, reserve: 2, skill: SKILL });
    expect(text(tiny)).toBe('<task> put a hot mug in cabinet. <obs> You pick <act>');
    expect(() => policyContext(tok, episode, { history: 3, maxLen: 9 })).toThrow(
      /task line and markers need 10 tokens, more than the 9/,
    );
    expect(() => policyContext(tok, episode, { history: -1, maxLen: 512 })).toThrow(/history/);
  });

  it('puts the skill block after the page, right before ACT, and leaves the rest as the plain context', () => {
    const plain = policyContext(tok, episode, { history: 1, maxLen: 512 });
    const after = policyContext(tok, episode, { history: 1, maxLen: 512, skill: SKILL, skillAfterPage: true });
    expect(text(after)).toBe(
      `<task> put a hot mug in cabinet. <obs> ${ROOM} ${STEP2} ${CURRENT.replace(/ <act>$/, '')} ${BLOCK} <act>`,
    );
    expect(after.slice(0, plain.length - 1)).toEqual(plain.slice(0, -1));
    // The budget of the plain context plus 16: the same history, the skill cut to fit.
    const cut = policyContext(tok, episode, {
      history: 1,
      maxLen: plain.length + 16,
      skill: SKILL,
      skillAfterPage: true,
    });
    expect(text(cut.slice(plain.length - 1))).toBe(
      '<skill> refer to this skill when deciding what action to take: workflow: find <end> <act>',
    );
    const step = stepSequence(tok, episode, 2, { history: 1, maxLen: 512, skill: SKILL, skillAfterPage: true });
    const before = policyContext(tok, { ...episode, steps: episode.steps.slice(0, 2) }, { history: 1, maxLen: 512 });
    expect(step.skillAt).toBe(before.length - 1);
    expect(text(step.ids.subarray(step.skillAt, step.skillAt + step.skillLength))).toBe(BLOCK);
  });

  it('agrees with the whole-episode sequence when nothing is cut', () => {
    const seq = episodeSequence(tok, episode);
    for (let t = 0; t < episode.steps.length; t++) {
      const step = stepSequence(tok, episode, t, { history: Infinity, maxLen: 512 });
      const end = seq.commandSpans[2 * t + 1];
      expect(Array.from(step.ids)).toEqual(Array.from(seq.ids.subarray(0, end)));
      const [a, b] = [seq.commandSpans[2 * t], seq.commandSpans[2 * t + 1]];
      expect(Array.from(step.commandPositions)).toEqual(Array.from({ length: b - a }, (_, k) => a + k));
    }
  });

  it('reports where the skill block is in a step sequence, also when it was cut', () => {
    const step = stepSequence(tok, episode, 2, { history: 1, maxLen: 512, skill: SKILL });
    expect(text(step.ids.subarray(step.skillAt, step.skillAt + step.skillLength))).toBe(BLOCK);
    const plain = stepSequence(tok, episode, 2, { history: 1, maxLen: 512 });
    expect(plain.skillLength).toBe(0);
    // 16 tokens of room: <skill>, the 11 tokens of the intro, then "workflow: find" and <end>.
    const cutSkill = stepSequence(tok, episode, 2, { history: 1, maxLen: plain.ids.length + 16, skill: SKILL });
    expect(cutSkill.ids.length).toBe(plain.ids.length + 16);
    expect(cutSkill.skillLength).toBe(16);
    expect(text(cutSkill.ids.subarray(cutSkill.skillAt, cutSkill.skillAt + 16))).toBe(
      '<skill> refer to this skill when deciding what action to take: workflow: find <end>',
    );
    expect(text(cutSkill.ids.subarray(cutSkill.commandPositions[0]))).toBe('take mug 1 from countertop 1 <end>');
    expect(() => stepSequence(tok, episode, 3, { history: 1, maxLen: 512 })).toThrow(/outside/);
  });
});

describe('analyzerContext', () => {
  it('shows the task, the outcome and the compressed trajectory, and ends with the skill marker', () => {
    expect(text(analyzerContext(tok, episode, false, { maxLen: 512 }))).toBe(
      '<analyze> <task> put a hot mug in cabinet. <outcome> failure ' +
        '<step> go to countertop 1 valid <obs> On the countertop 1, you see a mug 1. ' +
        '<step> take mug 1 from cabinet 1 invalid ' +
        '<step> take mug 1 from countertop 1 valid <obs> You pick up the mug 1 from the countertop 1. <skill>',
    );
  });

  it('cuts long observations and drops the oldest steps to fit', () => {
    const cut = analyzerContext(tok, episode, true, { maxLen: 512, maxObservationTokens: 3 });
    expect(text(cut)).toContain('<outcome> success <step> go to countertop 1 valid <obs> On the countertop <step>');
    // 11 head tokens and the SKILL marker; the last step is 14 tokens, the one before 8.
    const fit = analyzerContext(tok, episode, true, { maxLen: 12 + 14 + 7, reserve: 0 });
    expect(text(fit)).toBe(
      '<analyze> <task> put a hot mug in cabinet. <outcome> success ' +
        '<step> take mug 1 from countertop 1 valid <obs> You pick up the mug 1 from the countertop 1. <skill>',
    );
    expect(() => analyzerContext(tok, episode, true, { maxLen: 20, reserve: 10 })).toThrow(/task and outcome need 12/);
  });

  it('builds a training example whose scored tokens are the skill and its end token', () => {
    const seq = analyzerSequence(tok, episode, true, SKILL, { maxLen: 512 });
    expect(text(Array.from(seq.commandPositions, (p) => seq.ids[p]))).toBe(`${SKILL} <end>`);
    expect(tok.token(seq.ids[seq.commandPositions[0] - 1])).toBe('<skill>');
    expect(seq.commandPositions[seq.commandPositions.length - 1]).toBe(seq.ids.length - 1);
  });
});

describe('sequences of generated games', () => {
  it('hold no unknown token and give the observations back exactly', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('train', 'seen', 'unseen' as const),
        fc.integer({ min: 0, max: 5000 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (split, index, choices) => {
          const game = new Game(generateScene(split as 'train' | 'seen' | 'unseen', index));
          // Some random admissible commands, an invalid one, then the expert to the end.
          for (const c of choices)
            if (!game.done) game.step(game.admissibleCommands()[c % game.admissibleCommands().length]);
          if (!game.done) game.step('take sofa 1 from bed 1');
          for (const c of game.done ? [] : game.expertPlan()) if (!game.done) game.step(c);
          const ep: EpisodeText = {
            goal: game.scene.task.goal,
            opening: game.observation,
            steps: game.records.slice(1),
          };
          const seq = episodeSequence(tok, ep);
          const withSkill = insertSkill(tok, seq, SKILL);
          for (const ids of [
            seq.ids,
            withSkill.ids,
            Int32Array.from(analyzerContext(tok, ep, game.won, { maxLen: 4096 })),
          ]) {
            expect(ids.includes(tok.unkId)).toBe(false);
          }
          for (const r of game.records) expect(tok.decode(tok.encode(r.observation))).toBe(r.observation);
          for (const c of game.admissibleCommands()) expect(tok.decode(tok.encode(c))).toBe(c);
        },
      ),
      { numRuns: 60 },
    );
  });
});
