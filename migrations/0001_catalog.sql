CREATE SEQUENCE "public"."catalog_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "amenities" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"group" text NOT NULL,
	"kinds" text[] NOT NULL,
	"name" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"version" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"dead_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"name" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "currencies" (
	"code" text PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"symbol" text,
	"minor_units" smallint NOT NULL,
	"content_hash" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_schedules" (
	"event_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"kind" text NOT NULL,
	"date" date,
	"days" text[],
	"date_from" date,
	"date_until" date,
	"except_dates" date[],
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	CONSTRAINT "event_schedules_event_id_position_pk" PRIMARY KEY("event_id","position")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"slug" text NOT NULL,
	"status" text NOT NULL,
	"title" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"original_lang" text NOT NULL,
	"category_id" integer NOT NULL,
	"place_id" integer NOT NULL,
	"venue_name" jsonb NOT NULL,
	"venue_lat" double precision NOT NULL,
	"venue_lon" double precision NOT NULL,
	"timezone" text NOT NULL,
	"entry" text NOT NULL,
	"price_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"audience" text NOT NULL,
	"crowd" text NOT NULL,
	"event_lang" text NOT NULL,
	"content_hash" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fx_rates" (
	"base" text NOT NULL,
	"date" date NOT NULL,
	"source" text,
	"fetched_at" timestamp with time zone,
	"rates" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_rates_base_date_pk" PRIMARY KEY("base","date")
);
--> statement-breakpoint
CREATE TABLE "listing_amenities" (
	"listing_id" integer NOT NULL,
	"amenity_id" integer NOT NULL,
	CONSTRAINT "listing_amenities_listing_id_amenity_id_pk" PRIMARY KEY("listing_id","amenity_id")
);
--> statement-breakpoint
CREATE TABLE "listing_blocked_ranges" (
	"listing_id" integer NOT NULL,
	"date_from" date NOT NULL,
	"date_to" date NOT NULL,
	CONSTRAINT "listing_blocked_ranges_listing_id_date_from_pk" PRIMARY KEY("listing_id","date_from")
);
--> statement-breakpoint
CREATE TABLE "listing_categories" (
	"listing_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	CONSTRAINT "listing_categories_listing_id_category_id_pk" PRIMARY KEY("listing_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "listing_experience" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"duration_min" integer NOT NULL,
	"group_size_max" integer NOT NULL,
	"same_day" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_food" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"format" text NOT NULL,
	"diets" text[] NOT NULL,
	"alcohol" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_service" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"duration_min" integer NOT NULL,
	"same_day" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_stay" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"property_type" text NOT NULL,
	"room_type" text NOT NULL,
	"bedrooms" smallint NOT NULL,
	"beds" smallint NOT NULL,
	"bathrooms" smallint NOT NULL,
	"max_guests" smallint NOT NULL,
	"beach_distance_m" integer,
	"pets_allowed" boolean NOT NULL,
	"smoking_allowed" boolean NOT NULL,
	"children_allowed" boolean NOT NULL,
	"parties_allowed" boolean NOT NULL,
	"long_stay" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_transport" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"vehicle_kind" text NOT NULL,
	"transmission" text NOT NULL,
	"seats" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"title" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"original_lang" text NOT NULL,
	"place_id" integer NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"location_mode" text NOT NULL,
	"price_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"price_unit" text NOT NULL,
	"rating_avg" real,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"photos" jsonb NOT NULL,
	"instant_book" boolean DEFAULT false NOT NULL,
	"languages" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"content_hash" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "places" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"parent_id" integer,
	"level" text NOT NULL,
	"slug" text NOT NULL,
	"name" jsonb NOT NULL,
	"timezone" text,
	"currency" text,
	"center_lat" double precision,
	"center_lon" double precision,
	"popular" boolean DEFAULT false NOT NULL,
	"content_hash" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_schedules" ADD CONSTRAINT "event_schedules_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_amenities" ADD CONSTRAINT "listing_amenities_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_blocked_ranges" ADD CONSTRAINT "listing_blocked_ranges_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_categories" ADD CONSTRAINT "listing_categories_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_experience" ADD CONSTRAINT "listing_experience_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_food" ADD CONSTRAINT "listing_food_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_service" ADD CONSTRAINT "listing_service_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_stay" ADD CONSTRAINT "listing_stay_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_transport" ADD CONSTRAINT "listing_transport_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "amenities_code_uq" ON "amenities" USING btree ("code");--> statement-breakpoint
CREATE INDEX "catalog_outbox_pending_idx" ON "catalog_outbox" USING btree ("next_attempt_at","id") WHERE "catalog_outbox"."processed_at" is null and "catalog_outbox"."dead_at" is null;--> statement-breakpoint
CREATE INDEX "catalog_outbox_dead_idx" ON "catalog_outbox" USING btree ("dead_at") WHERE "catalog_outbox"."dead_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_code_uq" ON "categories" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "events_external_id_uq" ON "events" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_slug_uq" ON "events" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "listings_external_id_uq" ON "listings" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "listings_place_idx" ON "listings" USING btree ("place_id");--> statement-breakpoint
CREATE UNIQUE INDEX "places_external_id_uq" ON "places" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "places_slug_uq" ON "places" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "places_parent_idx" ON "places" USING btree ("parent_id");