-- Added without a default first, then given one: a volatile default on ADD COLUMN would rewrite
-- the whole outbox under an exclusive lock; rows already there keep null (older than any rebuild).
ALTER TABLE "catalog_outbox" ADD COLUMN "xact_id" xid8;--> statement-breakpoint
ALTER TABLE "catalog_outbox" ALTER COLUMN "xact_id" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "catalog_outbox_xact_idx" ON "catalog_outbox" USING btree ("xact_id");
