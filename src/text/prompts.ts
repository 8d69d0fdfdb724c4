// The token sequences the model reads: the episode (policy) sequence, with or without a skill block, the
// windowed policy context of one step, and the analyzer context that asks for a skill.
//
//   episode:   <task> goal. [<skill> SKILL_INTRO skill <end>] <obs> room <act> cmd <end> <obs> obs <act> cmd <end> ...
//   analyzer:  <analyze> <task> goal. <outcome> success|failure <step> cmd valid|invalid [<obs> obs] ... <skill>
//
// An episode is one sequence extended step by step: the rollout feeds "<obs> observation <act>", samples the
// command tokens and <end>, and goes on; the observation that follows the last command is never fed. The
// command tokens and their <end> are what training scores. The skill block goes right after the task line
// (docs/seed-loss.md), so inserting it shifts every later position by the block's length; `insertSkill` keeps the map.
// With a skill slot (the skillSlot setting), every context holds a block of one fixed length in that place, empty
// (full stops) when the policy acts on its own: a skill then fills the slot and moves no position, and the block's
// presence is the same in the contexts training sees and the contexts the teacher reads.
// The opening observation appears without a world's banner and task line (the task has its own line): the lines
// its facts name (WorldFacts.openingFrame, the household's ALFWorld banner and "Your task is to:").
import { isOpeningFrameLine } from '../worlds/facts.ts';
import {
  ACT,
  ANALYZE,
  FAILURE,
  INVALID,
  OBS,
  OUTCOME,
  SKILL,
  SKILL_INTRO,
  STEP,
  SUCCESS,
  TASK,
  VALID,
} from './markers.ts';
import type { Tokenizer } from './tokenizer.ts';

/** One command and what it produced; the environment's step records have this shape. */
export interface StepText {
  action: string;
  observation: string;
  valid: boolean;
}

export interface EpisodeText {
  /** The goal sentence, e.g. "put a hot apple in fridge". */
  goal: string;
  /** The opening observation, as the environment prints it (a banner and a task line are removed here). */
  opening: string;
  steps: readonly StepText[];
}

/** The opening observation without its banner, its task line and the blank lines around them. */
export function openingRoomText(opening: string): string {
  return opening
    .split('\n')
    .filter((line) => line !== '' && !isOpeningFrameLine(line))
    .join('\n');
}

export function taskTokens(tok: Tokenizer, goal: string): number[] {
  const text = goal.trimEnd().endsWith('.') ? goal.trimEnd() : `${goal.trimEnd()}.`;
  return [tok.id(TASK), ...tok.encode(text)];
}

/**
 * The injected skill: <skill> SKILL_INTRO skill <end>. With `maxLen`, the skill text is cut from its end so that
 * the block fits, and the block is left out (empty) when not even its frame fits.
 */
export function skillTokens(tok: Tokenizer, skill: string, maxLen = Infinity): number[] {
  const head = [tok.id(SKILL), ...tok.encode(SKILL_INTRO)];
  const text = tok.encode(skill);
  if (head.length + 1 > maxLen) return [];
  const room = Math.min(text.length, maxLen - head.length - 1);
  return [...head, ...text.slice(0, room), tok.endId];
}

/** Tokens of a skill block besides the skill text: room for the SKILL marker, the intro sentence and the end token. */
export const SKILL_RESERVE = 16;

/** The slot's length under skillSlot = 1: the room a skill block of maxSkillTokens takes; 0 without a slot. */
export function skillSlotLength(settings: { skillSlot: number; maxSkillTokens: number }): number {
  return settings.skillSlot === 1 ? SKILL_RESERVE + settings.maxSkillTokens : 0;
}

/**
 * A skill slot of exactly `length` tokens: <skill> SKILL_INTRO, the skill text (cut from its end to fit, or none),
 * full stops up to the length, <end>. The empty slot (null) is the block a policy without a skill reads.
 */
export function slotTokens(tok: Tokenizer, skill: string | null, length: number): number[] {
  const head = [tok.id(SKILL), ...tok.encode(SKILL_INTRO)];
  if (head.length + 1 > length) {
    throw new RangeError(`a skill slot of ${length} tokens cannot hold its frame of ${head.length + 1} tokens`);
  }
  const text = skill === null ? [] : tok.encode(skill).slice(0, length - head.length - 1);
  const fill = new Array<number>(length - head.length - text.length - 1).fill(tok.encode('.')[0]);
  return [...head, ...text, ...fill, tok.endId];
}

