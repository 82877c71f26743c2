/** The list in consecutive pieces of at most `size` (statements stay under the databases' bound-parameter limits). */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
