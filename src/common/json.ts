// JSON read from files (scenes, checkpoint headers, loss inputs) and values quoted in messages. Every reader
// bounds the nesting depth before parsing: the files' formats nest a few levels, and a value nested
// thousands deep overflows the stack of any recursive walk over it later (JSON.stringify among them).

/** The deepest nesting of arrays and objects a JSON file read by this project may have. */
export const MAX_JSON_DEPTH = 64;

/** The nesting depth of JSON text (0 for a scalar), counting only brackets outside strings; stops past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * JSON.parse that refuses text nested deeper than `maxDepth` levels; throws a SyntaxError either way, whose
 * message is one printable line (the engine's message quotes the text, line breaks and all).
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, maxDepth) > maxDepth) throw new SyntaxError(`JSON nested deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(printable((err as Error).message));
  }
}

/**
 * parseJson for a format whose objects are copied field by field (a checkpoint's header and metadata, a metrics
 * line), which refuses an object with a key "__proto__" too. JSON.parse keeps such a key as a plain field, but a
 * copy that assigns each key (Object.assign among them) sets the copy's prototype from it instead, so that the
 * file decides what every field it lacks reads as. Formats read by their own keys alone refuse it there, as a
 * field they do not have.
 */
export function parseJsonWithoutProto(text: string): unknown {
  const value = parseJson(text);
  // The key can only be there when its name, or an escape that could spell it, is in the text.
  const at = text.includes('__proto__') || text.includes('\\u') ? protoKeyAt(value, '') : null;
  if (at !== null)
    throw new SyntaxError(`JSON with a key "__proto__"${at && ` in ${at}`}, which no file read here holds`);
  return value;
}

/**
 * The object of `value` that holds a key "__proto__" (a path such as metadata.x or runs[3]; '' for `value`), or
 * null when none does. The walk recurses at most MAX_JSON_DEPTH levels: parseJson checked the depth.
 */
function protoKeyAt(value: unknown, at: string): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = protoKeyAt(value[i], `${at}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (Object.hasOwn(value, '__proto__')) return at;
  const child = (key: string) => (at === '' ? key : `${at}.${key}`);
  for (const [key, v] of Object.entries(value)) {
    const found = protoKeyAt(v, child(quoteKey(key)));
    if (found !== null) return found;
  }
  return null;
}

const quoteKey = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key, 40));

/**
 * `text` as one line that is safe to print on a terminal: line breaks, terminal escapes and every other
 * control character appear escaped as in JSON (\n, \u001b).
 */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it finds the control characters to escape
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * A value as JSON for a message: one line (control characters escaped, so a newline or a terminal escape in a
 * name cannot reach the terminal raw), cut to `max` characters; never throws.
 */
export function quote(value: unknown, max = 80): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? 'an array' : typeof value;
  }
  // JSON.stringify leaves U+2028, U+2029 and the C1 controls (which include a terminal's CSI) unescaped.
  text = printable(text);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
