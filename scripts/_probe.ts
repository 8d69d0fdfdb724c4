import { readFileSync } from 'node:fs';
import { CpuBackend } from '../src/backend/cpu/cpu_backend.ts';
import { SHOP } from '../src/env/shop/environment.ts';
import { readCheckpoint } from '../src/model/checkpoint.ts';
import { packBatch } from '../src/rl/batch.ts';
import { rlWorldOf } from '../src/rl/rl_worlds.ts';
import { WARMSTART_DEFAULTS } from '../src/rl/warmstart.ts';
import { tokenizerOf } from '../src/text/tokenizer.ts';
const tok = tokenizerOf(SHOP);
const V = tok.vocabSize, words = Math.ceil(V / 32);
const ck = readCheckpoint(new Uint8Array(readFileSync(process.argv[2])), { vocabHash: tok.hash });
const backend = new CpuBackend(ck.config, ck.params);
const world = rlWorldOf(SHOP);
const corpus = world.warmStartCorpus(tok, 512, { ...WARMSTART_DEFAULTS, ...world.warmStartDefaults, seed: 7, episodes: 300, kinds: ['act'] });
const focus = new Set(corpus.focus);
for (const which of ['first', 'later']) {
  const held = corpus.sequences.map((s, i) => ({ s, i })).filter(({ s, i }) => {
    const at = s.positions[0] + 2;
    if (s.ids[s.positions[0]] !== tok.id('click') || s.ids[at + 1] !== tok.id(']')) return false;
    const name = tok.token(s.ids[at]);
    if (['buy now', 'back to search', '< prev', 'b'].includes(name)) return false;
    return which === 'first' ? focus.has(i) : !focus.has(i) && Array.from(s.ids).includes(tok.encode('Selected:')[0]);
  }).slice(0, 300).map(({ s }) => { const at = s.positions[0] + 2; const mask = s.masks.slice(2 * words, 3 * words); return { seq: { ids: s.ids, positions: Int32Array.from([at]), masks: mask }, answer: s.ids[at], listed: Array.from({ length: V }, (_, id) => id).filter((id) => (mask[id >>> 5] >>> (id & 31)) & 1) }; });
  const rows = await backend.scoreRows(packBatch(held.map((h) => h.seq), tok.padId));
  let right = 0;
  held.forEach((c, k) => { const best = c.listed.reduce((a, b) => (rows[k * V + b] > rows[k * V + a] ? b : a)); right += best === c.answer ? 1 : 0; });
  console.log(which, held.length, 'accuracy', (100 * right / held.length).toFixed(1), 'chance', (100 * held.reduce((s, c) => s + 1 / c.listed.length, 0) / held.length).toFixed(1));
}
