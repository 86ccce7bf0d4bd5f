-- Analytics benchmark fixture: 1,000 candidate profiles and 200,000 profile views over the last 365 days, plus an
-- admin (bench.admin@example.com / bench-admin-password) and 50 candidate users. Views are written with their
-- classification (visitor hash, repeats ~10 %, bots ~5 %, admin views ~3 %) directly, triggers off, as a year of
-- page loads would have left them. Run as superuser on a migrated database.
set session_replication_role = replica;

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
                        raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
                        email_change_token_new, email_change, is_sso_user, is_anonymous)
select '00000000-0000-0000-0000-000000000000', md5('bench-user-' || n)::uuid, 'authenticated', 'authenticated',
       case when n = 0 then 'bench.admin@example.com' else 'bench.user' || n || '@example.com' end,
       extensions.crypt('bench-admin-password', extensions.gen_salt('bf', 4)), now(),
       '{"provider": "email", "providers": ["email"]}', '{}', now(), now(), '', '', '', '', false, false
from generate_series(0, 50) n;
insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select md5('bench-user-' || n), md5('bench-user-' || n)::uuid,
       jsonb_build_object('sub', md5('bench-user-' || n), 'email', 'bench.user' || n || '@example.com'), 'email', now(), now()
from generate_series(0, 50) n;
insert into public.user_roles (user_id, role) values (md5('bench-user-0')::uuid, 'admin');

insert into public.candidate_profiles (id, candidate_id, name, email, location, job_title, candidate_reference, details,
                                       status, source, external_id, created_at)
select md5('bench-profile-' || n)::uuid, 'BENCH-' || lpad(n::text, 4, '0'), 'Candidate ' || n,
       'candidate' || n || '@example.com', (array['London', 'Leeds', 'Bristol', 'Manchester', 'Glasgow'])[1 + n % 5],
       case when n % 7 = 0 then null else 'Role ' || (n % 40) end, case when n % 3 = 0 then 'Ref ' || n end,
       'Profile details for candidate ' || n, case when n % 10 = 0 then 'inactive' else 'active' end, 'manual',
       'manual-bench-' || n, now() - make_interval(days => n % 365)
from generate_series(1, 1000) n;

insert into public.profile_views (profile_id, viewed_at, user_id, user_agent, referrer, visitor_hash, is_repeat, new_viewer, is_bot,
                                  by_admin)
select md5('bench-profile-' || (1 + floor(900 * power(random(), 2)))::int)::uuid,
       now() - random() * interval '365 days',
       case when kind < 0.03 then md5('bench-user-0')::uuid
            when kind < 0.10 then md5('bench-user-' || (1 + floor(random() * 50))::int)::uuid end,
       case when kind between 0.03 and 0.08 then 'Mozilla/5.0 (compatible; Googlebot/2.1)' else 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0' end,
       (array[null, null, 'https://mail.example.com', 'https://www.linkedin.com', 'https://teams.example.com',
              'https://outlook.example.com', 'https://www.google.com'])[1 + floor(random() * 7)::int],
       floor(random() * 60000)::bigint, repeat, not repeat and kind >= 0.08 and random() < 0.85, kind between 0.03 and 0.08,
       kind < 0.03
from (select random() as kind, random() < 0.10 as repeat from generate_series(1, 200000)) g;

set session_replication_role = origin;
-- The triggers were off: build the per-profile totals they would have kept.
select private.recompute_profile_view_totals(array(select p.id from public.candidate_profiles p));
