-- What the engine needs to know of a bidder or winner, from their profile: the name they go by
-- (display name, else first and last name, else the e-mail's local part), their company (SPEC §3:
-- companyId, falling back to their id), whether the profile lets them bid (a last name and a
-- WhatsApp number with consent), and their contact for winnerDetails. All null for no user.
CREATE OR REPLACE FUNCTION "bidder_facts"(p_user uuid, OUT o_name text, OUT o_company text, OUT o_complete boolean, OUT o_email text, OUT o_whatsapp text)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(nullif(trim(p."display_name"), ''), nullif(trim(concat_ws(' ', p."first_name", p."last_name")), ''), split_part(u."email", '@', 1)),
         coalesce(nullif(trim(p."company_id"), ''), u."id"::text),
         coalesce(nullif(trim(p."last_name"), '') IS NOT NULL AND p."whatsapp" IS NOT NULL AND p."whatsapp_consent_given", false),
         coalesce(p."email", u."email"), p."whatsapp"
    INTO o_name, o_company, o_complete, o_email, o_whatsapp
    FROM "users" u LEFT JOIN "user_profiles" p ON p."user_id" = u."id" WHERE u."id" = p_user;
END
$$;
