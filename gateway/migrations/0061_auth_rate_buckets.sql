-- Platform: Auth's rate limits kept in PostgreSQL, so every gateway instance on the database counts the same
-- requests (token buckets as GoTrue's limiters). Unlogged: a crash refills every bucket, which is harmless.
create unlogged table if not exists gateway.rate_buckets (
  limiter text not null,
  key text not null,
  tokens float8 not null,
  updated_at timestamptz not null,
  primary key (limiter, key)
);
comment on table gateway.rate_buckets is 'Token buckets of the auth rate limits, shared by every gateway instance.';

-- Takes one token from the bucket of (limiter, key), refilled at per_second up to burst; false when it is empty.
create or replace function gateway.take_rate_token(limiter text, key text, per_second float8, burst float8)
returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  left_over float8;
begin
  insert into gateway.rate_buckets as b (limiter, key, tokens, updated_at)
  values (take_rate_token.limiter, take_rate_token.key, take_rate_token.burst - 1, clock_timestamp())
  on conflict on constraint rate_buckets_pkey do update
    set tokens = least(take_rate_token.burst,
                       b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * take_rate_token.per_second) - 1,
        updated_at = clock_timestamp()
  returning tokens into left_over;
  if left_over < 0 then
    update gateway.rate_buckets b set tokens = left_over + 1
     where b.limiter = take_rate_token.limiter and b.key = take_rate_token.key;
    return false;
  end if;
  -- now and then, forget buckets idle for over an hour: every limit refills within its period (at most an hour)
  if random() < 0.001 then
    delete from gateway.rate_buckets b where b.updated_at < clock_timestamp() - interval '1 hour 5 minutes';
  end if;
  return true;
end;
$$;
revoke all on function gateway.take_rate_token(text, text, float8, float8) from public;
grant execute on function gateway.take_rate_token(text, text, float8, float8) to authenticator;
