// The diagnostic behind the shop warm start's focus (bench/notes/shop.md): can the tiny model learn to choose,
// among the values a page lists, the one its task line names?
//   synthetic STEPS TASK FILLER [after]
//                                a task line of TASK words naming one of 5 listed words, FILLER words between;
//                                with 'after', the naming words follow the list in a skill block instead (where
//                                the shop's skill sits)
//   real STEPS first|all         the shop corpus's option choices (seed 1, 5000 games), scored at the value only:
//                                the first choice of an item (nothing selected yet) or every choice
//   ckpt FILE                    no training: a shop checkpoint's accuracy on the first choices and on the later
//                                ones (an option already selected), up to 300 of each
// Trains the tiny preset from seed 1 (batch 8, lr 5e-3, the warm start's schedule per fifth of the steps) and
// prints, five times, the accuracy and mean NLL of the choice on held-out examples (seed 7; chance is 1 over
// the listed values). Run: npx tsx scripts/shop_option_copy.ts real 4000 first
import { readFileSync } from 'node:fs';
import { CpuBackend } from '../src/backend/cpu/cpu_backend.ts';
import { Rng } from '../src/common/rng.ts';
import { SHOP } from '../src/env/shop/environment.ts';
import { readCheckpoint } from '../src/model/checkpoint.ts';
import { presetConfig } from '../src/model/config.ts';
import { initParameters } from '../src/model/init.ts';
import { packBatch, type ScoredSequence } from '../src/rl/batch.ts';
import { rlWorldOf } from '../src/rl/rl_worlds.ts';
import { BUTTONS, SELECTED } from '../src/env/shop/pages.ts';
import { trainWarmStart, WARMSTART_DEFAULTS, type Corpus } from '../src/rl/warmstart.ts';
import { tokenizerOf } from '../src/text/tokenizer.ts';

interface Choice {
  sequence: ScoredSequence;
  listed: number[];
  answer: number;
}

const tok = tokenizerOf(SHOP);
const V = tok.vocabSize;
const words = Math.ceil(V / 32);

function maskOf(ids: readonly number[]): Uint32Array {
  const mask = new Uint32Array(words);
  for (const id of ids) mask[id >>> 5] |= 1 << (id & 31);
  return mask;
}

function syntheticChoices(seed: number, count: number, taskWords: number, filler: number, after: boolean): Choice[] {
  const rng = new Rng(seed);
  const values = [
    'black',
    'brown',
    'grey',
    'green',
    'red',
    'blue',
    'navy',
    'white',
    'pink',
    'small',
    'medium',
    'large',
    'silver',
    'gold',
  ].map((w) => tok.id(w));
  const others = [
    'i',
    'need',
    'a',
    'vintage',
    'leather',
    'tote',
    'bag',
    ',',
    'in',
    'size',
    'and',
    'price',
    'lower',
    'than',
    'dollars',
    '.',
    'cotton',
    'shirt',
  ].map((w) => tok.id(w));
  const pick = (list: readonly number[]) => list[rng.int(list.length)];
  return Array.from({ length: count }, () => {
    const listed = rng.shuffle(values.slice()).slice(0, 5);
    const answer = pick(listed);
    const task = Array.from({ length: taskWords }, () => pick(others));
    task[rng.int(taskWords)] = answer;
    const ids = [
      tok.id('<task>'),
      ...(after ? [] : task),
      tok.id('<obs>'),
      ...Array.from({ length: filler }, () => pick(others)),
    ];
    for (const v of rng.shuffle(listed.slice())) ids.push(tok.id('SEP'), v);
    if (after) ids.push(tok.id('<skill>'), ...task, tok.endId);
    ids.push(tok.id('<act>'), tok.id('click'), tok.id('['));
    const at = ids.length;
    ids.push(answer);
    return {
      sequence: { ids: Int32Array.from(ids), positions: Int32Array.from([at]), masks: maskOf(listed) },
      listed,
      answer,
    };
  });
}

