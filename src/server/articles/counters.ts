/**
 * The subscriptions' counters are kept by articles/reading-state.ts (docs/decisions.md "Reading state and
 * visibility: one owner"). This name stays only for migration 0004, which recounted existing subscriptions; new
 * code calls reading-state's verbs.
 */
export { recountSubscriptions } from './reading-state.js';
