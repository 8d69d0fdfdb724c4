// The checkpoint file: model config, vocabulary hash, parameters, optional AdamW state and training
// metadata, sealed by a CRC-32. Little-endian throughout.
//
//   offset  size  field
//   0       8     magic "SEEDCKPT"
//   8       4     u32 format version (CHECKPOINT_VERSION)
//   12      4     u32 total file length in bytes (lets a short file be told apart from a damaged one)
//   16      4     u32 header length H in bytes
//   20      H     header, UTF-8 JSON: { config, vocabHash, parameterFloats, optimizer: { step } | null, metadata }
//   ...     0-3   zero padding to a multiple of 4 bytes
//   ...     4 N   parameters, float32 (N = parameterFloats = parameterLayout(config).totalFloats)
//   ...     8 N   AdamW m then v, float32 (only when header.optimizer is not null)
//   end-4   4     u32 CRC-32 of every byte before it
//
// Reading checks, in order: length, magic, version, declared length, checksum, header, sizes, finiteness,
// then the vocabulary; the first failure throws a CheckpointError whose kind and message say which. Nothing
// is returned unless the whole file passed, so weights are never half-loaded. Every size the header declares
// is weighed against the bytes present before anything is allocated for it, so a small file that declares
// a huge model is refused at once.
import { parseJsonWithoutProto, quote } from '../common/json.ts';
import { validateConfig, type ModelConfig } from './config.ts';
import { crc32 } from './crc32.ts';
import { checkParameterBytes, parameterLayout } from './layout.ts';

export const CHECKPOINT_MAGIC = 'SEEDCKPT';
export const CHECKPOINT_VERSION = 1;
const PREFIX_BYTES = 20;
/**
 * The largest header a checkpoint may have. A run's metadata (its config, seed-static's library of at most
 * 256 skills, seed-crossgame's pool) takes a few kB to a few hundred kB; a larger block is no checkpoint's.
 */
const MAX_HEADER_BYTES = 1 << 20;

interface OptimizerState {
  m: Float32Array;
  v: Float32Array;
  step: number;
}

export interface Checkpoint {
  config: ModelConfig;
  /** The tokenizer's vocabulary hash (text/tokenizer.ts `hash`). */
  vocabHash: string;
  params: Float32Array;
  optimizer: OptimizerState | null;
  /** Training metadata (preset, seed, algorithm, update count, ...), any JSON object. */
  metadata: Record<string, unknown>;
}

export type CheckpointErrorKind = 'truncated' | 'not-a-checkpoint' | 'version' | 'corrupted' | 'vocabulary';

export class CheckpointError extends Error {
  constructor(
    readonly kind: CheckpointErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'CheckpointError';
  }
}

export function writeCheckpoint(ck: Checkpoint): Uint8Array {
  validateConfig(ck.config);
  const n = parameterLayout(ck.config).totalFloats;
  checkFloats(ck.params, n, 'parameters');
  if (ck.optimizer) {
    checkFloats(ck.optimizer.m, n, 'optimizer m');
    checkFloats(ck.optimizer.v, n, 'optimizer v');
    if (!Number.isInteger(ck.optimizer.step) || ck.optimizer.step < 0)
      throw new RangeError(`optimizer step must be an integer >= 0, got ${ck.optimizer.step}`);
  }
  const header = {
    config: ck.config,
    vocabHash: ck.vocabHash,
    parameterFloats: n,
    optimizer: ck.optimizer ? { step: ck.optimizer.step } : null,
    metadata: ck.metadata,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  if (headerBytes.length > MAX_HEADER_BYTES)
    throw new RangeError(`checkpoint header of ${headerBytes.length} bytes, more than ${MAX_HEADER_BYTES}`);
  const dataStart = align4(PREFIX_BYTES + headerBytes.length);
  const floats = n * (ck.optimizer ? 3 : 1);
  const total = dataStart + 4 * floats + 4;
  if (total > 0xffffffff) throw new RangeError('checkpoint larger than 4 GiB');
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 8; i++) bytes[i] = CHECKPOINT_MAGIC.charCodeAt(i);
  view.setUint32(8, CHECKPOINT_VERSION, true);
  view.setUint32(12, total, true);
  view.setUint32(16, headerBytes.length, true);
  bytes.set(headerBytes, PREFIX_BYTES);
  let at = dataStart;
  const put = (a: Float32Array) => {
    for (let i = 0; i < a.length; i++, at += 4) view.setFloat32(at, a[i], true);
  };
  put(ck.params);
  if (ck.optimizer) {
    put(ck.optimizer.m);
    put(ck.optimizer.v);
  }
  view.setUint32(total - 4, crc32(bytes.subarray(0, total - 4)), true);
  return bytes;
}

export interface ReadOptions {
  /** Refuse the file unless it was written for this vocabulary. */
  vocabHash?: string;
}

