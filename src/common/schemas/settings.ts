import { Type } from 'typebox';

/** Schemas of the reader-apps settings (dashboard.md §7 "Fever API"). */

/** PUT /api/user/fever-api {enabled}: the password comes back when enabling. */
export const FeverToggleBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export const FeverToggleReply = Type.Object({ enabled: Type.Boolean(), password: Type.Optional(Type.String()) });

/** Regenerating is the only thing this POST does, so the body must say so. */
export const RegenerateBody = Type.Object({ regenerate: Type.Literal(true) }, { additionalProperties: false });
/** GET /api/user/fever-api/password and POST …/password {regenerate: true}. */
export const PasswordReply = Type.Object({ success: Type.Boolean(), password: Type.String() });
