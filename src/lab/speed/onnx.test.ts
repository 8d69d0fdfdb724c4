// bench onnx --quick: one JSON object on stdout, a row per preset and shape run, and the thread count.
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../../cli/testing.ts';
import { quickJson, run } from './onnx.ts';

describe('bench onnx --quick', () => {
  it('formats the rows as {preset, batch, seq, cpu_ms, ort_wasm_ms} and the threads, times to the microsecond', () => {
    const text = quickJson(
      [
        { preset: 'tiny', batch: 1, seqLen: 64, cpuMs: 0.71234567, ortMs: 0.7 },
        { preset: 'small', batch: 4, seqLen: 256, cpuMs: 91.5, ortMs: 101.7249 },
      ],
      1,
    );
    expect(JSON.parse(text)).toEqual({
      rows: [
        { preset: 'tiny', batch: 1, seq: 64, cpu_ms: 0.712, ort_wasm_ms: 0.7 },
        { preset: 'small', batch: 4, seq: 256, cpu_ms: 91.5, ort_wasm_ms: 101.725 },
      ],
      threads: 1,
    });
    expect(text).not.toContain('\n');
  });

  it('prints exactly one JSON object on stdout, progress on stderr, and writes no report', async () => {
    const { code, stdout, stderr } = await runCaptured(run, [
      '--quick',
      '--presets',
      'micro',
      '--batches',
      '1,2',
      '--seqs',
      '8',
      '--reps',
      '1',
      '--out',
      '/nonexistent/dir',
    ]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(Object.keys(out)).toEqual(['rows', 'threads']);
    expect(out.threads).toBe(1);
    expect(out.rows.map((r: { batch: number }) => r.batch)).toEqual([1, 2]);
    for (const r of out.rows) {
      expect(Object.keys(r)).toEqual(['preset', 'batch', 'seq', 'cpu_ms', 'ort_wasm_ms']);
      expect(r.preset).toBe('micro');
      expect(r.seq).toBe(8);
      expect(r.cpu_ms).toBeGreaterThan(0);
      expect(r.ort_wasm_ms).toBeGreaterThan(0);
    }
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('bench onnx: micro batch 1 seq 8');
  });
});
