// The page's explanations in plain words: what SEED does, what each stage of an update computes, what every
// symbol on the page means, and what to look for with each preset. The definitions follow docs/seed-loss.md.
import { factsOf, theWorld } from '../worlds/facts.ts';
import { ENVIRONMENT_NAMES, namedWorld, type EnvironmentName } from '../worlds/names.ts';
import { PRESET_NAMES, shipsWarmStart, type PresetName } from '../model/config.ts';
import type { Stage } from '../rl/update_state.ts';

export const PAPER_URL = 'https://arxiv.org/abs/2607.14777';

/** The short account of SEED at the top of the page, one paragraph per entry, each with a heading. */
export const GUIDE: readonly { title: string; text: string }[] = [
  {
    title: 'The game',
    text:
      'A small transformer plays a text game of the world the World setting picks. ' +
      ENVIRONMENT_NAMES.map((name) => factsOf(name).words.guide).join(' ') +
      ' Training changes its weights so that it wins more often. It is trained here, in this tab.',
  },
  {
    title: 'The outcome signal (GRPO)',
    text:
      'An update plays every task several times (a group). A win scores 10. Each game’s advantage A says how much better or worse ' +
      'it did than the other plays of its task, and every token it typed is pushed up or down by it. When all plays of a task end ' +
      'the same way, that task gives no signal at all: this is what SEED adds to.',
  },
  {
    title: 'A hindsight skill',
    text:
      'After each game the same model reads a summary of what it did and whether it won, and writes one short lesson: after a win a ' +
      '“workflow:” (the steps that worked), after a loss an “avoid:” (the mistake, and the facts it learned about the room). It is ' +
      'written in hindsight: knowing how the game ended.',
  },
  {
    title: 'The teacher is the same policy with the skill in its context',
    text:
      'No second, larger model is needed. Put the lesson in front of the game and the very same network plays better, because it now ' +
      'knows what the player did not. SEED re-reads every token the player typed twice: as the teacher, with the skill (l_skill), and ' +
      'as the player, without it (l_student). Delta = l_skill − l_student says which tokens the lesson makes more likely, and the ' +
      'loss pulls the plain policy toward them, so that the next games go as if the lesson were in mind. Every token gets a signal, ' +
      'even in a group with no winner. The teacher check below measures whether the teacher really plays better: if it does not, ' +
      'there is nothing worth distilling.',
  },
  {
    title: 'The gate',
    text:
      'A lesson can be wrong. The gate g = sigmoid(β·Delta) weighs each token: near 1 where the skill made the token more likely ' +
      '(the teacher agrees with what the player did), near 0 where the skill argues against it. The distillation only ever raises ' +
      'the probability of tokens the player typed, and mostly of those the skill endorses, so an unhelpful skill does little harm.',
  },
  {
    title: 'What to press',
    text:
      'Play trains without stopping; Step one update runs one whole update; Next stage walks one update through its six stages ' +
      'with all their numbers. The large numbers show where the run stands, the curves plot every update, Episodes shows the games ' +
      'of an update with their skills and a heatmap of Delta, the gate or the coefficient on every token.',
  },
];

/** One sentence per stage of an update, above its table. */
export const STAGE_CAPTIONS: Readonly<Record<Stage, string>> = {
  rollout:
    'The policy plays every task several times with its current weights. Each token it types is kept with l_old, how likely it was when it was typed.',
  rewards:
    'Each game scores R (10 for a win, minus 0.1 per command that did nothing). Within a group, the plays of one task, each game’s advantage A says how much better than its siblings it did; a group whose games all ended alike gives A = 0, no GRPO signal.',
  skills:
    'The same policy reads each game’s summary and outcome and writes a hindsight skill: “workflow:” after a win, “avoid:” after a loss. Only skills that follow the grammar and have at least 5 words are used.',
  rescore:
    'Every typed token is scored again: with the skill in the context by the weights that played (l_skill, the teacher), without it by the current weights (l_student, the student), and by the frozen weights the run started from (l_ref).',
  loss: 'Delta = l_skill − l_student is how much the skill raised a token; the gate g keeps the tokens the skill endorses; coef is the push each token gets from the whole loss (negative raises its probability). Where the command trie allows one token only, Delta is 0 whatever the skill: the figures over the update count decision tokens only.',
  optimizer:
    'The gradient of L_SEED = L_GRPO + λ·L_OPD + KL coefficient·KL moves the weights one AdamW step; the table lists the parameters that moved most.',
};

