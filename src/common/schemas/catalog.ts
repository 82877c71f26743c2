import { Type } from 'typebox';

/** The feed catalog (dashboard.md §2 "Feed catalog", §3 "Catalog category"): GET /api/catalog → {categories}. */
export const CatalogLanguageSchema = Type.Union([Type.Literal('EN'), Type.Literal('DE'), Type.Literal('AF'), Type.Literal('KO'), Type.Literal('ES')]);

export const CatalogFeedSchema = Type.Object({
  title: Type.String(),
  xmlUrl: Type.String(),
  language: Type.Union([CatalogLanguageSchema, Type.Null()]),
});

export const CatalogCategorySchema = Type.Object({
  id: Type.String(),
  /** German name. */
  name: Type.String(),
  nameEn: Type.String(),
  feeds: Type.Array(CatalogFeedSchema),
});

export const CatalogReply = Type.Object({ categories: Type.Array(CatalogCategorySchema) });

/**
 * GET /api/catalog/subscribed → {subscribed}: the catalog's addresses (xmlUrl as the catalog lists them, in its order)
 * that match one of the user's subscriptions, matched as subscribing matches a feed the user reads already (by the
 * address's normal form). The add-feed dialog's "subscribed" markers (docs/decisions.md "The catalog's subscribed
 * entries").
 */
export const CatalogSubscribedReply = Type.Object({ subscribed: Type.Array(Type.String()) });

/** 304 of an answer revalidated by its entity tag: no body. */
export const NotModifiedReply = Type.Null({ description: 'Not modified: the If-None-Match tag names the current answer.' });
