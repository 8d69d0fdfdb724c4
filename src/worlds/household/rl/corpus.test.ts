import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../backend/cpu/cpu_backend.ts';
import { Rng } from '../../../common/rng.ts';
import { generateScene } from '../env/splits.ts';
import { typeOf as typeOfName } from '../env/knowledge.ts';
import { TINY } from '../env/scale.ts';
import { presetConfig } from '../../../model/config.ts';
import { parseSkill } from '../skills/parser.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { annotate } from './annotator.ts';
import { packBatch } from '../../../rl/batch.ts';
import { runExplorer, skillKnowledge } from './explorer.ts';
import { buildCorpus } from './corpus.ts';
import { trainWarmStart, warmStartLr, WARMSTART_DEFAULTS } from '../../../rl/warmstart.ts';

const tok = defaultTokenizer();
const fit = { length: (t: string) => tok.encode(t).length, maxTokens: 48 };

describe('explorer', () => {
  it('without noise solves most games, knowing only what it observed', () => {
    const rng = new Rng(4);
    let won = 0;
    for (let i = 0; i < 60; i++)
      won += runExplorer(generateScene('train', i, TINY, 3), rng, { maxSteps: 15, noise: 0 }).game.won ? 1 : 0;
    expect(won / 60).toBeGreaterThan(0.85);
  });

  it('primed with an earlier episode of the scene, goes straight to where that episode saw the object', () => {
    const rng = new Rng(6);
    let first = 0;
    let primedFirst = 0;
    let shorter = 0;
    let checked = 0;
    for (let i = 0; i < 60; i++) {
      const scene = generateScene('train', i, TINY, 3);
      const before = runExplorer(scene, rng, { maxSteps: 15, noise: 0 });
      const take = before.game.records.find(
        (r) =>
          r.valid &&
          r.action.startsWith('take ') &&
          typeOfName(r.action.slice(5, r.action.indexOf(' from '))) === scene.task.object,
      );
      if (!before.game.won || !take) continue;
      checked++;
      const from = take.action.slice(take.action.indexOf(' from ') + 6);
      const primed = runExplorer(scene, rng, { maxSteps: 15, noise: 0, prior: before.game.records });
      expect(primed.game.won).toBe(true);
      const firstGo = (e: typeof primed) => e.game.records.find((r) => r.action.startsWith('go to '))?.action;
      first += firstGo(before) === `go to ${from}` ? 1 : 0;
      primedFirst += firstGo(primed) === `go to ${from}` ? 1 : 0;
      shorter += primed.game.records.length <= before.game.records.length ? 1 : 0;
    }
    expect(checked).toBeGreaterThan(40);
    // Unprimed, the first receptacle it visits holds the object by chance; primed, almost always.
    expect(primedFirst).toBeGreaterThan(0.9 * checked);
    expect(first).toBeLessThan(0.6 * checked);
    expect(shorter).toBe(checked);
  });

  it('primed with a skill, knows exactly what it states: instances, searched places, type-level lessons', () => {
    const k = skillKnowledge(
      'avoid: forgetting to take the mug 1 from the cabinet 2; you searched the fridge 1; the mug 1 was in the cabinet 2. a mug was in a cabinet.',
    );
    expect([...k.firstSeen]).toEqual([['mug 1', 'cabinet 2']]);
    expect([...k.searched]).toEqual(['fridge 1']);
    expect([...k.lessons]).toEqual([['mug', ['cabinet']]]);
    const w = skillKnowledge(
      'workflow: take the apple 2 from the fridge 1, heat it with the microwave 1, put it on the diningtable 1.',
    );
    expect([...w.firstSeen]).toEqual([['apple 2', 'fridge 1']]);
    expect(skillKnowledge('not a skill').firstSeen.size).toBe(0);
    // A lesson alone sends the search to that type first.
    const rng = new Rng(4);
    let lessonFirst = 0;
    let checked = 0;
    for (let i = 0; i < 80; i++) {
      const scene = generateScene('train', i, TINY, 11);
      const type = scene.receptacles
        .map((r) => r.name.split(' ')[0])
        .find((t) => t === 'sidetable' || t === 'countertop');
      if (!type) continue;
      checked++;
      const e = runExplorer(scene, rng, {
        maxSteps: 4,
        noise: 0,
        prior: skillKnowledge(`workflow: find the ${scene.task.object}. a ${scene.task.object} was on a ${type}.`),
      });
      const firstGo = e.game.records.find((r) => r.action.startsWith('go to '))?.action ?? '';
      lessonFirst += firstGo.startsWith(`go to ${type} `) ? 1 : 0;
    }
    expect(checked).toBeGreaterThan(40);
    expect(lessonFirst).toBe(checked);
  });

  it('plays only admissible commands, and noise makes it weaker', () => {
    const rng = new Rng(5);
    let clean = 0;
    let noisy = 0;
    for (let i = 0; i < 60; i++) {
      const scene = generateScene('train', i, TINY, 3);
      const e = runExplorer(scene, rng, { maxSteps: 15, noise: 0.5 });
      e.game.records.slice(1).forEach((r, t) => {
        expect(e.admissible[t]).toContain(r.action);
      });
      noisy += e.game.won ? 1 : 0;
      clean += runExplorer(scene, rng, { maxSteps: 15, noise: 0 }).game.won ? 1 : 0;
    }
    expect(noisy).toBeLessThan(clean);
  });
});

