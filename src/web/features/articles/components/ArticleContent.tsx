import { useQuery } from '@tanstack/react-query';
import { Globe, RotateCw } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Article } from '../../../../common/api.js';
import { Skeleton } from '../../../components/ui/Skeleton.js';
import { useFeedSummaries } from '../../feeds/index.js';
import { alwaysLoadsOriginal, extractContent } from '../api.js';
import { isTinyLoadedImage, looksLikeTeaser, prepareContent } from '../text.js';
import '../article-content.css';

/**
 * The extended card's body (dashboard.md §2 "Article card", §4 "Card mode", §8 "Full content load failure"): what
 * the feed carries, with its author, first. The original page is fetched (POST /api/extract-article-content, once
 * per article and kept for the session) only when the feed's content looks like a teaser (text.ts looksLikeTeaser,
 * docs/decisions.md "Reading flow"), when the feed is set to always load the original, or when the reader presses
 * "Load the original". A failed fetch leaves the feed's content with a quiet note and a retry. The HTML is the
 * server's sanitised output; nothing else is ever rendered as HTML.
 */
export function ArticleContent({ article }: { article: Article }) {
  const { t } = useTranslation();
  const feeds = useFeedSummaries();
  const feed = feeds.data?.find((f) => f.id === article.feed_id);
  const teaser = useMemo(() => looksLikeTeaser(article.content || article.summary), [article.content, article.summary]);
  const [asked, setAsked] = useState(false);
  const wanted = Boolean(article.url) && (asked || teaser || alwaysLoadsOriginal(feed));
  const query = useQuery({
    queryKey: ['article-content', article.id],
    queryFn: () => extractContent(article),
    enabled: wanted,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: false,
  });

  const fetched = wanted && query.isSuccess && !query.data?.warning && Boolean(query.data?.content);
  const failed = wanted && (query.isError || (query.isSuccess && !fetched));
  // A failed fetch answers with the feed's content (cleaned by the server): shown as it comes.
  const html = (wanted ? query.data?.content : null) || article.content || '';
  const prepared = useMemo(() => prepareContent(html), [html]);
  const ref = useRef<HTMLDivElement>(null);

  // Images without size attributes show their real size only once loaded: tiny ones (tracking pixels) go then.
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const check = (img: HTMLImageElement) => {
      if (isTinyLoadedImage(img)) img.remove();
    };
    const images = Array.from(root.querySelectorAll('img'));
    const onLoad = (e: Event) => check(e.target as HTMLImageElement);
    for (const img of images) {
      if (img.complete) check(img);
      else img.addEventListener('load', onLoad, { once: true });
    }
    return () => images.forEach((img) => img.removeEventListener('load', onLoad));
  }, [prepared]);

  if (wanted && query.isPending) {
    return (
      <div className="mt-4 flex max-w-[68ch] flex-col gap-2.5" aria-busy="true" aria-label={t('articles.card.loadingContent')}>
        <Skeleton className="h-4 w-11/12" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-10/12" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-7/12" />
      </div>
    );
  }

  return (
    <div className="mt-4">
      {article.author && <p className="mb-3 text-sm text-muted">{t('articles.card.byAuthor', { author: article.author })}</p>}
      {prepared ? (
        <div ref={ref} className="article-prose" dangerouslySetInnerHTML={{ __html: prepared }} />
      ) : (
        <p className="text-muted">{article.summary || t('articles.card.noContent')}</p>
      )}
      {failed ? (
        <p className="mt-3 flex max-w-[68ch] flex-wrap items-center gap-x-2 text-sm text-muted" data-testid="original-failed">
          <span>{t('articles.card.fullContentFailed')}</span>
          <button
            type="button"
            onClick={() => void query.refetch()}
            disabled={query.isFetching}
            className="inline-flex min-h-10 items-center gap-1.5 rounded-md font-medium text-accent underline-offset-4 hover:underline disabled:opacity-60"
          >
            <RotateCw aria-hidden className={`size-3.5 ${query.isFetching ? 'animate-spin' : ''}`} />
            {t('articles.card.retryOriginal')}
          </button>
        </p>
      ) : (
        article.url &&
        !wanted && (
          <button
            type="button"
            onClick={() => setAsked(true)}
            className="mt-3 inline-flex min-h-10 items-center gap-1.5 rounded-md text-sm font-medium text-accent underline-offset-4 hover:underline"
          >
            <Globe aria-hidden className="size-4" />
            {t('articles.card.loadOriginal')}
          </button>
        )
      )}
    </div>
  );
}