export function observationTokens(tok: Tokenizer, observation: string): number[] {
  return [tok.id(OBS), ...tok.encode(observation)];
}

/** A command as the policy writes it: its tokens and the end token (the ACT marker before it is context). */
function commandTokens(tok: Tokenizer, command: string): number[] {
  return [...tok.encode(command), tok.endId];
}

export interface EpisodeSequence {
  ids: Int32Array;
  /**
   * Index in ids of every scored token, in order: each command's tokens and the end token after it (in an
   * analyzer sequence, the skill's tokens and its end token).
   */
  commandPositions: Int32Array;
  /** Per command (step order): [start, end) in ids, end token included; 2 numbers per command. */
  commandSpans: Int32Array;
  /** Where a skill block starts (after the task line, or after the page: skillAfterPage) and its length; 0 when there is none. */
  skillAt: number;
  skillLength: number;
}

class SequenceBuilder {
  readonly ids: number[] = [];
  readonly positions: number[] = [];
  readonly spans: number[] = [];

  push(tokens: readonly number[]): void {
    for (const t of tokens) this.ids.push(t);
  }

  /** Appends a command whose tokens (and end token) are scored. */
  pushCommand(tokens: readonly number[]): void {
    this.spans.push(this.ids.length, this.ids.length + tokens.length);
    for (const t of tokens) {
      this.positions.push(this.ids.length);
      this.ids.push(t);
    }
  }

  finish(skillAt: number, skillLength: number): EpisodeSequence {
    return {
      ids: Int32Array.from(this.ids),
      commandPositions: Int32Array.from(this.positions),
      commandSpans: Int32Array.from(this.spans),
      skillAt,
      skillLength,
    };
  }
}

/**
 * The whole episode as one sequence, every command scored; no truncation (see `policyContext` for windows). With
 * `skillSlot` (a length in tokens), the empty slot follows the task line.
 */
export function episodeSequence(tok: Tokenizer, episode: EpisodeText, skillSlot = 0): EpisodeSequence {
  const b = new SequenceBuilder();
  b.push(taskTokens(tok, episode.goal));
  const skillAt = b.ids.length;
  if (skillSlot > 0) b.push(slotTokens(tok, null, skillSlot));
  let observation = openingRoomText(episode.opening);
  for (const step of episode.steps) {
    b.push([...observationTokens(tok, observation), tok.id(ACT)]);
    b.pushCommand(commandTokens(tok, step.action));
    observation = step.observation;
  }
  return b.finish(skillAt, skillSlot);
}

interface SkillEpisodeSequence extends EpisodeSequence {
  /** For every index of the plain sequence, its index in this one. */
  plainToSkill: Int32Array;
}

/**
 * The same sequence with the skill block inserted after the task line, or with the skill in its empty slot (no
 * position moves); the commands are the same tokens.
 */
export function insertSkill(tok: Tokenizer, plain: EpisodeSequence, skill: string): SkillEpisodeSequence {
  if (plain.skillLength !== 0) return fillSlot(tok, plain, skill);
  const block = skillTokens(tok, skill);
  const at = plain.skillAt;
  const shift = (i: number) => (i >= at ? i + block.length : i);
  const ids = new Int32Array(plain.ids.length + block.length);
  ids.set(plain.ids.subarray(0, at), 0);
  ids.set(block, at);
  ids.set(plain.ids.subarray(at), at + block.length);
  return {
    ids,
    commandPositions: plain.commandPositions.map(shift),
    commandSpans: plain.commandSpans.map(shift),
    skillAt: at,
    skillLength: block.length,
    plainToSkill: Int32Array.from(plain.ids, (_, i) => shift(i)),
  };
}

/**
 * Next-token targets of a sequence for the backend's batches: position p - 1 predicts the command token at p;
 * every other position is -1 (not scored). In scored order this is exactly the order of commandPositions.
 */
export function scoringTargets(seq: Pick<EpisodeSequence, 'ids' | 'commandPositions'>): Int32Array {
  const targets = new Int32Array(seq.ids.length).fill(-1);
  for (const p of seq.commandPositions) {
    if (p < 1) throw new RangeError('a scored token needs at least one token before it');
    targets[p - 1] = seq.ids[p];
  }
  return targets;
}

