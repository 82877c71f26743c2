import { Ajv, type Options } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Request validation with two Ajv instances:
 * - bodies are validated strictly, without type coercion, so a wrong type is a 400 (a number where a string
 *   belongs, null for a required string) instead of being silently turned into something else;
 * - query strings, params and headers are text by nature, so there "2" may become the integer 2.
 */
const addFormats = ((formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ?? formatsPlugin) as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
