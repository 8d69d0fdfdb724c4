// A search-QA game's scene: the encyclopedia (its seed) and the question, as JSON version 1:
//
//   {"version":1,"encyclopedia":{"seed":1},"question":{"kind":"capital-of-birth-country","subjects":["Marno Thandar"]}}
//
// The JSON holds only what the question chooses, its kind (questions.ts QUESTION_KINDS) and the entities it
// names; its text, gold answer, task type, needed entities and hops follow from the encyclopedia, so a scene
// file cannot contradict its encyclopedia, and a field the format does not have ("answer" among them) is
// refused rather than ignored. `qaSceneFromJson` names the field of every refusal ("question.subjects[1]").
import { quote } from '../../../common/json.ts';
import { fieldName, onlyFields, SceneFieldError, sceneDocument } from '../../../env/scene_json.ts';
import { type EncyclopediaSpec, encyclopediaOf, MAX_ENCYCLOPEDIA_SEED } from './encyclopedia.ts';
import { unfoundHops } from './expert.ts';
import { isQuestionKind, makeQuestion, type QaQuestion, QUESTION_KINDS, subjectsRefusal } from './questions.ts';

const QA_SCENE_VERSION = 1;

export interface QaScene {
  encyclopedia: EncyclopediaSpec;
  question: QaQuestion;
}

export class QaSceneError extends SceneFieldError {
  override name = 'QaSceneError';
}

export function qaSceneToJson(scene: QaScene): string {
  const { kind, subjects } = scene.question;
  return JSON.stringify({
    version: QA_SCENE_VERSION,
    encyclopedia: { seed: scene.encyclopedia.seed },
    question: { kind, subjects },
  });
}

/** `value` as an object holding only `allowed` fields (its own keys, so "__proto__" is one more unknown field). */
function record(
  value: unknown,
  field: string,
  allowed: readonly string[],
  hint: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new QaSceneError(field, `must be an object { ${allowed.join(', ')} }, got ${quote(value)}`);
  onlyFields(value, field, allowed, QaSceneError, hint);
  for (const key of allowed) {
    if (!Object.hasOwn(value, key)) throw new QaSceneError(fieldName(field, key), 'missing');
  }
  return value as Record<string, unknown>;
}

function encyclopediaFrom(value: unknown): EncyclopediaSpec {
  const data = record(value, 'encyclopedia', ['seed']);
  const seed = data.seed;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > MAX_ENCYCLOPEDIA_SEED)
    throw new QaSceneError(
      'encyclopedia.seed',
      `must be an integer from 0 to ${MAX_ENCYCLOPEDIA_SEED}, got ${quote(seed)}`,
    );
  return { seed };
}

const DERIVED = 'the question writes it from its kind, its subjects and the encyclopedia';
const DERIVED_FIELDS = { text: DERIVED, answer: DERIVED, type: DERIVED, needed: DERIVED, hops: DERIVED };

function questionFrom(value: unknown, spec: EncyclopediaSpec): QaQuestion {
  const data = record(value, 'question', ['kind', 'subjects'], DERIVED_FIELDS);
  const kind = data.kind;
  if (typeof kind !== 'string' || !isQuestionKind(kind))
    throw new QaSceneError('question.kind', `must be one of ${QUESTION_KINDS.join(', ')}, got ${quote(kind)}`);
  const subjects = data.subjects;
  if (!Array.isArray(subjects))
    throw new QaSceneError('question.subjects', `must be a list of names, got ${quote(subjects)}`);
  subjects.forEach((s, i) => {
    if (typeof s !== 'string') throw new QaSceneError(`question.subjects[${i}]`, `must be a name, got ${quote(s)}`);
  });
  const enc = encyclopediaOf(spec);
  const refusal = subjectsRefusal(enc, kind, subjects as string[]);
  if (refusal !== null) {
    const at = refusal.index === null ? '' : `[${refusal.index}]`;
    throw new QaSceneError(`question.subjects${at}`, `${refusal.why} (encyclopedia seed ${spec.seed})`);
  }
  const question = makeQuestion(enc, kind, subjects as string[]);
  const unfound = unfoundHops(enc, question);
  if (unfound.length > 0) {
    const hop = unfound[0];
    throw new QaSceneError(
      'question.subjects',
      `no search finds the passage stating "${hop.relation}" of ${hop.entity} (encyclopedia seed ${spec.seed}): the expert could not answer it`,
    );
  }
  return question;
}

/** The scene a JSON text describes, or a QaSceneError naming the field at fault. */
export function qaSceneFromJson(text: string): QaScene {
  const doc = sceneDocument(text, QaSceneError);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new QaSceneError('', 'a search-QA scene is a JSON object');
  // The version first: a file of another version is named as that, whatever fields it has.
  const version = Object.hasOwn(doc, 'version') ? (doc as Record<string, unknown>).version : undefined;
  if (version !== QA_SCENE_VERSION)
    throw new QaSceneError('version', `must be ${QA_SCENE_VERSION}, got ${quote(version)}`);
  const data = record(doc, '', ['version', 'encyclopedia', 'question']);
  const encyclopedia = encyclopediaFrom(data.encyclopedia);
  return { encyclopedia, question: questionFrom(data.question, encyclopedia) };
}