/** Every symbol the page shows, defined where it appears. */
export const SYMBOLS = {
  l_old: 'log-probability of the token when it was typed (the weights that played, no skill in context)',
  l_student: 'log-probability of the token under the current weights, no skill in context: the student',
  l_skill:
    'log-probability of the token under the weights that played, with the hindsight skill in context: the teacher',
  l_ref: 'log-probability of the token under the frozen weights the run started from (the reference of the KL term)',
  R: 'reward of the game: 10 for a win, minus 0.1 per command that did nothing',
  mean: 'mean of R over the group (the plays of one task)',
  std: 'standard deviation of R over the group',
  A: 'advantage: (R − group mean) / (group std + 1e-6), the same for every token of the game',
  Δ: 'Delta = l_skill − l_student: how much the skill raised (> 0) or lowered (< 0) the token’s log-probability',
  gate: 'gate g = sigmoid(β·Δ): near 1 where the skill endorses the token, near 0 where it argues against it',
  coef: 'coefficient c = dL_SEED / dl_student = grpo + opd + kl: the push on the token; negative raises its probability',
  grpo: 'the GRPO part of coef: −mask·A·r / N, with r = exp(l_student − l_old); 0 where the clip holds it',
  opd: 'the distillation part of coef: −λ·g / N_opd, on the tokens of games whose skill is usable',
  kl: 'the KL part of coef: KL coefficient·(1 − exp(l_ref − l_student)) / N, a pull back toward the reference',
  mask: '1 for the tokens GRPO and KL train on (every typed token)',
  opd_mask: '1 for the tokens of games whose skill is usable (the distillation trains on these)',
  'corr(Δ, expert)':
    'correlation of Δ with “the token is on one of the shortest plans of an all-knowing expert from where the player stood”, over the update’s decision tokens (a usable skill and more than one allowed token): above 0 when the skill raises the steps that solve the game',
  λ: 'lambda: the weight of the distillation term L_OPD',
  β: 'beta: how sharp the gate is',
  clip: 'clip ε: how far the ratio r may leave 1 before GRPO stops pushing',
  'KL coefficient': 'the weight of the KL term',
  L_GRPO: 'the clipped policy-gradient loss over the update’s tokens',
  L_OPD: 'the distillation loss: the mean of g·Δ over the tokens of games with a usable skill',
  KL: 'how far the current policy has moved from the reference (k3 estimate)',
  total: 'L_GRPO + λ·L_OPD + KL coefficient·KL',
  'gradient norm': 'size of the whole gradient, before the clip',
  'rms parameter change': 'root mean square of the change of every weight in this step',
} as const;

export type SymbolName = keyof typeof SYMBOLS;

/** What a person should watch with each preset, beside the preset choice. */
export const PRESET_NOTES: Readonly<Record<PresetName, string>> = {
  micro:
    'micro (16 wide, 2 layers) takes seconds per update even without a GPU, but it plays close to random and writes few usable skills: expect flat curves and many groups with no GRPO signal. Use it to watch the mechanics (the six stages, Δ, the gate and the coefficients), not learning.',
  tiny: 'tiny (48 wide, 2 layers) is made for a CPU. Its warm start wins some of its games from the start, and its own skills help it (run the teacher check). Watch eval success rise over minutes of Play, L_GRPO away from 0 on most updates, and the gate high where skills are right.',
  small:
    'small (128 wide, 4 layers) is meant for a GPU, and no warm start ships for it: it starts from seeded random weights and plays at random for a long time. There is little to see on a CPU.',
};

/** Which of a world's presets start from a trained policy, in a sentence that names the world when `named`. */
export function shippedWarmStartsSentence(env: EnvironmentName, named = namedWorld(env) !== undefined): string {
  const shipped = PRESET_NAMES.filter((p) => shipsWarmStart(p, env));
  const whose = named ? `${theWorld(env, true)}’s` : 'The';
  if (shipped.length === 0)
    return `No preset of ${theWorld(env)} ships a warm start yet: each starts from seeded random weights and plays at random for a long time.`;
  const names =
    shipped.length === 1 ? shipped[0] : `${shipped.slice(0, -1).join(', ')} and ${shipped[shipped.length - 1]}`;
  return `${whose} ${names} preset${shipped.length === 1 ? '' : 's'} start${shipped.length === 1 ? 's' : ''} from a trained policy.`;
}

/** How the preset choice names each preset. */
export const PRESET_LABELS: Readonly<Record<PresetName, string>> = {
  micro: 'micro (fastest, to watch the mechanics)',
  tiny: 'tiny (default: learns on a CPU)',
  small: 'small (GPU, random start)',
};

/** The page's keyboard shortcuts, listed on the page. */
export const SHORTCUTS: readonly { key: string; label: string; what: string }[] = [
  { key: ' ', label: 'Space', what: 'play or pause' },
  { key: 's', label: 'S', what: 'step one update' },
  { key: 'n', label: 'N', what: 'next stage' },
];
