// The registry of what each world's skill language adds to the world's vocabulary (text/tokenizer.ts): the
// words its skills may use, and the words of its texts that are no words of it. A line per world.
import { HOUSEHOLD_LANGUAGE } from './household/skills/skill.ts';
import { entryOf, type EnvironmentName, RegisteredEntries } from './names.ts';
import { SEARCHQA_LANGUAGE } from './searchqa/skills/skill.ts';
import { SHOP_LANGUAGE } from './shop/skills/skill.ts';

interface WorldLanguage {
  /** Every word a skill of the world may use. */
  readonly skillWords: readonly string[];
  /** Pieces of the world's texts (Environment.texts) that are no word of it: a template's slot. */
  readonly notWords: readonly string[];
}

const LANGUAGES: Readonly<Record<EnvironmentName, WorldLanguage>> = {
  household: HOUSEHOLD_LANGUAGE,
  shop: SHOP_LANGUAGE,
  searchqa: SEARCHQA_LANGUAGE,
};

const REGISTERED = new RegisteredEntries<WorldLanguage>();
/** Registers the skill language of a world of the tests (names.ts registerWorldName). */
export const registerLanguage = REGISTERED.register;

/** The skill language of the world `name`; a name that is no world's is refused with the list of the worlds. */
export function languageOf(name: string): WorldLanguage {
  return entryOf(LANGUAGES, name, REGISTERED);
}