describe('annotator', () => {
  it('writes a workflow for a hand-played success, with the observed location', () => {
    // The first train game of this seed that the noiseless explorer wins.
    const [scene, e] = Array.from({ length: 20 }, (_, i) => generateScene('train', i, TINY, 3))
      .map((sc) => [sc, runExplorer(sc, new Rng(1), { maxSteps: 15, noise: 0 })] as const)
      .find(([, ep]) => ep.game.won)!;
    const skill = annotate(e.game.records, scene.task, true);
    expect(skill.startsWith('workflow:')).toBe(true);
    const found = e.game.records.find((r) => r.seen.some((o) => o.startsWith(`${scene.task.object} `)))!;
    expect(skill).toContain(`a ${scene.task.object} was`);
    expect(skill).toContain(`a ${found.location!.split(' ')[0]}.`);
    const take = e.game.records.find((r) => r.action.startsWith(`take ${scene.task.object} `))!;
    const from = take.action.slice(take.action.indexOf(' from ') + 6);
    expect(skill).toContain(`from the ${from}`);
  });

  it('every skill of 150 explorer episodes parses, has >= 5 words and fits 48 tokens; skills differ within a task', () => {
    const rng = new Rng(9);
    const byScene = new Map<number, Set<string>>();
    for (let i = 0; i < 150; i++) {
      const scene = generateScene('train', i % 30, TINY, 3);
      const e = runExplorer(scene, rng, { maxSteps: 15, noise: 0.3 });
      const skill = annotate(e.game.records, scene.task, e.game.won, fit);
      const check = parseSkill(skill);
      expect(check.ok, `${skill}: ${check.reason}`).toBe(true);
      expect(check.kind).toBe(e.game.won ? 'workflow' : 'avoid');
      expect(tok.encode(skill).length).toBeLessThanOrEqual(48);
      expect(tok.unknownPieces(skill)).toEqual([]);
      byScene.set(i % 30, (byScene.get(i % 30) ?? new Set()).add(skill));
    }
    // 5 episodes of each of 30 tasks: most tasks get more than one distinct skill.
    const varied = [...byScene.values()].filter((s) => s.size > 1).length;
    expect(varied).toBeGreaterThan(15);
  });

  it('names the wrong object taken instead of the task object, and the order a state change needs', () => {
    const rng = new Rng(21);
    let wrong = 0;
    let order = 0;
    for (let i = 0; i < 400; i++) {
      const scene = generateScene('train', i, TINY, 7);
      const e = runExplorer(scene, rng, { maxSteps: 12, noise: 0.5 });
      if (e.game.won) continue;
      const skill = annotate(e.game.records, scene.task, false);
      const takes = e.game.records.filter((r) => r.valid && r.action.startsWith('take '));
      const tookTask = takes.some((r) => r.action.startsWith(`take ${scene.task.object} `));
      const invalid = e.game.records.slice(1).filter((r) => !r.valid).length;
      if (invalid <= 2 && takes.length > 0 && !tookTask) {
        const taken = takes[0].action.slice(5, takes[0].action.indexOf(' from '));
        expect(skill).toContain(`avoid: taking the ${taken} from`);
        expect(skill).toContain(`instead of the ${scene.task.object};`);
        wrong++;
      }
      if (
        skill.startsWith('avoid: forgetting to heat') ||
        skill.startsWith('avoid: forgetting to cool') ||
        skill.startsWith('avoid: forgetting to clean')
      ) {
        expect(skill).toMatch(
          / (heat|cool|clean) it with the (microwave|fridge|sinkbasin) 1 before putting it (in|on) the /,
        );
        order++;
      }
    }
    expect(wrong).toBeGreaterThan(5);
    expect(order).toBeGreaterThan(2);
  });

  it('never names an object the trajectory did not observe', () => {
    const rng = new Rng(12);
    for (let i = 0; i < 80; i++) {
      const scene = generateScene('train', i, TINY, 5);
      const e = runExplorer(scene, rng, { maxSteps: 8, noise: 0.4 });
      const skill = annotate(e.game.records, scene.task, e.game.won, fit);
      for (const m of skill.matchAll(/the ([a-z]+) (\d+)/g)) {
        const name = `${m[1]} ${m[2]}`;
        const mentioned = e.game.records.some(
          (r) => r.seen.includes(name) || r.action.includes(name) || r.observation.includes(name),
        );
        expect(mentioned, `${skill} names ${name}`).toBe(true);
      }
    }
  });
});

