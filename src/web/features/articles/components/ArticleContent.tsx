import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Article } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Skeleton } from '../../../components/ui/Skeleton.js';
import { extractContent } from '../api.js';
import { isTinyLoadedImage, prepareContent } from '../text.js';
import '../article-content.css';

/**
 * The extended card's body (dashboard.md §2, §4 "Card mode", §8 "Full content load failure"): the full article,
 * fetched once per article through POST /api/extract-article-content and kept for the session. When the full
 * text cannot be had, the article's own content is shown with the note "Vollständiger Artikel konnte nicht
 * geladen werden". The HTML is the server's sanitised output; nothing else is ever rendered as HTML.
 */
export function ArticleContent({ article }: { article: Article }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['article-content', article.id],
    queryFn: () => extractContent(article),
    enabled: Boolean(article.url),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: false,
  });

  const failed = !article.url ? false : query.isError || Boolean(query.data?.warning);
  const html = query.data?.content || article.content || '';
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

  if (article.url && query.isPending) {
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
      {failed && (
        <Alert tone="warning" className="mb-4 max-w-[68ch]">
          {t('articles.card.fullContentFailed')}
        </Alert>
      )}
      {article.author && <p className="mb-3 text-sm text-muted">{t('articles.card.byAuthor', { author: article.author })}</p>}
      {prepared ? (
        <div ref={ref} className="article-prose" dangerouslySetInnerHTML={{ __html: prepared }} />
      ) : (
        <p className="text-muted">{article.summary || t('articles.card.noContent')}</p>
      )}
    </div>
  );
}
