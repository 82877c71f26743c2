import type { UpdateMeResponse } from '../../../common/api.js';
import { api } from '../../lib/api.js';

/** Account calls of the settings page (dashboard.md §7 "Account", public-area-and-api.md §7). */
export function updateName(name: string): Promise<UpdateMeResponse> {
  return api<UpdateMeResponse>('/auth/me', { method: 'PUT', body: { name } });
}

export function verifyPassword(password: string): Promise<{ valid: boolean }> {
  return api<{ valid: boolean }>('/auth/verify-password', { method: 'POST', body: { password } });
}

/** A password change revokes every other session; the response carries this session's new token pair. */
export function changePassword(password: string, oldPassword: string): Promise<UpdateMeResponse> {
  return api<UpdateMeResponse>('/auth/me', { method: 'PUT', body: { password, old_password: oldPassword } });
}
