import type { Ajv, Options, ValidateFunction } from 'ajv';
import type formatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';

/**
 * Request validation with two Ajv instances:
 * - bodies are validated strictly, without type coercion, so a wrong type is a 400 (a number where a string
 *   belongs, null for a required string) instead of being silently turned into something else;
 * - query strings, params and headers are text by nature, so there "2" may become the integer 2.
 *
 * Validators and response serialisers are compiled on a route's first request, not when the route is registered
 * (docs/decisions.md "Process memory: modules on first use"): a process answers a few dozen of its hundred-odd
 * routes, and compiling them all at start kept about 5 MB of generated code, and loaded Ajv and fast-json-stringify,
 * in a server that may not answer a single request for hours. Every request is validated as before: the first one
 * compiles, then validates.
 */
const require = createRequire(import.meta.url);

type Ajvs = Record<'body' | 'text', Ajv>;
let ajvs: Ajvs | undefined;

/** Ajv is CommonJS: loaded synchronously when the first validator is compiled (pg is loaded the same way, db/database.ts). */
function loadAjvs(): Ajvs {
  const { Ajv: AjvClass } = require('ajv') as { Ajv: typeof Ajv };
  const formats = require('ajv-formats') as typeof formatsPlugin & { default?: typeof formatsPlugin };
  const addFormats = (formats.default ?? formats) as unknown as (ajv: Ajv) => Ajv;
  const make = (coerceTypes: Options['coerceTypes']) => {
    const ajv = new AjvClass({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
    addFormats(ajv);
    return ajv;
  };
  return { body: make(false), text: make('array') };
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let validate: ValidateFunction | undefined;
  // Fastify reads the errors of a failed validation from the function it was given.
  const lazy = Object.assign(
    (...args: Parameters<ValidateFunction>) => {
      validate ??= (ajvs ??= loadAjvs())[httpPart === 'body' ? 'body' : 'text'].compile(schema as object);
      const valid = validate(...args);
      lazy.errors = validate.errors;
      return valid;
    },
    { errors: null as ValidateFunction['errors'] },
  );
  return lazy;
};

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;

/**
 * Fastify's own response serialiser factory (fast-json-stringify, through the compiler package Fastify depends on and
 * would load at start), resolved from Fastify's location so it is the very version Fastify uses.
 */
export function fastifySerializerFactory(): SerializerFactory {
  const fastifyRequire = createRequire(require.resolve('fastify'));
  const { SerializerSelector } = fastifyRequire('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => SerializerFactory };
  return SerializerSelector();
}

/** Fastify's serialiser, built on the first response that has a schema; each route's on the route's first response. */
const buildSerializer: SerializerFactory = (externalSchemas, serializerOpts) => {
  let compile: ReturnType<SerializerFactory> | undefined;
  return (routeSchema) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= (compile ??= fastifySerializerFactory()(externalSchemas, serializerOpts))(routeSchema))(data);
  };
};

/**
 * The `schemaController` option of the Fastify instance: passed when it is made, so Fastify does not load its default
 * compilers (Ajv and fast-json-stringify) at start.
 */
export const lazyCompilers: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    // Fastify calls the factory once and compiles every route's schemas with the compiler it returns, as with
    // setValidatorCompiler; the factory's declared type is Ajv's own compile signature, hence the cast.
    buildValidator: (() => validatorCompiler) as unknown as CompilersFactory['buildValidator'],
    buildSerializer,
  },
};
