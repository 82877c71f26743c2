import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadingList } from '../../../../common/api.js';
import { fakeServer, type Reply, OpenDialog, renderAt, signedIn, setUpDashboardTestEnv, withBody } from '../../../test/dashboardHarness.js';
import { makeFeed, summariesOf } from '../../../test/testFeeds.js';
import { makeList, type SentReadingList } from '../../../test/testLists.js';
import { ReadingListDialog, SMART_TAB_HINT_MS } from './ReadingListDialog.js';

function Harness({ list, onSaved }: { list?: ReadingList; onSaved?(l: ReadingList): void }) {
  return <OpenDialog>{(open, close) => <ReadingListDialog open={open} list={list} onClose={close} onSaved={onSaved} />}</OpenDialog>;
}

function server(save?: () => Reply) {
  return fakeServer({
    'GET /api/feeds': () => [200, [makeFeed({ id: 1, title: 'Tech Feed' }), makeFeed({ id: 2, title: 'Science Feed' })]],
    'GET /api/feeds/summaries': () => [200, summariesOf([makeFeed({ id: 1, title: 'Tech Feed' }), makeFeed({ id: 2, title: 'Science Feed' })])],
    'POST /api/reading-lists': withBody<SentReadingList>((body) => (save ? save() : [201, { reading_list: makeList({ id: 5, ...body }) }])),
    'PUT /api/reading-lists/3': withBody<SentReadingList>((body) => (save ? save() : [200, { reading_list: makeList({ id: 3, ...body }) }])),
  });
}

setUpDashboardTestEnv();

const dialog = () => screen.getByRole('dialog');
const tab = (name: string) => within(dialog()).getByRole('tab', { name });
const save = () => fireEvent.click(within(dialog()).getByRole('button', { name: /^(Create|Save)$/ }));
const posted = (calls: ReturnType<typeof server>) => calls.filter((c) => c.key.startsWith('POST /api/reading-lists') || c.key.startsWith('PUT /api/reading-lists'));

