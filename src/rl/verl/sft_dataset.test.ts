// The skill SFT's dataset: each row the paper's skill prompt of one episode (the expert's or the explorer's) with
// the annotator's skill as the JSON answer, in both worlds; written as parquet and read back, column by column,
// with hyparquet (another reader than the writer's); one game in ten in the validation file.
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { environmentOf } from '../../worlds/environments.ts';
import { factsOf } from '../../worlds/facts.ts';
import { ENVIRONMENT_NAMES, type EnvironmentName } from '../../worlds/names.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';
import { defaultConfig } from '../config.ts';
import { sftFiles } from './carry.ts';
import { sftRows, skillPrompt, skillResponse, splitRows } from './sft_dataset.ts';

const rowsOf = (env: EnvironmentName, games: number, seed = 3) => {
  const e = environmentOf(env);
  const world = rlWorldOf(e);
  return { world, rows: sftRows(world, tokenizerOf(e), { games, seed, maxSteps: 15, maxSkillTokens: 56 }) };
};

async function readBack(bytes: Uint8Array) {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { rows: await parquetReadObjects({ file }), metadata: parquetMetadata(file) };
}

describe('the skill SFT dataset', () => {
  it("writes the paper's skill prompt: the task, the outcome and every step, as the SEED analyzer does", () => {
    const prompt = skillPrompt('put a  mug in\ncabinet', false, [
      { observation: 'You are in a room.', response: '<action>go to desk 1</action>', valid: true },
      { observation: 'You arrive at desk 1.', response: '<action>take mug 1 from desk 1</action>', valid: false },
    ]);
    expect(prompt).toBe(`Analyze the following agent episode and return ONLY valid JSON.

You need to complete one field:
1. Write one episode_skill that extracts the failed trajectory into avoidance rules: the core mistake and warning signs that agent should avoid. 

Important constraints:
- Write episode_skill as one short policy-facing skill, not as retrospective explanation of the trajectory.
- Return only this top-level field: episode_skill.

Return format:
{
  "episode_skill": "string"
}

Episode context:
- Task description: put a mug in cabinet
- episode_success: failure
- Interaction trajectory: Step 0
Observation: You are in a room.
Response: <action>go to desk 1</action>
Action valid: true
Step 1
Observation: You arrive at desk 1.
Response: <action>take mug 1 from desk 1</action>
Action valid: false

`);
    expect(skillResponse('workflow: "go" there')).toBe('{"episode_skill": "workflow: \\"go\\" there"}');
  });

  // Every world the SEED repository's trainer runs (WorldFacts.engine): its SFT set is what export-verl writes.
  for (const env of ENVIRONMENT_NAMES.filter((name) => factsOf(name).engine))
    it(`plays each game by the expert and the explorer, with the annotator's usable skill (${env})`, () => {
      const { world, rows } = rowsOf(env, 4);
      expect(rows.map((r) => r.skill_id)).toEqual(
        [0, 1, 2, 3].flatMap((i) => [`expert:train-${i}`, `explorer:train-${i}`]),
      );
      for (const r of rows) {
        const scene = world.env.trainScene(Number(r.task_id.slice(6)), 3);
        expect(r.prompt).toContain(`- Task description: ${world.env.goal(scene).split(/\s+/).join(' ').trim()}\n`);
        expect(r.prompt).toContain(`- episode_success: ${r.success ? 'success' : 'failure'}\n`);
        expect(r.prompt).toMatch(
          /- Interaction trajectory: Step 0\nObservation: [\s\S]*\nResponse: <action>[^<]+<\/action>\nAction valid: (true|false)\n/,
        );
        expect(r.task_type).toBe(world.env.taskType(scene));
        const { episode_skill } = JSON.parse(r.response) as { episode_skill: string };
        expect(world.checkSkill(episode_skill), episode_skill).toMatchObject({ ok: true });
      }
      expect(rows.filter((r) => r.source === 'expert').every((r) => r.success)).toBe(true);
      // The same seed gives the same rows.
      expect(rowsOf(env, 4).rows).toEqual(rows);
    });

  it('writes parquet files that read back as the rows, one game in ten for validation', async () => {
    const run = {
      algo: 'seed' as const,
      env: 'household' as const,
      preset: 'micro' as const,
      seed: 3,
      config: { ...defaultConfig('micro'), maxSteps: 15, maxSkillTokens: 56 },
      defaults: defaultConfig('micro'),
      source: 'a test',
    };
    const files = await sftFiles(run, 12);
    const { train, val } = splitRows(rowsOf('household', 12).rows);
    expect(files.rows).toEqual({ train: 20, val: 4 });
    expect(val.map((r) => r.task_id)).toEqual(['train-0', 'train-0', 'train-10', 'train-10']);
    for (const [bytes, rows] of [
      [files.train, train],
      [files.val, val],
    ] as const) {
      expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('PAR1');
      const back = await readBack(bytes);
      expect(back.rows).toEqual(rows);
      const types = back.metadata.schema.slice(1).map((s) => [s.name, s.type, s.converted_type]);
      expect(types).toEqual([
        ...['prompt', 'response', 'skill_id', 'task_id', 'task_type', 'source'].map((n) => [n, 'BYTE_ARRAY', 'UTF8']),
        ['success', 'BOOLEAN', undefined],
      ]);
      const kv = Object.fromEntries((back.metadata.key_value_metadata ?? []).map((e) => [e.key, e.value]));
      expect(kv.repository).toMatch(/^zhangdw156\/SEED@[0-9a-f]{40}$/);
    }
  });
});
