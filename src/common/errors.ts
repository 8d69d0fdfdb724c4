// The text of anything thrown, for a message shown to a person. A message built from another error's string
// form (`String(err)`) starts with "Error: ", which tells the reader nothing, so it is dropped.

export function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/^Error: /, '');
}