export function readCheckpoint(bytes: Uint8Array, options: ReadOptions = {}): Checkpoint {
  if (bytes.length < PREFIX_BYTES) {
    if (!startsWithMagicPrefix(bytes))
      throw new CheckpointError('not-a-checkpoint', 'not a SEED checkpoint (no SEEDCKPT magic)');
    throw new CheckpointError(
      'truncated',
      `truncated checkpoint: ${bytes.length} bytes, shorter than the ${PREFIX_BYTES}-byte prefix`,
    );
  }
  for (let i = 0; i < 8; i++) {
    if (bytes[i] !== CHECKPOINT_MAGIC.charCodeAt(i))
      throw new CheckpointError('not-a-checkpoint', 'not a SEED checkpoint (no SEEDCKPT magic)');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== CHECKPOINT_VERSION) {
    throw new CheckpointError(
      'version',
      `unsupported checkpoint version ${version} (this build reads version ${CHECKPOINT_VERSION})`,
    );
  }
  const total = view.getUint32(12, true);
  if (bytes.length < total)
    throw new CheckpointError('truncated', `truncated checkpoint: ${bytes.length} of ${total} bytes`);
  if (bytes.length > total)
    throw new CheckpointError(
      'corrupted',
      `corrupted checkpoint: ${bytes.length - total} bytes after the declared end`,
    );
  const stored = view.getUint32(total - 4, true);
  const actual = crc32(bytes.subarray(0, total - 4));
  if (stored !== actual) {
    throw new CheckpointError(
      'corrupted',
      `corrupted checkpoint: checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)})`,
    );
  }
  // The checksum passed, so what follows guards against files written by something other than this code.
  const headerLength = view.getUint32(16, true);
  if (PREFIX_BYTES + headerLength > total - 4)
    throw new CheckpointError('corrupted', 'corrupted checkpoint: header runs past the end');
  if (headerLength > MAX_HEADER_BYTES) {
    throw new CheckpointError(
      'corrupted',
      `corrupted checkpoint: a header of ${headerLength} bytes, more than the ${MAX_HEADER_BYTES} a checkpoint's metadata may take`,
    );
  }
  let header: {
    config: ModelConfig;
    vocabHash: string;
    parameterFloats: number;
    optimizer: { step: number } | null;
    metadata: Record<string, unknown>;
  };
  try {
    header = parseJsonWithoutProto(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)),
    ) as typeof header;
  } catch (err) {
    throw new CheckpointError('corrupted', `corrupted checkpoint: header cannot be read (${(err as Error).message})`);
  }
  if (
    header === null ||
    typeof header !== 'object' ||
    typeof header.vocabHash !== 'string' ||
    header.metadata === null ||
    typeof header.metadata !== 'object'
  ) {
    throw new CheckpointError('corrupted', 'corrupted checkpoint: header lacks config, vocabHash or metadata');
  }
  let config: ModelConfig;
  try {
    const c = header.config;
    config = validateConfig({
      vocabSize: c.vocabSize,
      contextLength: c.contextLength,
      dModel: c.dModel,
      nLayer: c.nLayer,
      nHead: c.nHead,
      dMlp: c.dMlp,
      lnEps: c.lnEps,
    });
  } catch (err) {
    throw new CheckpointError('corrupted', `corrupted checkpoint: bad model config (${(err as Error).message})`);
  }
  const opt = header.optimizer;
  if (opt !== null && (typeof opt !== 'object' || !Number.isInteger(opt.step) || opt.step < 0)) {
    throw new CheckpointError('corrupted', 'corrupted checkpoint: bad optimizer entry in the header');
  }
  const dataStart = align4(PREFIX_BYTES + headerLength);
  let n: number;
  try {
    n = checkParameterBytes(config, Math.max(0, total - 4 - dataStart), opt ? 3 : 1);
  } catch (err) {
    throw new CheckpointError('corrupted', `corrupted checkpoint: ${(err as Error).message}`);
  }
  if (header.parameterFloats !== n) {
    throw new CheckpointError(
      'corrupted',
      `corrupted checkpoint: ${quote(header.parameterFloats)} parameters declared, the config needs ${n}`,
    );
  }
  const floats = n * (opt ? 3 : 1);
  if (dataStart + 4 * floats + 4 !== total) {
    throw new CheckpointError('corrupted', `corrupted checkpoint: ${total} bytes do not match the declared contents`);
  }
  let at = dataStart;
  const take = (what: string): Float32Array => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++, at += 4) a[i] = view.getFloat32(at, true);
    const bad = a.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0) throw new CheckpointError('corrupted', `corrupted checkpoint: ${what}[${bad}] is not finite`);
    return a;
  };
  const params = take('parameters');
  const optimizer = opt ? { m: take('optimizer m'), v: take('optimizer v'), step: opt.step } : null;
  if (options.vocabHash !== undefined && header.vocabHash !== options.vocabHash) {
    const written = /^[\w-]{1,64}$/.test(header.vocabHash) ? header.vocabHash : quote(header.vocabHash);
    throw new CheckpointError(
      'vocabulary',
      `checkpoint was written for vocabulary ${written}, this build's vocabulary is ${options.vocabHash}`,
    );
  }
  return { config, vocabHash: header.vocabHash, params, optimizer, metadata: header.metadata };
}

function startsWithMagicPrefix(bytes: Uint8Array): boolean {
  for (let i = 0; i < Math.min(8, bytes.length); i++) if (bytes[i] !== CHECKPOINT_MAGIC.charCodeAt(i)) return false;
  return true;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}

function checkFloats(a: Float32Array, n: number, what: string): void {
  if (!(a instanceof Float32Array) || a.length !== n)
    throw new RangeError(`${what}: expected a Float32Array of ${n} floats`);
  const bad = a.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new RangeError(`${what}[${bad}] is not finite; a checkpoint holds finite weights only`);
}
