// A game of the counter world (Environment's scene): where the counter starts and the number it must show, and
// its JSON, read with the shared scene reader (src/env/scene_json.ts).
import { onlyFields, SceneFieldError, sceneDocument } from '../../../../env/scene_json.ts';
import { LARGEST } from './vocabulary.ts';

export interface CounterScene {
  readonly start: number;
  readonly target: number;
}

class CounterSceneError extends SceneFieldError {
  constructor(field: string, detail: string) {
    super(field, detail);
    this.name = 'CounterSceneError';
  }
}

export const counterSceneToJson = (scene: CounterScene): string =>
  JSON.stringify({ start: scene.start, target: scene.target });

/** The scene a JSON text describes; throws a CounterSceneError naming the field at fault. */
export function counterSceneFromJson(text: string): CounterScene {
  const data = sceneDocument(text, CounterSceneError);
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new CounterSceneError('', 'a scene is an object with start and target');
  onlyFields(data, '', ['start', 'target'], CounterSceneError);
  const value = (key: 'start' | 'target'): number => {
    const v: unknown = (data as Record<string, unknown>)[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > LARGEST)
      throw new CounterSceneError(key, `an integer from 0 to ${LARGEST}, got ${JSON.stringify(v)}`);
    return v;
  };
  const scene = { start: value('start'), target: value('target') };
  if (scene.start === scene.target)
    throw new CounterSceneError('target', 'the same as start: there is nothing to play');
  return scene;
}
