// Incremental decoding on the GPU with a KV cache per stream (the Decoder of backend.ts), twin of
// src/backend/cpu/decoder.ts. Every layer's qkv rows of every stream stay in one GPU buffer per layer,
// [nStreams, contextLength, 3C]; the final-LayerNorm output of each stream's last position stays in
// another. `feed` only queues tokens; `sample` is one stage: the queued feeds of all streams as one
// ragged batch, the tied head on the listed streams' last rows, GPU sampling, and the forward of the
// sampled tokens into the cache. What goes up is one packed write (masks, draws, row indices, fed tokens);
// what comes back is one token and one log-prob per stream.
import { maskWords, type Decoder, type Sampled } from '../backend.ts';
import { checkFeed, checkSample, checkStream, checkStreamCount } from '../contract.ts';
import type { ModelConfig } from '../../model/config.ts';
import type { ModelOffsets } from '../../model/layout.ts';
import { attentionForward, packSeqRows, type SeqRows } from './attention.ts';
import { encoderForward } from './encoder.ts';
import { geluForward } from './gelu.ts';
import type { BufferSlice } from './kernel.ts';
import { layernormForward } from './layernorm.ts';
import { matmulForward, type MatmulVariant } from './matmul.ts';
import { copyRows } from './rows.ts';
import type { GpuRuntime } from './runtime.ts';
import { sampleToken } from './sampling.ts';
import { Scratch } from './scratch.ts';
import type { Stage } from './stage.ts';

/** A batch of rows to run through the model: per entry, its stream and the positions it fills. */
interface RowBatch {
  entries: SeqRows[];
  /** Rows per entry in the block (the longest entry's count). */
  rows: number;
}

/** Floats of attention scratch that one fed batch may take by default (64 MB); longer feeds run as several batches. */
const DECODE_ATTENTION_BUDGET = 16 * 1024 * 1024;

/** The attention row length a batch needs: its longest stream after the new rows. */
function attentionCap(batch: RowBatch): number {
  return Math.max(...batch.entries.map((e) => e.pos0 + e.count));
}

interface Workspace {
  x: GPUBuffer;
  ln: GPUBuffer;
  stats: GPUBuffer;
  qkv: GPUBuffer;
  atty: GPUBuffer;
  att: GPUBuffer;
  res2: GPUBuffer;
  fch: GPUBuffer;
  fchGelu: GPUBuffer;
}

export class GpuDecoder implements Decoder {
  private readonly lengths: number[];
  private readonly pending: number[][];
  private readonly caches: GPUBuffer[];
  private readonly last: GPUBuffer;
  private disposed = false;

  constructor(
    private readonly gpu: GpuRuntime,
    private readonly config: ModelConfig,
    private readonly offsets: ModelOffsets,
    private readonly params: GPUBuffer,
    readonly nStreams: number,
    private readonly variant: MatmulVariant,
    private readonly countRead: (bytes: number) => void,
    private readonly countWritten: (bytes: number) => void,
    private readonly translate: (operation: string, err: unknown) => unknown,
    private readonly attentionBudget = DECODE_ATTENTION_BUDGET,
  ) {
    checkStreamCount(nStreams);
    const { dModel: C, contextLength, nLayer } = config;
    const cacheBytes = nStreams * contextLength * 3 * C * 4;
    const limit = gpu.device.limits.maxStorageBufferBindingSize;
    if (cacheBytes > limit) {
      const most = Math.floor(limit / (contextLength * 3 * C * 4));
      throw new RangeError(
        `decoder: a KV cache of ${nStreams} streams x ${contextLength} positions needs ${cacheBytes} bytes per layer, over this device's binding limit of ${limit}; use at most ${most} streams`,
      );
    }
    this.lengths = new Array<number>(nStreams).fill(0);
    this.pending = Array.from({ length: nStreams }, () => []);
    this.caches = [];
    for (let l = 0; l < nLayer; l++)
      this.caches.push(gpu.buffer(nStreams * contextLength * 3 * C * 4, undefined, `kv cache ${l}`));
    this.last = gpu.buffer(nStreams * C * 4, undefined, 'decoder last rows');
  }

