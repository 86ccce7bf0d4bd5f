-- Realtime for the admin analytics: a recorded profile view reaches admins' postgres_changes subscriptions live.
-- The gateway delivers a change only to subscribers whose role and claims may SELECT the row (the admin-only policy
-- of 0005_profile_views), so anonymous visitors and candidates receive nothing. REPLICA IDENTITY FULL lets the same
-- SELECT policy judge deletes (admins clearing their own views) instead of sending every subscriber the deleted key.
alter table public.profile_views replica identity full;
alter publication supabase_realtime add table public.profile_views;
