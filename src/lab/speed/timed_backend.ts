// A Backend that times every call of the one it wraps into the part of an update it belongs to, so that
// `bench cpu` can split a stage into its backend passes (the with-skill and the reference scoring passes of
// the re-scoring stage, the loss passes) without the trainer knowing it is measured. A call is charged to the
// label its caller set before it (`part`), with the call's name; its decoder's calls to the same label, each
// sample also counted alone (`decode sample`: one step of lockstep decoding, one round trip on the WebGPU backend).
import type {
  Backend,
  Decoder,
  LossHyper,
  LossInputs,
  OptimizerHyper,
  ParameterSet,
  TokenBatch,
} from '../../backend/backend.ts';

/** Wall-clock and CPU milliseconds (this process's, every thread of it) and calls of one kind of call within one part. */
interface CallTime {
  ms: number;
  cpuMs: number;
  calls: number;
}

/** This process's CPU time so far, in milliseconds. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export class TimedBackend implements Backend {
  readonly kind: Backend['kind'];
  readonly config: Backend['config'];
  /** The label the next calls are charged to. */
  part = '';
  /** Per "<part> <call>", the time spent and the number of calls. */
  readonly times = new Map<string, CallTime>();

  constructor(readonly inner: Backend) {
    this.kind = inner.kind;
    this.config = inner.config;
  }

  /** The time of `call` within `part` (0 when it was never called there). */
  timeOf(part: string, call: string): CallTime {
    return this.times.get(`${part} ${call}`) ?? { ms: 0, cpuMs: 0, calls: 0 };
  }

  clear(): void {
    this.times.clear();
  }

  /** Counts a call of `call` within the current part, charging it no time (its time is charged elsewhere). */
  private count(call: string): void {
    const had = this.timeOf(this.part, call);
    this.times.set(`${this.part} ${call}`, { ...had, calls: had.calls + 1 });
  }

  private async timed<T>(call: string, run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const c0 = cpuMs();
    const out = await run();
    const key = `${this.part} ${call}`;
    const had = this.timeOf(this.part, call);
    this.times.set(key, {
      ms: had.ms + performance.now() - t0,
      cpuMs: had.cpuMs + cpuMs() - c0,
      calls: had.calls + 1,
    });
    return out;
  }

  readParameters(set?: ParameterSet): Promise<Float32Array> {
    return this.timed('readParameters', () => this.inner.readParameters(set));
  }
  writeParameters(params: Float32Array): Promise<void> {
    return this.timed('writeParameters', () => this.inner.writeParameters(params));
  }
  setReferenceFromCurrent(): Promise<void> {
    return this.inner.setReferenceFromCurrent();
  }
  readOptimizerState(): ReturnType<Backend['readOptimizerState']> {
    return this.inner.readOptimizerState();
  }
  writeOptimizerState(state: Parameters<Backend['writeOptimizerState']>[0]): Promise<void> {
    return this.inner.writeOptimizerState(state);
  }
  score(batch: TokenBatch, set: ParameterSet = 'current'): Promise<Float32Array> {
    return this.timed(`score ${set}`, () => this.inner.score(batch, set));
  }
  scoreRows(batch: TokenBatch, set: ParameterSet = 'current'): Promise<Float32Array> {
    return this.timed(`score ${set}`, () => this.inner.scoreRows(batch, set));
  }
  lossBackward(batch: TokenBatch, inputs: LossInputs, hyper: LossHyper): ReturnType<Backend['lossBackward']> {
    return this.timed('lossBackward', () => this.inner.lossBackward(batch, inputs, hyper));
  }
  readGradients(): Promise<Float32Array> {
    return this.timed('readGradients', () => this.inner.readGradients());
  }
  optimizerStep(hyper: OptimizerHyper): ReturnType<Backend['optimizerStep']> {
    return this.timed('optimizerStep', () => this.inner.optimizerStep(hyper));
  }
  zeroGradients(): Promise<void> {
    return this.timed('zeroGradients', () => this.inner.zeroGradients());
  }
  openDecoder(nStreams: number): Decoder {
    const inner = this.inner.openDecoder(nStreams);
    return {
      nStreams: inner.nStreams,
      feed: (stream, tokens) => this.timed('decode', () => inner.feed(stream, tokens)),
      sample: (streams, masks, temperature, uniforms) => {
        this.count('decode sample');
        return this.timed('decode', () => inner.sample(streams, masks, temperature, uniforms));
      },
      length: (stream) => inner.length(stream),
      reset: (stream) => inner.reset(stream),
      dispose: () => inner.dispose(),
    };
  }
  dispose(): void {
    this.inner.dispose();
  }
}
