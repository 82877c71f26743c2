import { describe, expect, it } from 'vitest';
import { curlFor, endpointsOf, errorCodeOf, exampleBodies, exampleOf, fieldsOf, responsesOf, typeLabel, type OpenApiDocument } from './openapi.js';

/** The OpenAPI reading behind /api-docs, on a document shaped like the one @fastify/swagger makes for the server. */
const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'API', version: '1.0.0' },
  tags: [{ name: 'Authentication' }, { name: 'Articles' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/public-api/v1/articles/{article_id}/read': {
      post: {
        operationId: 'markRead',
        summary: 'Mark read',
        tags: ['Articles'],
        security: [{ bearerAuth: [] }],
        parameters: [{ name: 'article_id', in: 'path', required: true, schema: { type: 'integer', examples: [4711] } }],
        responses: {
          '404': {
            description: 'Not found',
            content: { 'application/json': { schema: { type: 'object' }, example: { message: 'Article not found.', code: 'ARTICLE_NOT_FOUND' } } },
          },
          '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer', examples: [4711] } } } } } },
        },
      },
    },
    '/public-api/v1/articles': {
      get: {
        operationId: 'listArticles',
        summary: 'List',
        tags: ['Articles'],
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 9, default: 1, examples: [1] } },
          { name: 'include_base64_favicons', in: 'query', schema: { type: 'boolean', default: false } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    },
    '/public-api/v1/authenticate': {
      post: {
        operationId: 'authenticate',
        summary: 'Token',
        tags: ['Authentication'],
        security: [],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['username'],
                properties: { username: { type: 'string', examples: ['ada@example.com'] }, password: { type: 'string', examples: ["it's secret"] } },
              },
            },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

describe('api-docs OpenAPI reading', () => {
  it('orders operations by tag, then as the document lists them, and knows which need a token', () => {
    const list = endpointsOf(doc);
    expect(list.map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /public-api/v1/authenticate',
      'POST /public-api/v1/articles/{article_id}/read',
      'GET /public-api/v1/articles',
    ]);
    expect(list.map((e) => e.needsToken)).toEqual([false, true, true]);
  });

  it('builds curl commands for the origin, with path and query examples, the token and a shell-safe body', () => {
    const [auth, read, articles] = endpointsOf(doc);
    expect(curlFor(read, 'https://feeds.example')).toBe(`curl -X POST 'https://feeds.example/public-api/v1/articles/4711/read' \\\n  -H "Authorization: Bearer $TOKEN"`);
    expect(curlFor(articles, 'https://feeds.example')).toBe(`curl 'https://feeds.example/public-api/v1/articles?page=1' \\\n  -H "Authorization: Bearer $TOKEN"`);
    const authCurl = curlFor(auth, 'http://localhost:3000');
    expect(authCurl).toContain(`curl -X POST 'http://localhost:3000/public-api/v1/authenticate'`);
    expect(authCurl).not.toContain('Authorization');
    expect(authCurl).toContain(`-d '{"username":"ada@example.com","password":"it'\\''s secret"}'`);
  });

  it('flattens fields with nested objects and arrays, types with null, and examples', () => {
    const schema = {
      type: 'object',
      required: ['feeds'],
      properties: {
        feeds: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'integer', examples: [1] }, icon: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Icon', examples: [null] } },
          },
        },
      },
    };
    expect(fieldsOf(schema).map((r) => [r.name, r.type, r.required, r.depth])).toEqual([
      ['feeds', 'array of object', true, 0],
      ['feeds[].id', 'integer', false, 1],
      ['feeds[].icon', 'string or null', false, 1],
    ]);
    expect(fieldsOf(schema)[2].description).toBe('Icon');
    expect(exampleOf(schema)).toEqual({ feeds: [{ id: 1, icon: null }] });
    expect(typeLabel({ type: 'array', items: { type: 'integer' } })).toBe('array of integer');
  });

  it('reads one example, several named ones, or builds one from the schema', () => {
    expect(exampleBodies({ example: { a: 1 } })).toEqual([{ a: 1 }]);
    expect(exampleBodies({ examples: { example1: { value: { feed_id: 12 } }, example2: { value: { article_ids: [1] } } } })).toEqual([
      { feed_id: 12 },
      { article_ids: [1] },
    ]);
    expect(exampleBodies({ schema: { type: 'object', properties: { url: { type: 'string', examples: ['https://x.example/'] } } } })).toEqual([
      { url: 'https://x.example/' },
    ]);
    expect(exampleBodies(undefined)).toEqual([]);
    const [, read] = endpointsOf(doc);
    expect(curlFor(read, 'https://f.example', { article_ids: [1] })).toContain(`-d '{"article_ids":[1]}'`);
  });

  it('separates the success from the errors and reads error codes from examples', () => {
    const { success, errors } = responsesOf(endpointsOf(doc)[1].operation);
    expect(success?.[0]).toBe('200');
    expect(errors.map(([s]) => s)).toEqual(['404']);
    expect(errorCodeOf(errors[0][1])).toBe('ARTICLE_NOT_FOUND');
  });
});
