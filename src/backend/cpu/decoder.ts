// Incremental decoding with a KV cache, many streams in lockstep (the Decoder of backend.ts). New tokens
// run through the same layer functions as the full forward, attending to the cached q/k/v rows of the
// earlier positions; every layer computes a row the same way alone or in a batch, so the decoder produces
// exactly (bit for bit) the logits of the full forward. Cost per token is linear in the stream's length.
// The decoder reads the backend's live parameters: caches filled before a weight update are stale, so a
// rollout resets its streams after each optimizer step. Its buffers live in the CPU heap (heap.ts), where
// the matmul kernel reads them in place, and go back to it on dispose.
import type { Decoder, Sampled } from '../backend.ts';
import { maskWords } from '../backend.ts';
import { checkFeed, checkSample, checkStream, checkStreamCount } from '../contract.ts';
import type { ModelConfig } from '../../model/config.ts';
import { attentionForward } from './attention.ts';
import { encoderForward } from './encoder.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { geluForward } from './gelu.ts';
import { layernormForward } from './layernorm.ts';
import { matmulForward } from './matmul.ts';
import { residualForward } from './residual.ts';
import { allocSampleScratch, sampleToken, type SampleScratch } from './sampling.ts';
import type { ModelWeights } from './weights.ts';

/** Tokens run through the layers together when a long prompt is fed (bounds the scratch memory). */
const FEED_CHUNK = 64;

interface Stream {
  length: number;
  /** Per layer, the qkv rows [capacity, 3C] of every position fed so far. */
  qkv: Float32Array[];
  /** Per layer, the value vectors transposed, [C, capacity], as attentionForward reads them. */
  vT: Float32Array[];
  capacity: number;
  /** Final-LayerNorm output of the last position: what the next token's logits are computed from. */
  last: Float32Array;
}

interface StepScratch {
  rows: number;
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

/** New tokens for one stream, at positions stream.length .. stream.length + tokens.length - 1. */
interface Segment {
  st: Stream;
  tokens: Int32Array;
}

export class CpuDecoder implements Decoder {
  private readonly streams: Stream[] = [];
  private readonly scratch: StepScratch;
  /** Heap buffers of the scratch (the streams' caches are freed through the streams). */
  private readonly owned: Float32Array[] = [];
  private disposed = false;

  constructor(
    /** Held so that the backend, whose heap buffers `weights` views, outlives the decoder. */
    readonly owner: object,
    private readonly weights: ModelWeights<Float32Array>,
    private readonly config: ModelConfig,
    readonly nStreams: number,
  ) {
    checkStreamCount(nStreams);
    const { dModel: C, dMlp: M, nHead: NH, contextLength, vocabSize: V } = config;
    for (let s = 0; s < nStreams; s++) this.streams.push({ length: 0, qkv: [], vT: [], capacity: 0, last: new Float32Array(C) });
    const n = Math.max(FEED_CHUNK, nStreams);
    this.scratch = {
      rows: n,
      x: this.alloc(n * C),
      ln: this.alloc(n * C),
      mean: this.alloc(n),
      rstd: this.alloc(n),
      qkv: this.alloc(n * 3 * C),
      atty: this.alloc(n * C),
      att: this.alloc(NH * FEED_CHUNK * contextLength),
      attproj: this.alloc(n * C),
      res2: this.alloc(n * C),
      fch: this.alloc(n * M),
      fchGelu: this.alloc(n * M),
      fcproj: this.alloc(n * C),
      last: this.alloc(nStreams * C),
      logits: this.alloc(nStreams * V),
      sample: allocSampleScratch(V),
    };
  }

  async feed(stream: number, tokens: Int32Array): Promise<void> {
    const st = this.stream(stream);
    checkFeed(this.config, stream, st.length, tokens);
    for (let start = 0; start < tokens.length; start += FEED_CHUNK) {
      this.forwardSegments([{ st, tokens: tokens.subarray(start, Math.min(tokens.length, start + FEED_CHUNK)) }]);
    }
  }

