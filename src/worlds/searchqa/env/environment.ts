// The search-QA world behind the worlds' interface: questions over the default encyclopedia, one size.
import { type Environment, type EpisodeStep, factsFields } from '../../../env/environment.ts';
import { commandRefusal, MAX_ANSWER_PIECES, MAX_QUERY_PIECES } from './commands.ts';
import { SEARCHQA_FACTS } from './facts.ts';
import { QaGame, qaScore, type QaStepRecord } from './game.ts';
import { qaSceneFromJson, qaSceneToJson, type QaScene } from './scene.ts';
import { evalQaScenes, generateQaScene, qaCluster, validationQaScenes, validationUnseenQaScenes } from './splits.ts';
import { qaTexts, queryWords } from './vocabulary.ts';

let commandChars = 0;
/** The longest search or answer a policy writes: its most pieces of the longest word a query may hold, spaced. */
export function maxCommandChars(): number {
  if (commandChars === 0) {
    const longest = Math.max(...queryWords().map((w) => w.length));
    commandChars = Math.max(MAX_QUERY_PIECES, MAX_ANSWER_PIECES) * (longest + 1) - 1;
  }
  return commandChars;
}

export const SEARCHQA: Environment<QaScene, QaStepRecord> = {
  name: 'searchqa',
  variant: 'tiny',
  ...factsFields(SEARCHQA_FACTS),
  // Every record of this world's episodes carries the answer's F1 (game.ts QaStepRecord).
  score: (records: readonly EpisodeStep[]) => qaScore(records as readonly QaStepRecord[]),
  trainScene: (index, seed) => generateQaScene('train', index, seed),
  sceneOf: (split, index, seed) => generateQaScene(split, index, seed),
  evalScenes: (split, count) => evalQaScenes(split, count),
  validationScenes: (count) => validationQaScenes(count),
  validationUnseenScenes: (count) => validationUnseenQaScenes(count),
  episode: (scene, maxSteps) => new QaGame(scene, { maxSteps }),
  goal: (scene) => scene.question.text,
  taskType: (scene) => scene.question.type,
  clusterOf: qaCluster,
  sceneToJson: qaSceneToJson,
  sceneFromJson: qaSceneFromJson,
  texts: qaTexts,
  commandRefusal: (command) => commandRefusal(command, maxCommandChars()),
};

/** The world at a scale of its own: it has one, 'tiny' (its facts' only variant), which the registry has checked. */
export function searchqaAtScale(_variant: string): Environment {
  return SEARCHQA as Environment;
}
