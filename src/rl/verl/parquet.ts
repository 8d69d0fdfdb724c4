// The dataset's rows as a parquet file, written with hyparquet-writer (pure JavaScript, in Node and the browser),
// imported only when a file is written so that the page loads it on the first download. Strings are UTF-8 columns
// (parquet's BYTE_ARRAY, UTF8), the success flag a BOOLEAN; pandas and pyarrow, which veRL's SFT dataset reads
// with, read them as str and bool.
import type { SftRow } from './sft_dataset.ts';

const STRING_COLUMNS = ['prompt', 'response', 'skill_id', 'task_id', 'task_type', 'source'] as const;

/** The rows as the bytes of one parquet file; `about` goes into the file's key-value metadata. */
export async function sftParquet(rows: readonly SftRow[], about: Record<string, string> = {}): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const buffer = parquetWriteBuffer({
    columnData: [
      ...STRING_COLUMNS.map((name) => ({
        name,
        data: rows.map((r) => r[name]),
        type: 'STRING' as const,
        nullable: false,
      })),
      { name: 'success', data: rows.map((r) => r.success), type: 'BOOLEAN' as const, nullable: false },
    ],
    kvMetadata: Object.entries(about).map(([key, value]) => ({ key, value })),
    createdBy: 'SEED Playground export-verl',
  });
  return new Uint8Array(buffer);
}
