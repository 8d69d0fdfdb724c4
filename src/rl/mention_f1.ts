// How far two skills name the same things: F1 of their entity mentions as multisets. Each world reads a skill's
// mentions its own way (the household's objects and receptacles with their numbers: skill_fidelity.ts; the
// shop's words of the goal) and measures a skill's fidelity to its annotator's with this.

/** F1 of two multisets of mentions; 1 when both are empty. */
export function mentionF1(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const m of b) counts.set(m, (counts.get(m) ?? 0) + 1);
  let common = 0;
  for (const m of a) {
    const c = counts.get(m) ?? 0;
    if (c > 0) {
      common++;
      counts.set(m, c - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}
