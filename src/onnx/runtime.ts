// Runs an exported policy with onnxruntime-web's WebAssembly backend, the same code in the browser and in
// Node (the wasm build finds its .wasm file next to its own module, in node_modules or in the bundle).
import * as ort from 'onnxruntime-web/wasm';
import type { ModelConfig } from '../model/config.ts';
import { INPUT_NAME, OUTPUT_NAME } from './policy_graph.ts';

export interface RuntimeOptions {
  /**
   * WebAssembly threads. Read once, when the runtime first starts; later sessions share that setting.
   * 1 (the default) keeps runs deterministic and needs no cross-origin isolation in the browser; in Node
   * the wasm build runs on one thread only (more threads fail to start its workers).
   */
  threads?: number;
  /** The model's config (from readPolicyOnnx): token ids and lengths are then checked before each run. */
  config?: ModelConfig;
}

let runtimeThreads: number | undefined;

export class OnnxPolicySession {
  private constructor(
    private readonly session: ort.InferenceSession,
    /** WebAssembly threads the runtime actually runs with (the first session's setting). */
    readonly threads: number,
    private readonly config: ModelConfig | undefined,
  ) {}

  static async create(bytes: Uint8Array, options: RuntimeOptions = {}): Promise<OnnxPolicySession> {
    if (runtimeThreads === undefined) {
      runtimeThreads = options.threads ?? 1;
      ort.env.wasm.numThreads = runtimeThreads;
    }
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
    } catch (err) {
      throw new Error(`onnxruntime-web could not load the model: ${(err as Error).message}`);
    }
    if (session.inputNames[0] !== INPUT_NAME || session.outputNames[0] !== OUTPUT_NAME) {
      await session.release();
      throw new Error(
        `the model maps ${session.inputNames.join(', ')} -> ${session.outputNames.join(', ')}, not ${INPUT_NAME} -> ${OUTPUT_NAME}`,
      );
    }
    return new OnnxPolicySession(session, runtimeThreads, options.config);
  }

  /** Logits [batch, seqLen, vocab] (row-major) of token ids [batch, seqLen] (row-major). */
  async logits(ids: ArrayLike<number>, batch: number, seqLen: number): Promise<Float32Array> {
    if (ids.length !== batch * seqLen)
      throw new RangeError(`${ids.length} token ids do not fill [${batch}, ${seqLen}]`);
    if (this.config) {
      const { contextLength, vocabSize } = this.config;
      if (seqLen > contextLength)
        throw new RangeError(`sequence length ${seqLen} exceeds the model's context of ${contextLength} tokens`);
      for (let i = 0; i < ids.length; i++) {
        if (!(Number.isInteger(ids[i]) && ids[i] >= 0 && ids[i] < vocabSize)) {
          throw new RangeError(`token id ${ids[i]} at position ${i} is outside the vocabulary of ${vocabSize}`);
        }
      }
    }
    const data = new BigInt64Array(ids.length);
    for (let i = 0; i < ids.length; i++) data[i] = BigInt(ids[i]);
    const input = new ort.Tensor('int64', data, [batch, seqLen]);
    const out = await this.session.run({ [INPUT_NAME]: input });
    input.dispose();
    return out[OUTPUT_NAME].data as Float32Array;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
