import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH, parseJson, printable, quote } from './json.ts';

describe('parseJson', () => {
  it('measures nesting outside strings only', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('[{"a": [1]}]')).toBe(3);
    expect(jsonDepth('["[[[[", "\\"[["]')).toBe(1);
  });

  it('parses the documented depth and refuses one more level, in one line', () => {
    const at = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(parseJson(at(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    expect(() => parseJson(at(MAX_JSON_DEPTH + 1))).toThrow(
      new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`),
    );
    // A million levels: the depth is measured in one pass before JSON.parse recurses (a stack overflow would
    // be a RangeError).
    expect(() => parseJson('{"a":'.repeat(1_000_000))).toThrow(
      new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`),
    );
  });

  it('turns the engine message, which quotes the text, into one printable line', () => {
    let message = '';
    try {
      parseJson('{"a":\n\u001b[31m}');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/\S/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for a newline or a terminal escape
    expect(message).not.toMatch(/[\n\u001b]/);
  });
});

describe('quote and printable', () => {
  it('escape line breaks and terminal escapes, C1 controls and line separators included', () => {
    expect(printable('a\nb\u001b[2J\u009b\u2028')).toBe('a\\nb\\u001b[2J\\u009b\\u2028');
    expect(quote('x\ny')).toBe('"x\\ny"');
    expect(quote('\u009b31m')).toBe('"\\u009b31m"');
  });

  it('cut long values and never throw', () => {
    expect(quote('a'.repeat(200), 20)).toBe(`"${'a'.repeat(16)}...`);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(quote(deep)).toBe('an array');
    expect(quote(undefined)).toBe('undefined');
  });
});