describe('warm start', () => {
  const model = presetConfig('micro', tok.vocabSize);
  const options = { ...WARMSTART_DEFAULTS, seed: 3, scale: TINY, episodes: 12, steps: 12, batch: 4, lr: 1e-2 };

  it('builds the same corpus from the same seed, with all three kinds of example', () => {
    const a = buildCorpus(tok, model.contextLength, options);
    const b = buildCorpus(tok, model.contextLength, options);
    expect(a.counts.act).toBe(12);
    expect(a.counts.analyze).toBe(12);
    expect(a.counts.follow).toBeGreaterThan(0);
    expect(a.sequences.map((s) => Array.from(s.ids).join(','))).toEqual(
      b.sequences.map((s) => Array.from(s.ids).join(',')),
    );
    for (const s of a.sequences) expect(s.ids.length).toBeLessThanOrEqual(model.contextLength);
  });

  it("primed follow examples: every episode's skill, on a replay that knows what the episode saw; the same act examples", () => {
    // Noisy enough that some episodes fail: their avoid-rules have a follow example only when primed.
    const own = buildCorpus(tok, model.contextLength, { ...options, noise: 0.6, follow: 'own' });
    const primed = buildCorpus(tok, model.contextLength, { ...options, noise: 0.6, follow: 'primed' });
    const of = (c: typeof own, kind: string) =>
      c.sequences.filter((_, j) => c.kinds[j] === kind).map((s) => tok.decode(Array.from(s.ids)));
    expect(of(primed, 'act')).toEqual(of(own, 'act'));
    expect(of(primed, 'analyze')).toEqual(of(own, 'analyze'));
    expect(primed.counts.follow).toBeGreaterThan(own.counts.follow);
    // Failed episodes' avoid-rules now appear in follow examples; 'own' has only workflows.
    expect(of(own, 'follow').every((t) => t.includes('workflow:'))).toBe(true);
    expect(of(primed, 'follow').some((t) => t.includes('avoid:'))).toBe(true);
  });

  it('keeps only the kinds asked for, each example as in the full corpus', () => {
    const all = buildCorpus(tok, model.contextLength, options);
    const skills = buildCorpus(tok, model.contextLength, { ...options, kinds: ['follow', 'analyze'] });
    const of = (c: typeof all, kind: string) =>
      c.sequences.filter((_, j) => c.kinds[j] === kind).map((s) => Array.from(s.ids).join(','));
    expect(skills.counts).toEqual({ act: 0, follow: all.counts.follow, analyze: all.counts.analyze });
    expect(of(skills, 'follow')).toEqual(of(all, 'follow'));
    expect(of(skills, 'analyze')).toEqual(of(all, 'analyze'));
  });

  it("scores the explorer's own commands, not its random ones, unless asked to", () => {
    const noisy = { ...options, noise: 0.5, episodes: 8 };
    const clean = buildCorpus(tok, model.contextLength, noisy);
    const all = buildCorpus(tok, model.contextLength, { ...noisy, scoreRandom: true });
    const rng = new Rng(noisy.seed).fork('explorer');
    let dropped = 0;
    for (let i = 0; i < noisy.episodes; i++) {
      const e = runExplorer(generateScene('train', i, TINY, noisy.seed), rng, {
        maxSteps: noisy.maxSteps,
        noise: noisy.noise,
      });
      const a = clean.sequences.filter((_, j) => clean.kinds[j] === 'act')[i];
      const b = all.sequences.filter((_, j) => all.kinds[j] === 'act')[i];
      expect(Array.from(a.ids)).toEqual(Array.from(b.ids));
      // b scores every command that fit the context (its tokens and the end token); a drops the random ones.
      let scoredTokens = 0;
      let expectDropped = 0;
      for (let t = 0; t < e.random.length && scoredTokens < b.positions.length; t++) {
        const n = tok.encode(e.game.records[t + 1].action).length + 1;
        scoredTokens += n;
        if (e.random[t]) expectDropped += n;
      }
      expect(b.positions.length - a.positions.length).toBe(expectDropped);
      const everyB = new Set(b.positions);
      for (const p of a.positions) expect(everyB.has(p)).toBe(true);
      dropped += expectDropped;
    }
    expect(dropped).toBeGreaterThan(0);
  });

  it('lowers the negative log-likelihood of the corpus', async () => {
    const corpus = buildCorpus(tok, model.contextLength, options);
    const be = CpuBackend.fromSeed(model, 1);
    const losses: number[] = [];
    await trainWarmStart(be, tok, corpus, options, (s) => losses.push(s.loss));
    expect(losses).toHaveLength(12);
    expect(losses[0]).toBeGreaterThan(0);
    expect(losses.slice(-3).reduce((a, b) => a + b, 0) / 3).toBeLessThan(
      losses.slice(0, 3).reduce((a, b) => a + b, 0) / 3,
    );
  });

  it('its loss is the token-mean negative log-likelihood of the scored tokens', async () => {
    const corpus = buildCorpus(tok, model.contextLength, { ...options, episodes: 2 });
    const be = CpuBackend.fromSeed(model, 2);
    const seqs = corpus.sequences.slice(0, 3);
    const logp = await be.score(packBatch(seqs, tok.padId));
    const nll = -logp.reduce((a, b) => a + b, 0) / logp.length;
    const losses: number[] = [];
    await trainWarmStart(be, tok, { ...corpus, sequences: seqs }, { ...options, steps: 1, batch: 3 }, (s) =>
      losses.push(s.loss),
    );
    expect(losses[0]).toBeCloseTo(nll, 4);
  });

  it('draws the first focusSteps from the focus alone, then from the whole corpus; without a focus as before', async () => {
    const corpus = buildCorpus(tok, model.contextLength, { ...options, episodes: 3 });
    const focus = [1, 4, 6];
    const rates: number[] = [];
    const picks = async (c: typeof corpus, focusSteps: number, focusShare = 0) => {
      const out: (readonly number[])[] = [];
      rates.length = 0;
      await trainWarmStart(
        CpuBackend.fromSeed(model, 3),
        tok,
        c,
        { ...options, steps: 6, batch: 2, focusSteps, focusShare },
        (s) => {
          out.push(s.examples);
          rates.push(s.lr);
        },
      );
      return out;
    };
    const focused = await picks({ ...corpus, focus }, 3);
    for (const step of focused.slice(0, 3)) for (const i of step) expect(focus).toContain(i);
    // Each stage has its own schedule: the focus decays to 10% of the rate, the rest warms up again.
    expect(rates).toEqual([0, 1, 2, 0, 1, 2].map((s) => warmStartLr(options.lr, s, 3)));
    expect(rates[2]).toBeCloseTo(options.lr * 0.1 + 0.45 * options.lr * (1 + Math.cos(Math.PI * 0.5)), 12);
    expect(
      focused
        .slice(3)
        .flat()
        .some((i) => !focus.includes(i)),
    ).toBe(true);
    // With a focus share, every later batch keeps that share from the focus.
    const shared = await picks({ ...corpus, focus }, 3, 0.5);
    for (const step of shared.slice(3)) expect(step.filter((i) => focus.includes(i)).length).toBeGreaterThanOrEqual(1);
    // A corpus without a focus (the household's) draws as it always has, whatever focusSteps says.
    expect(await picks(corpus, 3, 0.5)).toEqual(await picks(corpus, 0));
  });

  it('schedules the learning rate: warm-up, then cosine to 10%', () => {
    expect(warmStartLr(1, 0, 100)).toBeCloseTo(0.2, 12);
    expect(warmStartLr(1, 5, 100)).toBeCloseTo(1, 12);
    expect(warmStartLr(1, 100, 100)).toBeCloseTo(0.1, 12);
  });
});