describe('reading-list dialog: tabs (dashboard.md §2, §4 "Smart rules tab")', () => {
  it('has two tabs with tab semantics; the rules tab is disabled for a simple list', async () => {
    server();
    await renderAt('/dashboard', <Harness />);
    expect(screen.getByRole('dialog', { name: 'New reading list' })).toBeTruthy();
    const tablist = within(dialog()).getByRole('tablist');
    expect(
      within(tablist)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Basic info', 'Smart rules']);
    expect(tab('Basic info').getAttribute('aria-selected')).toBe('true');
    expect(tab('Smart rules').getAttribute('aria-disabled')).toBe('true');
    const panel = within(dialog()).getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe(tab('Basic info').id);
    expect(tab('Basic info').getAttribute('aria-controls')).toBe(panel.id);
  });

  it('clicking the disabled rules tab shows a hint for 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server();
    await renderAt('/dashboard', <Harness />);
    fireEvent.click(tab('Smart rules'));
    const hint = 'Turn on “Smart list” first to set rules.';
    expect(screen.getByText(hint)).toBeTruthy();
    expect(tab('Basic info').getAttribute('aria-selected')).toBe('true');
    await act(() => vi.advanceTimersByTimeAsync(SMART_TAB_HINT_MS - 100));
    expect(screen.queryByText(hint)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByText(hint)).toBeNull();
  });

  it('switching "smart list" on jumps to the rules tab with a first rule (keyword, both, all feeds)', async () => {
    server();
    await renderAt('/dashboard', <Harness />);
    fireEvent.click(within(dialog()).getByRole('switch', { name: /Smart list/ }));
    expect(tab('Smart rules').getAttribute('aria-selected')).toBe('true');
    const rules = within(dialog()).getAllByTestId('rule');
    expect(rules).toHaveLength(1);
    expect(within(rules[0]).getByRole<HTMLInputElement>('radio', { name: 'Keyword' }).checked).toBe(true);
    expect(within(rules[0]).getByRole<HTMLInputElement>('radio', { name: 'Title and content' }).checked).toBe(true);
    expect(
      within(rules[0])
        .getByRole('switch', { name: /All feeds/ })
        .getAttribute('aria-checked'),
    ).toBe('true');
  });

  it('arrow keys move between enabled tabs', async () => {
    server();
    await renderAt('/dashboard', <Harness />);
    fireEvent.keyDown(tab('Basic info'), { key: 'ArrowRight' });
    // Disabled: focus goes there, the hint explains, the selection stays.
    expect(tab('Basic info').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Turn on “Smart list” first to set rules.')).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('switch', { name: /Smart list/ }));
    fireEvent.keyDown(tab('Smart rules'), { key: 'ArrowLeft' });
    expect(tab('Basic info').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Basic info'));
    fireEvent.keyDown(tab('Basic info'), { key: 'End' });
    expect(tab('Smart rules').getAttribute('aria-selected')).toBe('true');
    expect(tab('Smart rules').tabIndex).toBe(0);
    expect(tab('Basic info').tabIndex).toBe(-1);
  });

  it('editing a smart list opens on the rules tab with its rules', async () => {
    server();
    const list = makeList({
      id: 3,
      name: 'AI',
      is_smart: true,
      rules: [{ rule_type: 'regex', rule_scope: 'title', rule_value: '\\bAI\\b', include_all_feeds: false, selected_feeds: [2] }],
    });
    await renderAt('/dashboard', <Harness list={list} />);
    expect(screen.getByRole('dialog', { name: 'Edit reading list' })).toBeTruthy();
    expect(tab('Smart rules').getAttribute('aria-selected')).toBe('true');
    const rule = within(dialog()).getByTestId('rule');
    expect(within(rule).getByRole<HTMLInputElement>('radio', { name: 'Regular expression' }).checked).toBe(true);
    expect(within(rule).getByLabelText<HTMLInputElement>('Value').value).toBe('\\bAI\\b');
    expect((await within(rule).findByRole<HTMLInputElement>('checkbox', { name: 'Science Feed' })).checked).toBe(true);
  });
});

describe('reading-list dialog: validation (dashboard.md §5) in German', () => {
  beforeEach(async () => {
    await signedIn(undefined, 'de');
  });

  it('name required and at most 100; description at most 500; save blocked with the form message', async () => {
    const calls = server();
    await renderAt('/dashboard', <Harness />);
    fireEvent.change(within(dialog()).getByLabelText('Name'), { target: { value: '   ' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Anlegen' }));
    expect(screen.getByText('Der Name darf nicht leer sein')).toBeTruthy();
    expect(screen.getByText('Bitte korrigiere die markierten Angaben, bevor du speicherst.')).toBeTruthy();
    expect(within(dialog()).getByRole<HTMLButtonElement>('button', { name: 'Anlegen' }).disabled).toBe(true);

    fireEvent.change(within(dialog()).getByLabelText('Name'), { target: { value: 'x'.repeat(101) } });
    expect(screen.getByText('Der Name darf maximal 100 Zeichen lang sein')).toBeTruthy();
    expect(screen.getByText('101/100')).toBeTruthy();
    fireEvent.change(within(dialog()).getByLabelText('Name'), { target: { value: 'x'.repeat(100) } });
    expect(screen.queryByText('Der Name darf maximal 100 Zeichen lang sein')).toBeNull();

    fireEvent.change(within(dialog()).getByLabelText('Beschreibung'), { target: { value: 'y'.repeat(501) } });
    expect(screen.getByText('Die Beschreibung darf maximal 500 Zeichen lang sein')).toBeTruthy();
    expect(screen.getByText('501/500')).toBeTruthy();
    expect(within(dialog()).getByRole<HTMLButtonElement>('button', { name: 'Anlegen' }).disabled).toBe(true);
    fireEvent.change(within(dialog()).getByLabelText('Beschreibung'), { target: { value: 'y'.repeat(500) } });
    expect(within(dialog()).getByRole<HTMLButtonElement>('button', { name: 'Anlegen' }).disabled).toBe(false);
    expect(posted(calls)).toHaveLength(0);
  });

  it('a smart list needs a rule, each rule a value, and feeds unless "all feeds"', async () => {
    const calls = server();
    await renderAt('/dashboard', <Harness />);
    fireEvent.change(within(dialog()).getByLabelText('Name'), { target: { value: 'KI' } });
    fireEvent.click(within(dialog()).getByRole('switch', { name: /Intelligente Liste/ }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Regel 1 entfernen' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Anlegen' }));
    expect(screen.getByText('Eine intelligente Liste braucht mindestens eine Regel')).toBeTruthy();

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Regel hinzufügen' }));
    expect(screen.queryByText('Eine intelligente Liste braucht mindestens eine Regel')).toBeNull();
    expect(screen.getByText('Bitte gib einen Wert für die Regel ein')).toBeTruthy();
    const rule = within(dialog()).getByTestId('rule');
    fireEvent.change(within(rule).getByLabelText('Wert'), { target: { value: 'KI' } });
    expect(screen.queryByText('Bitte gib einen Wert für die Regel ein')).toBeNull();
    fireEvent.click(within(rule).getByRole('switch', { name: /Alle Feeds/ }));
    expect(screen.getByText('Bitte wähle mindestens einen Feed aus')).toBeTruthy();
    fireEvent.click(await within(rule).findByRole('checkbox', { name: 'Tech Feed' }));
    expect(screen.queryByText('Bitte wähle mindestens einen Feed aus')).toBeNull();
    expect(posted(calls)).toHaveLength(0);

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Anlegen' }));
    await screen.findByText('is closed');
    expect(posted(calls)[0].body).toEqual({
      name: 'KI',
      description: '',
      is_smart: true,
      rules: [{ rule_type: 'keyword', rule_scope: 'both', rule_value: 'KI', include_all_feeds: false, selected_feeds: [1] }],
    });
  });

  it('a save with errors on the rules tab shows that tab', async () => {
    server();
    await renderAt('/dashboard', <Harness />);
    fireEvent.change(within(dialog()).getByLabelText('Name'), { target: { value: 'KI' } });
    fireEvent.click(within(dialog()).getByRole('switch', { name: /Intelligente Liste/ }));
    fireEvent.click(tab('Grundlagen'));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Anlegen' }));
    expect(tab('Intelligente Regeln').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Bitte gib einen Wert für die Regel ein')).toBeTruthy();
  });
});

describe('reading-list dialog: saving (§5 escaping, §8 server messages)', () => {
  it('escapes angle brackets in name, description and rule values; trims name and description, not rule values', async () => {
    const calls = server();
    const saved = vi.fn();
    await renderAt('/dashboard', <Harness onSaved={saved} />);
    fireEvent.change(within(dialog()).getByLabelText('Name'), { target: { value: ' <b>Bold</b> ' } });
    fireEvent.change(within(dialog()).getByLabelText('Description'), { target: { value: 'a > b' } });
    fireEvent.click(within(dialog()).getByRole('switch', { name: /Smart list/ }));
    fireEvent.change(within(dialog()).getByLabelText('Value'), { target: { value: ' <script> ' } });
    fireEvent.click(within(dialog()).getByRole('radio', { name: 'Title' }));
    fireEvent.click(within(dialog()).getByRole('radio', { name: 'Regular expression' }));
    save();
    await screen.findByText('is closed');
    expect(posted(calls)[0].body).toEqual({
      name: '&lt;b&gt;Bold&lt;/b&gt;',
      description: 'a &gt; b',
      is_smart: true,
      rules: [{ rule_type: 'regex', rule_scope: 'title', rule_value: ' &lt;script&gt; ', include_all_feeds: true, selected_feeds: [] }],
    });
    expect(saved).toHaveBeenCalledWith(expect.objectContaining({ id: 5 }), true);
  });

  it('shows an edited list unescaped and sends PUT; turning smart off sends no rules', async () => {
    const calls = server();
    const list = makeList({
      id: 3,
      name: 'Tom &amp; &lt;3',
      is_smart: true,
      rules: [{ rule_type: 'keyword', rule_scope: 'both', rule_value: 'x', include_all_feeds: true, selected_feeds: [] }],
    });
    await renderAt('/dashboard', <Harness list={list} />);
    fireEvent.click(tab('Basic info'));
    expect(within(dialog()).getByLabelText<HTMLInputElement>('Name').value).toBe('Tom &amp; <3');
    fireEvent.click(within(dialog()).getByRole('switch', { name: /Smart list/ }));
    expect(tab('Smart rules').getAttribute('aria-disabled')).toBe('true');
    save();
    await screen.findByText('is closed');
    expect(calls.find((c) => c.key === 'PUT /api/reading-lists/3')?.body).toEqual({ name: 'Tom &amp; &lt;3', description: '', is_smart: false, rules: [] });
  });

  it('shows the server’s refusal by its code, else its message, else an unknown-error text', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let answer: [number, unknown?] = [400, { message: 'bad regex', code: 'INVALID_REGEX' }];
    server(() => answer);
    await renderAt('/dashboard', <Harness />);
    fireEvent.change(within(dialog()).getByLabelText('Name'), { target: { value: 'AI' } });
    save();
    expect(await screen.findByText('The regular expression is not valid.')).toBeTruthy();
    expect(screen.getByText('is open')).toBeTruthy();

    answer = [400, { message: 'Something odd.', code: 'ODD' }];
    save();
    expect(await screen.findByText('The reading list could not be saved: Something odd.')).toBeTruthy();

    answer = [500, 'not json at all'];
    save();
    await waitFor(() => expect(screen.queryByText(/could not be saved: HTTP 500|Unknown error/)).toBeTruthy());
  });
});
