CREATE TABLE "favorites" (
	"account_id" uuid NOT NULL,
	"listing_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_account_id_listing_id_pk" PRIMARY KEY("account_id","listing_id")
);
--> statement-breakpoint
CREATE INDEX "favorites_account_created_idx" ON "favorites" USING btree ("account_id","created_at");