-- IPv6 clients are counted by their /64 (U2). One subscriber, host or site is given at least a /64 (RFC 6177; SLAAC
-- needs one per link), and any address inside it can be chosen at will, so keying the full address let one host
-- rotate through `2001:db8:1:2::1`, `::2`, … and get a fresh bucket each time. Every per-client limit now keys the
-- client's network: an IPv4 address itself, an IPv6 address's /64 (an IPv4-mapped IPv6 address is its IPv4
-- address). The gateway keys its own limits the same way (Auth's buckets, connections per peer:
-- gateway/src/core/client_addr.rs `limit_key`). Keys stay salted hashes (0263): no address or network is stored.
set local client_min_messages = warning;

-- The network a limit counts `address` under: '203.0.113.7', '2001:db8:1:2::/64'. Null without an address; text
-- that is not an address is its own key (it never is: the gateway writes the header).
create or replace function app_private.client_network(address text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  a inet;
begin
  if nullif(btrim(address), '') is null then
    return null;
  end if;
  begin
    a := btrim(address)::inet;
  exception when others then
    return btrim(address);
  end;
  if family(a) = 6 and a <<= '::ffff:0:0/96'::inet then
    a := substring(host(a) from '([0-9.]+)$')::inet;
  end if;
  if family(a) = 6 then
    return host(network(set_masklen(a, 64))) || '/64';
  end if;
  return host(a);
end
$$;
revoke all on function app_private.client_network(text) from public;
comment on function app_private.client_network(text) is
  'The network a per-client limit counts an address under: an IPv4 address itself, an IPv6 address''s /64.';

-- The keys the current request's client is counted under (0263), now of its network: today's salt (created if need
-- be; new submissions are recorded under it) then yesterday's, or {unknown} when the gateway named no address.
create or replace function app_private.client_keys() returns text[]
language plpgsql volatile security definer set search_path = '' as $$
declare
  network text := app_private.client_network(app_private.client_ip());
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