  async sample(streams: Int32Array, masks: Uint32Array, temperature: number, uniforms: Float32Array): Promise<Sampled> {
    const { vocabSize: V, dModel: C } = this.config;
    const words = maskWords(V);
    const S = streams.length;
    checkSample(this.config, streams, masks, temperature, uniforms, (s) => this.stream(s), (s) => this.streams[s].length);
    const tokens = new Int32Array(S);
    const logprobs = new Float32Array(S);
    const sts = Array.from(streams, (index) => this.streams[index]);
    const { last, logits } = this.scratch;
    sts.forEach((st, i) => last.set(st.last, i * C));
    matmulForward(logits, last, this.weights.wte, null, S, C, V);
    for (let i = 0; i < S; i++) {
      const [token, logp] = sampleToken(logits.subarray(i * V, (i + 1) * V), masks.subarray(i * words, (i + 1) * words), V, temperature, uniforms[i], this.scratch.sample);
      tokens[i] = token;
      logprobs[i] = logp;
    }
    this.forwardSegments(sts.map((st, i) => ({ st, tokens: tokens.subarray(i, i + 1) })));
    return { tokens, logprobs };
  }

  length(stream: number): number {
    return this.stream(stream).length;
  }

  reset(stream: number): void {
    this.stream(stream).length = 0;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const st of this.streams) for (const buf of [...st.qkv, ...st.vT]) freeHeapFloats(buf);
    this.streams.length = 0;
    for (const buf of this.owned) freeHeapFloats(buf);
    this.owned.length = 0;
  }

  private alloc(n: number): Float32Array {
    const buf = heapFloats(n);
    this.owned.push(buf);
    return buf;
  }

  private stream(index: number): Stream {
    checkStream(index, this.nStreams, this.disposed);
    return this.streams[index];
  }

  private reserve(st: Stream, rows: number): void {
    const C = this.config.dModel;
    const have = st.capacity;
    if (have >= rows) return;
    const capacity = Math.min(this.config.contextLength, Math.max(rows, 2 * have, 64));
    for (let l = 0; l < this.config.nLayer; l++) {
      // rows are written before attention reads them (keys < the stream's length)
      const qkv = heapFloats(capacity * 3 * C, false);
      const vT = heapFloats(C * capacity, false);
      if (have > 0) {
        qkv.set(st.qkv[l].subarray(0, st.length * 3 * C));
        for (let c = 0; c < C; c++) vT.set(st.vT[l].subarray(c * have, c * have + st.length), c * capacity);
        freeHeapFloats(st.qkv[l]);
        freeHeapFloats(st.vT[l]);
      }
      st.qkv[l] = qkv;
      st.vT[l] = vT;
    }
    st.capacity = capacity;
  }

  /**
   * The full forward's layer sequence on the new rows of several streams at once: the position-wise
   * layers run on all rows stacked (so the matmuls get the 4-row blocks), attention runs per stream
   * against its own cache. Each segment holds at most FEED_CHUNK tokens; all together at most scratch.rows.
   */
  private forwardSegments(segs: Segment[]): void {
    const { dModel: C, dMlp: M, nHead: NH, lnEps: eps } = this.config;
    const w = this.weights;
    const s = this.scratch;
    let n = 0;
    for (const seg of segs) {
      this.reserve(seg.st, seg.st.length + seg.tokens.length);
      n += seg.tokens.length;
    }
    if (n === 0) return;
    let r0 = 0;
    for (const seg of segs) {
      encoderForward(s.x.subarray(r0 * C), seg.tokens, w.wte, w.wpe, seg.tokens.length, C, seg.st.length);
      r0 += seg.tokens.length;
    }
    for (let l = 0; l < this.config.nLayer; l++) {
      const b = w.blocks[l];
      layernormForward(s.ln, s.mean, s.rstd, s.x, b.ln1w, b.ln1b, n, C, eps);
      matmulForward(s.qkv, s.ln, b.qkvw, b.qkvb, n, C, 3 * C);
      r0 = 0;
      for (const seg of segs) {
        const st = seg.st;
        const k = seg.tokens.length;
        const pos0 = st.length;
        const qkv = st.qkv[l];
        const vT = st.vT[l];
        const cap = st.capacity;
        qkv.set(s.qkv.subarray(r0 * 3 * C, (r0 + k) * 3 * C), pos0 * 3 * C);
        for (let t = pos0; t < pos0 + k; t++) for (let c = 0; c < C; c++) vT[c * cap + t] = qkv[t * 3 * C + 2 * C + c];
        attentionForward(s.atty.subarray(r0 * C), s.att, qkv, pos0, pos0 + k, C, NH, vT, cap);
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
      layernormForward(seg.st.last, s.mean, s.rstd, s.x.subarray((r0 - 1) * C, r0 * C), w.lnfw, w.lnfb, 1, C, eps);
      seg.st.length += seg.tokens.length;
    }
  }
}
