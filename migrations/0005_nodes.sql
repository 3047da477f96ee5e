CREATE TABLE "nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"region" text NOT NULL,
	"state" text DEFAULT 'offline' NOT NULL,
	"api_url" text NOT NULL,
	"files_url" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nodes_state_check" CHECK ("nodes"."state" in ('active', 'draining', 'offline'))
);
--> statement-breakpoint
CREATE INDEX "nodes_state_idx" ON "nodes" USING btree ("state");