/** The option choices of the shop corpus of `seed`, each scored at its value token alone. */
function shopChoices(seed: number, episodes: number, which: 'first' | 'later' | 'all'): Choice[] {
  const world = rlWorldOf(SHOP);
  const corpus = world.warmStartCorpus(tok, 512, {
    ...WARMSTART_DEFAULTS,
    ...world.warmStartDefaults,
    seed,
    episodes,
    kinds: ['act'],
  });
  const out: Choice[] = [];
  const [click, open, close, selected] = [tok.id('click'), tok.id('['), tok.id(']'), tok.encode(SELECTED)[0]];
  for (const s of corpus.sequences) {
    const at = s.positions[0] + 2;
    if (s.ids[s.positions[0]] !== click || s.ids[at - 1] !== open || s.ids[at + 1] !== close) continue;
    const mask = s.masks.slice(2 * words, 3 * words);
    const listed = Array.from({ length: V }, (_, id) => id).filter((id) => (mask[id >>> 5] >>> (id & 31)) & 1);
    const answer = s.ids[at];
    // Buttons and item ids (whose first piece is 'b') are no option values.
    if ([...Object.values(BUTTONS).map((b) => b.toLowerCase()), 'b'].includes(tok.token(answer)) || listed.length < 2)
      continue;
    const isFirst = !Array.from(s.ids.subarray(0, at)).includes(selected);
    if ((which === 'first' && !isFirst) || (which === 'later' && isFirst)) continue;
    out.push({ sequence: { ids: s.ids, positions: Int32Array.from([at]), masks: mask }, listed, answer });
  }
  return out;
}

async function score(backend: CpuBackend, held: readonly Choice[]): Promise<string> {
  const rows = await backend.scoreRows(
    packBatch(
      held.map((c) => c.sequence),
      tok.padId,
    ),
  );
  let right = 0;
  let nll = 0;
  held.forEach((c, k) => {
    const best = c.listed.reduce((a, b) => (rows[k * V + b] > rows[k * V + a] ? b : a));
    right += best === c.answer ? 1 : 0;
    nll -= rows[k * V + c.answer];
  });
  return `accuracy ${((100 * right) / held.length).toFixed(1)}%, NLL ${(nll / held.length).toFixed(3)}`;
}

const [mode, stepsText, a, b, c] = process.argv.slice(2);
if (mode === 'ckpt') {
  const checkpoint = readCheckpoint(new Uint8Array(readFileSync(stepsText)), { vocabHash: tok.hash });
  const backend = new CpuBackend(checkpoint.config, checkpoint.params);
  for (const which of ['first', 'later'] as const) {
    const held = shopChoices(7, 300, which).slice(0, 300);
    const chance = held.reduce((s, c) => s + 1 / c.listed.length, 0) / held.length;
    console.log(
      `${which} choices (${held.length}, chance ${(100 * chance).toFixed(1)}%): ${await score(backend, held)}`,
    );
  }
  process.exit(0);
}
const steps = Number(stepsText ?? 2000);
const [train, held] =
  mode === 'synthetic'
    ? [
        syntheticChoices(1, 20000, Number(a ?? 15), Number(b ?? 0), c === 'after'),
        syntheticChoices(7, 300, Number(a ?? 15), Number(b ?? 0), c === 'after'),
      ]
    : [
        shopChoices(1, 5000, a === 'first' ? 'first' : 'all'),
        shopChoices(7, 300, a === 'first' ? 'first' : 'all').slice(0, 300),
      ];
const chance = held.reduce((s, c) => s + 1 / c.listed.length, 0) / held.length;
console.log(
  `${mode} ${a ?? ''} ${b ?? ''} ${c ?? ''}: ${train.length} training choices, ${held.length} held out, chance ${(100 * chance).toFixed(1)}%`,
);
const backend = new CpuBackend(presetConfig('tiny', V), initParameters(presetConfig('tiny', V), 1));
console.log(`steps 0: ${await score(backend, held)}`);
const corpus: Corpus = {
  sequences: train.map((c) => c.sequence),
  kinds: train.map(() => 'act'),
  explorerSuccess: 0,
  counts: { act: train.length, follow: 0, analyze: 0 },
};
for (let fifth = 1; fifth <= 5; fifth++) {
  await trainWarmStart(backend, tok, corpus, { ...WARMSTART_DEFAULTS, seed: fifth, steps: steps / 5 });
  console.log(`steps ${(fifth * steps) / 5}: ${await score(backend, held)}`);
}