function fillSlot(tok: Tokenizer, plain: EpisodeSequence, skill: string): SkillEpisodeSequence {
  const at = plain.skillAt;
  const empty = slotTokens(tok, null, plain.skillLength);
  if (empty.some((t, k) => plain.ids[at + k] !== t)) throw new RangeError('the sequence already holds a skill block');
  const ids = plain.ids.slice();
  ids.set(slotTokens(tok, skill, plain.skillLength), at);
  return { ...plain, ids, plainToSkill: Int32Array.from(plain.ids, (_, i) => i) };
}

interface PolicyContextOptions {
  /** How many past steps (observation and command) to keep; Infinity keeps all. */
  history: number;
  /** The model's context length. */
  maxLen: number;
  /** Tokens to leave free after the context (the command still to be written, end token included). */
  reserve?: number;
  /** A skill to inject after the task line. */
  skill?: string;
  /**
   * Put the skill block after the current observation, right before the ACT marker, instead of after the task
   * line: the rest of the context is then token for token the context without a skill, and the skill sits
   * next to the command it informs (the shop's placement: its facts' trainDefaults).
   */
  skillAfterPage?: boolean;
  /**
   * The length of a skill slot: the context always holds a block of exactly this many tokens (empty without a
   * skill), taken from the budget before anything else, so a context with a skill and one without are the same
   * length and hold the same history.
   */
  skillSlot?: number;
}

/**
 * The policy's context after `steps.length` commands: task line, optional skill block, the opening room line when
 * the window no longer holds it (it names the receptacles there are to search), the last `history` steps, the
 * current observation and the ACT marker (with skillAfterPage, the skill block comes after the observation). Truncation to maxLen - reserve, in this order:
 *   1. the oldest kept steps are dropped, one at a time;
 *   2. the opening room line is dropped;
 *   3. the current observation is cut from its end (its OBS marker stays);
 *   4. the skill block is fitted last into what is left: its text is cut from its end, or the block is left
 *      out. So the contexts with and without a skill always hold the same history, and the skill is the only
 *      difference between them (a skill slot is taken from the budget first, and only its text is cut);
 *   5. when the task line and the markers alone do not fit, a RangeError.
 * With a window that holds every step, the context is the episode sequence up to this step.
 */
export function policyContext(tok: Tokenizer, episode: EpisodeText, options: PolicyContextOptions): number[] {
  if (!(options.history >= 0)) throw new RangeError(`history must be a number of steps >= 0, got ${options.history}`);
  const slot = options.skillSlot ?? 0;
  const budget = options.maxLen - (options.reserve ?? 0) - slot;
  const task = taskTokens(tok, episode.goal);
  const steps = episode.steps;
  const observations = [openingRoomText(episode.opening), ...steps.map((s) => s.observation)];
  const keep = Math.min(steps.length, options.history);
  let opening = keep < steps.length ? observationTokens(tok, observations[0]) : [];
  const history: number[][] = [];
  for (let k = steps.length - keep; k < steps.length; k++) {
    history.push([...observationTokens(tok, observations[k]), tok.id(ACT), ...commandTokens(tok, steps[k].action)]);
  }
  let current = observationTokens(tok, observations[steps.length]);
  const act = tok.id(ACT);
  const length = () => task.length + opening.length + history.reduce((n, h) => n + h.length, 0) + current.length + 1;
  while (length() > budget && history.length > 0) history.shift();
  if (length() > budget) opening = [];
  if (length() > budget) current = current.slice(0, Math.max(1, current.length - (length() - budget)));
  if (length() > budget) {
    throw new RangeError(`the task line and markers need ${length()} tokens, more than the ${budget} available`);
  }
  const skill =
    slot > 0
      ? slotTokens(tok, options.skill ?? null, slot)
      : options.skill === undefined
        ? []
        : skillTokens(tok, options.skill, budget - length());
  if (options.skillAfterPage) return [...task, ...opening, ...history.flat(), ...current, ...skill, act];
  return [...task, ...skill, ...opening, ...history.flat(), ...current, act];
}

/**
 * The sequence that trains or re-scores one step in windowed mode: the policy context before command `t`
 * (0-based), then that command, which is the only scored part.
 */
