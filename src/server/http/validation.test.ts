import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fastifySerializerFactory, lazyCompilers, validatorCompiler } from './validation.js';

/**
 * Validators and serialisers are compiled on a route's first request (docs/decisions.md "Process memory: modules on
 * first use"), so a schema that does not compile would no longer stop the server at start: every schema of the API
 * contract is compiled here instead, as a validator of each kind and as a serialiser.
 */
const schemaDir = new URL('../../common/schemas/', import.meta.url);
// builders.ts only builds the other modules' schemas; error-schema.ts builds an error answer's schema per route, which is
// checked here with an example.
const schemaModules = readdirSync(schemaDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'builders.ts');

const isSchema = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);
const buildSerializer = lazyCompilers.compilersFactory!.buildSerializer! as unknown as (
  schemas: Record<string, unknown>,
  options: unknown,
) => (route: { schema: object; method: string; url: string; httpStatus: string }) => (data: unknown) => string;

describe('request validation and response serialisation, compiled on first use', () => {
  it('validates bodies strictly and query strings with coercion, and hands Fastify the errors', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false };
    const body = validatorCompiler({ schema, method: 'POST', url: '/x', httpPart: 'body' }) as ((data: unknown) => boolean) & { errors?: unknown };
    expect(body({ n: '2' })).toBe(false);
    expect(body.errors).toEqual([expect.objectContaining({ instancePath: '/n', message: 'must be integer' })]);
    expect(body({ n: 2 })).toBe(true);
    expect(body.errors).toBeNull();
    const query = validatorCompiler({ schema, method: 'GET', url: '/x', httpPart: 'querystring' }) as (data: Record<string, unknown>) => boolean;
    const data: Record<string, unknown> = { n: '2' };
    expect(query(data)).toBe(true);
    expect(data.n).toBe(2);
  });

  it('serialises with the schema (fields it does not name are left out)', () => {
    const compile = buildSerializer({}, undefined);
    const serialize = compile({ schema: { type: 'object', properties: { a: { type: 'integer' } } }, method: 'GET', url: '/x', httpStatus: '200' });
    expect(serialize({ a: 1, secret: 'x' })).toBe('{"a":1}');
  });

  it.each(schemaModules)('every schema of common/schemas/%s compiles as a body, query and response schema', async (file) => {
    const module = (await import(new URL(file.replace(/\.ts$/, '.js'), schemaDir).href)) as Record<string, unknown>;
    const schemas = Object.entries(module).flatMap(([name, value]): [string, object][] => {
      if (isSchema(value)) return [[name, value]];
      if (name === 'ErrorSchema' && typeof value === 'function') return [[name, (value as (...texts: string[]) => object)('An example.', 'EXAMPLE', 'Example.')]];
      return [];
    });
    expect(schemas.length).toBeGreaterThan(0);
    // The real compiler, called at once (the lazy one compiles on the first response).
    const compile = (fastifySerializerFactory() as unknown as typeof buildSerializer)({}, undefined);
    for (const [name, schema] of schemas) {
      for (const httpPart of ['body', 'querystring'] as const) {
        const validate = validatorCompiler({ schema, method: 'POST', url: `/${name}`, httpPart }) as (data: unknown) => boolean;
        // The first call compiles; whether {} is valid does not matter here.
        expect(() => validate({}), `${name} as ${httpPart}`).not.toThrow();
      }
      expect(() => compile({ schema, method: 'GET', url: `/${name}`, httpStatus: '200' }), `${name} as a response`).not.toThrow();
    }
  });
});
