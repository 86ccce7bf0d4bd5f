-- Makes an account a site admin, creating the account first when it does not exist (the first admin without writing
-- SQL by hand). Run by scripts/make-admin.sh (`make admin EMAIL=...`) with psql as the database owner:
--   psql "$DB" -v email=someone@example.com -v password=SECRET -f sql/admin/grant-admin.sql
-- An existing account keeps its password (pass password=''); a new one is confirmed at once, with the given password
-- hashed as Supabase Auth stores it (bcrypt, cost 10) and an e-mail identity, so it signs in at /admin-login.
-- The grant is recorded in public.audit_log by its trigger.
\set ON_ERROR_STOP on
begin;

create temporary table admin_request on commit drop as
select lower(btrim(:'email')) as email, :'password'::text as password;

do $$
begin
  if (select email from admin_request) !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'not an e-mail address: %', (select email from admin_request);
  end if;
  if not exists (select 1 from auth.users u, admin_request r where lower(u.email) = r.email and not u.is_sso_user)
     and char_length((select password from admin_request)) < 6 then
    raise exception 'no account for % yet: a password of at least 6 characters is needed to create it', (select email from admin_request);
  end if;
end
$$;

with new_user as (
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
                          raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
                          email_change_token_new, email_change, is_sso_user, is_anonymous)
  select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', r.email,
         extensions.crypt(r.password, extensions.gen_salt('bf', 10)), now(),
         '{"provider": "email", "providers": ["email"]}', '{}', now(), now(), '', '', '', '', false, false
  from admin_request r
  where not exists (select 1 from auth.users u where lower(u.email) = r.email and not u.is_sso_user)
  returning id, email
)
insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select n.id::text, n.id, jsonb_build_object('sub', n.id::text, 'email', n.email, 'email_verified', true, 'phone_verified', false),
       'email', now(), now()
from new_user n;

insert into public.user_roles (user_id, role)
select u.id, 'admin' from auth.users u, admin_request r where lower(u.email) = r.email and not u.is_sso_user
on conflict (user_id, role) do nothing;

select format('admin: %s (user %s)', u.email, u.id) as result
from auth.users u join public.user_roles ur on ur.user_id = u.id and ur.role = 'admin', admin_request r
where lower(u.email) = r.email;
commit;
