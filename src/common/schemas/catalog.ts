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
