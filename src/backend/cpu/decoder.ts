// Incremental decoding with a KV cache, many streams in lockstep (the Decoder of backend.ts). New tokens
// run through the same layer functions as the full forward, attending to the cached q/k/v rows of the
// earlier positions; every layer computes a row the same way alone or in a batch, so the decoder produces
// exactly (bit for bit) the logits of the full forward. Cost per token is linear in the stream's length.
//
// The work runs as jobs on the backend's threads (decoder_jobs.ts): fed tokens wait until a stream's cache
// is next needed (a sample), so that the streams fed one by one are then run side by side; a sampling step
// splits its streams into chunks. A job changes no stream until it has succeeded as a whole. The decoder reads the backend's live parameters: caches filled before a
// weight update are stale, so a rollout resets its streams after each optimizer step. Its buffers live in
// the CPU heap (heap.ts) and go back to it on dispose.
import type { Decoder, Sampled } from '../backend.ts';
import { checkFeed, checkSample, checkStream, checkStreamCount } from '../contract.ts';
import type { ModelConfig } from '../../model/config.ts';
import { feedJob, sampleJob, type StreamTable } from './decoder_jobs.ts';
import { freeHeapFloats, heapFloats } from './heap.ts';
import { parallelFor, ranges } from './threads.ts';

interface Stream {
  /** Tokens fed or sampled so far; the cache holds the first `computed`, `pending` the rest. */
  length: number;
  computed: number;
  pending: Int32Array[];
  /** Per layer, the qkv rows [capacity, 3C] of every position computed so far, and their keys transposed [C, capacity]. */
  qkv: Float32Array[];
  kT: Float32Array[];
  capacity: number;
  /** Final-LayerNorm output of the last position: what the next token's logits are computed from. */
  last: Float32Array;
  /** Where a job writes the next one (swapped with `last` once the job has succeeded). */
  next: Float32Array;
}

export class CpuDecoder implements Decoder {
  private readonly streams: Stream[] = [];
  /** Sampled token ids and log-probs of a step, [2 nStreams]. */
  private readonly out: Float32Array;
  private disposed = false;

  constructor(
    /** Held so that the backend, whose heap block `params` is, outlives the decoder. */
    readonly owner: object,
    private readonly params: Float32Array,
    private readonly config: ModelConfig,
    readonly nStreams: number,
    private readonly threads: number,
  ) {
    checkStreamCount(nStreams);
    for (let s = 0; s < nStreams; s++) {
      this.streams.push({
        length: 0,
        computed: 0,
        pending: [],
        qkv: [],
        kT: [],
        capacity: 0,
        last: heapFloats(config.dModel),
        next: heapFloats(config.dModel),
      });
    }
    this.out = heapFloats(2 * nStreams);
  }

  async feed(stream: number, tokens: Int32Array): Promise<void> {
    const st = this.stream(stream);
    checkFeed(this.config, stream, st.length, tokens);
    st.pending.push(tokens.slice());
    st.length += tokens.length;
  }

  async sample(streams: Int32Array, masks: Uint32Array, temperature: number, uniforms: Float32Array): Promise<Sampled> {
    checkSample(
      this.config,
      streams,
      masks,
      temperature,
      uniforms,
      (s) => this.stream(s),
      (s) => this.streams[s].length,
    );
    await this.flush();
    const S = streams.length;
    const sts = Array.from(streams, (index) => this.streams[index]);
    for (const st of sts) this.reserve(st, st.length + 1);
    const desc = {
      config: this.config,
      params: this.params,
      streams: this.table(sts),
      masks,
      temperature,
      uniforms,
      // small chunks, so that the threads end a step close together
      chunks: ranges(S, Math.max(4 * this.threads, Math.ceil(S / 4))),
      out: this.out.subarray(0, 2 * S),
    };
    await parallelFor(sampleJob, desc, desc.chunks.length - 1, this.threads);
    for (const st of sts) {
      st.length += 1;
      st.computed += 1;
      [st.last, st.next] = [st.next, st.last];
    }
    return { tokens: Int32Array.from(this.out.subarray(0, S)), logprobs: this.out.slice(S, 2 * S) };
  }

  length(stream: number): number {
    return this.stream(stream).length;
  }

  reset(stream: number): void {
    const st = this.stream(stream);
    st.length = 0;
    st.computed = 0;
    st.pending = [];
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const st of this.streams) for (const buf of [...st.qkv, ...st.kT, st.last, st.next]) freeHeapFloats(buf);
    this.streams.length = 0;
    freeHeapFloats(this.out);
  }

  private stream(index: number): Stream {
    checkStream(index, this.nStreams, this.disposed);
    return this.streams[index];
  }

  /** Runs the pending tokens of every stream, the streams side by side. */
  private async flush(): Promise<void> {
    const fed = this.streams.filter((st) => st.pending.length > 0);
    if (fed.length === 0) return;
    for (const st of fed) this.reserve(st, st.length);
    const starts = new Int32Array(fed.length + 1);
    fed.forEach((st, i) => {
      starts[i + 1] = starts[i] + st.length - st.computed;
    });
    const tokens = new Int32Array(starts[fed.length]);
    fed.forEach((st, i) => {
      let at = starts[i];
      for (const part of st.pending) {
        tokens.set(part, at);
        at += part.length;
      }
    });
    await parallelFor(
      feedJob,
      { config: this.config, params: this.params, streams: this.table(fed), tokens, starts },
      fed.length,
      this.threads,
    );
    for (const st of fed) {
      st.computed = st.length;
      st.pending = [];
      [st.last, st.next] = [st.next, st.last];
    }
  }

  private table(sts: Stream[]): StreamTable {
    return {
      lengths: Int32Array.from(sts, (st) => st.computed),
      capacities: Int32Array.from(sts, (st) => st.capacity),
      qkv: sts.flatMap((st) => st.qkv),
      kT: sts.flatMap((st) => st.kT),
      last: sts.map((st) => st.last),
      next: sts.map((st) => st.next),
    };
  }

  private reserve(st: Stream, rows: number): void {
    const C = this.config.dModel;
    const have = st.capacity;
    if (have >= rows) return;
    const capacity = Math.min(this.config.contextLength, Math.max(rows, 2 * have, 64));
    for (let l = 0; l < this.config.nLayer; l++) {
      // rows are written before attention reads them (keys < the stream's length)
      const qkv = heapFloats(capacity * 3 * C, false);
      const kT = heapFloats(C * capacity, false);
      if (have > 0) {
        qkv.set(st.qkv[l].subarray(0, st.computed * 3 * C));
        for (let c = 0; c < C; c++) kT.set(st.kT[l].subarray(c * have, c * have + st.computed), c * capacity);
        freeHeapFloats(st.qkv[l]);
        freeHeapFloats(st.kT[l]);
      }
      st.qkv[l] = qkv;
      st.kT[l] = kT;
    }
    st.capacity = capacity;
  }
}
