// Reading a world's scene JSON (Environment.sceneFromJson): what every world's reader shares, so that a bad file
// is refused the same way in each, with one line that names the field at fault ("goal.options.color: ...").
// Each world keeps its own error class (a subclass of SceneFieldError that names itself, as a minified build
// would not) and its own fields.
import { parseJson, quote } from '../common/json.ts';

/** A scene that cannot be read or played; `field` is the JSON path of the culprit, '' for the file as a whole. */
export class SceneFieldError extends Error {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(field === '' ? detail : `${field}: ${detail}`);
    this.name = 'SceneFieldError';
  }
}

/** How a world's reader refuses: its own error class. */
export type SceneRefusal = new (field: string, detail: string) => SceneFieldError;

/** A key as a field name prints: bare when it is a plain name, quoted (one printable line) otherwise. */
export function fieldName(parent: string, key: string): string {
  const name = /^[A-Za-z_]\w*$/.test(key) ? key : quote(key);
  return parent === '' ? name : `${parent}.${name}`;
}

/** The JSON value of a scene file's text, or the refusal of a text that is no JSON. */
export function sceneDocument(text: string, refuse: SceneRefusal): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    throw new refuse('', `not JSON: ${(error as Error).message}`);
  }
}

/**
 * Refuses the first own key of `data` that is not `allowed` (own keys only, so "__proto__" is one more unknown
 * field), with its `hint` where one is given.
 */
export function onlyFields(
  data: object,
  field: string,
  allowed: readonly string[],
  refuse: SceneRefusal,
  hint: Readonly<Record<string, string>> = {},
): void {
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key)) {
      const why = Object.hasOwn(hint, key) ? `unknown field: ${hint[key]}` : 'unknown field';
      throw new refuse(fieldName(field, key), why);
    }
  }
}
