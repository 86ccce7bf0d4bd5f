//! The catalog queries behind type generation: what `supabase gen types typescript` reads (relations the
//! connecting role may use, their columns, foreign keys of user schemas and the ones views inherit, functions, and
//! every type), loaded into [`Catalog`].

use super::model::*;
use super::view_keys::{self, Key, View};
use std::collections::HashMap;
use tokio_postgres::GenericClient;

const SYSTEM_SCHEMAS: &str = "('information_schema', 'pg_catalog', 'pg_toast')";

const SCHEMAS: &str = "
select n.nspname::text from pg_namespace n
where n.nspname = any($1) and not starts_with(n.nspname, 'pg_')
  and (pg_has_role(n.nspowner, 'USAGE') or has_schema_privilege(n.oid, 'CREATE, USAGE'))";

const RELATIONS: &str = "
select c.oid::int8, n.nspname::text, c.relname::text, c.relkind::text,
  c.relkind = 'v' and (pg_relation_is_updatable(c.oid, false) & 20) = 20
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = any($1) and c.relkind in ('r', 'p', 'f', 'v', 'm')
  and (c.relkind not in ('r', 'p') or pg_has_role(c.relowner, 'USAGE')
       or has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
       or has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'))
order by c.oid";

const COLUMNS: &str = "
select c.oid::int8, a.attname::text, coalesce(bt.typname, t.typname)::text,
  not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)), a.attidentity::text, a.atthasdef,
  c.relkind in ('r', 'p') or (c.relkind in ('v', 'f') and pg_column_is_updatable(c.oid, a.attnum, false))
from pg_attribute a
  join pg_class c on c.oid = a.attrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_type t on t.oid = a.atttypid
  left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
