import type { MarkReadOn, User } from '../../common/api.js';
import type { Language } from '../../common/constants.js';
import type { UserRow } from './accounts.repository.js';

/** The user as clients see it (public-area-and-api.md §3): never the password hash, booleans as booleans. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    is_verified: row.is_verified === 1,
    language_preference: (row.language_preference === 'en' ? 'en' : 'de') satisfies Language,
    created_at: row.created_at,
    // Reader apps (Fever, Google Reader) switched on in settings (dashboard.md §3 "User").
    fever_api_enabled: row.fever_api_enabled === 1,
    mark_read_on: presentMarkReadOn(row.mark_read_on),
  };
}

/** users.mark_read_on; anything else (never written by Feeder) reads as the default. */
function presentMarkReadOn(value: string): MarkReadOn {
  return value === 'scroll' || value === 'manual' ? value : 'open';
}
