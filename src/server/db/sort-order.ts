import type { Db } from './database.js';

/**
 * The user's own orders — feeds (subscriptions), folders and reading lists — keep one rule (dashboard.md §7
 * "sort"): a new one goes to the end, and a sort call puts the named ones first in the order given and the others
 * after them in their current order, at positions 0…n-1.
 */

/** The tables with a per-user sort_order. */
export type OrderedTable = 'subscriptions' | 'folders' | 'reading_lists';

/** The position after the user's last row of the table (0 for the first). */
export async function nextSortOrder(db: Db, table: OrderedTable, userId: number): Promise<number> {
  // The three tables share user_id and sort_order; Kysely cannot type a column of a union of tables.
  const last = await db
    .selectFrom(table as 'folders')
    .select((eb) => eb.fn.max('sort_order').as('max'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
}

/**
 * The new positions of a sort call: `current` is the user's rows in their current order (`key` is what the call
 * names them by), `named` the keys the call names first. Returns row id → new position for the rows whose
 * position changes (only those need writing). Keys not in `current` are the caller's to refuse beforehand.
 */
export function changedPositions<K>(current: readonly { id: number; key: K; sort_order: number }[], named: readonly K[]): Map<number, number> {
  const byKey = new Map(current.map((r) => [r.key, r]));
  const first = [...new Set(named)].flatMap((k) => byKey.get(k) ?? []);
  const firstIds = new Set(first.map((r) => r.id));
  const order = [...first, ...current.filter((r) => !firstIds.has(r.id))];
  const changed = new Map<number, number>();
  order.forEach((r, position) => {
    if (r.sort_order !== position) changed.set(r.id, position);
  });
  return changed;
}

/** Writes new positions (row id → sort_order) of the user's rows of the table, a few hundred per statement. */
export async function writePositions(db: Db, table: OrderedTable, userId: number, positions: ReadonlyMap<number, number>): Promise<void> {
  const entries = [...positions];
  for (let i = 0; i < entries.length; i += 250) {
    const batch = entries.slice(i, i + 250);
    await db
      .updateTable(table as 'folders')
      .set((eb) => {
        let when = eb.case().when('id', '=', batch[0][0]).then(batch[0][1]);
        for (const [id, order] of batch.slice(1)) when = when.when('id', '=', id).then(order);
        return { sort_order: when.else(eb.ref('sort_order')).end() };
      })
      .where('user_id', '=', userId)
      .where(
        'id',
        'in',
        batch.map(([id]) => id),
      )
      .execute();
  }
}
