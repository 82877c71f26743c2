/**
 * Who runs this Feeder instance: the imprint, privacy notice and terms name them. Feeder is self-hosted, so
 * whoever operates a public instance puts their own details here (German law requires a correct imprint,
 * § 5 DDG). These are the usual German placeholder details until then.
 */
export const OPERATOR = {
  name: 'Max Mustermann',
  business: 'Feeder',
  street: 'Musterstraße 1',
  city: '12345 Musterstadt',
  country: 'Deutschland',
  email: 'kontakt@feeder.example',
  phone: '+49 30 1234567',
  /** Data protection supervisory authority of the operator's federal state (Art. 77 GDPR). */
  authority: 'die Datenschutz-Aufsichtsbehörde deines Bundeslandes oder die am Sitz des Anbieters',
} as const;

/** Date of the current version of the legal texts. */
export const LEGAL_UPDATED = '1. November 2026';
