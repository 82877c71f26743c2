import { lazy } from 'react';

/** The feature's pages, each loaded on first visit as its own chunk (app/router.tsx mounts them). */
export const LandingPage = lazy(() => import('./LandingPage.js'));
