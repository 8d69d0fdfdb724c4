// The kind of a skill, the same in every world's grammar: a workflow (what worked) or avoid-rules (what went
// wrong), named by the skill's first word whether or not the rest parses. Both worlds' parsers and the page's
// skill view read it here.
import { splitPieces } from './pieces.ts';

export type SkillKind = 'workflow' | 'avoid';

/** The kind the first of a skill's pieces (lower case, line breaks dropped) names, or null for neither. */
export function skillKindOfPieces(pieces: readonly string[]): SkillKind | null {
  const first = pieces[0];
  return first === 'workflow' || first === 'avoid' ? first : null;
}

/** The kind a skill text's first word names, or null for neither. */
export function skillKindOf(text: string): SkillKind | null {
  return skillKindOfPieces(splitPieces(text.toLowerCase()).filter((p) => p !== '\n'));
}
