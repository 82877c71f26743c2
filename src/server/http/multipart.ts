import multipart from '@fastify/multipart';
import { withoutGlobal } from '../../common/lazy.js';

type Plugin = (instance: unknown, options: unknown, done: (err?: Error) => void) => void;

/**
 * @fastify/multipart without its `request.formData()`, which Feeder does not use (the routes read the parsed parts):
 * the plugin adds that method when the global FormData exists, and the first look at that global makes Node load its
 * own bundled undici and the web streams, about 6 MB of a process that may never see a multipart request
 * (docs/decisions.md "Process memory: modules on first use"). The global is hidden while the plugin registers, which it
 * does synchronously, and put back as it was (still not loaded). Everything else about the plugin is unchanged: its
 * Fastify metadata (it decorates the scope that registers it, not a child of it) is copied onto the wrapper.
 */
export const multipartFields: typeof multipart = wrap(multipart as unknown as Plugin) as unknown as typeof multipart;

function wrap(plugin: Plugin): Plugin {
  const withoutFormData: Plugin = (instance, options, done) => withoutGlobal('FormData', () => plugin(instance, options, done));
  for (const key of Object.getOwnPropertySymbols(plugin)) {
    (withoutFormData as unknown as Record<symbol, unknown>)[key] = (plugin as unknown as Record<symbol, unknown>)[key];
  }
  return withoutFormData;
}