  async feed(stream: number, tokens: Int32Array): Promise<void> {
    checkFeed(this.config, stream, this.length(stream), tokens);
    for (let i = 0; i < tokens.length; i++) this.pending[stream].push(tokens[i]);
  }

  async sample(streams: Int32Array, masks: Uint32Array, temperature: number, uniforms: Float32Array): Promise<Sampled> {
    const { vocabSize: V, dModel: C } = this.config;
    const words = maskWords(V);
    const S = streams.length;
    checkSample(
      this.config,
      streams,
      masks,
      temperature,
      uniforms,
      (s) => this.checkStream(s),
      (s) => this.length(s),
    );
    if (S === 0) return { tokens: new Int32Array(0), logprobs: new Float32Array(0) };

    const scratch = new Scratch(this.gpu);
    try {
      const stage = this.gpu.stage('decode');
      this.flush(stage, scratch);
      const gathered = scratch.floats(S * C);
      const pairs = new Uint32Array(2 * S);
      for (let i = 0; i < S; i++) pairs.set([streams[i], i], 2 * i);
      copyRows(stage, gathered, this.last, stage.upload(pairs), S, C);
      const logits = scratch.floats(S * V);
      matmulForward(stage, logits, gathered, this.params, this.offsets.wte, null, S, C, V, this.variant);
      const sampled = scratch.floats(S);
      const logprobs = scratch.floats(S);
      sampleToken(
        stage,
        sampled,
        logprobs,
        logits,
        stage.upload(Uint32Array.from(masks.subarray(0, S * words))),
        stage.upload(Float32Array.from(uniforms.subarray(0, S))),
        S,
        V,
        temperature,
      );
      const entries: SeqRows[] = [];
      const positions = new Int32Array(S);
      for (let i = 0; i < S; i++) {
        positions[i] = this.lengths[streams[i]];
        entries.push({ slot: streams[i], pos0: positions[i], count: 1 });
      }
      const step = { entries, rows: 1 };
      this.forwardRows(stage, this.workspace(scratch, [step]), step, sampled, stage.upload(positions));
      const tokensRead = stage.read(sampled, S * 4);
      const logprobsRead = stage.read(logprobs, S * 4);
      this.countWritten(stage.uploadedBytes);
      try {
        await stage.submit();
      } catch (err) {
        throw this.translate('sample', err);
      }
      this.countRead(8 * S);
      for (let i = 0; i < S; i++) this.lengths[streams[i]] += 1;
      return { tokens: new Int32Array(await tokensRead), logprobs: new Float32Array(await logprobsRead) };
    } finally {
      scratch.release();
    }
  }

  length(stream: number): number {
    this.checkStream(stream);
    return this.lengths[stream] + this.pending[stream].length;
  }

  reset(stream: number): void {
    this.checkStream(stream);
    this.lengths[stream] = 0;
    this.pending[stream] = [];
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.gpu.release(...this.caches, this.last);
  }

  /**
   * Records the queued feeds of every stream as ragged batches (one unless their attention scratch would
   * exceed the attention budget in floats); the host lengths move on with them.
   */
  private flush(stage: Stage, scratch: Scratch): void {
    const NH = this.config.nHead;
    const groups: SeqRows[][] = [];
    let group: SeqRows[] = [];
    const cost = (g: SeqRows[]) =>
      g.length * NH * Math.max(...g.map((e) => e.count)) * Math.max(...g.map((e) => e.pos0 + e.count));
    for (let s = 0; s < this.nStreams; s++) {
      if (this.pending[s].length === 0) continue;
      const entry = { slot: s, pos0: this.lengths[s], count: this.pending[s].length };
      if (group.length > 0 && cost([...group, entry]) > this.attentionBudget) {
        groups.push(group);
        group = [];
      }
      group.push(entry);
    }
    if (group.length > 0) groups.push(group);
    if (groups.length === 0) return;
    const work = this.workspace(
      scratch,
      groups.map((g) => ({ entries: g, rows: Math.max(...g.map((e) => e.count)) })),
    );
    for (const entries of groups) {
      const rows = Math.max(...entries.map((e) => e.count));
      const tokens = new Int32Array(entries.length * rows);
      const positions = new Int32Array(entries.length * rows);
      entries.forEach((e, b) => {
        tokens.set(this.pending[e.slot], b * rows);
        for (let r = 0; r < rows; r++) positions[b * rows + r] = Math.min(e.pos0 + r, this.config.contextLength - 1);
      });
      this.forwardRows(stage, work, { entries, rows }, stage.upload(tokens), stage.upload(positions));
    }
    for (const entries of groups) {
      for (const e of entries) {
        this.lengths[e.slot] += e.count;
        this.pending[e.slot] = [];
      }
    }
  }

