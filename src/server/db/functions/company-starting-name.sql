-- The name a new company record starts with: the solo seller's own business or display name when
-- the id is a user's uid (SPEC §3: companyId falls back to the uid), else the given name, else the id.
CREATE OR REPLACE FUNCTION "company_starting_name"(p_id text, p_name text) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_name text;
BEGIN
  IF p_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    SELECT coalesce(nullif(trim(p.company_name), ''), nullif(trim(p.display_name), '')) INTO v_name
    FROM user_profiles p WHERE p.user_id = p_id::uuid AND p.company_id IS NULL;
  END IF;
  RETURN coalesce(v_name, nullif(trim(p_name), ''), p_id);
END $$;
