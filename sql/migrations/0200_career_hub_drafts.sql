-- Career Hub 1/3: a CV draft's JSON is checked by the database, so a hand-made request cannot store junk. The
-- shape is the spec's CV draft plus what the builder keeps: {personalInfo {fullName, email, phone, location},
-- summary, experience [{id, title, company, startDate, endDate, description}], education [{id, degree,
-- institution, year}], skills, step 0–4, template, extras (sections of an imported JSON Resume kept aside)}.
-- Every key is optional (a draft is saved while it is being written); unknown keys, wrong types, over-long text,
-- more than 30 entries or more than 256 kB of JSON are refused with 23514 and a message naming the field.

/** The first problem of a draft, or null when it is valid. Pure, so the pgTAP tests call it directly. */
create or replace function private.cv_draft_problem(draft jsonb) returns text
language plpgsql immutable set search_path = '' as $$
declare
  key text;
begin
  if jsonb_typeof(draft) is distinct from 'object' then
    return 'the draft must be a JSON object';
  end if;
  if octet_length(draft::text) > 262144 then
    return 'the draft is larger than 256 kB';
  end if;
  for key in select jsonb_object_keys(draft) loop
    if key not in ('personalInfo', 'summary', 'experience', 'education', 'skills', 'step', 'template', 'extras') then
      return format('unknown field %s', key);
    end if;
  end loop;
  if draft ? 'personalInfo' then
    return private.cv_object_problem(draft -> 'personalInfo',
      '{"fullName": 200, "email": 320, "phone": 50, "location": 200}', 'personalInfo');
  end if;
  return null;
end
$$;

/** Checks an object whose keys must be among `limits` (key → maximum length), each a string. */
create or replace function private.cv_object_problem(value jsonb, limits jsonb, label text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  field record;
begin
  if jsonb_typeof(value) is distinct from 'object' then
    return format('%s must be an object', label);
  end if;
  for field in select * from jsonb_each(value) loop
    if not limits ? field.key then
      return format('unknown field %s.%s', label, field.key);
    end if;
    if jsonb_typeof(field.value) <> 'string' then
      return format('%s.%s must be text', label, field.key);
    end if;
    if char_length(field.value #>> '{}') > (limits ->> field.key)::int then
      return format('%s.%s is longer than %s characters', label, field.key, limits ->> field.key);
    end if;
  end loop;
  return null;
end
$$;

/** Checks a list of entries (at most 30 objects, each checked by cv_object_problem). */
create or replace function private.cv_list_problem(value jsonb, limits jsonb, label text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  problem text;
  i integer;
begin
  if jsonb_typeof(value) is distinct from 'array' then
    return format('%s must be a list', label);
  end if;
  if jsonb_array_length(value) > 30 then
    return format('%s has more than 30 entries', label);
  end if;
  for i in 0 .. jsonb_array_length(value) - 1 loop
    problem := private.cv_object_problem(value -> i, limits, format('%s[%s]', label, i));
    if problem is not null then
      return problem;
    end if;
  end loop;
  return null;
end
$$;

/** The whole check: top-level keys and personalInfo (cv_draft_problem), then the lists and scalars. */
create or replace function private.cv_document_problem(draft jsonb) returns text
language plpgsql immutable set search_path = '' as $$
declare
  problem text := private.cv_draft_problem(draft);
  dates constant text := '^([0-9]{4}-(0[1-9]|1[0-2]))?$';
  entry jsonb;
begin
  if problem is not null then
    return problem;
  end if;
  if draft ? 'experience' then
    problem := private.cv_list_problem(draft -> 'experience',
      '{"id": 64, "title": 200, "company": 200, "startDate": 7, "endDate": 7, "description": 5000}', 'experience');
    if problem is not null then
      return problem;
    end if;
    for entry in select jsonb_array_elements(draft -> 'experience') loop
      if coalesce(entry ->> 'startDate', '') !~ dates or coalesce(entry ->> 'endDate', '') !~ dates then
        return 'experience dates must be YYYY-MM';
      end if;
    end loop;
  end if;
  if draft ? 'education' then
    problem := private.cv_list_problem(draft -> 'education',
      '{"id": 64, "degree": 200, "institution": 200, "year": 4}', 'education');
    if problem is not null then
      return problem;
    end if;
    for entry in select jsonb_array_elements(draft -> 'education') loop
      if coalesce(entry ->> 'year', '') !~ '^([0-9]{4})?$' then
        return 'education year must be four digits';
      end if;
    end loop;
  end if;
  if draft ? 'summary' and (jsonb_typeof(draft -> 'summary') <> 'string' or char_length(draft ->> 'summary') > 5000) then
    return 'summary must be text of at most 5000 characters';
  end if;
  if draft ? 'skills' and (jsonb_typeof(draft -> 'skills') <> 'string' or char_length(draft ->> 'skills') > 5000) then
    return 'skills must be text of at most 5000 characters';
  end if;
  if draft ? 'step' and (jsonb_typeof(draft -> 'step') <> 'number' or (draft ->> 'step') !~ '^[0-4]$') then
    return 'step must be a whole number from 0 to 4';
  end if;
  if draft ? 'template' and coalesce(draft ->> 'template', '') not in ('professional', 'executive', 'minimalist') then
    return 'template must be professional, executive or minimalist';
  end if;
  if draft ? 'extras' and jsonb_typeof(draft -> 'extras') <> 'object' then
    return 'extras must be an object';
  end if;
  return null;
end
$$;
revoke all on function private.cv_draft_problem(jsonb), private.cv_object_problem(jsonb, jsonb, text),
  private.cv_list_problem(jsonb, jsonb, text), private.cv_document_problem(jsonb) from public;

/** BEFORE INSERT OR UPDATE: refuses an invalid draft with the reason (runs before the table's CHECKs). SECURITY
 * DEFINER only so that the API roles need no access to schema private; it reads nothing but the new row. */
create or replace function private.check_cv_document() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  problem text := private.cv_document_problem(new.data);
begin
  if problem is not null then
    raise exception 'Invalid CV draft: %', problem using errcode = '23514';
  end if;
  return new;
end
$$;
revoke all on function private.check_cv_document() from public;

create trigger cv_documents_check_data before insert or update of data on public.cv_documents
  for each row execute function private.check_cv_document();

-- The old size check measured the compressed datum; this one measures the JSON text. NOT VALID: enforced for every
-- new or changed row without failing the migration on a larger draft stored before it.
alter table public.cv_documents add constraint cv_documents_data_size check (octet_length(data::text) <= 262144) not valid;
comment on column public.cv_documents.data is
  'The draft as JSON, checked by private.cv_document_problem: {personalInfo, summary, experience[], education[], skills, step, template, extras}.';