  /** Temporaries big enough for every batch in `batches`, shared by them (their dispatches run in order). */
  private workspace(scratch: Scratch, batches: RowBatch[]): Workspace {
    const { dModel: C, dMlp: M, nHead: NH } = this.config;
    let N = 1;
    let att = 1;
    for (const batch of batches) {
      N = Math.max(N, batch.entries.length * batch.rows);
      att = Math.max(att, batch.entries.length * NH * batch.rows * attentionCap(batch));
    }
    const f = (n: number) => scratch.floats(n);
    return {
      x: f(N * C),
      ln: f(N * C),
      stats: f(2 * N),
      qkv: f(3 * N * C),
      atty: f(N * C),
      att: f(att),
      res2: f(N * C),
      fch: f(N * M),
      fchGelu: f(N * M),
    };
  }

  /**
   * The full forward's layer sequence on new rows of several streams: each entry's rows go into its
   * stream's cache, attend to everything before them, and its last row's final LayerNorm lands in `last`.
   */
  private forwardRows(
    stage: Stage,
    w: Workspace,
    batch: RowBatch,
    tokens: GPUBuffer | BufferSlice,
    positions: BufferSlice,
  ): void {
    const { dModel: C, dMlp: M, nHead: NH, lnEps: eps, contextLength: tCap } = this.config;
    const o = this.offsets;
    const p = this.params;
    const B = batch.entries.length;
    const T = batch.rows;
    const N = B * T;
    const seqs = stage.upload(packSeqRows(batch.entries));
    const cachePairs: number[] = [];
    const lastPairs: number[] = [];
    batch.entries.forEach((e, b) => {
      for (let r = 0; r < e.count; r++) cachePairs.push(b * T + r, e.slot * tCap + e.pos0 + r);
      lastPairs.push(b * T + e.count - 1, e.slot);
    });
    const cachePairsBuffer = stage.upload(Uint32Array.from(cachePairs));
    encoderForward(stage, w.x, p, tokens, positions, N, C, o.wte, o.wpe);
    for (let l = 0; l < this.config.nLayer; l++) {
      const b = o.blocks[l];
      layernormForward(stage, w.ln, w.stats, w.x, p, b.ln1w, b.ln1b, N, C, eps);
      matmulForward(stage, w.qkv, w.ln, p, b.qkvw, b.qkvb, N, C, 3 * C, this.variant);
      copyRows(stage, this.caches[l], w.qkv, cachePairsBuffer, cachePairs.length / 2, 3 * C);
      attentionForward(stage, w.atty, w.att, this.caches[l], seqs, B, T, tCap, C, NH, attentionCap(batch));
      matmulForward(stage, w.res2, w.atty, p, b.attprojw, b.attprojb, N, C, C, this.variant, w.x);
      layernormForward(stage, w.ln, w.stats, w.res2, p, b.ln2w, b.ln2b, N, C, eps);
      matmulForward(stage, w.fch, w.ln, p, b.fcw, b.fcb, N, C, M, this.variant);
      geluForward(stage, w.fchGelu, w.fch, N * M);
      matmulForward(stage, w.x, w.fchGelu, p, b.fcprojw, b.fcprojb, N, M, C, this.variant, w.res2);
    }
    // The final LayerNorm of every row (one thread per row, so a row's result does not depend on the
    // others), then each entry's last row moved to its stream's slot: one dispatch fewer than normalising
    // only the gathered last rows.
    layernormForward(stage, w.ln, w.stats, w.x, p, o.lnfw, o.lnfb, N, C, eps);
    copyRows(stage, this.last, w.ln, stage.upload(Uint32Array.from(lastPairs)), B, C);
  }

  private checkStream(index: number): void {
    checkStream(index, this.nStreams, this.disposed);
  }
}
