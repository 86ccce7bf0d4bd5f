-- Platform: content sniffing as a bucket's option. Off (the default, Supabase Storage's rule): an upload's declared
-- content type is checked against the bucket's allowed_mime_types and the bytes are stored as given. On: the type
-- sniffed from the bytes must be allowed too, and a declared type whose signature is known (PDF, Word, images…) must
-- be what the bytes are. GATEWAY_STORAGE_SNIFF_CONTENT turns it on for every bucket. Set in SQL only (a migration, an
-- admin): the Storage API neither shows nor changes it, and row-level security on storage.buckets guards it.
alter table storage.buckets add column if not exists sniff_content boolean not null default false;
comment on column storage.buckets.sniff_content is
  'Gateway: uploads must also be, by their bytes, of an allowed type (content sniffing); off = Storage''s declared-type rule.';
