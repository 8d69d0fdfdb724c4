import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH, parseJson, parseJsonWithoutProto, printable, quote } from './json.ts';

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

  it('parseJsonWithoutProto refuses a key "__proto__" at any depth, spelt with escapes too, naming where it is', () => {
    const refused = (text: string, at: string) =>
      expect(() => parseJsonWithoutProto(text)).toThrow(
        new SyntaxError(`JSON with a key "__proto__"${at && ` in ${at}`}, which no file read here holds`),
      );
    refused('{"__proto__": {"polluted": 1}}', '');
    refused('{"metadata": {"run": [0, {"\\u005f_proto__": null}]}}', 'metadata.run[1]');
    refused('[{"a b": {"__proto__": 1}}]', '[0]."a b"');
    expect(parseJsonWithoutProto('{"name": "__proto__", "text": "\\u0041"}')).toEqual({ name: '__proto__', text: 'A' });
    // parseJson keeps the key as an own field, which a reader by own keys refuses as one it does not know.
    expect(Object.keys(parseJson('{"__proto__": 1}') as object)).toEqual(['__proto__']);
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
