import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { RATE_LIMIT_HEADERS } from './openapi.js';

/**
 * The OpenAPI document of the public API (served at /public-api/v1/openapi.json, rendered by /api-docs): valid
 * OpenAPI 3.1, generated from the very routes the server runs, and complete enough to write a client from.
 */

const EXPECTED_OPERATIONS = [
  'post /public-api/v1/authenticate',
  'get /public-api/v1/feeds',
  'post /public-api/v1/feeds/search',
  'post /public-api/v1/feeds/subscribe',
  'get /public-api/v1/articles',
  'post /public-api/v1/articles/read/all',
  'post /public-api/v1/articles/{article_id}/read',
  'post /public-api/v1/articles/{article_id}/unread',
  'post /public-api/v1/articles/{article_id}/favorite',
  'post /public-api/v1/articles/{article_id}/unfavorite',
];

/** The parts of the OpenAPI document these tests read. */
interface Operation {
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; description?: string; schema: { description?: string } }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { description?: string }> } }> };
  responses: Record<string, { description?: string; headers: Record<string, unknown>; content: Record<string, { example?: unknown; schema: { examples?: unknown[] } }> }>;
}
// A type alias, not an interface: the validator takes it as its plain-object `SpecData`.
type OpenApiDocument = {
  openapi: string;
  servers: { url: string; description?: string }[];
  info: { description: string };
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
};

describe('OpenAPI document of the public API v1', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/public-api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json<OpenApiDocument>();
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://feeder.test', description: expect.any(String) }]);
  });

  it('lists every public API route and nothing of the web app’s API', async () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`));
    expect(operations.sort()).toEqual([...EXPECTED_OPERATIONS].sort());
    // each documented operation is a route the server runs (without a token: 400 or 401, never the 404 of no route)
    for (const op of operations) {
      const [method, path] = op.split(' ');
      const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url: path.replace('{article_id}', '1'), payload: method === 'post' ? {} : undefined });
      expect([400, 401], `${op} → ${res.statusCode}`).toContain(res.statusCode);
    }
    expect(JSON.stringify(doc)).not.toMatch(/"\/api\//);
  });

  it('describes every operation: summary, description, security, parameters, responses with examples and headers', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.description).toMatch(/365 days/);
    expect(doc.info.description).toMatch(/100 requests per minute and 5,000 per day/);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method} ${path}`;
        expect(op.summary, where).toEqual(expect.any(String));
        expect(op.description?.length, where).toBeGreaterThan(40);
        expect(op.operationId, where).toEqual(expect.any(String));
        expect(op.tags, where).toHaveLength(1);
        if (path.endsWith('/authenticate')) expect(op.security, where).toEqual([]);
        else expect(op.security, where).toEqual([{ bearerAuth: [] }]);
        const statuses = Object.keys(op.responses);
        expect(statuses, where).toEqual(expect.arrayContaining(['200', '400', '429', ...(path.endsWith('/authenticate') ? ['401', '403'] : ['401'])]));
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.description, `${where} ${status}`).toEqual(expect.any(String));
          expect(response.content['application/json'].schema, `${where} ${status}`).toBeDefined();
          expect(Object.keys(response.headers), `${where} ${status}`).toEqual(
            expect.arrayContaining([...Object.keys(RATE_LIMIT_HEADERS), ...(status === '429' ? ['Retry-After'] : [])]),
          );
          const media = response.content['application/json'];
          if (status !== '200')
            expect(media.example ?? media.schema.examples?.[0], `${where} ${status}`).toMatchObject({ message: expect.any(String), code: expect.any(String) });
        }
        // each request field says what it is
        for (const p of op.parameters ?? []) expect(p.schema.description ?? p.description, `${where} ${p.name}`).toEqual(expect.any(String));
        const body = op.requestBody?.content?.['application/json']?.schema;
        for (const [name, field] of Object.entries(body?.properties ?? {})) expect(field.description, `${where} ${name}`).toEqual(expect.any(String));
      }
    }
    // the state changes may be refused for muted feeds
    for (const change of ['read', 'unread', 'favorite', 'unfavorite'])
      expect(doc.paths[`/public-api/v1/articles/{article_id}/${change}`].post.responses).toHaveProperty('403');
    expect(doc.paths['/public-api/v1/articles'].get.responses).toHaveProperty('404');
  });
});
