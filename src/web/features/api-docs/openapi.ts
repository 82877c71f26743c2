/**
 * Reading the public API's OpenAPI 3.1 document (served by the server at /public-api/v1/openapi.json, generated from
 * the very route schemas it validates with) into what /api-docs shows: operations in document order, their fields as
 * flat rows, example bodies built from the schemas' examples, and a curl command for the page's own origin.
 * Only the parts of OpenAPI the server's generator emits are handled.
 */

export interface Schema {
  type?: string | string[];
  description?: string;
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: Schema;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
  /** Several named examples (what the generator makes of a schema with more than one). */
  examples?: Record<string, { value?: unknown }>;
}

export interface Response {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, { $ref?: string; description?: string }>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { headers?: Record<string, { description?: string; schema?: Schema }>; securitySchemes?: Record<string, unknown> };
  security?: Record<string, string[]>[];
}

export interface Endpoint {
  id: string;
  method: string;
  path: string;
  operation: Operation;
  needsToken: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation in document order (the order the server registers its routes), grouped by first tag. */
export function endpointsOf(doc: OpenApiDocument): Endpoint[] {
  const list: Endpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const security = operation.security ?? doc.security ?? [];
      list.push({
        id: operation.operationId ?? `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-'),
        method: method.toUpperCase(),
        path,
        operation,
        needsToken: security.length > 0,
      });
    }
  }
  const tagOrder = (doc.tags ?? []).map((t) => t.name);
  const rank = (e: Endpoint) => {
    const i = tagOrder.indexOf(e.operation.tags?.[0] ?? '');
    return i < 0 ? tagOrder.length : i;
  };
  return list
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map(({ e }) => e);
}

/** The schema without its null branch, and whether null is allowed. */
export function unwrapNullable(schema: Schema): { schema: Schema; nullable: boolean } {
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const rest = union.filter((s) => s.type !== 'null');
    if (rest.length === 1 && rest.length < union.length) {
      return { schema: { ...rest[0], description: schema.description ?? rest[0].description, examples: schema.examples ?? rest[0].examples }, nullable: true };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

/** "string", "integer or null", "array of integer", "object". */
export function typeLabel(raw: Schema): string {
  const { schema, nullable } = unwrapNullable(raw);
  let label: string;
  if (schema.type === 'array') label = `array of ${schema.items ? typeLabel(schema.items) : 'any'}`;
  else if (Array.isArray(schema.type)) label = schema.type.join(' or ');
  else label = schema.type ?? 'any';
  return nullable ? `${label} or null` : label;
}

/** Limits a reader needs: "1–100, default 20", "at most 1000 items". */
export function constraintsOf(raw: Schema): string[] {
  const { schema } = unwrapNullable(raw);
  const out: string[] = [];
  // Technical ceilings (ids fit 32 bits, pages stop at a million) say nothing a reader needs.
  const maximum = schema.maximum !== undefined && schema.maximum < 1_000_000 ? schema.maximum : undefined;
  if (schema.minimum !== undefined && maximum !== undefined) out.push(`${schema.minimum}–${maximum}`);
  else if (schema.minimum !== undefined && schema.minimum !== 1) out.push(`at least ${schema.minimum}`);
  else if (maximum !== undefined) out.push(`at most ${maximum}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

export interface FieldRow {
  /** Dotted path: `user.id`, `feeds[].title`. */
  name: string;
  type: string;
  required: boolean;
  description: string;
  constraints: string[];
  depth: number;
}

/** The fields of an object schema as flat rows, nested objects and arrays of objects spelled out below their parent. */
export function fieldsOf(schema: Schema | undefined, prefix = '', depth = 0): FieldRow[] {
  if (!schema?.properties) return [];
  const rows: FieldRow[] = [];
  for (const [key, raw] of Object.entries(schema.properties)) {
    const name = `${prefix}${key}`;
    const { schema: inner } = unwrapNullable(raw);
    rows.push({
      name,
      type: typeLabel(raw),
      required: schema.required?.includes(key) ?? false,
      description: raw.description ?? inner.description ?? '',
      constraints: constraintsOf(raw),
      depth,
    });
    if (inner.type === 'object') rows.push(...fieldsOf(inner, `${name}.`, depth + 1));
    if (inner.type === 'array' && inner.items?.type === 'object') rows.push(...fieldsOf(inner.items, `${name}[].`, depth + 1));
  }
  return rows;
}

/** An example value for a schema: its own example, else one built from its fields' examples. */
export function exampleOf(raw: Schema | undefined): unknown {
  if (!raw) return undefined;
  if (raw.examples?.length) return raw.examples[0];
  if (raw.example !== undefined) return raw.example;
  const { schema, nullable } = unwrapNullable(raw);
  if (schema !== raw) {
    const inner = exampleOf(schema);
    return inner === undefined && nullable ? null : inner;
  }
  if (schema.type === 'object' && schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(schema.properties)) {
      const value = exampleOf(field);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (schema.type === 'array') {
    const item = exampleOf(schema.items);
    return item === undefined ? [] : [item];
  }
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  return undefined;
}

/** The JSON body of a response or request: the media type's example, or one built from the schema. */
export function exampleBody(media: MediaType | undefined): unknown {
  return exampleBodies(media)[0];
}

/** Every example body the media type names (read-all has one per way of calling it), else the one built. */
export function exampleBodies(media: MediaType | undefined): unknown[] {
  if (!media) return [];
  if (media.examples)
    return Object.values(media.examples)
      .map((e) => e.value)
      .filter((v) => v !== undefined);
  const one = media.example ?? exampleOf(media.schema);
  return one === undefined ? [] : [one];
}

/** Shell quoting for single-quoted arguments. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A path or query parameter's example as text: parameters are scalars; anything else (never in our spec) goes as JSON. */
function paramText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A curl command for the endpoint on this origin: path parameters and the query parameters that have an example
 * filled from their examples, the token as $TOKEN, and the example body (or the one given).
 */
export function curlFor(endpoint: Endpoint, origin: string, bodyExample?: unknown): string {
  const { operation } = endpoint;
  let path = endpoint.path;
  const query: string[] = [];
  for (const p of operation.parameters ?? []) {
    // Only parameters with an example of their own: defaults go without saying.
    const example = p.schema.examples?.[0] ?? p.schema.example;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(paramText(example ?? 1)));
    else if (p.in === 'query' && example !== undefined) query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(paramText(example))}`);
  }
  const url = `${origin}${path}${query.length ? `?${query.join('&')}` : ''}`;
  const lines = [`curl${endpoint.method === 'GET' ? '' : ` -X ${endpoint.method}`} ${shellQuote(url)}`];
  if (endpoint.needsToken) lines.push(`-H "Authorization: Bearer $TOKEN"`);
  const body = bodyExample ?? (operation.requestBody ? exampleBody(operation.requestBody.content['application/json']) : undefined);
  if (body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(body))}`);
  }
  return lines.join(' \\\n  ');
}

/** The successful response (the lowest 2xx) and the error responses, in status order. */
export function responsesOf(operation: Operation): { success: [string, Response] | undefined; errors: [string, Response][] } {
  const entries = Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b));
  return {
    success: entries.find(([status]) => status.startsWith('2')),
    errors: entries.filter(([status]) => !status.startsWith('2')),
  };
}

/** The error code of an error response's example, when it has one. */
export function errorCodeOf(response: Response): string | undefined {
  const example = exampleBody(response.content?.['application/json']) as { code?: unknown } | undefined;
  return typeof example?.code === 'string' ? example.code : undefined;
}
