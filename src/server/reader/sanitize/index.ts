/**
 * Sanitising what feeds send before Feeder stores or shows it (docs/ARCHITECTURE.md "Shape of the system": fetch → parse → normalise → sanitise).
 * Pure: no I/O. Titles, authors and other plain-text fields are handled by the parser as text, never as HTML.
 * The SVG sanitiser is not exported here: it brings sanitize-html with PostCSS, so its callers (the icon look-up and
 * its pool job) import svg.ts on first use, and importing the content sanitiser (every parse thread does) loads
 * neither (docs/decisions.md "Process memory: modules on first use").
 */
export { EMBED_FRAME_SOURCES, MEDIA_SOURCES } from './sources.js';
export { sanitizeContent, sanitizeContentWithText, type SanitizeContentOptions, type SanitizedContent } from './content.js';
export { stripTracking } from './urls.js';
