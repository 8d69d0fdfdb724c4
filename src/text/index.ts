// The text layer: how the household's words become the model's tokens, and the sequences the model reads.
export { Tokenizer, defaultTokenizer, defaultVocabulary } from './tokenizer.ts';
export { splitPieces, joinPieces, isWordPiece } from './pieces.ts';
export * as markers from './markers.ts';
export {
  MIN_SKILL_WORDS,
  formatSkill,
  parseSkill,
  type Action,
  type Fact,
  type Mistake,
  type Place,
  type Skill,
  type SkillCheck,
  type SkillKind,
  type Thing,
  type Verb,
} from './skill.ts';
export {
  DEFAULT_ANALYZER_OPTIONS,
  analyzerContext,
  analyzerSequence,
  commandTokens,
  episodeSequence,
  insertSkill,
  observationTokens,
  openingRoomText,
  policyContext,
  scoringTargets,
  skillTokens,
  stepSequence,
  taskTokens,
  type AnalyzerOptions,
  type EpisodeSequence,
  type EpisodeText,
  type PolicyContextOptions,
  type SkillEpisodeSequence,
  type StepText,
} from './prompts.ts';
export { CommandTrie, freeDecodingMask } from './command_trie.ts';
