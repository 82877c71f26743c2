import { Type } from 'typebox';
import { MAX_ID } from '../limits.js';
import { Nullable } from './builders.js';

/**
 * Building blocks of every area's schemas (docs/decisions.md "One API contract"). The schemas in this folder are the
 * API's single description: the server validates requests and serialises responses with them, and src/common/api.ts
 * derives the types the web app uses from them (`Static<>`).
 */

/** A database id in a path, query or body (32-bit, see MAX_ID). */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

export const NullableString = Nullable(Type.String());

/** Every error answer: `{message, code}` (codes in src/common/codes.ts and the areas' own). */
export const ErrorBodySchema = Type.Object({ message: Type.String(), code: Type.String() });
