import { lazy } from 'react';

/** The feature's pages, each loaded on first visit as its own chunk (app/router.tsx mounts them). */
export const PrivacyPage = lazy(() => import('./PrivacyPage.js'));
export const ImprintPage = lazy(() => import('./ImprintPage.js'));
export const TermsPage = lazy(() => import('./TermsPage.js'));
