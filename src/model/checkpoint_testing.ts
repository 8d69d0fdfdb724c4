// For tests: checkpoint files sealed with a valid checksum around any header and any payload, so that the
// checks after the checksum (header, sizes, finiteness) can be exercised with files this code never writes.
import { CHECKPOINT_MAGIC, CHECKPOINT_VERSION } from './checkpoint.ts';
import { crc32 } from './crc32.ts';

/** A checkpoint file holding `headerText` (any text) and `payloadBytes` zero bytes, with a valid CRC. */
export function sealedCheckpoint(headerText: string, payloadBytes = 0): Uint8Array {
  const header = new TextEncoder().encode(headerText);
  const dataStart = (20 + header.length + 3) & ~3;
  const total = dataStart + payloadBytes + 4;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 8; i++) bytes[i] = CHECKPOINT_MAGIC.charCodeAt(i);
  view.setUint32(8, CHECKPOINT_VERSION, true);
  view.setUint32(12, total, true);
  view.setUint32(16, header.length, true);
  bytes.set(header, 20);
  view.setUint32(total - 4, crc32(bytes.subarray(0, total - 4)), true);
  return bytes;
}

/** A header as the writer lays it out, with `config` and `metadata` as given (however wrong). */
export function headerJson(config: unknown, metadata: unknown, parameterFloats: unknown = 0): string {
  return JSON.stringify({ config, vocabHash: '0d60654c', parameterFloats, optimizer: null, metadata });
}
