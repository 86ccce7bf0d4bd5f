//! Shared fixtures for the `/rest/v1` tests: a small schema with grants and RLS, seeded, and the cache reloaded.

use crate::helpers::{spawn_app_with, TestApp};
use reqwest::{Method, RequestBuilder, Response};
use serde_json::Value;

pub const SCHEMA: &str = r#"
create table public.users (
  username text primary key,
  status text,
  age_range int4range,
  catchphrase tsvector,
  data jsonb,
  tags text[]
);
create table public.channels (id bigserial primary key, slug text unique);
create table public.messages (
  id bigserial primary key,
  message text,
  channel_id bigint references public.channels(id),
  username text references public.users(username)
);
create table public.best_friends (
  id bigserial primary key,
  first_user text references public.users(username),
  second_user text references public.users(username)
);
create table public.memberships (
  username text references public.users(username),
  channel_id bigint references public.channels(id),
  primary key (username, channel_id)
);
create table public.notes (
  id bigserial primary key,
  owner uuid not null default auth.uid(),
  body text not null default 'empty'
);
create table public.secrets (id int primary key, value text);
create table public.guestbook (id bigserial primary key, message text not null);
grant insert on public.guestbook to anon;
grant usage on sequence public.guestbook_id_seq to anon;
alter table public.guestbook enable row level security;
create policy "Anyone may sign the guestbook" on public.guestbook for insert to anon with check (true);
create table public."weird table" (id int primary key, "my col" text);

grant select, insert, update, delete on public.users, public.channels, public.messages, public.best_friends,
  public.memberships, public."weird table" to anon, authenticated, service_role;
grant usage on all sequences in schema public to anon, authenticated, service_role;
grant select, insert, update, delete on public.notes to authenticated;
grant select on public.notes to anon;
alter table public.notes enable row level security;
create policy "Owners read their notes" on public.notes for select to authenticated using (owner = auth.uid());
create policy "Owners write their notes" on public.notes for insert to authenticated with check (owner = auth.uid());
create policy "Owners change their notes" on public.notes for update to authenticated using (owner = auth.uid());
create policy "Owners delete their notes" on public.notes for delete to authenticated using (owner = auth.uid());

create view public.active_users as select username, status from public.users where status = 'ONLINE';
grant select on public.active_users to anon, authenticated;

create function public.get_status(name_param text) returns text language sql stable
  as $$ select status from public.users where username = name_param $$;
create function public.add_them(a int, b int default 10) returns int language sql immutable as $$ select a + b $$;
create function public.void_func() returns void language sql as $$ select $$;
create function public.list_users() returns setof public.users language sql stable as $$ select * from public.users $$;
create function public.user_by_name(name text) returns public.users language sql stable
  as $$ select * from public.users where username = name $$;
create function public.numbers(n int) returns setof int language sql immutable as $$ select generate_series(1, n) $$;
create function public.echo_json(jsonb) returns jsonb language sql immutable as $$ select $1 $$;
create function public.poly(x int) returns text language sql immutable as $$ select 'int' $$;
create function public.poly(x text) returns text language sql immutable as $$ select 'text' $$;
create function public.touch_channel(new_slug text) returns bigint language sql volatile
  as $$ insert into public.channels(slug) values (new_slug) returning id $$;
create function public.whoami() returns json language sql stable
  as $$ select json_build_object('role', current_user, 'sub', auth.uid(), 'path', current_setting('request.path', true),
       'method', current_setting('request.method', true), 'timeout', current_setting('statement_timeout')) $$;
create function public.raise_it() returns void language plpgsql as $$ begin raise exception 'custom failure' using hint = 'try again'; end $$;
create function public.set_headers() returns int language plpgsql stable as $$
begin
  perform set_config('response.headers', '[{"X-Custom":"yes"}]', true);
  perform set_config('response.status', '202', true);
  return 1;
end $$;
create function public.pay() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using
    message = '{"code":"123","message":"Payment Required","details":"Quota exceeded","hint":"Upgrade your plan"}',
    detail = '{"status":402,"headers":{"X-Powered-By":"Nerd Rage"}}';
end $$;
grant execute on all functions in schema public to anon, authenticated;

insert into public.users values
  ('supabot', 'ONLINE', '[1,2)', to_tsvector('english', 'fat cats ate rats'), '{"foo": {"bar": 1, "baz": "string value"}}', '{a,b}'),
  ('kiwicopple', 'OFFLINE', '[25,35)', to_tsvector('english', 'bat cat'), '{"foo": {"bar": 2}}', '{b,c}'),
  ('awailas', 'ONLINE', '[25,35)', null, null, '{}'),
  ('dragarcia', 'ONLINE', '[20,30)', to_tsvector('english', 'rat'), null, null);
insert into public.channels(slug) values ('public'), ('random');
insert into public.messages(message, channel_id, username) values
  ('Hello World 👋', 1, 'supabot'), ('Perfection is attained.', 2, 'supabot'), ('Hi', 1, 'kiwicopple');
insert into public.best_friends(first_user, second_user) values ('supabot', 'kiwicopple'), ('awailas', 'supabot');
insert into public.memberships values ('supabot', 1), ('supabot', 2), ('awailas', 1);
insert into public.notes(owner, body) values ('00000000-0000-0000-0000-000000000001', 'mine'),
  ('00000000-0000-0000-0000-000000000002', 'theirs');
insert into public."weird table" values (1, 'spaced');
"#;

/// A served app with the fixture schema loaded and the schema cache rebuilt.
pub async fn rest_app_with(extra: &[(&str, &str)]) -> TestApp {
    let app = spawn_app_with(extra).await;
    app.admin_client().await.batch_execute(SCHEMA).await.expect("load fixtures");
    app.reload_schema().await;
    app
}

pub async fn rest_app() -> TestApp {
    rest_app_with(&[]).await
}

/// A token for an authenticated user with the given `sub`.
pub fn user_token(app: &TestApp, sub: &str) -> String {
    let now = chrono::Utc::now().timestamp();
    app.keys()
        .sign(&serde_json::json!({"sub": sub, "role": "authenticated", "aud": "authenticated", "iat": now, "exp": now + 600}))
        .expect("sign")
}

impl TestApp {
    /// A request to `/rest/v1{path}` with the anon key, as supabase-js sends it.
    pub fn rest(&self, method: Method, path: &str) -> RequestBuilder {
        self.rest_as(method, path, &self.anon_key)
    }

    /// The same with a user's access token as the bearer.
    pub fn rest_as(&self, method: Method, path: &str, token: &str) -> RequestBuilder {
        self.http
            .request(method, self.url(&format!("/rest/v1{path}")))
            .header("apikey", &self.anon_key)
            .header("authorization", format!("Bearer {token}"))
    }
}

/// Status, the headers asked for, and the body as JSON (Null when empty).
pub async fn parts(res: Response) -> (u16, reqwest::header::HeaderMap, Value) {
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let text = res.text().await.expect("body");
    let body = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::String(text)) };
    (status, headers, body)
}
