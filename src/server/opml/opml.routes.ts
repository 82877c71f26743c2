import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { OpmlImportReply } from '../../common/schemas/opml.js';
import { AppError, badRequest } from '../errors.js';
import type { App } from '../http/types.js';
import { feedServicesOf, type Services } from '../services.js';
import { exportFilename } from './opml.service.js';
import { multipartFields } from '../http/multipart.js';

/**
 * OPML endpoints (dashboard.md §7 "Feeds"): POST /api/feeds/import/opml (multipart, field opml_file) and
 * GET /api/feeds/export/opml (the file, saved as feeder-feeds-YYYY-MM-DD.opml), both for the signed-in user.
 * Multipart parsing is registered in this scope only, with the upload limit of OPML files.
 */
export interface OpmlRoutesOptions {
  /** The clock: the export's file name carries the date. */
  now: () => Date;
}

/** Largest OPML file accepted: some 35,000 feeds in a typical export. */
export const MAX_OPML_BYTES = 5 * 1024 * 1024;
export const OPML_FIELD = 'opml_file';

const chooseFile = () => badRequest('OPML_FILE_REQUIRED', `Please choose an OPML file (.opml or .xml) and send it as the form field "${OPML_FIELD}".`);
const tooLarge = () => new AppError(413, 'OPML_TOO_LARGE', `The OPML file is larger than ${MAX_OPML_BYTES / 1024 / 1024} MB.`);

export async function registerOpmlRoutes(app: App, services: Pick<Services, 'feedServices'>, options: OpmlRoutesOptions): Promise<void> {
  const { opml } = feedServicesOf(services);

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);
    await api.register(multipartFields, { limits: { fileSize: MAX_OPML_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 } });

    api.post('/api/feeds/import/opml', { schema: { response: { 200: OpmlImportReply } }, bodyLimit: MAX_OPML_BYTES + 64 * 1024 }, async (request) => {
      const bytes = await readUpload(request);
      return opml.importFile(request.userId, bytes);
    });

    api.get('/api/feeds/export/opml', async (request, reply) => {
      const body = await opml.exportFile(request.userId);
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFilename(options.now())}"`)
        .header('cache-control', 'no-store')
        .send(body);
    });
  });
}

/**
 * The bytes of the opml_file part. Other fields are skipped; no file under that name, or a body that is not
 * multipart at all, is OPML_FILE_REQUIRED; a file over the limit is 413; a broken multipart body is 400.
 */
async function readUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw chooseFile();
  let found: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== OPML_FIELD || found) {
        part.file.resume();
        continue;
      }
      found = await part.toBuffer();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError(413, 'OPML_UPLOAD_TOO_LARGE', 'Send one OPML file as the form field "opml_file", nothing more.');
    }
    if (err instanceof AppError) throw err;
    // busboy's own complaints (truncated or malformed multipart) are the client's fault.
    throw badRequest('OPML_UPLOAD_INVALID', 'The upload could not be read; please choose the file again.');
  }
  if (!found) throw chooseFile();
  return found;
}
