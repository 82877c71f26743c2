import { Type } from 'typebox';

/**
 * Schemas of the reader-apps settings (dashboard.md §7 "Fever API"); they describe FeverApiState and
 * FeverPasswordResponse in src/common/api.ts.
 */
export const FeverToggleBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export const FeverToggleReply = Type.Object({ enabled: Type.Boolean(), password: Type.Optional(Type.String()) });

/** Regenerating is the only thing this POST does, so the body must say so. */
export const RegenerateBody = Type.Object({ regenerate: Type.Literal(true) }, { additionalProperties: false });
export const PasswordReply = Type.Object({ success: Type.Boolean(), password: Type.String() });
