import { describe, expect, it } from 'vitest';
import { messageOf } from './errors.ts';

describe('messageOf', () => {
  it('gives an error\'s message without a leading "Error: "', () => {
    expect(messageOf(new RangeError('bad lambda'))).toBe('bad lambda');
    expect(messageOf(new Error('Error: the worker failed'))).toBe('the worker failed');
  });

  it('gives anything else as its string form', () => {
    expect(messageOf('Error: no adapter')).toBe('no adapter');
    expect(messageOf(42)).toBe('42');
    expect(messageOf(null)).toBe('null');
  });
});
