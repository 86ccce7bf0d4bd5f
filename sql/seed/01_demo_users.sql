-- Demo content 1/5: a demo admin and a demo candidate who can sign in with e-mail and password.
-- Development only (never production). Idempotent: fixed ids, existing rows are left as they are.
-- Passwords are bcrypt (cost 10) as Supabase Auth stores them, so a GoTrue-compatible password grant verifies them.
do $$
declare
  demo record;
begin
  for demo in
    select * from (values
      ('5eed0000-0000-4000-8000-000000000001'::uuid, 'admin@example.com', 'demo-admin-2025', 'Alex Admin'),
      ('5eed0000-0000-4000-8000-000000000002'::uuid, 'candidate@example.com', 'demo-candidate-2025', 'Casey Candidate')
    ) as t (id, email, password, full_name)
  loop
    insert into auth.users (
      instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
      raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new,
      email_change, is_sso_user, is_anonymous
    ) values (
      '00000000-0000-0000-0000-000000000000', demo.id, 'authenticated', 'authenticated', demo.email,
      extensions.crypt(demo.password, extensions.gen_salt('bf', 10)), now(),
      '{"provider": "email", "providers": ["email"]}', jsonb_build_object('full_name', demo.full_name),
      now(), now(), '', '', '', '', false, false
    ) on conflict (id) do nothing;

    insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
    values (
      demo.id::text, demo.id,
      jsonb_build_object('sub', demo.id::text, 'email', demo.email, 'email_verified', true, 'phone_verified', false),
      'email', null, now(), now()
    ) on conflict (provider_id, provider) do nothing;

    -- Registered as demo content: GATEWAY_ENV=production refuses to start while it exists (`gateway demo remove`).
    insert into gateway.demo_accounts (user_id, email) values (demo.id, demo.email) on conflict (user_id) do nothing;

    raise notice 'demo user: % / password: %', demo.email, demo.password;
  end loop;

  insert into public.user_roles (user_id, role)
  values ('5eed0000-0000-4000-8000-000000000001', 'admin')
  on conflict (user_id, role) do nothing;
  raise notice 'demo admin role granted to admin@example.com';
end
$$;
