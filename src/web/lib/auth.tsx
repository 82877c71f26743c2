import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { LoginResponse, MeResponse, UpdateMeResponse, User } from '../../common/api.js';
import type { Language } from '../../common/constants.js';
import i18n, { isLanguage, setLanguage } from '../i18n/index.js';
import { api, ApiError, endSession, refreshAccessToken } from './api.js';
import { on } from './events.js';
import { storage } from './storage.js';

/**
 * Session state (public-area-and-api.md §4 "Session start", "Login", "Logout", "Language changes").
 * status: 'loading' while the stored session is being confirmed, then 'authenticated' or 'anonymous'. A stored
 * session counts as signed in at once (`user` is set while 'loading'), so the dashboard and its first requests
 * start in parallel with the confirmation; when the session turns out to be gone, `user` becomes null and the
 * cached data of the session is dropped.
 */
export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

export interface AuthContextValue {
  user: User | null;
  status: AuthStatus;
  /** Stores the tokens and user of a successful login (the screen checks the response first). */
  signIn(response: LoginResponse): void;
  /** Clears the session locally and on the server, then the logout event sends the user to /. */
  signOut(): Promise<void>;
  /** Replaces the stored user (after PUT /auth/me) and, when given, the rotated token pair. */
  updateSession(response: Pick<UpdateMeResponse, 'user'> & Partial<Pick<UpdateMeResponse, 'access_token' | 'refresh_token'>>): void;
  /** Switches the interface language; signed in, the server is told (failures are only logged, §8). */
  changeLanguage(language: Language): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

function applyPreferredLanguage(user: User | null) {
  // A signed-in user's language_preference overrides the stored language (§4).
  if (user && isLanguage(user.language_preference) && user.language_preference !== i18n.language) {
    void setLanguage(user.language_preference);
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(() => {
    const stored = storage.getUser();
    return stored && storage.getToken() && storage.getRefreshToken() ? stored : null;
  });
  const [status, setStatus] = useState<AuthStatus>(() => (user ? 'loading' : 'anonymous'));
  const queryClient = useQueryClient();

  // Session start: confirm the stored user with /auth/me; on failure try one refresh; else log out.
  useEffect(() => {
    if (!user) {
      storage.clearAuth();
      return;
    }
    let cancelled = false;
    const confirm = async () => {
      const storedToken = storage.getToken();
      try {
        const { user: fresh } = await api<MeResponse>('/auth/me', { noRefresh: true });
        return fresh;
      } catch (err) {
        if (err instanceof ApiError && err.isNetwork) throw err;
        const token = await refreshAccessToken(storedToken);
        if (!token) return null;
        const { user: fresh } = await api<MeResponse>('/auth/me', { noRefresh: true });
        return fresh;
      }
    };
    confirm()
      .then((fresh) => {
        if (cancelled) return;
        if (fresh) {
          storage.setUser(fresh);
          setUser(fresh);
          setStatus('authenticated');
          applyPreferredLanguage(fresh);
        } else {
          storage.clearAuth();
          queryClient.clear();
          setUser(null);
          setStatus('anonymous');
        }
      })
      .catch(() => {
        // The server did not answer: keep the stored session (it is confirmed on the next request).
        if (!cancelled) setStatus('authenticated');
      });
    return () => {
      cancelled = true;
    };
    // Runs once, at start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(
    () =>
      on('logout', () => {
        // What the session loaded (feeds, counts, lists) is not shown to whoever signs in next.
        queryClient.clear();
        setUser(null);
        setStatus('anonymous');
      }),
    [queryClient],
  );

  const signIn = useCallback((response: LoginResponse) => {
    storage.setTokens(response.access_token, response.refresh_token);
    storage.setUser(response.user);
    storage.setLoginError(null);
    setUser(response.user);
    setStatus('authenticated');
    applyPreferredLanguage(response.user);
  }, []);

  const signOut = useCallback(async () => {
    const refreshToken = storage.getRefreshToken();
    if (refreshToken) {
      // Revoke this sign-in on the server too; leaving works even when that fails.
      await api('/auth/logout', { method: 'POST', token: refreshToken, noRefresh: true }).catch(() => {});
    }
    endSession();
  }, []);

  const updateSession = useCallback<AuthContextValue['updateSession']>((response) => {
    if (response.access_token) storage.setTokens(response.access_token, response.refresh_token);
    storage.setUser(response.user);
    setUser(response.user);
  }, []);

  const changeLanguage = useCallback(
    async (language: Language) => {
      await setLanguage(language);
      if (!user || user.language_preference === language) return;
      try {
        const res = await api<MeResponse>('/api/users/update-language', { method: 'POST', body: { language } });
        const next = res?.user ?? { ...user, language_preference: language };
        storage.setUser(next);
        setUser(next);
      } catch (err) {
        console.error('Language update failed', err);
      }
    },
    [user],
  );

  const value = useMemo(() => ({ user, status, signIn, signOut, updateSession, changeLanguage }), [user, status, signIn, signOut, updateSession, changeLanguage]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
