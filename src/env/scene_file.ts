// Reading a scene JSON file in Node (the CLI and benchmarks); every failure names the file.
import { readFile } from 'node:fs/promises';
import { SceneError, sceneFromJson, type Scene } from './scene.ts';

export class SceneFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SceneFileError';
  }
}

export async function readSceneFile(path: string): Promise<Scene> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SceneFileError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return sceneFromJson(text);
  } catch (err) {
    if (err instanceof SceneError) throw new SceneFileError(`${path}: ${err.message}`);
    throw err;
  }
}
