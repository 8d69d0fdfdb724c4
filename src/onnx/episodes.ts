// Real token sequences for verifying an export: expert episodes of generated eval-seen games, exactly as the
// policy reads them (text/prompts.ts `episodeSequence`), and the first of them again with a skill block
// inserted after the task line (`insertSkill`), as the skill-context re-scoring reads it.
import { Game } from '../env/game.ts';
import { generateScene } from '../env/generate.ts';
import type { Task } from '../env/scene.ts';
import { episodeSequence, insertSkill, type StepText } from '../text/prompts.ts';
import type { Tokenizer } from '../text/tokenizer.ts';

/** A workflow skill for the task, in the skill grammar of text/skill.ts. */
export function taskWorkflowSkill(task: Task): string {
  return 'target' in task
    ? `workflow: find the ${task.object}, take it, go to the ${task.target}, put it in the ${task.target}.`
    : `workflow: find the ${task.object}, take it, find the ${task.lamp}, use it.`;
}

export function expertEpisodeSequences(tokenizer: Tokenizer, count: number, maxLength: number): Int32Array[] {
  const sequences: Int32Array[] = [];
  for (let i = 0; i < count; i++) {
    const scene = generateScene('seen', i);
    const game = new Game(scene);
    const steps: StepText[] = [];
    for (const action of game.expertPlan()) {
      const { observation, valid, done } = game.step(action);
      steps.push({ action, observation, valid });
      if (done) break;
    }
    const plain = episodeSequence(tokenizer, { goal: scene.task.goal, opening: game.observation, steps });
    sequences.push(plain.ids.slice(0, maxLength));
    if (i === 0) sequences.push(insertSkill(tokenizer, plain, taskWorkflowSkill(scene.task)).ids.slice(0, maxLength));
  }
  return sequences;
}
