import type { TObject, TString } from 'typebox';

/** The schema of an error answer: `{message, code}` with the route's own description and example. */
export type ErrorSchemaOf = TObject<{ message: TString; code: TString }>;

/**
 * Every error of the public API: `{message, code}`, the one error shape of the whole API (common.ts
 * ErrorBodySchema), described for the OpenAPI document. Written as plain JSON Schema rather than with TypeBox's
 * builders because routes call it when they register, and the server loads no TypeBox at run time: the schema
 * modules are data in the build (docs/decisions.md "Process memory: the API's schemas as data"). The type is
 * TypeBox's, and error-schema.test.ts holds the object equal to what `Type.Object` builds.
 */
export const ErrorSchema = (description: string, code: string, message: string): ErrorSchemaOf =>
  ({
    type: 'object',
    required: ['message', 'code'],
    properties: {
      message: { type: 'string', description: 'What went wrong, in English, for people.' },
      code: { type: 'string', description: 'A stable machine-readable code.' },
    },
    description,
    examples: [{ message, code }],
  }) as unknown as ErrorSchemaOf;
