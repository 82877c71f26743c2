/**
 * A query's true/false flag as the API takes it (show_read, ids_only): "true" or "1" is true, "false" or "0" false,
 * absent the route's default. The schemas let only those four texts through (schemas/articles.ts BoolParam).
 */
export const flag = (value: string | undefined, fallback: boolean): boolean => (value === undefined ? fallback : value === 'true' || value === '1');
