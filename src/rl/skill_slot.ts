// A skill slot (the skillSlot setting) is part of every context a checkpoint was trained on: a run that starts
// from the checkpoint keeps it, at the same length, or the policy reads contexts it never saw.
import type { TrainConfig } from './config.ts';

type SlotSettings = Partial<Pick<TrainConfig, 'skillSlot' | 'maxSkillTokens'>>;

function slotOf(metadata: Readonly<Record<string, unknown>>): SlotSettings {
  const saved = metadata.config;
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return {};
  const { skillSlot, maxSkillTokens } = saved as Record<string, unknown>;
  return {
    skillSlot: typeof skillSlot === 'number' ? skillSlot : 0,
    maxSkillTokens: typeof maxSkillTokens === 'number' ? maxSkillTokens : undefined,
  };
}

/**
 * Why settings that hold (or lack) a skill slot cannot start from the checkpoint with `metadata`, named `name`;
 * null where the two agree, and for untrained weights (`ckpt init`'s stage 'init'), which read no context yet.
 */
export function skillSlotDifference(
  metadata: Readonly<Record<string, unknown>>,
  settings: SlotSettings,
  name: string,
): string | null {
  if (metadata.stage === 'init') return null;
  const saved = slotOf(metadata);
  const had = saved.skillSlot === 1;
  const wants = settings.skillSlot === 1;
  if (had && !wants)
    return `${name} was trained with a skill slot in every context (metadata.config.skillSlot 1), and these settings have none: --set skillSlot=1 for a run, --skill-slot for a warm start`;
  if (!had && wants)
    return `${name} was trained without a skill slot: a skill slot (--set skillSlot=1, --skill-slot) needs a warm start built with one (warmstart --skill-slot)`;
  if (had && saved.maxSkillTokens !== undefined && saved.maxSkillTokens !== settings.maxSkillTokens)
    return `${name}'s skill slot is sized for maxSkillTokens ${saved.maxSkillTokens}, and these settings have ${settings.maxSkillTokens}: the slot would change length`;
  return null;
}
