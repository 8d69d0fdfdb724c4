// The incremental decoder's work, as jobs any thread runs (threads.ts): feeding the pending tokens of a
// stream, and one sampling step of a chunk of streams (the logits and the draw, then the new token through
// the layers). A stream's caches are CPU heap blocks named in the job's description, with the tokens, masks
// and draws; each thread keeps its own scratch.
//
// A job only appends rows past a stream's cached length and writes its new last row into a second buffer:
// the decoder moves the lengths and swaps the buffers once the whole job has succeeded, so a step that
// fails on one stream (logits that are not finite) leaves every stream as it was.
//
// Every layer computes a row the same way alone or among others (decoder.ts), so which thread runs which
// streams, and with which others, does not change a bit.
import { maskWords } from '../backend.ts';
import type { ModelConfig } from '../../model/config.ts';
import { attentionForward, transposeKeys } from './attention.ts';
import { encoderForward } from './encoder.ts';
import { geluForward } from './gelu.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { layernormForward } from './layernorm.ts';
import { matmulForward } from './matmul.ts';
import { residualForward } from './residual.ts';
import { allocSampleScratch, sampleToken, type SampleScratch } from './sampling.ts';
import { weightsOf } from './sequence_jobs.ts';
import type { Job } from './threads.ts';

/** Tokens run through the layers together when a long prompt is fed (bounds the scratch memory). */
const FEED_CHUNK = 64;

/**
 * The caches of a job's streams, field by field (a decoder step posts it to every worker, so it is kept to
 * a few arrays): stream i has lengths[i] rows cached, room for capacities[i], and per layer l the qkv rows
 * [capacity, 3C] at qkv[i L + l] and their keys transposed [C, capacity] at kT[i L + l]; last[i] is the
 * final-LayerNorm output of its last position [C], which the next token's logits come from, and next[i]
 * receives the new one.
 */
export interface StreamTable {
  lengths: Int32Array;
  capacities: Int32Array;
  qkv: Float32Array[];
  kT: Float32Array[];
  last: Float32Array[];
  next: Float32Array[];
}

interface FeedDesc {
  config: ModelConfig;
  params: Float32Array;
  streams: StreamTable;
  /** The tokens to append to stream i: tokens[starts[i] .. starts[i + 1]). */
  tokens: Int32Array;
  starts: Int32Array;
}

interface SampleDesc {
  config: ModelConfig;
  params: Float32Array;
  streams: StreamTable;
  /** A row of mask words per stream, a draw per stream. */
  masks: Uint32Array;
  temperature: number;
  uniforms: Float32Array;
  /** Chunk c holds streams chunks[c] .. chunks[c + 1] - 1. */
  chunks: number[];
  /** [2 S] floats: the sampled token ids (exact in float32), then their log-probs. */
  out: Float32Array;
}

interface StepScratch {
  rows: number;
  key: string;
  x: Float32Array;
  ln: Float32Array;
  mean: Float32Array;
  rstd: Float32Array;
  qkv: Float32Array;
  atty: Float32Array;
  att: Float32Array;
  attproj: Float32Array;
  res2: Float32Array;
  fch: Float32Array;
  fchGelu: Float32Array;
  fcproj: Float32Array;
  last: Float32Array;
  logits: Float32Array;
  sample: SampleScratch;
}

let scratch: StepScratch | null = null;

/** This thread's scratch for `rows` rows at a time, grown on demand and kept. */
function stepScratch(config: ModelConfig, rows: number): StepScratch {
  const { dModel: C, dMlp: M, nHead: NH, contextLength, vocabSize: V } = config;
  const key = `${V}/${contextLength}/${C}/${config.nLayer}/${NH}/${M}`;
  if (scratch !== null && scratch.rows >= rows && scratch.key === key) return scratch;
  if (scratch !== null) for (const buf of Object.values(scratch)) if (buf instanceof Float32Array) freeHeapFloats(buf);
  const n = Math.max(FEED_CHUNK, rows);
  scratch = {
    rows: n,
    key,
    x: heapFloats(n * C),
    ln: heapFloats(n * C),
    mean: heapFloats(n),
    rstd: heapFloats(n),
    qkv: heapFloats(n * 3 * C),
    atty: heapFloats(n * C),
    att: heapFloats(NH * FEED_CHUNK * contextLength),
    attproj: heapFloats(n * C),
    res2: heapFloats(n * C),
    fch: heapFloats(n * M),
    fchGelu: heapFloats(n * M),
    fcproj: heapFloats(n * C),
    last: heapFloats(n * C),
    logits: heapFloats(n * V),
    sample: allocSampleScratch(V),
  };
  return scratch;
}

/** New tokens for stream i of a table, at positions pos0 .. pos0 + tokens.length - 1 (at most FEED_CHUNK). */
interface Segment {
  i: number;
  pos0: number;
  tokens: Int32Array;
}

