import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Check, Copy } from 'lucide-react';
import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicLayout } from '../../components/layouts/PublicLayout.js';
import { useDocumentTitle } from '../../components/layouts/useDocumentTitle.js';
import { Alert } from '../../components/ui/Alert.js';
import { Button } from '../../components/ui/Button.js';
import { Skeleton } from '../../components/ui/Skeleton.js';
import {
  curlFor,
  endpointsOf,
  errorCodeOf,
  exampleBodies,
  exampleBody,
  fieldsOf,
  responsesOf,
  typeLabel,
  constraintsOf,
  type Endpoint,
  type FieldRow,
  type OpenApiDocument,
} from './openapi.js';

/**
 * /api-docs: the English documentation of the public API (public-area-and-api.md §2 and §7; docs/decisions.md
 * "Public API v1"), public, with a back-to-start link. It is rendered from the OpenAPI document the server generates
 * from its own route schemas (fetched at /public-api/v1/openapi.json), so it always describes the running server;
 * the curl examples use this page's origin. The look follows the legal pages (LegalLayout); only the chrome is
 * translated, the documentation itself is English (lang="en").
 */

export const OPENAPI_URL = '/public-api/v1/openapi.json';

async function fetchDocument(): Promise<OpenApiDocument> {
  const res = await fetch(OPENAPI_URL, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

const prose = [
  'text-[1.0625rem] leading-[1.75] text-text',
  '[&_h2]:mt-14 [&_h2]:scroll-mt-24 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:tracking-tight',
  '[&_h3]:scroll-mt-24 [&_h3]:text-xl [&_h3]:font-semibold [&_h3]:tracking-tight',
  '[&_h4]:mt-6 [&_h4]:text-sm [&_h4]:font-semibold [&_h4]:uppercase [&_h4]:tracking-wide [&_h4]:text-muted',
  '[&_p]:mt-4 [&_strong]:font-semibold',
  '[&_a]:text-accent [&_a]:underline [&_a]:underline-offset-2',
  '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-surface-2 [&_:not(pre)>code]:px-1.5 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:text-[0.875em] [&_:not(pre)>code]:break-words',
].join(' ');

/** The document's descriptions use `code` and **bold** only; rendered as elements, never as HTML. */
function Inline({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
          <code key={i}>{part.slice(1, -1)}</code>
        ) : part.startsWith('**') && part.endsWith('**') && part.length > 3 ? (
          <strong key={i}>{part.slice(2, -2)}</strong>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
        .filter(Boolean)
        .map((p, i) => (
          <p key={i}>
            <Inline text={p} />
          </p>
        ))}
    </>
  );
}

function CodeBlock({ code, label, kind }: { code: string; label: string; kind: 'curl' | 'JSON' | 'shell' }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // no clipboard (an insecure origin): the text is there to select by hand
    }
  };
  return (
    <div className="mt-3 overflow-hidden rounded-lg border border-border bg-surface-2">
      <div className="flex items-center justify-between border-b border-border pl-4 pr-1">
        <span className="font-mono text-xs text-muted">{kind}</span>
        <button
          type="button"
          onClick={copy}
          className="inline-flex min-h-9 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium text-muted hover:bg-surface hover:text-text"
        >
          {copied ? <Check aria-hidden className="size-3.5" /> : <Copy aria-hidden className="size-3.5" />}
          <span>{copied ? t('apiDocs.copied') : t('apiDocs.copy')}</span>
          <span className="sr-only">: {label}</span>
        </button>
      </div>
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto px-4 py-3 text-[0.8125rem] leading-relaxed text-text">
        <code>{code}</code>
      </pre>
    </div>
  );
}

function MethodBadge({ method }: { method: string }) {
  const tone = method === 'GET' ? 'bg-success-soft text-success' : 'bg-info-soft text-info';
  return <span className={`inline-block rounded px-1.5 py-0.5 font-mono text-xs font-bold tracking-wide ${tone}`}>{method}</span>;
}

