import type { FeverApiState, FeverPasswordResponse, UpdateMeResponse, VerifyPasswordResponse } from '../../../common/api.js';
import { api } from '../../lib/api.js';

/** Account calls of the settings page (dashboard.md §7 "Account", public-area-and-api.md §7). */
export function updateName(name: string): Promise<UpdateMeResponse> {
  return api<UpdateMeResponse>('/auth/me', { method: 'PUT', body: { name } });
}

/** When an article counts as read (the reading setting, synced across devices): on open, scrolled past, or by hand. */
export type MarkReadOn = 'open' | 'scroll' | 'manual';
export const MARK_READ_CHOICES: readonly MarkReadOn[] = ['open', 'scroll', 'manual'];

/** PUT /auth/me {mark_read_on}: the reading setting; the answer carries the updated user. */
export function updateMarkReadOn(markReadOn: MarkReadOn): Promise<UpdateMeResponse> {
  return api<UpdateMeResponse>('/auth/me', { method: 'PUT', body: { mark_read_on: markReadOn } });
}

export function verifyPassword(password: string): Promise<{ valid: boolean }> {
  return api<VerifyPasswordResponse>('/auth/verify-password', { method: 'POST', body: { password } });
}

/** A password change revokes every other session; the response carries this session's new token pair. */
export function changePassword(password: string, oldPassword: string): Promise<UpdateMeResponse> {
  return api<UpdateMeResponse>('/auth/me', { method: 'PUT', body: { password, old_password: oldPassword } });
}

/* Reader apps (dashboard.md §7 "Fever API"). */

/** PUT /api/user/fever-api {enabled}: the password comes back when enabling. */
export function setFeverApiEnabled(enabled: boolean): Promise<FeverApiState> {
  return api<FeverApiState>('/api/user/fever-api', { method: 'PUT', body: { enabled } });
}

/** GET /api/user/fever-api/password: the stored password (the server creates one when there is none yet). */
export function fetchFeverPassword(): Promise<FeverPasswordResponse> {
  return api<FeverPasswordResponse>('/api/user/fever-api/password');
}

/** POST /api/user/fever-api/password {regenerate: true}: a new password; the old one stops working at once. */
export function regenerateFeverPassword(): Promise<FeverPasswordResponse> {
  return api<FeverPasswordResponse>('/api/user/fever-api/password', { method: 'POST', body: { regenerate: true } });
}
