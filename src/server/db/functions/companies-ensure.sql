-- Every company id in use has its record: a profile joining an unseen company id (PUT /api/users,
-- SPEC's contract), or an auction, live session or payment stamped with a solo seller's uid.
-- Created by drizzle/0007 with the *_company_ensure triggers on those four tables, which run it.
CREATE OR REPLACE FUNCTION "companies_ensure"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- to_jsonb: one function for four tables, only profiles and payments carry a company_name.
  IF NEW.company_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM companies WHERE id = NEW.company_id) THEN
    INSERT INTO companies (id, name)
    VALUES (NEW.company_id, company_starting_name(NEW.company_id, to_jsonb(NEW) ->> 'company_name'))
    ON CONFLICT (id) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