function Fields({ rows, label, response = false }: { rows: FieldRow[]; label: string; response?: boolean }) {
  if (rows.length === 0) return null;
  return (
    <dl aria-label={label} className="mt-3 divide-y divide-border rounded-lg border border-border">
      {rows.map((row) => (
        <div key={row.name} className="px-4 py-3" style={{ paddingLeft: `${1 + row.depth * 1.25}rem` }}>
          <dt className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <code className="font-mono text-[0.875rem] font-semibold break-all">{row.name}</code>
            <span className="text-sm text-muted">{row.type}</span>
            {!response && row.required && <span className="text-xs font-semibold uppercase tracking-wide text-accent">required</span>}
            {response && !row.required && <span className="text-xs font-semibold uppercase tracking-wide text-muted">optional</span>}
          </dt>
          {(row.description || row.constraints.length > 0) && (
            <dd className="mt-1 text-[0.9375rem] leading-relaxed text-muted">
              <Inline text={row.description} />
              {row.constraints.length > 0 && <span> ({row.constraints.join(', ')})</span>}
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}

function EndpointSection({ endpoint, origin }: { endpoint: Endpoint; origin: string }) {
  const { operation } = endpoint;
  const params = (operation.parameters ?? []).map((p): FieldRow => ({
    name: p.name,
    type: `${typeLabel(p.schema)}, in ${p.in}`,
    required: p.required ?? false,
    description: p.description ?? p.schema.description ?? '',
    constraints: constraintsOf(p.schema),
    depth: 0,
  }));
  const bodyMedia = operation.requestBody?.content['application/json'];
  const bodies = exampleBodies(bodyMedia);
  const { success, errors } = responsesOf(operation);
  const successMedia = success?.[1].content?.['application/json'];
  const successExample = exampleBody(successMedia);
  const headingId = `${endpoint.id}-title`;
  return (
    <section
      id={endpoint.id}
      aria-labelledby={headingId}
      data-endpoint={`${endpoint.method} ${endpoint.path}`}
      className="mt-12 scroll-mt-20 border-t border-border pt-10"
    >
      <h3 id={headingId}>{operation.summary ?? `${endpoint.method} ${endpoint.path}`}</h3>
      <p className="mt-3! flex flex-wrap items-center gap-2">
        <MethodBadge method={endpoint.method} />
        <code className="font-mono text-[0.9375rem] break-all">{endpoint.path}</code>
      </p>
      {operation.description && <Paragraphs text={operation.description} />}
      <p className="text-[0.9375rem] text-muted">
        {endpoint.needsToken ? (
          <>
            Needs a token: <code>Authorization: Bearer &lt;token&gt;</code>.
          </>
        ) : (
          'No token needed.'
        )}
      </p>

      {params.length > 0 && (
        <>
          <h4>Parameters</h4>
          <Fields rows={params} label={`Parameters of ${endpoint.method} ${endpoint.path}`} />
        </>
      )}
      {bodyMedia && (
        <>
          <h4>Request body (JSON)</h4>
          {bodyMedia.schema?.description && <p className="mt-2! text-[0.9375rem] text-muted">{bodyMedia.schema.description}</p>}
          <Fields rows={fieldsOf(bodyMedia.schema)} label={`Request body of ${endpoint.method} ${endpoint.path}`} />
        </>
      )}

      {success && (
        <>
          <h4>Response {success[0]}</h4>
          <p className="mt-2! text-[0.9375rem] text-muted">
            <Inline text={success[1].description} />
          </p>
          <Fields rows={fieldsOf(successMedia?.schema)} label={`Response of ${endpoint.method} ${endpoint.path}`} response />
          {successExample !== undefined && (
            <details className="mt-3 rounded-lg border border-border">
              <summary className="cursor-pointer rounded-lg px-4 py-2.5 text-sm font-medium text-text hover:bg-surface-2">Example response</summary>
              <div className="px-3 pb-3">
                <CodeBlock kind="JSON" code={JSON.stringify(successExample, null, 2)} label={`Example response of ${endpoint.method} ${endpoint.path}`} />
              </div>
            </details>
          )}
        </>
      )}

      {errors.length > 0 && (
        <>
          <h4>Errors</h4>
          <ul className="mt-3 space-y-2 text-[0.9375rem]">
            {errors.map(([status, response]) => {
              const code = errorCodeOf(response);
              return (
                <li key={status} className="flex gap-3">
                  <span className="w-10 shrink-0 font-mono font-semibold text-text">{status}</span>
                  <span className="min-w-0 text-muted">
                    <Inline text={response.description} />
                    {code && (
                      <>
                        {' '}
                        <code>{code}</code>
                      </>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}

      <h4>{bodies.length > 1 ? 'Examples' : 'Example'}</h4>
      {(bodies.length > 1 ? bodies : [undefined]).map((body, i) => (
        <CodeBlock
          key={i}
          code={curlFor(endpoint, origin, body)}
          kind="curl"
          label={`curl example${bodies.length > 1 ? ` ${i + 1}` : ''} for ${endpoint.method} ${endpoint.path}`}
        />
      ))}
    </section>
  );
}

const STATUSES: [string, string][] = [
  ['200', 'Success.'],
  ['400', 'Invalid request: a missing or malformed field, parameter or JSON body.'],
  ['401', 'Not authenticated: no token, or a token that is unknown, expired or ended by a password change.'],
  ['403', 'The article’s feed is muted (read, unread, favourite and unfavourite are refused until you unmute it).'],
  ['404', 'Not found: the id does not exist, or it is not yours.'],
  ['429', 'A rate limit is exhausted: wait for the seconds in Retry-After.'],
];

function Overview({ doc, endpoints, origin }: { doc: OpenApiDocument; endpoints: Endpoint[]; origin: string }) {
  const authenticate = endpoints.find((e) => !e.needsToken);
  const listFeeds = endpoints.find((e) => e.needsToken && e.method === 'GET');
  const headers = Object.entries(doc.components?.headers ?? {});
  return (
    <section id="overview" aria-labelledby="overview-title" className="scroll-mt-20">
      <h2 id="overview-title">Overview</h2>
      {doc.info.description && <Paragraphs text={doc.info.description} />}
      <p>
        Base URL: <code>{`${origin}/public-api/v1`}</code>
      </p>

      <h3 id="quick-start" className="mt-10">
        Quick start
      </h3>
      <p>Get a token once, keep it, and send it with every call:</p>
      {authenticate && <CodeBlock kind="curl" code={curlFor(authenticate, origin)} label="Quick start: get a token" />}
      <p>The answer carries the token. Put it in a shell variable and list your feeds:</p>
      <CodeBlock
        kind="shell"
        code={`TOKEN='paste the token here'\n${listFeeds ? curlFor(listFeeds, origin) : `curl -H "Authorization: Bearer $TOKEN" '${origin}/public-api/v1/feeds'`}`}
        label="Quick start: list your feeds"
      />

      <h3 id="rate-limits" className="mt-10">
        Rate-limit headers
      </h3>
      <dl className="mt-3 divide-y divide-border rounded-lg border border-border">
        {headers.map(([name, header]) => (
          <div key={name} className="px-4 py-3">
            <dt>
              <code className="font-mono text-[0.875rem] font-semibold">{name}</code>
            </dt>
            <dd className="mt-1 text-[0.9375rem] leading-relaxed text-muted">{header.description}</dd>
          </div>
        ))}
      </dl>

      <h3 id="errors" className="mt-10">
        Errors and statuses
      </h3>
      <p>
        An error answers <code>{'{"message": "…", "code": "…"}'}</code>: the message is for people, the code for programs.
      </p>
      <ul className="mt-3 space-y-2 text-[0.9375rem]">
        {STATUSES.map(([status, text]) => (
          <li key={status} className="flex gap-3">
            <span className="w-10 shrink-0 font-mono font-semibold">{status}</span>
            <span className="min-w-0 text-muted">{text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Contents({ doc, endpoints }: { doc: OpenApiDocument; endpoints: Endpoint[] }) {
  const { t } = useTranslation();
  const tags = (doc.tags ?? []).filter((tag) => endpoints.some((e) => e.operation.tags?.[0] === tag.name));
  return (
    <nav aria-label={t('apiDocs.contents')} className="text-sm">
      {/* ! : inside the article on phones, where the prose styles would otherwise reach these */}
      <p className="mt-0! font-semibold text-text">{t('apiDocs.contents')}</p>
      <ul className="mt-2 lg:mt-3 lg:space-y-1.5">
        <li>
          <a href="#overview" className="block py-2 text-muted! no-underline! hover:text-text! lg:py-0">
            Overview
          </a>
        </li>
        {tags.map((tag) => (
          <li key={tag.name}>
            <a href={`#tag-${tag.name.toLowerCase()}`} className="block py-2 text-muted! no-underline! hover:text-text! lg:py-0">
              {tag.name}
            </a>
            <ul className="border-l border-border pl-3 lg:mt-1.5 lg:space-y-1.5">
              {endpoints
                .filter((e) => e.operation.tags?.[0] === tag.name)
                .map((e) => (
                  <li key={e.id}>
                    <a href={`#${e.id}`} className="block py-2 text-muted! no-underline! hover:text-text! lg:py-0.5">
                      {e.operation.summary}
                    </a>
                  </li>
                ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Loading() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('common.loading')} className="mt-8 space-y-4">
      <Skeleton className="h-10 w-2/3" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-11/12" />
      <Skeleton className="h-4 w-4/5" />
      <Skeleton className="mt-8 h-32 w-full" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-3/4" />
    </div>
  );
}

export default function ApiDocsPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('apiDocs.title'));
  const query = useQuery({ queryKey: ['public-api-openapi'], queryFn: fetchDocument, staleTime: Infinity, retry: 1 });
  const origin = window.location.origin;
  const doc = query.data;
  const endpoints = doc ? endpointsOf(doc) : [];

  const back = (
    <Link to="/" className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted underline-offset-4 hover:text-text hover:underline">
      <ArrowLeft aria-hidden className="size-4" />
      {t('common.backToStart')}
    </Link>
  );

  let body: ReactNode;
  if (query.isPending) body = <Loading />;
  else if (query.isError || !doc) {
    body = (
      <div className="mt-8">
        <Alert tone="error">{t('apiDocs.loadError')}</Alert>
        <Button variant="secondary" className="mt-4" onClick={() => query.refetch()}>
          {t('apiDocs.retry')}
        </Button>
      </div>
    );
  } else {
    const tags = (doc.tags ?? []).filter((tag) => endpoints.some((e) => e.operation.tags?.[0] === tag.name));
    body = (
      <article lang="en" className={`mt-8 ${prose}`}>
        <header>
          <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">{doc.info.title}</h1>
          <p className="mt-3! text-sm text-muted">
            Version {doc.info.version} · OpenAPI document: <a href={OPENAPI_URL}>{`${origin}${OPENAPI_URL}`}</a>
          </p>
          <div className="mt-8 rounded-lg border border-border bg-surface-2/50 px-4 py-3 text-base lg:hidden">
            <Contents doc={doc} endpoints={endpoints} />
          </div>
        </header>
        <Overview doc={doc} endpoints={endpoints} origin={origin} />
        {tags.map((tag) => (
          <section key={tag.name} aria-labelledby={`tag-${tag.name.toLowerCase()}`}>
            <h2 id={`tag-${tag.name.toLowerCase()}`}>{tag.name}</h2>
            {tag.description && <p className="text-muted">{tag.description}</p>}
            {endpoints
              .filter((e) => e.operation.tags?.[0] === tag.name)
              .map((e) => (
                <EndpointSection key={e.id} endpoint={e} origin={origin} />
              ))}
          </section>
        ))}
      </article>
    );
  }

  return (
    <PublicLayout mainClassName="px-4 py-10 sm:px-6 sm:py-16">
      <div className="mx-auto max-w-6xl lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-14">
        <aside className="hidden lg:block">
          {doc && (
            <div className="sticky top-24 max-h-[calc(100vh-7rem)] overflow-y-auto pb-8">
              <Contents doc={doc} endpoints={endpoints} />
            </div>
          )}
        </aside>
        <div className="min-w-0 max-w-[72ch]">
          {back}
          {!i18n.language.startsWith('en') && (
            <p className="mt-6 rounded-lg border border-border bg-surface-2 px-4 py-3 text-sm text-muted">{t('apiDocs.englishOnly')}</p>
          )}
          {body}
          <div className="mt-14 border-t border-border pt-6">{back}</div>
        </div>
      </div>
    </PublicLayout>
  );
}
