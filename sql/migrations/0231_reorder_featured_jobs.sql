-- Admin area 2/6: reordering featured jobs in one transaction.
-- supabase-js: rpc('reorder_featured_jobs', { ordered_ids: [id, ...] }) with EVERY featured job's id in the new order;
-- display_order becomes 0, 1, 2, ... in that order. The list must be exactly the current set (no missing, extra or
-- repeated id), so an admin working from a stale list gets an error instead of a half-applied order.

create or replace function public.reorder_featured_jobs(ordered_ids uuid[]) returns void
  language plpgsql volatile set search_path = ''
as $$
declare
  current_ids uuid[];
begin
  if not public.is_admin() then
    raise exception 'only admins can reorder featured jobs' using errcode = '42501';
  end if;
  -- Lock every featured job so a concurrent add or remove waits for this order (or this call sees it).
  select coalesce(array_agg(f.id order by f.id), '{}') into current_ids
  from (select id from public.featured_jobs for update) f;
  if ordered_ids is null
     or cardinality(ordered_ids) <> cardinality(current_ids)
     or (select coalesce(array_agg(distinct i order by i), '{}') from unnest(ordered_ids) i) is distinct from current_ids then
    raise exception 'The featured jobs have changed since the list was loaded'
      using errcode = '22023', hint = 'Reload the list and reorder again.';
  end if;
  update public.featured_jobs f
     set display_order = o.position - 1
    from unnest(ordered_ids) with ordinality as o (id, position)
   where f.id = o.id and f.display_order is distinct from (o.position - 1)::integer;
end;
$$;
revoke all on function public.reorder_featured_jobs(uuid[]) from public, anon;
grant execute on function public.reorder_featured_jobs(uuid[]) to authenticated;
comment on function public.reorder_featured_jobs(uuid[]) is
  'Admins only: sets display_order of every featured job to its position (from 0) in ordered_ids, in one transaction. ordered_ids must list each featured job exactly once.';
