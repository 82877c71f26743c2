import { Type, type TSchema } from 'typebox';

/**
 * Helpers that build schemas: only the schema modules use them, when they are evaluated. In the build those modules
 * are their data (scripts/schemas-as-data.mjs), so nothing loads this module, nor TypeBox, at run time.
 */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
