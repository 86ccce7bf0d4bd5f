-- The firm's desk 7/8: a candidate profile shared with each client by consent (Conduct of Employment Agencies
-- Regulations 2003: the candidate agrees before being introduced).
--   profile_consents      the candidate's agreement as an admin recorded it: when, how (e-mail, phone, in writing),
--                         optionally which roles or clients it covers; at most one in force per profile. Withdrawing
--                         it revokes the profile's client links at once.
--   profile_client_links  one link per named client (person and company) with an expiry (default 30 days, at most
--                         a year): an unguessable token (256 random bits, base64url) that is shown once when made and
--                         kept only as its SHA-256. Admins list, revoke and extend links; a link cannot be made for a
--                         profile without consent in force.
--   profile_views.client_link_id  a view through a client link, attributed to it; recorded only while the link is
--                         in force (the page's client_profile/record_client_link_view), classified by the same
--                         trigger as every view (bots, repeats, admins).
-- Anonymous visitors reach a profile through a link only with its token, and learn the public fields and the
-- expiry: never the client's name, the link's id or other links.
set local client_min_messages = warning;

create type public.consent_method as enum ('email', 'phone', 'in_writing');
comment on type public.consent_method is 'How a candidate gave consent to be introduced: e-mail, phone or in writing.';

/* ---------------------------------------------------------------------------------------------------------------
 * Table profile_consents
 * --------------------------------------------------------------------------------------------------------------- */
create table public.profile_consents (
  id uuid primary key default gen_random_uuid(),
  profile_id uuid not null references public.candidate_profiles (id) on delete cascade,
  given_on date not null,
  method public.consent_method not null,
  scope text check (btrim(scope) <> '' and char_length(scope) <= 1000),
  recorded_at timestamptz not null default now(),
  recorded_by uuid default auth.uid() references auth.users (id) on delete set null,
  withdrawn boolean not null default false,
  withdrawn_at timestamptz,
  withdrawn_by uuid references auth.users (id) on delete set null,
  constraint profile_consents_withdrawn_when check (withdrawn = (withdrawn_at is not null))
);
comment on table public.profile_consents is
  'A candidate''s consent to be introduced to clients, as recorded by an admin: the date given, how (email, phone, in_writing) and optionally which roles or clients it covers. At most one in force (not withdrawn) per profile. Admins only.';
comment on column public.profile_consents.scope is 'Which roles or clients the consent covers, in the admin''s words (null: not limited).';
comment on column public.profile_consents.withdrawn is 'Consent withdrawn: the profile''s client links are revoked at once; a withdrawn consent stays withdrawn.';

create unique index profile_consents_in_force_key on public.profile_consents (profile_id) where not withdrawn;
create index profile_consents_profile_idx on public.profile_consents (profile_id, recorded_at desc);
create index profile_consents_recorded_by_idx on public.profile_consents (recorded_by);
create index profile_consents_withdrawn_by_idx on public.profile_consents (withdrawn_by);

alter table public.profile_consents enable row level security;
revoke all on public.profile_consents from public, anon, authenticated;
grant select on public.profile_consents to authenticated;
grant insert (profile_id, given_on, method, scope) on public.profile_consents to authenticated;
grant update (withdrawn) on public.profile_consents to authenticated;
grant select, insert, update, delete on public.profile_consents to service_role;

create policy "Admins read consents" on public.profile_consents
  for select to authenticated using ((select public.is_admin()));
create policy "Admins record consents" on public.profile_consents
  for insert to authenticated with check ((select public.is_admin()) and recorded_by = (select auth.uid()));
create policy "Admins withdraw consents" on public.profile_consents
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

create or replace function private.check_profile_consent() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.given_on > (now() at time zone 'Europe/London')::date then
      raise exception 'The date consent was given cannot be in the future' using errcode = '22023';
    end if;
    if new.withdrawn then
      raise exception 'Record a consent in force; withdraw it afterwards' using errcode = '22023';
    end if;
    if exists (select 1 from public.profile_consents c where c.profile_id = new.profile_id and not c.withdrawn) then
      raise exception 'This profile already has a consent in force; withdraw it before recording another'
        using errcode = '23505';
    end if;
    new.recorded_at := now();
  elsif old.withdrawn and not new.withdrawn then
    raise exception 'A withdrawn consent cannot be restored; record a new consent' using errcode = '22023';
  elsif new.withdrawn and not old.withdrawn then
    new.withdrawn_at := now();
    new.withdrawn_by := auth.uid();
  end if;
  return new;
end;
$$;
revoke all on function private.check_profile_consent() from public;
create trigger profile_consents_check before insert or update on public.profile_consents
  for each row execute function private.check_profile_consent();

create trigger profile_consents_audit after insert or update or delete on public.profile_consents
  for each row execute function private.audit_desk_change('id', 'profile_id', 'given_on', 'method', 'withdrawn');

/* ---------------------------------------------------------------------------------------------------------------
 * Table profile_client_links
 * --------------------------------------------------------------------------------------------------------------- */
create table public.profile_client_links (
  id uuid primary key default gen_random_uuid(),
  profile_id uuid not null references public.candidate_profiles (id) on delete cascade,
  consent_id uuid not null references public.profile_consents (id) on delete cascade,
  client_name text not null check (btrim(client_name) <> '' and char_length(client_name) <= 200),
  client_company text not null check (btrim(client_company) <> '' and char_length(client_company) <= 200),
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  expires_at timestamptz not null,
  revoked boolean not null default false,
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now(),
  constraint profile_client_links_revoked_when check (revoked = (revoked_at is not null))
);
comment on table public.profile_client_links is
  'A profile shared with one named client (person and company): an unguessable link token (only its SHA-256 is kept) valid until expires_at unless revoked. Needs a consent in force. Admins only; visitors reach the profile with the token alone.';
comment on column public.profile_client_links.token_hash is 'SHA-256 of the link''s token; the token itself is shown once, when the link is made.';
comment on column public.profile_client_links.expires_at is 'The link works until then (set when made: default 30 days, at most a year ahead; admins extend it).';

create index profile_client_links_profile_idx on public.profile_client_links (profile_id, created_at desc);
create index profile_client_links_consent_idx on public.profile_client_links (consent_id);
create index profile_client_links_created_by_idx on public.profile_client_links (created_by);
create index profile_client_links_revoked_by_idx on public.profile_client_links (revoked_by);

create trigger profile_client_links_set_updated_at before update on public.profile_client_links
  for each row execute function private.set_updated_at();

alter table public.profile_client_links enable row level security;
revoke all on public.profile_client_links from public, anon, authenticated;
grant select (id, profile_id, consent_id, client_name, client_company, created_at, created_by, expires_at, revoked,
              revoked_at, revoked_by, updated_at) on public.profile_client_links to authenticated;
grant update (expires_at, revoked) on public.profile_client_links to authenticated;
grant select, insert, update, delete on public.profile_client_links to service_role;

create policy "Admins read client links" on public.profile_client_links
  for select to authenticated using ((select public.is_admin()));
create policy "Admins revoke and extend client links" on public.profile_client_links
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

-- The latest a link may run: a year from now.
create or replace function private.link_expiry_problem(expires_at timestamptz) returns text
  language sql stable set search_path = ''
as $$
  select case when expires_at is null then 'Give the link an expiry'
              when expires_at <= now() then 'The expiry must be in the future'
              when expires_at > now() + interval '366 days' then 'The expiry must be within a year'
         end
$$;
revoke all on function private.link_expiry_problem(timestamptz) from public;

create or replace function private.check_client_link() returns trigger
  language plpgsql security definer set search_path = ''
as $$
declare
  problem text;
begin
  if tg_op = 'INSERT' then
    select c.id into new.consent_id from public.profile_consents c where c.profile_id = new.profile_id and not c.withdrawn;
    if new.consent_id is null then
      raise exception 'Record the candidate''s consent before sharing the profile with a client' using errcode = '22023';
    end if;
    new.created_at := now();
    new.revoked := false;
    new.revoked_at := null;
    new.revoked_by := null;
  else
    if new.token_hash <> old.token_hash or new.profile_id <> old.profile_id or new.consent_id <> old.consent_id then
      raise exception 'A link''s token, profile and consent cannot change' using errcode = '22023';
    end if;
    if old.revoked and not new.revoked then
      raise exception 'A revoked link cannot be restored; make a new link' using errcode = '22023';
    end if;
    if new.revoked and not old.revoked then
      new.revoked_at := now();
      new.revoked_by := auth.uid();
    end if;
  end if;
  if tg_op = 'INSERT' or new.expires_at is distinct from old.expires_at then
    if tg_op = 'UPDATE' and old.revoked then
      raise exception 'A revoked link cannot be extended; make a new link' using errcode = '22023';
    end if;
    problem := private.link_expiry_problem(new.expires_at);
    if problem is not null then
      raise exception '%', problem using errcode = '22023';
    end if;
  end if;
  return new;
end;
$$;
revoke all on function private.check_client_link() from public;
create trigger profile_client_links_check before insert or update on public.profile_client_links
  for each row execute function private.check_client_link();

create trigger profile_client_links_audit after insert or update or delete on public.profile_client_links
  for each row execute function private.audit_desk_change('id', 'profile_id', 'client_company', 'expires_at', 'revoked');

-- Withdrawing consent revokes the links it allowed, at once.
create or replace function private.revoke_links_of_withdrawn_consent() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if new.withdrawn and not old.withdrawn then
    update public.profile_client_links l set revoked = true where l.consent_id = new.id and not l.revoked;
  end if;
  return null;
end;
$$;
revoke all on function private.revoke_links_of_withdrawn_consent() from public;
create trigger profile_consents_revoke_links after update of withdrawn on public.profile_consents
  for each row execute function private.revoke_links_of_withdrawn_consent();

/* ---------------------------------------------------------------------------------------------------------------
 * Views through a link.
 * --------------------------------------------------------------------------------------------------------------- */
alter table public.profile_views
  add column client_link_id uuid references public.profile_client_links (id) on delete set null;
comment on column public.profile_views.client_link_id is
  'The client link the view came through (null: the public /profile/{slug} page). Set only by record_client_link_view.';
create index profile_views_client_link_idx on public.profile_views (client_link_id, viewed_at desc)
  where client_link_id is not null;

/* ---------------------------------------------------------------------------------------------------------------
 * admin_create_client_link(profile_id, client_name, client_company, expires_at) -> { id, token, expires_at }
 * The only moment the token exists outside the client's link. expires_at defaults to 30 days from now.
 * --------------------------------------------------------------------------------------------------------------- */
create or replace function public.admin_create_client_link(
  profile_id uuid, client_name text, client_company text, expires_at timestamptz default null
) returns json
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  token text := rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=');
  made public.profile_client_links;
begin
  perform private.require_admin('share profiles with clients');
  if not exists (select 1 from public.candidate_profiles p where p.id = admin_create_client_link.profile_id) then
    perform private.refuse('There is no such profile');
  end if;
  insert into public.profile_client_links (profile_id, client_name, client_company, token_hash, expires_at)
  values (admin_create_client_link.profile_id, btrim(admin_create_client_link.client_name),
          btrim(admin_create_client_link.client_company), sha256(convert_to(token, 'UTF8')),
          coalesce(admin_create_client_link.expires_at, now() + interval '30 days'))
  returning * into made;
  return json_build_object('id', made.id, 'token', token, 'expires_at', made.expires_at);
end;
$$;
revoke all on function public.admin_create_client_link(uuid, text, text, timestamptz) from public, anon;
grant execute on function public.admin_create_client_link(uuid, text, text, timestamptz) to authenticated;
comment on function public.admin_create_client_link(uuid, text, text, timestamptz) is
  'Admins only: a link to the profile for one named client, valid until expires_at (default 30 days); needs the candidate''s consent in force. Returns {id, token, expires_at}: the token is never shown again.';

/* ---------------------------------------------------------------------------------------------------------------
 * What a link's holder gets. app_private (SECURITY DEFINER, the token is the authority) behind SECURITY INVOKER
 * wrappers in public, as privacy_choice does (0320).
 * --------------------------------------------------------------------------------------------------------------- */
-- The link a token belongs to, or nothing. Tokens are 43 base64url characters.
create or replace function app_private.client_link_for(token text) returns public.profile_client_links
  language sql stable security definer set search_path = ''
as $$
  select l.* from public.profile_client_links l
  where token ~ '^[A-Za-z0-9_-]{43}$' and l.token_hash = sha256(convert_to(token, 'UTF8'))
$$;
revoke all on function app_private.client_link_for(text) from public;

-- 'active', 'expired', 'revoked', 'unavailable' (the profile was deactivated) or 'unknown'.
create or replace function app_private.client_link_state(link public.profile_client_links) returns text
  language sql stable security definer set search_path = ''
as $$
  select case
    when link.id is null then 'unknown'
    when link.revoked then 'revoked'
    when link.expires_at <= now() then 'expired'
    when not exists (select 1 from public.candidate_profiles p where p.id = link.profile_id and p.status = 'active')
      then 'unavailable'
    else 'active'
  end
$$;
revoke all on function app_private.client_link_state(public.profile_client_links) from public;

-- {status, expires_at?, profile?: {candidate_id, job_title, candidate_reference, details}}: the profile only while
-- the link is active.
create or replace function app_private.client_profile(token text) returns jsonb
  language plpgsql stable security definer set search_path = ''
as $$
declare
  link public.profile_client_links := app_private.client_link_for(token);
  state text := app_private.client_link_state(link);
begin
  if state <> 'active' then
    return jsonb_build_object('status', state);
  end if;
  return (select jsonb_build_object('status', state, 'expires_at', link.expires_at,
            'profile', jsonb_build_object('candidate_id', p.candidate_id, 'job_title', p.job_title,
                                          'candidate_reference', p.candidate_reference, 'details', p.details))
          from public.candidate_profiles p where p.id = link.profile_id);
end;
$$;
revoke all on function app_private.client_profile(text) from public;

-- Records one view through an active link (profile_views' own triggers classify and limit it, as for every view);
-- returns whether it was recorded. An expired, revoked or unknown link records nothing.
create or replace function app_private.record_client_link_view(token text, user_agent text, referrer text)
returns boolean
  language plpgsql volatile security definer set search_path = ''
as $$
declare
  link public.profile_client_links := app_private.client_link_for(token);
begin
  if app_private.client_link_state(link) <> 'active' then
    return false;
  end if;
  insert into public.profile_views (profile_id, user_id, user_agent, referrer, client_link_id)
  values (link.profile_id, auth.uid(), left(user_agent, 1000), left(referrer, 2000), link.id);
  return true;
end;
$$;
revoke all on function app_private.record_client_link_view(text, text, text) from public;

grant execute on function app_private.client_profile(text), app_private.record_client_link_view(text, text, text)
  to anon, authenticated;

create or replace function public.client_profile(token text) returns jsonb
  language sql stable set search_path = ''
as $$
  select app_private.client_profile(token)
$$;
revoke all on function public.client_profile(text) from public;
grant execute on function public.client_profile(text) to anon, authenticated;
comment on function public.client_profile(text) is
  'The profile a client link''s token opens: {status active|expired|revoked|unavailable|unknown, expires_at, profile {candidate_id, job_title, candidate_reference, details}} (the profile only while active).';

create or replace function public.record_client_link_view(token text, user_agent text default null,
                                                          referrer text default null) returns boolean
  language sql volatile set search_path = ''
as $$
  select app_private.record_client_link_view(token, user_agent, referrer)
$$;
revoke all on function public.record_client_link_view(text, text, text) from public;
grant execute on function public.record_client_link_view(text, text, text) to anon, authenticated;
comment on function public.record_client_link_view(text, text, text) is
  'Records a view of the profile through an active client link (attributed to the link; bots, repeats and admins classified as every view); false, recording nothing, for an expired, revoked or unknown link.';
