/**
 * Sanitising what feeds send before Feeder stores or shows it (docs/ARCHITECTURE.md "Shape of the system": fetch → parse → normalise → sanitise).
 * Pure: no I/O. Titles, authors and other plain-text fields are handled by the parser as text, never as HTML.
 */
export { EMBED_FRAME_SOURCES, MEDIA_SOURCES } from './sources.js';
export { sanitizeContent, sanitizeContentWithText, type SanitizeContentOptions, type SanitizedContent } from './content.js';
export { sanitizeSvg } from './svg.js';
export { stripTracking } from './urls.js';
