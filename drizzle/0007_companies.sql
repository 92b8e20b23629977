CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rfc" text,
	"legal_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_name_present" CHECK (length(trim("companies"."name")) > 0),
	CONSTRAINT "companies_rfc_format" CHECK ("companies"."rfc" ~ '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$')
);
--> statement-breakpoint
-- Hand-written below: drizzle-kit does not generate data migrations, functions or triggers.
-- The name a new company record starts with: the solo seller's own business or display name when
-- the id is a user's uid (SPEC §3: companyId falls back to the uid), else the given name, else the id.
CREATE FUNCTION "company_starting_name"(p_id text, p_name text) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_name text;
BEGIN
  IF p_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    SELECT coalesce(nullif(trim(p.company_name), ''), nullif(trim(p.display_name), '')) INTO v_name
    FROM user_profiles p WHERE p.user_id = p_id::uuid AND p.company_id IS NULL;
  END IF;
  RETURN coalesce(v_name, nullif(trim(p_name), ''), p_id);
END $$;
--> statement-breakpoint
-- Every company id in use has its record: a profile joining an unseen company id (PUT /api/users,
-- SPEC's contract), or an auction, live session or payment stamped with a solo seller's uid.
CREATE FUNCTION "companies_ensure"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- to_jsonb: one function for four tables, only profiles and payments carry a company_name.
  IF NEW.company_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM companies WHERE id = NEW.company_id) THEN
    INSERT INTO companies (id, name)
    VALUES (NEW.company_id, company_starting_name(NEW.company_id, to_jsonb(NEW) ->> 'company_name'))
    ON CONFLICT (id) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "user_profiles_company_ensure" AFTER INSERT OR UPDATE OF company_id ON "user_profiles"
  FOR EACH ROW WHEN (NEW.company_id IS NOT NULL) EXECUTE FUNCTION "companies_ensure"();
--> statement-breakpoint
CREATE TRIGGER "auctions_company_ensure" AFTER INSERT OR UPDATE OF company_id ON "auctions"
  FOR EACH ROW EXECUTE FUNCTION "companies_ensure"();
--> statement-breakpoint
CREATE TRIGGER "live_sessions_company_ensure" AFTER INSERT OR UPDATE OF company_id ON "live_sessions"
  FOR EACH ROW EXECUTE FUNCTION "companies_ensure"();
--> statement-breakpoint
CREATE TRIGGER "payments_company_ensure" AFTER INSERT OR UPDATE OF company_id ON "payments"
  FOR EACH ROW EXECUTE FUNCTION "companies_ensure"();
--> statement-breakpoint
-- Existing names: a shared company id is named by its most recently updated member who gave a
-- business name; ids only seen on auctions, sessions or payments (solo sellers) by their owner's
-- profile, else the name last copied onto a payment, else the id itself.
INSERT INTO companies (id, name)
SELECT DISTINCT ON (p.company_id) p.company_id, coalesce(nullif(trim(p.company_name), ''), p.company_id)
FROM user_profiles p
WHERE p.company_id IS NOT NULL
ORDER BY p.company_id, (nullif(trim(p.company_name), '') IS NULL), p.updated_at DESC, p.user_id;
--> statement-breakpoint
INSERT INTO companies (id, name)
SELECT u.company_id, company_starting_name(u.company_id, (
  SELECT pay.company_name FROM payments pay
  WHERE pay.company_id = u.company_id AND nullif(trim(pay.company_name), '') IS NOT NULL
  ORDER BY pay.created_at DESC LIMIT 1
))
FROM (SELECT company_id FROM auctions UNION SELECT company_id FROM live_sessions UNION SELECT company_id FROM payments) u
WHERE NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = u.company_id)
ON CONFLICT (id) DO NOTHING;
