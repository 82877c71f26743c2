import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedIcon, feedInitial } from './FeedIcon.js';

afterEach(cleanup);

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('FeedIcon (dashboard.md §3 "Feed", §8 "Favicon load failure")', () => {
  it('shows the stored icon as a data: URL with its media type', () => {
    const { container } = render(<FeedIcon feed={{ title: 'Heise', favicon_base64: PNG, favicon_type: 'image/png' }} />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
  });

  it('guesses SVG from the data when no type is stored', () => {
    const svg = btoa('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const { container } = render(<FeedIcon feed={{ title: 'X', favicon_base64: svg, favicon_type: null }} />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe(`data:image/svg+xml;base64,${svg}`);
  });

  it('shows the first letter of the title when there is no icon, and ? without a title', () => {
    render(<FeedIcon feed={{ title: 'tagesschau', favicon_base64: null, favicon_type: null }} />);
    expect(screen.getByTestId('feed-letter-tile').textContent).toBe('T');
    cleanup();
    render(<FeedIcon feed={{ title: '  ', favicon_base64: null, favicon_type: null }} />);
    expect(screen.getByTestId('feed-letter-tile').textContent).toBe('?');
  });

  it('falls back to the letter tile when the image fails to load', () => {
    const { container } = render(<FeedIcon feed={{ title: 'Ärzteblatt', favicon_base64: 'broken', favicon_type: 'image/png' }} />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('feed-letter-tile').textContent).toBe('Ä');
  });

  it('takes the first character, not the first UTF-16 unit', () => {
    expect(feedInitial('😀 Emoji')).toBe('😀');
  });
});
