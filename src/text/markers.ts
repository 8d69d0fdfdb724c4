// The marker tokens that structure every sequence, and the fixed words that the prompt builders add around the
// environment's text. They are tokens of their own (never produced by splitting text), so a piece of text can
// never be mistaken for a marker.

export const PAD = '<pad>';
export const UNK = '<unk>';
/** Ends a command and ends a skill: the token a decoder stops at. */
export const END = '<end>';
/** A newline inside text (see pieces.ts). */
export const NEWLINE = '<nl>';
export const TASK = '<task>';
export const SKILL = '<skill>';
export const OBS = '<obs>';
export const ACT = '<act>';
/** Opens an analyzer context: the model is to write a skill after the SKILL marker that ends it. */
export const ANALYZE = '<analyze>';
export const OUTCOME = '<outcome>';
export const STEP = '<step>';

/** In id order: PAD is 0, UNK 1, END 2. */
export const MARKERS = [PAD, UNK, END, NEWLINE, TASK, SKILL, OBS, ACT, ANALYZE, OUTCOME, STEP] as const;

/**
 * The injection wording, after the paper's "Refer to this episode-level skill when deciding what action to take in
 * the current episode:", shortened to save context (docs/seed-loss.md, "Departures from the paper"): it follows
 * the SKILL marker and precedes the skill text.
 */
export const SKILL_INTRO = 'refer to this skill when deciding what action to take:';

export const SUCCESS = 'success';
export const FAILURE = 'failure';
export const VALID = 'valid';
export const INVALID = 'invalid';

/** Words of the prompt builders' own text. */
export const PROMPT_TEXTS = [SKILL_INTRO, SUCCESS, FAILURE, VALID, INVALID];
