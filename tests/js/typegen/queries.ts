// supabase-js queries against the Database type `gateway types typescript` prints for
// gateway/tests/fixtures/typegen.sql: each must type-check, and each `@ts-expect-error` line must be an error.
import { createClient } from '@supabase/supabase-js';
import { Constants, type Database, type Enums, type Tables, type TablesInsert } from './database.types';

const db = createClient<Database>('http://127.0.0.1:1', 'key');

export async function reads(): Promise<void> {
  const people = await db.from('people').select('id, name, nick, mood, pets!pets_owner_id_fkey(id, kind)').eq('mood', 'happy');
  const first = people.data?.[0];
  if (first) {
    const id: number = first.id;
    const nick: string | null = first.nick;
    const kinds: string[] = first.pets.map((p) => p.kind);
    void [id, nick, kinds];
  }
  const pet = await db.from('pets').select('id, owner:people!pets_owner_id_fkey(name)').single();
  const ownerName: string | undefined = pet.data?.owner?.name;
  const view = await db.from('people_view').select('name');
  const viewName: string | null | undefined = view.data?.[0]?.name;
  // @ts-expect-error a column the table does not have
  await db.from('people').select('id').eq('no_such_column', 1);
  // @ts-expect-error a value outside the enum
  await db.from('people').select('id').eq('mood', 'furious');
  // @ts-expect-error a table that does not exist
  await db.from('no_such_table').select('*');
  void [ownerName, viewName];
}

export async function writes(): Promise<void> {
  const row: TablesInsert<'people'> = { name: 'Ada', score: 1, moods: ['ok'] };
  await db.from('people').insert(row);
  await db.from('pets').update({ kind: 'cat' }).eq('id', 1);
  // @ts-expect-error `name` and `score` (a NOT NULL domain: its default does not make it optional) are required
  await db.from('people').insert({ nick: 'no name' });
  // @ts-expect-error an identity ALWAYS column cannot be written
  await db.from('people').insert({ id: 5, name: 'Ada', score: 1 });
  // @ts-expect-error a number where the column is text
  await db.from('pets').update({ kind: 3 }).eq('id', 1);
}

export async function functions(): Promise<void> {
  const sum = await db.rpc('add', { a: 1, b: 2 });
  const n: number | null = sum.data as number | null;
  const pets = await db.rpc('pet_table', { min_id: 1 });
  const kind: string | undefined = pets.data?.[0]?.kind;
  const byMood = await db.rpc('people_by_mood', { m: 'sad' });
  const name: string | undefined = byMood.data?.[0]?.name;
  // @ts-expect-error a string where the argument is an integer
  await db.rpc('pet_table', { min_id: 'one' });
  // @ts-expect-error a function that does not exist
  await db.rpc('no_such_function');
  void [n, kind, name];
}

export function helpers(): void {
  const mood: Enums<'mood'> = Constants.public.Enums.mood[2];
  const person: Tables<'people'> | null = null;
  // @ts-expect-error not a label of the enum
  const wrong: Enums<'mood'> = 'furious';
  void [mood, person, wrong];
}