export function stepSequence(
  tok: Tokenizer,
  episode: EpisodeText,
  t: number,
  options: Omit<PolicyContextOptions, 'reserve'>,
): EpisodeSequence {
  if (!(Number.isInteger(t) && t >= 0 && t < episode.steps.length)) {
    throw new RangeError(`step ${t} outside the episode's ${episode.steps.length} commands`);
  }
  const command = commandTokens(tok, episode.steps[t].action);
  const before = { ...episode, steps: episode.steps.slice(0, t) };
  const b = new SequenceBuilder();
  const context = policyContext(tok, before, { ...options, reserve: command.length });
  b.push(context);
  b.pushCommand(command);
  // The skill block may have been cut or left out: measure it in the context itself. Text never encodes to a
  // marker, so SKILL opens the block and the first end token after it closes the block.
  const found = context.indexOf(tok.id(SKILL));
  const at = found >= 0 ? found : taskTokens(tok, episode.goal).length;
  const skillLength = found >= 0 ? context.indexOf(tok.endId, at) - at + 1 : 0;
  return b.finish(at, skillLength);
}

interface AnalyzerOptions {
  maxLen: number;
  /** Tokens left free for the skill the model writes, end token included. */
  reserve: number;
  /** Each observation is cut to this many tokens. */
  maxObservationTokens: number;
}

/** The household's observations are cut to this many tokens for the analyzer (a sentence or two). */
export const ANALYZER_OBSERVATION_TOKENS = 24;

const DEFAULT_ANALYZER_OPTIONS: Readonly<Omit<AnalyzerOptions, 'maxLen'>> = {
  reserve: 48,
  maxObservationTokens: ANALYZER_OBSERVATION_TOKENS,
};

/**
 * The trajectory compressed for the analyzer: per step the command, whether it was valid, and the observation
 * without its arrival sentence ("You arrive at X." repeats the command) cut to maxObservationTokens; an invalid
 * step's observation ("Nothing happens.") is left out, its INVALID word says it. The opening room line is left
 * out: a skill speaks of what the steps showed.
 */
function analyzerSteps(tok: Tokenizer, steps: readonly StepText[], maxObservationTokens: number): number[][] {
  return steps.map((s) => {
    const head = [tok.id(STEP), ...tok.encode(s.action), tok.id(s.valid ? VALID : INVALID)];
    if (!s.valid) return head;
    const text = s.observation.replace(/^You arrive at [^.]*\.\s*/, '');
    if (text === '') return head;
    return [...head, ...observationTokens(tok, text).slice(0, maxObservationTokens + 1)];
  });
}

/**
 * The analyzer's context: ANALYZE, the task line, the outcome, the compressed trajectory and the SKILL marker
 * after which the model writes the skill. When too long for maxLen - reserve, the oldest steps are dropped
 * (the last ones hold the outcome's cause); when even no step fits, a RangeError.
 */
export function analyzerContext(
  tok: Tokenizer,
  episode: EpisodeText,
  won: boolean,
  options: Partial<AnalyzerOptions> & { maxLen: number },
): number[] {
  const { maxLen, reserve, maxObservationTokens } = { ...DEFAULT_ANALYZER_OPTIONS, ...options };
  const head = [tok.id(ANALYZE), ...taskTokens(tok, episode.goal), tok.id(OUTCOME), tok.id(won ? SUCCESS : FAILURE)];
  const steps = analyzerSteps(tok, episode.steps, maxObservationTokens);
  const budget = maxLen - reserve;
  let length = head.length + 1 + steps.reduce((n, s) => n + s.length, 0);
  if (head.length + 1 > budget) {
    throw new RangeError(
      `the analyzer's task and outcome need ${head.length + 1} tokens, more than the ${budget} available`,
    );
  }
  let first = 0;
  while (length > budget) length -= steps[first++].length;
  return [...head, ...steps.slice(first).flat(), tok.id(SKILL)];
}

/** An analyzer example for training: the context, then the skill and its end token, which are scored. */
export function analyzerSequence(
  tok: Tokenizer,
  episode: EpisodeText,
  won: boolean,
  skill: string,
  options: Partial<AnalyzerOptions> & { maxLen: number },
): EpisodeSequence {
  const skillIds = [...tok.encode(skill), tok.endId];
  const b = new SequenceBuilder();
  b.push(analyzerContext(tok, episode, won, { ...options, reserve: skillIds.length }));
  b.pushCommand(skillIds);
  return b.finish(0, 0);
}
