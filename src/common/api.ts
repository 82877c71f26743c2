/**
 * Shapes of the account API (public-area-and-api.md §3 and §7), as the web app and tests see them.
 * The server's TypeBox route schemas produce exactly these.
 */
import type { Language } from './constants.js';

export interface User {
  id: number;
  name: string;
  email: string;
  is_verified: boolean;
  language_preference: Language;
  created_at: string;
}

export interface LoginResponse {
  user: User;
  access_token: string;
  refresh_token: string;
}

export interface RegisterResponse {
  user: User;
  email_sent: boolean;
}

/** POST /auth/refresh: the refresh token rotates on every use, so a new one comes back too. */
export interface RefreshResponse {
  access_token: string;
  refresh_token: string;
}

/** PUT /auth/me; a password change revokes every refresh token and hands this session a fresh pair. */
export interface UpdateMeResponse {
  user: User;
  message: string;
  code: 'PROFILE_UPDATED' | 'PASSWORD_UPDATED';
  access_token?: string;
  refresh_token?: string;
}

export interface StatusResponse {
  status: 'success' | 'error';
  code: string;
  message: string;
}

export interface ErrorBody {
  message: string;
  code: string;
}

/** GET /api/config: what the public screens need before sign-in. */
export interface PublicConfig {
  registration_email_domains: string[];
  /** false when no domain list is configured, i.e. every domain may register. */
  registration_restricted: boolean;
}
