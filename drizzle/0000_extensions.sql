-- Trigram search over auctions (name, category, marca, envio, company, winner). pg_trgm is a
-- trusted extension: a database owner without superuser may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
