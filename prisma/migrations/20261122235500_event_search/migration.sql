-- Full-text search over events (src/services/search.ts): an expression GIN index, so no write
-- path has anything to maintain. The expression must stay identical to searchDocument in
-- src/services/search-sql.ts, or PostgreSQL will not use the index.
CREATE INDEX "Event_search_idx" ON "Event" USING GIN (
  to_tsvector('english'::regconfig, coalesce("content", '') || ' ' || coalesce("toolName", '') || ' ' || coalesce("args"::text, ''))
);

