import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicConfig } from '../../../common/api.js';
import { api } from '../../lib/api.js';

const queryKey = ['public-config'] as const;
const fetchConfig = () => api<PublicConfig>('/api/config', { noRefresh: true, token: null });

/**
 * GET /api/config (decisions.md: the registration domain list is served so the form can check before
 * submitting). `ensure()` waits for it at submit time; when it cannot be loaded the server still enforces the rule.
 */
export function usePublicConfig() {
  const client = useQueryClient();
  const query = useQuery({ queryKey, queryFn: fetchConfig, staleTime: 5 * 60_000 });
  const ensure = () => client.ensureQueryData({ queryKey, queryFn: fetchConfig }).catch(() => null);
  return { config: query.data ?? null, ensure };
}

/** The domains registration is limited to; empty when registration is open. */
export function allowedDomains(config: PublicConfig | null): string[] {
  return config?.registration_restricted ? config.registration_email_domains : [];
}
