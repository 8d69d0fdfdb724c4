// The paper's first stage, hindsight-skill SFT, as a dataset for the SEED repository's SFT trainer (veRL's
// fsdp_sft_trainer: parquet with a prompt and a response column). Each row is one finished episode of the run's
// world, by its expert or by the warm start's explorer (the noisy actor of the warm-start corpus, RlWorld.explore):
// the prompt is the paper's skill prompt, as the SEED repository's analyzer builds it for episode skills
// (seed/analysis.py at the vendored commit, skill_mode episode_only without the episode summary), with the task,
// the outcome and every step as "Step i / Observation / Response / Action valid"; the response is the JSON
// answer that prompt asks for, holding the rule-based annotator's skill (RlWorld.referenceSkill). The files are
// the ones the repository's SFT scripts read (launch_script.ts SFT_FILES); parquet.ts writes them.
import type { EpisodeStep } from '../../env/environment.ts';
import { Rng } from '../../common/rng.ts';
import type { Tokenizer } from '../../text/tokenizer.ts';
import type { FinishedEpisode, RlWorld } from '../rl_world.ts';
import { WARMSTART_DEFAULTS } from '../warmstart.ts';

/** One row of the dataset: the columns the SFT trainer reads (prompt, response) and what each episode was. */
export interface SftRow {
  prompt: string;
  response: string;
  /** `<source>:<game>`: one id per episode. */
  skill_id: string;
  /** The game: `train-<index>` of the run's seed. */
  task_id: string;
  task_type: string;
  /** Who played the episode. */
  source: 'expert' | 'explorer';
  success: boolean;
}

export interface SftOptions {
  /** Games of the training split; each is played once by the expert and once by the explorer. */
  games: number;
  /** The run's seed: the games are its training games, and the explorer's noise is drawn from it. */
  seed: number;
  maxSteps: number;
  /** The annotator's skills are cut to this many of the playground's tokens (the run's maxSkillTokens). */
  maxSkillTokens: number;
}

/** The SEED analyzer's step record: the observation the policy acted on, its response, whether it did anything. */
interface AnalyzerStep {
  observation: string;
  response: string;
  valid: boolean;
}

/** The steps of an episode's records (record 0 is the opening observation; record t the t-th command's outcome). */
function analyzerSteps(records: readonly EpisodeStep[]): AnalyzerStep[] {
  return records.slice(1).map((r, t) => ({
    observation: records[t].observation,
    // verl-agent's policies answer with the action in its tags; the playground's policy writes the command alone.
    response: `<action>${r.action}</action>`,
    valid: r.valid,
  }));
}

const SKILL_INSTRUCTION = {
  success:
    'Write one episode_skill that extracts the successful trajectory into workflow: the core decision rule and action ordering that made this trajectory work. ',
  failure:
    'Write one episode_skill that extracts the failed trajectory into avoidance rules: the core mistake and warning signs that agent should avoid. ',
} as const;

/** The paper's skill prompt of an episode: the SEED analyzer's episode-skill prompt without the summary field. */
export function skillPrompt(task: string, won: boolean, steps: readonly AnalyzerStep[]): string {
  const outcome = won ? 'success' : 'failure';
  const trajectory = steps
    .map(
      (s, i) => `Step ${i}\nObservation: ${s.observation}\nResponse: ${s.response}\nAction valid: ${String(s.valid)}\n`,
    )
    .join('');
  return `Analyze the following agent episode and return ONLY valid JSON.

You need to complete one field:
1. ${SKILL_INSTRUCTION[outcome]}

Important constraints:
- Write episode_skill as one short policy-facing skill, not as retrospective explanation of the trajectory.
- Return only this top-level field: episode_skill.

Return format:
{
  "episode_skill": "string"
}

Episode context:
- Task description: ${task.split(/\s+/).join(' ').trim() || '(not available)'}
- episode_success: ${outcome}
- Interaction trajectory: ${trajectory}
`;
}

/** The answer the prompt asks for, as Python's json.dumps writes it (the SEED repository's SFT rows). */
export function skillResponse(skill: string): string {
  return `{"episode_skill": ${JSON.stringify(skill)}}`;
}

/** The expert's episode of a game: its plan from the opening, played until the game ends or is cut. */
function expertEpisode<S, R extends EpisodeStep>(
  world: RlWorld<S, R>,
  scene: S,
  maxSteps: number,
): FinishedEpisode<S, R> {
  const game = world.env.episode(scene, maxSteps);
  for (const command of game.expertPlan()) {
    if (game.done) break;
    game.step(command);
  }
  return { scene, records: game.records, won: game.won };
}

/**
 * The dataset's rows: for each of `games` training games of the run's seed, the expert's episode, then the
 * explorer's, each with the annotator's skill.
 */
export function sftRows<S, R extends EpisodeStep>(world: RlWorld<S, R>, tok: Tokenizer, o: SftOptions): SftRow[] {
  const noise = { ...WARMSTART_DEFAULTS, ...world.warmStartDefaults }.noise;
  const rng = new Rng(o.seed).fork('sft-explorer');
  const rows: SftRow[] = [];
  for (let i = 0; i < o.games; i++) {
    const scene = world.env.trainScene(i, o.seed);
    const played = {
      expert: expertEpisode(world, scene, o.maxSteps),
      explorer: world.explore(scene, rng, { maxSteps: o.maxSteps, noise }),
    };
    for (const source of ['expert', 'explorer'] as const) {
      const episode = played[source];
      rows.push({
        prompt: skillPrompt(world.env.goal(scene), episode.won, analyzerSteps(episode.records)),
        response: skillResponse(world.referenceSkill(episode, tok, o.maxSkillTokens)),
        skill_id: `${source}:train-${i}`,
        task_id: `train-${i}`,
        task_type: world.env.taskType(scene),
        source,
        success: episode.won,
      });
    }
  }
  return rows;
}

/** The rows of each file: one game in ten (the first, the eleventh, ...) is the validation file's, both its episodes. */
export function splitRows(rows: readonly SftRow[]): { train: SftRow[]; val: SftRow[] } {
  const isVal = (r: SftRow) => Number(r.task_id.slice('train-'.length)) % 10 === 0;
  return { train: rows.filter((r) => !isVal(r)), val: rows.filter(isVal) };
}
