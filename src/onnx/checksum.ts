// The content checksum of an exported policy. ONNX files carry none, so a damaged token, card field or
// weight would otherwise load silently: CRC-32 over our metadata entries (sorted by key, "key=value\n" in
// UTF-8) and then the weights (view by view in layout order, little-endian float32), as 8 hex digits.
import { crc32 } from '../model/crc32.ts';
import { viewOf, type ParameterLayout } from '../model/layout.ts';
import { floatRawData, type StringStringEntryProto } from './proto.ts';

export function contentCrc32(
  entries: readonly StringStringEntryProto[],
  params: Float32Array,
  layout: ParameterLayout,
): string {
  const encoder = new TextEncoder();
  let crc = 0;
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const e of sorted) crc = crc32(encoder.encode(`${e.key}=${e.value}\n`), crc);
  for (const view of layout.list) crc = crc32(floatRawData(viewOf(params, view)), crc);
  return crc.toString(16).padStart(8, '0');
}
