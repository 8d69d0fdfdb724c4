// Property tests over generated scenes: random admissible walks keep the world consistent, and a command is
// valid exactly when it is admissible; anything else answers "Nothing happens." and changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Game } from './game.ts';
import { generateScene, type Split } from './splits.ts';
import { ALFWORLD, TINY } from './scale.ts';
import { environmentWords } from './vocabulary.ts';
import { World, normalise } from './world.ts';

function snapshot(w: World): string {
  return JSON.stringify([w.at, w.held, [...w.loc], [...w.isOpen], [...w.hot], [...w.cold], [...w.clean], [...w.on]]);
}

function checkInvariants(w: World, seen: string[]): void {
  let carried = 0;
  for (let o = 0; o < w.loc.length; o++) {
    const inHand = w.held === o;
    const placed = w.loc[o] >= 0 && w.loc[o] < w.recNames.length;
    expect(inHand !== placed, `${w.objNames[o]} is in exactly one place`).toBe(true);
    if (inHand) carried++;
  }
  expect(carried).toBe(w.held >= 0 ? 1 : 0);
  for (const name of seen) {
    const o = w.objectIndex(name);
    expect(w.loc[o] === w.at && !w.closed(w.at), `${name} was seen inside an open receptacle at the agent`).toBe(true);
  }
  for (let r = 0; r < w.recNames.length; r++) {
    if (w.openable[r] || w.isOpen[r] === 0) continue;
    throw new Error(`${w.recNames[r]} is open but not openable`);
  }
}

const sceneArb = fc.record({
  split: fc.constantFrom<Split>('train', 'seen', 'unseen'),
  index: fc.nat({ max: 100_000 }),
  large: fc.boolean(),
});

describe('World properties', () => {
  it('random admissible walks never throw, keep invariants, and every admissible command is valid', () => {
    fc.assert(
      fc.property(sceneArb, fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), ({ split, index, large }, picks) => {
        const w = new World(generateScene(split, index, large ? ALFWORLD : TINY));
        for (const pick of picks) {
          const commands = w.admissible();
          expect(new Set(commands).size).toBe(commands.length);
          for (const c of commands) expect(w.clone().apply(c).valid, c).toBe(true);
          const outcome = w.apply(commands[pick % commands.length]);
          expect(outcome.valid).toBe(true);
          checkInvariants(w, outcome.seen);
          if (w.goalReached()) break;
        }
      }),
      { numRuns: 150 },
    );
  });

  it('random strings and near-miss commands answer "Nothing happens." and change nothing', () => {
    const words = environmentWords();
    const junk = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((ws) => ws.join(' ')),
    );
    fc.assert(
      fc.property(
        sceneArb,
        fc.array(fc.nat(), { maxLength: 15 }),
        fc.array(junk, { minLength: 1, maxLength: 10 }),
        ({ split, index }, picks, inputs) => {
          const w = new World(generateScene(split, index, TINY));
          for (const pick of picks) {
            const commands = w.admissible();
            w.apply(commands[pick % commands.length]);
          }
          const admissible = new Set(w.admissible());
          for (const text of inputs) {
            if (admissible.has(normalise(text))) continue;
            const before = snapshot(w);
            expect(w.apply(text)).toEqual({ observation: 'Nothing happens.', valid: false, seen: [] });
            expect(snapshot(w)).toBe(before);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('mutated admissible commands are valid exactly when admissible', () => {
    fc.assert(
      fc.property(
        sceneArb,
        fc.array(fc.nat(), { maxLength: 15 }),
        fc.nat(),
        fc.nat(),
        ({ split, index }, picks, a, b) => {
          const w = new World(generateScene(split, index, TINY));
          for (const pick of picks) {
            const commands = w.admissible();
            w.apply(commands[pick % commands.length]);
          }
          const commands = w.admissible();
          // Swap the last word (an instance number) or the verb of one admissible command.
          const parts = commands[a % commands.length].split(' ');
          const last = parts.length - 1;
          if (/^[0-9]+$/.test(parts[last])) parts[last] = String((Number(parts[last]) % 3) + 1);
          else parts[0] = ['go', 'open', 'close', 'take', 'put', 'use', 'examine', 'heat'][b % 8];
          const mutant = parts.join(' ');
          const before = snapshot(w);
          const outcome = w.apply(mutant);
          expect(outcome.valid).toBe(commands.includes(mutant));
          if (!outcome.valid) expect(snapshot(w)).toBe(before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('over the whole command grammar of a scene, a command is valid exactly when admissible', () => {
    fc.assert(
      fc.property(sceneArb, fc.array(fc.nat(), { maxLength: 25 }), ({ split, index }, picks) => {
        const w = new World(generateScene(split, index, TINY));
        const grammar = ['look', 'inventory'];
        for (const r of w.recNames) {
          grammar.push(`go to ${r}`, `open ${r}`, `close ${r}`, `examine ${r}`);
          for (const o of w.objNames) {
            grammar.push(
              `take ${o} from ${r}`,
              `put ${o} in/on ${r}`,
              `heat ${o} with ${r}`,
              `cool ${o} with ${r}`,
              `clean ${o} with ${r}`,
            );
          }
        }
        for (const o of w.objNames) grammar.push(`use ${o}`, `examine ${o}`);
        for (const pick of [0, ...picks]) {
          const admissible = new Set(w.admissible());
          for (const c of grammar) {
            const copy = w.clone();
            const before = snapshot(copy);
            const valid = copy.apply(c).valid;
            expect(valid, c).toBe(admissible.has(c));
            if (!valid) expect(snapshot(copy)).toBe(before);
          }
          const commands = [...admissible];
          w.apply(commands[pick % commands.length]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('an episode over a random walk records every step and never passes maxSteps', () => {
    fc.assert(
      fc.property(sceneArb, fc.array(fc.nat(), { minLength: 30, maxLength: 30 }), ({ split, index }, picks) => {
        const g = new Game(generateScene(split, index, TINY), { maxSteps: TINY.maxSteps });
        for (const pick of picks) {
          if (g.done) break;
          const commands = g.admissibleCommands();
          g.step(commands[pick % commands.length]);
        }
        expect(g.steps).toBeLessThanOrEqual(TINY.maxSteps);
        expect(g.records.length).toBe(g.steps + 1);
        expect(g.done).toBe(g.won || g.steps === TINY.maxSteps);
      }),
      { numRuns: 100 },
    );
  });
});