where n.nspname = any($1) and a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'v', 'm', 'f', 'p')
  and (pg_has_role(c.relowner, 'USAGE') or has_column_privilege(c.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES'))
order by c.oid, a.attnum";

/// Foreign keys of user schemas; one-to-one when the key columns, in order, are those of a primary or unique
/// constraint (in column order).
fn foreign_keys_sql() -> String {
    format!(
        "
select con.conname::text, cn.nspname::text, t.relname::text, fk.cols, rn.nspname::text, r.relname::text,
  array(select a.attname::text from unnest(con.confkey) with ordinality u(n, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = u.n order by u.i),
  exists(select 1 from pg_constraint k
         where k.conrelid = con.conrelid and k.contype in ('p', 'u')
           and fk.cols = array(select a.attname::text from unnest(k.conkey) u(n)
                               join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by a.attnum))
from pg_constraint con
  join pg_namespace cn on cn.oid = con.connamespace
  join pg_class t on t.oid = con.conrelid
  join pg_class r on r.oid = con.confrelid
  join pg_namespace rn on rn.oid = r.relnamespace
  cross join lateral (select array(select a.attname::text from unnest(con.conkey) with ordinality u(n, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = u.n order by u.i) as cols) fk
where con.contype = 'f' and con.conparentid = 0 and cn.nspname not in {SYSTEM_SCHEMAS}"
    )
}

const FUNCTIONS: &str = "
select n.nspname::text, p.proname::text,
  coalesce(p.proargmodes::text[], array_fill('i'::text, array[cardinality(coalesce(p.proallargtypes, p.proargtypes))])),
  coalesce(p.proargnames, array_fill(''::text, array[cardinality(coalesce(p.proallargtypes, p.proargtypes))])),
  coalesce(p.proallargtypes, p.proargtypes::oid[])::int8[], p.pronargs::int4, p.pronargdefaults::int4,
  pg_get_function_arguments(p.oid), p.prorettype::int8, pg_get_function_result(p.oid),
  nullif(rt.typrelid, 0)::int8, p.proretset, case when p.proretset then nullif(p.prorows, 0) end
from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  left join pg_type rt on rt.oid = p.prorettype
where n.nspname = any($1) and p.prokind = 'f' and pg_get_function_result(p.oid) not in ('trigger', 'event_trigger')
order by p.oid";

const TYPES: &str = "
select t.oid::int8, t.typname::text, n.nspname::text, format_type(t.oid, null),
  coalesce((select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '{}'),
  coalesce((select array_agg(a.attname::text order by a.attnum) from pg_attribute a join pg_class c on c.oid = a.attrelid
            where c.oid = t.typrelid and c.relkind = 'c' and not a.attisdropped), '{}'),
  coalesce((select array_agg(a.atttypid::int8 order by a.attnum) from pg_attribute a join pg_class c on c.oid = a.attrelid
            where c.oid = t.typrelid and c.relkind = 'c' and not a.attisdropped), '{}'),
  nullif(t.typrelid, 0)::int8
from pg_type t left join pg_namespace n on n.oid = t.typnamespace
where t.typrelid = 0 or (select c.relkind in ('c', 'r', 'v', 'm', 'p') from pg_class c where c.oid = t.typrelid)
order by t.oid";

fn views_sql() -> String {
    format!(
        "
select c.oid::int8, n.nspname::text, c.relname::text, r.ev_action::text,
  array(select a.attnum::int4 from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum),
  array(select a.attname::text from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum)
from pg_class c join pg_namespace n on n.oid = c.relnamespace
  join pg_rewrite r on r.ev_class = c.oid and r.rulename = '_RETURN'
where c.relkind in ('v', 'm') and n.nspname not in {SYSTEM_SCHEMAS}
order by c.oid"
    )
}

const KEYS: &str = "
select k.conname::text, k.contype = 'f', k.conrelid::int8, n.nspname::text, c.relname::text,
  k.conkey::int4[], coalesce(k.confrelid, 0)::int8, coalesce(k.confkey::int4[], '{}')
from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
where k.contype in ('p', 'f')";

/// Reads everything type generation needs for `schemas`.
pub async fn load<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Catalog> {
    let schemas_found: Vec<String> = client.query(SCHEMAS, &[&schemas]).await?.iter().map(|r| r.get(0)).collect();
    let relations = load_relations(client, schemas).await?;
    let columns = load_columns(client, schemas).await?;
    let mut relationships = load_foreign_keys(client).await?;
    let views = load_views(client).await?;
    let keys = load_keys(client).await?;
    let inherited = view_keys::view_relationships(&relationships, &keys, &views);
    relationships.extend(inherited);
    let functions = load_functions(client, schemas).await?;
    let types = load_types(client).await?;
    Ok(Catalog { schemas: schemas_found, relations, columns, relationships, functions, types })
}

async fn load_relations<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Vec<Relation>> {
    let rows = client.query(RELATIONS, &[&schemas]).await?;
    Ok(rows
        .iter()
        .map(|r| Relation {
            id: r.get(0),
            schema: r.get(1),
            name: r.get(2),
            kind: match r.get::<_, String>(3).as_str() {
                "f" => RelationKind::ForeignTable,
                "v" => RelationKind::View,
                "m" => RelationKind::MaterializedView,
                _ => RelationKind::Table,
            },
            updatable: r.get(4),
        })
        .collect())
}

async fn load_columns<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Vec<Column>> {
    let rows = client.query(COLUMNS, &[&schemas]).await?;
    Ok(rows
        .iter()
        .map(|r| Column {
            relation_id: r.get(0),
            name: r.get(1),
            type_name: r.get(2),
            nullable: r.get(3),
            identity: match r.get::<_, String>(4).as_str() {
                "a" => Some(Identity::Always),
                "d" => Some(Identity::ByDefault),
                _ => None,
            },
            has_default: r.get(5),
            updatable: r.get(6),
        })
        .collect())
}

async fn load_foreign_keys<C: GenericClient>(client: &C) -> anyhow::Result<Vec<Relationship>> {
    let rows = client.query(&foreign_keys_sql(), &[]).await?;
    Ok(rows
        .iter()
        .map(|r| Relationship {
            foreign_key_name: r.get(0),
            schema: r.get(1),
            relation: r.get(2),
            columns: r.get(3),
            referenced_schema: r.get(4),
            referenced_relation: r.get(5),
            referenced_columns: r.get(6),
            one_to_one: r.get(7),
        })
        .collect())
}

async fn load_views<C: GenericClient>(client: &C) -> anyhow::Result<Vec<View>> {
    let rows = client.query(&views_sql(), &[]).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let numbers: Vec<i32> = r.get(4);
            let names: Vec<String> = r.get(5);
            View {
                id: r.get(0),
                schema: r.get(1),
                name: r.get(2),
                entries: view_keys::target_entries(r.get(3)),
                columns: numbers.into_iter().zip(names).collect::<HashMap<_, _>>(),
            }
        })
        .collect())
}

async fn load_keys<C: GenericClient>(client: &C) -> anyhow::Result<Vec<Key>> {
    let rows = client.query(KEYS, &[]).await?;
    Ok(rows
        .iter()
        .map(|r| Key {
            name: r.get(0),
            foreign: r.get(1),
            table: r.get(2),
            table_schema: r.get(3),
            table_name: r.get(4),
            columns: r.get(5),
            ref_table: r.get(6),
            ref_columns: r.get(7),
        })
        .collect())
}

async fn load_functions<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Vec<Function>> {
    let rows = client.query(FUNCTIONS, &[&schemas]).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let modes: Vec<String> = r.get(2);
            let names: Vec<String> = r.get(3);
            let types: Vec<i64> = r.get(4);
            let inputs: i32 = r.get(5);
            let defaults: i32 = r.get(6);
            Function {
                schema: r.get(0),
                name: r.get(1),
                args: args(&modes, &names, &types, inputs as usize, defaults as usize),
                argument_types: r.get(7),
                return_type_id: r.get(8),
                return_type: r.get(9),
                return_relation_id: r.get(10),
                returns_set: r.get(11),
                rows: r.get(12),
            }
        })
        .collect())
}

/// Arguments as postgres-meta lists them: the default flags line up with the first `inputs` positions of all
/// arguments (so an OUT argument before a defaulted one shifts them, exactly as its query does).
fn args(modes: &[String], names: &[String], types: &[i64], inputs: usize, defaults: usize) -> Vec<Arg> {
    types
        .iter()
        .enumerate()
        .map(|(i, t)| Arg {
            mode: match modes.get(i).map(String::as_str) {
                Some("o") => ArgMode::Out,
                Some("b") => ArgMode::InOut,
                Some("v") => ArgMode::Variadic,
                Some("t") => ArgMode::Table,
                _ => ArgMode::In,
            },
            name: names.get(i).cloned().unwrap_or_default(),
            type_id: *t,
            has_default: i < inputs && i >= inputs.saturating_sub(defaults),
        })
        .collect()
}

async fn load_types<C: GenericClient>(client: &C) -> anyhow::Result<Vec<TypeInfo>> {
    let rows = client.query(TYPES, &[]).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let names: Vec<String> = r.get(5);
            let ids: Vec<i64> = r.get(6);
            TypeInfo {
                id: r.get(0),
                name: r.get(1),
                schema: r.get::<_, Option<String>>(2).unwrap_or_default(),
                format: r.get(3),
                enum_labels: r.get(4),
                attributes: names.into_iter().zip(ids).collect(),
                relation_id: r.get(7),
            }
        })
        .collect())
}
