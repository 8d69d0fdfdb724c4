import { describe, expect, it } from 'vitest';
import { engineWorkerName, engineWorkerOptions } from './engine_worker_name.ts';

describe('engine worker name', () => {
  it('is the plain site root for the page own engine', () => {
    const name = engineWorkerName({ siteRoot: 'http://localhost/sub/', threads: null, keepRuns: true });
    expect(name).toBe('http://localhost/sub/');
    expect(engineWorkerOptions(name, 'x')).toEqual({
      siteRoot: 'http://localhost/sub/',
      threads: null,
      keepRuns: true,
    });
  });

  it('carries a race arm thread budget and that its run is not kept', () => {
    const options = { siteRoot: 'http://localhost/sub/', threads: 3, keepRuns: false };
    expect(engineWorkerOptions(engineWorkerName(options), 'x')).toEqual(options);
  });

  it('falls back to the script location without a name, and ignores a thread budget that is not a count', () => {
    expect(engineWorkerOptions('', 'http://localhost/assets/w.js').siteRoot).toBe('http://localhost/assets/w.js');
    expect(engineWorkerOptions(JSON.stringify({ siteRoot: 'a', threads: 0.5, keepRuns: false }), 'x')).toEqual({
      siteRoot: 'a',
      threads: null,
      keepRuns: false,
    });
  });
});
