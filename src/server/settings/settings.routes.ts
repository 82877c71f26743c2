import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../http/types.js';
import type { Services } from '../services.js';
import * as S from '../../common/schemas/settings.js';

/**
 * Account-settings endpoints of the reader apps (dashboard.md §7 "Fever API"), for the signed-in user only:
 * thin routes over FeverSettingsService (docs/ARCHITECTURE.md "Rules" 1).
 */
export async function registerSettingsRoutes(app: App, services: Pick<Services, 'feverSettings'>): Promise<void> {
  const fever = services.feverSettings;

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);

    api.get('/api/user/fever-api/password', { schema: { response: { 200: S.PasswordReply } } }, async (request) => fever.password(request.userId));

    api.put('/api/user/fever-api', { schema: { body: S.FeverToggleBody, response: { 200: S.FeverToggleReply } } }, async (request) =>
      fever.setEnabled(request.userId, request.body.enabled),
    );

    api.post('/api/user/fever-api/password', { schema: { body: S.RegenerateBody, response: { 200: S.PasswordReply } } }, async (request) =>
      fever.regenerate(request.userId),
    );
  });
}
