-- Stored signing keys may be symmetric HS256 keys (`kty: oct`), as Supabase Auth's GOTRUE_JWT_KEYS allows: a
-- project's legacy JWT secret kept beside its asymmetric keys. For HS256 `private_key_der` holds the secret itself;
-- such a key signs and verifies but is never published in the JWKS.
alter table gateway.signing_keys drop constraint if exists signing_keys_algorithm_check;
alter table gateway.signing_keys add constraint signing_keys_algorithm_check
  check (algorithm in ('ES256', 'RS256', 'HS256'));
