import { describe, expect, it } from 'vitest';
import { Rng, hashString } from './rng.ts';

describe('Rng', () => {
  it('gives the same stream for the same seed and a different one for another seed', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const sa = Array.from({ length: 8 }, () => a.nextU32());
    const sb = Array.from({ length: 8 }, () => b.nextU32());
    const sc = Array.from({ length: 8 }, () => c.nextU32());
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
  });

  it('produces floats in [0, 1) with a mean near one half', () => {
    const r = new Rng(7);
    let sum = 0;
    for (let i = 0; i < 20000; i++) {
      const x = r.float();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
    }
    expect(Math.abs(sum / 20000 - 0.5)).toBeLessThan(0.01);
  });

  it('draws normals with unit variance', () => {
    const r = new Rng(1);
    let s = 0;
    let s2 = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const x = r.normal();
      s += x;
      s2 += x * x;
    }
    expect(Math.abs(s / n)).toBeLessThan(0.03);
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.05);
  });

  it('forks independent streams without advancing the parent', () => {
    const p = new Rng(5);
    const q = new Rng(5);
    const f1 = p.fork('env');
    const f2 = p.fork('model');
    expect(p.nextU32()).toBe(q.nextU32());
    expect(f1.nextU32()).not.toBe(f2.nextU32());
    expect(new Rng(5).fork('env').nextU32()).toBe(new Rng(5).fork('env').nextU32());
  });

  it('hashes strings stably (FNV-1a)', () => {
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('a')).toBe(0xe40c292c);
  });
});
