import { AccountsService } from './accounts/accounts.service.js';
import { DEFAULT_PASSWORD_HASHING, PasswordHasher, type PasswordHashingOptions } from './accounts/passwords.js';
import { AccessTokens } from './accounts/tokens.js';
import { FeverService } from './apis/fever/fever.service.js';
import { GReaderAuth } from './apis/greader/greader.auth.js';
import { GReaderService } from './apis/greader/greader.service.js';
import { PublicApiService } from './apis/public-v1/public.service.js';
import { ArticlesService } from './articles/articles.service.js';
import { CatalogService } from './catalog/catalog.service.js';
import { ExtractService } from './articles/extract.service.js';
import type { BackgroundWork } from './background.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { FeedsService } from './feeds/feeds.service.js';
import { FiltersService } from './feeds/filters.service.js';
import { FoldersService } from './folders/folders.service.js';
import type { Logger } from './log.js';
import type { Mailer } from './mail/mailer.js';
import { OpmlService } from './opml/opml.service.js';
import { ReadingListsService } from './reading-lists/reading-lists.service.js';
import type { RefreshEngine } from './refresh/engine.js';
import { FeverSettingsService } from './settings/fever-settings.service.js';

/**
 * The composition root of the services (docs/ARCHITECTURE.md "Rules" 14; docs/decisions.md "Composition root, logging and
 * frozen migrations"): every service is built here, once per app, and the route modules receive them. A route module
 * never builds a service, so the web app, the protocol adapters and the public API share one instance of each
 * (one ArticlesService, one FeedsService), and a dependency added to a service is wired in one place.
 */
export interface ServicesDeps {
  db: Db;
  config: Readonly<Pick<Config, 'secret' | 'publicUrl' | 'registrationDomains' | 'feeds' | 'legal'>>;
  /** The clock for tokens, expiry and stored times; tests move it. */
  now: () => Date;
  /** The process's logger (log.ts), or the web app's child of it. */
  log: Logger;
  mailer: Mailer;
  /** argon2id costs; tests lower them. */
  passwordHashing?: PasswordHashingOptions;
  /** Where work after an answer runs (account mails). */
  background?: BackgroundWork;
  /** The feed refresh engine: the services that add or fetch feeds need it (tests of accounts alone run without). */
  refresh?: Pick<RefreshEngine, 'fetcher' | 'pool' | 'enqueue'>;
}

/** The services that fetch, parse or queue feeds: present only with a refresh engine. */
export interface FeedServices {
  feeds: FeedsService;
  filters: FiltersService;
  extract: ExtractService;
  opml: OpmlService;
  greaderAuth: GReaderAuth;
  greader: GReaderService;
  publicApi: PublicApiService;
}

export interface Services {
  accessTokens: AccessTokens;
  hasher: PasswordHasher;
  accounts: AccountsService;
  articles: ArticlesService;
  catalog: CatalogService;
  folders: FoldersService;
  readingLists: ReadingListsService;
  feverSettings: FeverSettingsService;
  fever: FeverService;
  /** Undefined without a refresh engine (ServicesDeps.refresh). */
  feedServices?: FeedServices;
}

export function createServices(deps: ServicesDeps): Services {
  const { db, config, now, log } = deps;
  const accessTokens = new AccessTokens(config.secret, now);
  const hasher = new PasswordHasher(deps.passwordHashing ?? DEFAULT_PASSWORD_HASHING);
  const accounts = new AccountsService({ db, config, mailer: deps.mailer, hasher, accessTokens, log, now, background: deps.background });
  const articles = new ArticlesService({ db, now });
  const services: Services = {
    accessTokens,
    hasher,
    accounts,
    articles,
    catalog: new CatalogService({ db }),
    folders: new FoldersService({ db, now }),
    readingLists: new ReadingListsService({ db, now, articles }),
    feverSettings: new FeverSettingsService({ db, secret: config.secret, now }),
    fever: new FeverService({ db, now, articles }),
  };
  const refresh = deps.refresh;
  if (refresh) {
    const enqueue = (ids: number[]) => refresh.enqueue(ids);
    const feeds = new FeedsService({ db, fetcher: refresh.fetcher, pool: refresh.pool, enqueue, now, log });
    const greaderAuth = new GReaderAuth(db, config.secret, () => now().getTime());
    services.feedServices = {
      feeds,
      filters: new FiltersService({ db, now }),
      extract: new ExtractService({ db, fetcher: refresh.fetcher, pool: refresh.pool, now, log }),
      opml: new OpmlService({ db, enqueue, pool: refresh.pool, now, allowPrivateHosts: config.feeds.allowPrivateHosts, log }),
      greaderAuth,
      greader: new GReaderService({ db, auth: greaderAuth, feeds, publicUrl: config.publicUrl, now }),
      publicApi: new PublicApiService({ db, hasher, feeds, articles, now, publicUrl: config.publicUrl }),
    };
  }
  return services;
}

/** The feed services of a route module that only app.ts registers with a refresh engine; a programming error else. */
export function feedServicesOf(services: Pick<Services, 'feedServices'>): FeedServices {
  if (!services.feedServices) throw new Error('These routes need the refresh engine (ServicesDeps.refresh).');
  return services.feedServices;
}
