import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../../common/api.js';
import { api } from '../../lib/api.js';

/** Who runs this Feeder instance, as GET /api/config's `legal.operator` gives it (set by the OPERATOR_* variables). */
export interface Operator {
  name: string;
  /** Address lines, e.g. street, postcode and town, country. */
  address: string[];
  email: string;
  phone: string | null;
  /** Who represents the operator (a company's managing director), when set. */
  representative: string | null;
}

/**
 * 'configured': the operator's own details; 'example': a local instance without them, which shows the built-in
 * example operator with a note saying so; 'unavailable': a public instance without them, which shows no
 * placeholder, only that the details have not been published (docs/decisions.md "Legal pages from configuration").
 */
export type LegalStatus = 'configured' | 'example' | 'unavailable';

/** `legal` of GET /api/config; servers older than the OPERATOR_* variables do not send it. */
interface LegalConfig {
  status: LegalStatus;
  operator: Operator | null;
}

/**
 * The example operator of a local instance: the usual German placeholder details (German law requires a correct
 * imprint, § 5 DDG, so a public instance must set its own through the OPERATOR_* variables).
 */
export const EXAMPLE_OPERATOR: Operator = {
  name: 'Max Mustermann',
  address: ['Feeder', 'Musterstraße 1', '12345 Musterstadt', 'Deutschland'],
  email: 'kontakt@feeder.example',
  phone: '+49 30 1234567',
  representative: null,
};

/** Data protection supervisory authority named in the privacy notice (Art. 77 GDPR), whoever the operator is. */
export const AUTHORITY = 'die Datenschutz-Aufsichtsbehörde deines Bundeslandes oder die am Sitz des Anbieters';

/** Date of the current version of the legal texts. */
export const LEGAL_UPDATED = '1. November 2026';

export type LegalState = { kind: 'loading' } | { kind: 'error'; retry(): void } | { kind: 'unavailable' } | { kind: 'ready'; operator: Operator; example: boolean };

/** The legal part of the public configuration, read as the pages need it; an unknown or missing status is 'example'. */
export function legalFrom(config: (PublicConfig & { legal?: LegalConfig }) | undefined): { status: LegalStatus; operator: Operator | null } {
  const legal = config?.legal;
  const status = legal?.status ?? 'example';
  if (status === 'configured' && legal?.operator) return { status, operator: legal.operator };
  if (status === 'unavailable') return { status, operator: null };
  return { status: 'example', operator: EXAMPLE_OPERATOR };
}

/**
 * The operator the legal pages name, from GET /api/config (shared with the sign-up form's query, so it is asked
 * for once): loading, failed (with a retry), unavailable, or ready with the operator and whether it is the example.
 */
export function useLegalOperator(): LegalState {
  const query = useQuery({
    queryKey: ['public-config'],
    queryFn: () => api<PublicConfig>('/api/config', { noRefresh: true, token: null }),
    staleTime: 5 * 60_000,
  });
  if (query.isPending) return { kind: 'loading' };
  if (query.isError) return { kind: 'error', retry: () => void query.refetch() };
  const { status, operator } = legalFrom(query.data);
  if (status === 'unavailable' || !operator) return { kind: 'unavailable' };
  return { kind: 'ready', operator, example: status === 'example' };
}
