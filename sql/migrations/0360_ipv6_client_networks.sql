-- IPv6 clients are counted by their /64 (U2). One subscriber, host or site is given at least a /64 (RFC 6177; SLAAC
-- needs one per link), and any address inside it can be chosen at will, so keying the full address let one host
-- rotate through `2001:db8:1:2::1`, `::2`, … and get a fresh bucket each time. Every per-client limit now keys the
-- client's network: an IPv4 address itself, an IPv6 address's /64 (an IPv4-mapped IPv6 address is its IPv4
-- address) — app_private.viewer_address() of 0333, the network a profile viewer is counted by. The gateway keys its
-- own limits the same way (Auth's buckets, connections per peer: gateway/src/core/client_addr.rs `limit_key`).
-- Keys stay salted hashes (0263): no address or network is stored.
set local client_min_messages = warning;

-- The keys the current request's client is counted under (0263), now of its network: today's salt (created if need
-- be; new submissions are recorded under it) then yesterday's, or {unknown} when the gateway named no address.
create or replace function app_private.client_keys() returns text[]
language plpgsql volatile security definer set search_path = '' as $$
declare
  network text := app_private.viewer_address(app_private.client_ip());
  today date := (now() at time zone 'utc')::date;
begin
  if network is null then
    return array['unknown'];
  end if;
  return array_remove(array[
    app_private.client_key(network, app_private.profile_view_salt(today)),
    app_private.client_key(network, (select s.salt from app_private.profile_view_salts s where s.day = today - 1))
  ], null);
end
$$;
revoke all on function app_private.client_keys() from public;