/**
 * The full forward's layer sequence on the new rows of several streams at once: the position-wise layers
 * run on all rows stacked (so the matmuls get their row blocks), attention runs per stream against its own
 * cache. Writes each segment's stream's new last row into its `next` buffer.
 */
function forwardSegments(config: ModelConfig, params: Float32Array, table: StreamTable, segs: Segment[]): void {
  const { dModel: C, dMlp: M, nHead: NH, lnEps: eps } = config;
  const w = weightsOf(params, config);
  const n = segs.reduce((k, seg) => k + seg.tokens.length, 0);
  if (n === 0) return;
  const s = stepScratch(config, n);
  let r0 = 0;
  for (const seg of segs) {
    encoderForward(s.x.subarray(r0 * C), seg.tokens, w.wte, w.wpe, seg.tokens.length, C, seg.pos0);
    r0 += seg.tokens.length;
  }
  for (let l = 0; l < config.nLayer; l++) {
    const b = w.blocks[l];
    layernormForward(s.ln, s.mean, s.rstd, s.x, b.ln1w, b.ln1b, n, C, eps);
    matmulForward(s.qkv, s.ln, b.qkvw, b.qkvb, n, C, 3 * C);
    r0 = 0;
    for (const { i, pos0, tokens } of segs) {
      const k = tokens.length;
      const qkv = table.qkv[i * config.nLayer + l];
      const keys = { kT: table.kT[i * config.nLayer + l], stride: table.capacities[i] };
      qkv.set(s.qkv.subarray(r0 * 3 * C, (r0 + k) * 3 * C), pos0 * 3 * C);
      transposeKeys(keys, qkv, pos0, pos0 + k, C);
      attentionForward(s.atty.subarray(r0 * C), s.att, qkv, pos0, pos0 + k, C, NH, keys);
      r0 += k;
    }
    matmulForward(s.attproj, s.atty, b.attprojw, b.attprojb, n, C, C);
    residualForward(s.res2, s.x, s.attproj, n * C);
    layernormForward(s.ln, s.mean, s.rstd, s.res2, b.ln2w, b.ln2b, n, C, eps);
    matmulForward(s.fch, s.ln, b.fcw, b.fcb, n, C, M);
    geluForward(s.fchGelu, s.fch, n * M);
    matmulForward(s.fcproj, s.fchGelu, b.fcprojw, b.fcprojb, n, M, C);
    residualForward(s.x, s.res2, s.fcproj, n * C);
  }
  r0 = 0;
  for (const seg of segs) {
    r0 += seg.tokens.length;
    layernormForward(table.next[seg.i], s.mean, s.rstd, s.x.subarray((r0 - 1) * C, r0 * C), w.lnfw, w.lnfb, 1, C, eps);
  }
}

/** Item i: stream i's tokens appended to its cache, FEED_CHUNK at a time. */
export const feedJob: Job<FeedDesc> = {
  name: 'feed',
  run(desc, i) {
    const tokens = desc.tokens.subarray(desc.starts[i], desc.starts[i + 1]);
    for (let start = 0; start < tokens.length; start += FEED_CHUNK) {
      const chunk = tokens.subarray(start, Math.min(tokens.length, start + FEED_CHUNK));
      forwardSegments(desc.config, desc.params, desc.streams, [
        { i, pos0: desc.streams.lengths[i] + start, tokens: chunk },
      ]);
    }
  },
};

/** Item c: the logits and draws of chunk c's streams, then their sampled tokens through the layers. */
export const sampleJob: Job<SampleDesc> = {
  name: 'sample',
  run(desc, c) {
    const { config } = desc;
    const { vocabSize: V, dModel: C } = config;
    const lo = desc.chunks[c];
    const hi = desc.chunks[c + 1];
    const S = desc.streams.lengths.length;
    const { out } = desc;
    const n = hi - lo;
    const s = stepScratch(config, n);
    const words = maskWords(V);
    for (let k = 0; k < n; k++) s.last.set(desc.streams.last[lo + k], k * C);
    matmulForward(s.logits, s.last, weightsOf(desc.params, config).wte, null, n, C, V);
    for (let k = 0; k < n; k++) {
      const i = lo + k;
      const [token, logp] = sampleToken(
        s.logits.subarray(k * V, (k + 1) * V),
        desc.masks.subarray(i * words, (i + 1) * words),
        V,
        desc.temperature,
        desc.uniforms[i],
        s.sample,
      );
      out[i] = token;
      out[S + i] = logp;
    }
    const segs: Segment[] = [];
    for (let i = lo; i < hi; i++) segs.push({ i, pos0: desc.streams.lengths[i], tokens: Int32Array.of(out[i]) });
    forwardSegments(config, desc.params, desc.streams, segs);
  },
};
