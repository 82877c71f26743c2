import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer, flush, renderPublic, usePublicTestEnv } from '../../test/publicHarness.js';
import ImprintPage from './ImprintPage.js';
import PrivacyPage from './PrivacyPage.js';
import TermsPage from './TermsPage.js';

const routes = { '/imprint': <ImprintPage />, '/privacy': <PrivacyPage />, '/terms': <TermsPage /> };
const base = { registration_email_domains: [], registration_restricted: false };
const operator = {
  name: 'Erika Beispiel GmbH',
  address: ['Hauptstraße 5', '10115 Berlin', 'Deutschland'],
  email: 'recht@erika.test',
  phone: null,
  representative: 'Erika Beispiel',
};

function serve(legal: unknown) {
  fakeServer({ 'GET /api/config': () => [200, legal === undefined ? base : { ...base, legal }] });
}

describe('legal pages take the operator from the configuration (public-area-and-api.md §2)', () => {
  usePublicTestEnv('en');

  it.each(['/imprint', '/privacy', '/terms'])('%s names the configured operator, with no example note and no placeholder', async (path) => {
    serve({ status: 'configured', operator });
    renderPublic(path, routes);
    await flush();
    const article = screen.getByRole('article');
    expect(within(article).getAllByText(/Erika Beispiel GmbH/).length).toBeGreaterThan(0);
    expect(article.textContent).not.toMatch(/Mustermann|Musterstraße/);
    expect(screen.queryByText('Example details.')).toBeNull();
  });

  it('the imprint shows address lines, e-mail and representative, and no phone line when none is set', async () => {
    serve({ status: 'configured', operator });
    renderPublic('/imprint', routes);
    await flush();
    const address = screen.getAllByRole('article')[0].querySelector('address')!;
    expect(address.textContent).toContain('Hauptstraße 5');
    expect(address.textContent).toContain('10115 Berlin');
    expect(address.textContent).toContain('Vertreten durch: Erika Beispiel');
    expect(address.textContent).not.toContain('Telefon');
    expect(within(address).getByRole('link', { name: 'recht@erika.test' }).getAttribute('href')).toBe('mailto:recht@erika.test');
  });

  it('the terms name the operator with its address', async () => {
    serve({ status: 'configured', operator });
    renderPublic('/terms', routes);
    await flush();
    expect(screen.getByText(/angeboten von Erika Beispiel GmbH, Hauptstraße 5, 10115 Berlin, Deutschland/)).toBeTruthy();
  });

  it("'example' shows the built-in example operator with a visible note in the interface language", async () => {
    serve({ status: 'example', operator: null });
    renderPublic('/imprint', routes);
    await flush();
    expect(screen.getByText('Example details.')).toBeTruthy();
    expect(screen.getByText(/sets their own details with the OPERATOR_\* variables/)).toBeTruthy();
    expect(screen.getByRole('article').textContent).toContain('Max Mustermann');
  });

  it('a server without the legal field counts as example', async () => {
    serve(undefined);
    renderPublic('/privacy', routes);
    await flush();
    expect(screen.getByText('Example details.')).toBeTruthy();
  });

  it.each(['/imprint', '/privacy', '/terms'])("'unavailable': %s shows no placeholder, only that the details are not published", async (path) => {
    serve({ status: 'unavailable', operator: null });
    renderPublic(path, routes);
    await flush();
    expect(screen.getByText('The operator has not published these details yet.')).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Mustermann|Musterstraße|feeder\.example/);
    expect(screen.getAllByRole('link', { name: 'Back to start' }).length).toBeGreaterThan(0);
  });
});

describe('legal pages in German', () => {
  usePublicTestEnv('de');

  it('the example note and the unavailable notice are German', async () => {
    serve({ status: 'example', operator: null });
    const { unmount } = renderPublic('/terms', routes);
    await flush();
    expect(screen.getByText('Beispielangaben.')).toBeTruthy();
    unmount();
    serve({ status: 'unavailable', operator: null });
    renderPublic('/terms', routes);
    await flush();
    expect(screen.getByText('Der Betreiber hat diese Angaben noch nicht veröffentlicht.')).toBeTruthy();
  });
});
