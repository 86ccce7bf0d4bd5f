//! The catalog queries that build the schema cache, run at start and on every `reload schema` notification.

use super::relationships::{self, ForeignKey, ViewColumn};
use super::*;
use std::collections::HashMap;
use tokio_postgres::GenericClient;

const TABLES: &str = "
select n.nspname::text, c.relname::text, c.relkind in ('v', 'm'),
  coalesce((select array_agg(a.attname::text order by array_position(con.conkey, a.attnum))
            from pg_constraint con join pg_attribute a on a.attrelid = con.conrelid and a.attnum = any(con.conkey)
            where con.conrelid = c.oid and con.contype = 'p'), '{}'::text[]),
  array(select r.rolname::text from pg_roles r where r.rolname = any($2)
        and has_table_privilege(r.oid, c.oid, 'select, insert, update, delete'))
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'v', 'm', 'f', 'p') and n.nspname = any($1)";

const COLUMNS: &str = "
select n.nspname::text, c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod), not a.attnotnull,
  coalesce(case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end,
           case when a.attidentity in ('a', 'd') then format('nextval(%L::regclass)',
             pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname)) end)
from pg_attribute a
  join pg_class c on c.oid = a.attrelid
  join pg_namespace n on n.oid = c.relnamespace
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'v', 'm', 'f', 'p') and n.nspname = any($1)
order by n.nspname, c.relname, a.attnum";

const FOREIGN_KEYS: &str = "
select con.conname::text, n1.nspname::text, c1.relname::text, n2.nspname::text, c2.relname::text,
  array(select a.attname::text from unnest(con.conkey) with ordinality k(num, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.i),
  array(select a.attname::text from unnest(con.confkey) with ordinality k(num, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.i)
from pg_constraint con
  join pg_class c1 on c1.oid = con.conrelid join pg_namespace n1 on n1.oid = c1.relnamespace
  join pg_class c2 on c2.oid = con.confrelid join pg_namespace n2 on n2.oid = c2.relnamespace
where con.contype = 'f' and con.conparentid = 0 and n1.nspname = any($1) and n2.nspname = any($1)";

const UNIQUE_KEYS: &str = "
select n.nspname::text, c.relname::text,
  array(select a.attname::text from unnest(i.indkey::int2[]) k(num) join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.num)
from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
where i.indisunique and i.indpred is null and n.nspname = any($1)";

const VIEW_COLUMNS: &str = "
select distinct vn.nspname::text, v.relname::text, va.attname::text, tn.nspname::text, t.relname::text, ta.attname::text
from pg_class v
  join pg_namespace vn on vn.oid = v.relnamespace
  join pg_rewrite r on r.ev_class = v.oid
  join pg_depend d on d.objid = r.oid and d.classid = 'pg_rewrite'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjsubid > 0
  join pg_class t on t.oid = d.refobjid and t.oid <> v.oid
  join pg_namespace tn on tn.oid = t.relnamespace
  join pg_attribute ta on ta.attrelid = t.oid and ta.attnum = d.refobjsubid
  join pg_attribute va on va.attrelid = v.oid and va.attname = ta.attname and va.attnum > 0
where v.relkind in ('v', 'm') and vn.nspname = any($1)";

const ROUTINES: &str = "
select n.nspname::text, p.proname::text, coalesce(p.proargnames, '{}'::text[]), coalesce(p.proargmodes::text[], '{}'::text[]),
  array(select format_type(t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) t),
  p.pronargdefaults::int, p.proretset, format_type(p.prorettype, null), rt.typtype::text,
  rn.nspname::text, rc.relname::text, p.provolatile::text, p.prorettype = 'record'::regtype,
  array(select r.rolname::text from pg_roles r where r.rolname = any($2) and has_function_privilege(r.oid, p.oid, 'execute')),
  (select array[an.nspname::text, ac.relname::text] from pg_type at
     join pg_class ac on ac.oid = at.typrelid and ac.relkind in ('r', 'v', 'm', 'f', 'p')
     join pg_namespace an on an.oid = ac.relnamespace
   where p.pronargs = 1 and at.oid = p.proargtypes[0]),
  p.proretset and p.prorows = 1
from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  join pg_type rt on rt.oid = p.prorettype
  left join pg_class rc on rc.oid = rt.typrelid and rc.relkind in ('r', 'v', 'm', 'f', 'p')
  left join pg_namespace rn on rn.oid = rc.relnamespace
where n.nspname = any($1) and p.prokind = 'f'
  and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype, 'internal'::regtype)";

/// Loads the whole cache for the exposed `schemas`; `roles` are the API roles (for visibility and settings).
pub async fn load<C: GenericClient>(client: &C, schemas: &[String], roles: &[String]) -> anyhow::Result<SchemaCache> {
    let tables = load_tables(client, schemas, roles).await?;
    let fks = load_foreign_keys(client, schemas).await?;
    let mut unique_sets: HashMap<QualifiedName, Vec<Vec<String>>> = HashMap::new();
    for row in client.query(UNIQUE_KEYS, &[&schemas]).await? {
        unique_sets.entry(QualifiedName::new(row.get(0), row.get(1))).or_default().push(row.get(2));
    }
    let view_columns = unambiguous_view_columns(load_view_columns(client, schemas).await?);
    let mut relationships = relationships::build(&tables, &fks, &unique_sets, &view_columns);
    let mut routines = load_routines(client, schemas, roles).await?;
    add_computed_relationships(&mut relationships, &routines);
    keep_callable(&mut routines);
    let has_postgis =
        client.query_one("select exists(select 1 from pg_extension where extname = 'postgis')", &[]).await?.get(0);
    let all_roles = client.query("select rolname::text from pg_roles", &[]).await?.iter().map(|r| r.get(0)).collect();
    let timezones =
        client.query("select name::text from pg_timezone_names", &[]).await?.iter().map(|r| r.get(0)).collect();
    Ok(SchemaCache {
        tables: tables.into_iter().collect(),
        relationships: relationships.into_iter().collect(),
        routines: routines.into_iter().collect(),
        has_postgis,
        roles: all_roles,
        timezones,
    })
}

/// Tables and views with their columns.
async fn load_tables<C: GenericClient>(
    client: &C,
    schemas: &[String],
    roles: &[String],
) -> anyhow::Result<HashMap<QualifiedName, Table>> {
    let mut tables: HashMap<QualifiedName, Table> = HashMap::new();
    for row in client.query(TABLES, &[&schemas, &roles]).await? {
        let name = QualifiedName::new(row.get(0), row.get(1));
        tables.insert(
            name.clone(),
            Table { name, is_view: row.get(2), columns: vec![], primary_key: row.get(3), visible_to: row.get(4) },
        );
    }
    for row in client.query(COLUMNS, &[&schemas]).await? {
        if let Some(t) = tables.get_mut(&QualifiedName::new(row.get(0), row.get(1))) {
            let column = Column { name: row.get(2), data_type: row.get(3), nullable: row.get(4), default: row.get(5) };
            t.columns.push(column);
        }
    }
    Ok(tables)
}

async fn load_foreign_keys<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Vec<ForeignKey>> {
    let rows = client.query(FOREIGN_KEYS, &[&schemas]).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let own: Vec<String> = r.get(5);
            let foreign: Vec<String> = r.get(6);
            ForeignKey {
                name: r.get(0),
                table: QualifiedName::new(r.get(1), r.get(2)),
                foreign_table: QualifiedName::new(r.get(3), r.get(4)),
                columns: own.into_iter().zip(foreign).collect(),
                via_view: false,
            }
        })
        .collect())
}

/// Which table column each view column shows.
async fn load_view_columns<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Vec<ViewColumn>> {
    let rows = client.query(VIEW_COLUMNS, &[&schemas]).await?;
    Ok(rows
        .iter()
        .map(|r| ViewColumn {
            view: QualifiedName::new(r.get(0), r.get(1)),
            view_column: r.get(2),
            table: QualifiedName::new(r.get(3), r.get(4)),
            table_column: r.get(5),
        })
        .collect())
}

/// A function taking a table's row and returning rows of another is a computed relationship between them.
fn add_computed_relationships(
    relationships: &mut HashMap<QualifiedName, Vec<Relationship>>,
    routines: &HashMap<QualifiedName, Vec<Routine>>,
) {
    for r in routines.values().flatten() {
        if let (Some(source), ReturnShape::Composite { set, relation: Some(target) }) = (&r.row_param, &r.returns) {
            // `ROWS 1` on a set-returning function makes it to-one, as in PostgREST
            let set = *set && !r.rows_one;
            relationships.entry(source.clone()).or_default().push(Relationship {
                source: source.clone(),
                target: target.clone(),
                constraint: r.name.name.clone(),
                columns: vec![],
                cardinality: Cardinality::Computed { function: r.name.clone(), to_one: !set },
                via_view: false,
            });
        }
    }
}

/// Like PostgREST, functions with unnamed parameters are callable only when the one parameter takes the body.
fn keep_callable(routines: &mut HashMap<QualifiedName, Vec<Routine>>) {
    for list in routines.values_mut() {
        list.retain(|r| {
            r.params.iter().all(|p| !p.name.is_empty())
                || (r.params.len() == 1
                    && matches!(r.params[0].data_type.as_str(), "json" | "jsonb" | "text" | "xml" | "bytea"))
        });
    }
    routines.retain(|_, list| !list.is_empty());
}

/// Keeps a view column's mapping only when it is unique (a view over a join may expose `id` from two tables).
fn unambiguous_view_columns(all: Vec<ViewColumn>) -> Vec<ViewColumn> {
    let mut count: HashMap<(QualifiedName, String), usize> = HashMap::new();
    for vc in &all {
        *count.entry((vc.view.clone(), vc.view_column.clone())).or_default() += 1;
    }
    all.into_iter().filter(|vc| count[&(vc.view.clone(), vc.view_column.clone())] == 1).collect()
}

async fn load_routines<C: GenericClient>(
    client: &C,
    schemas: &[String],
    roles: &[String],
) -> anyhow::Result<HashMap<QualifiedName, Vec<Routine>>> {
    let mut routines: HashMap<QualifiedName, Vec<Routine>> = HashMap::new();
    for row in client.query(ROUTINES, &[&schemas, &roles]).await? {
        let routine = routine(&row);
        routines.entry(routine.name.clone()).or_default().push(routine);
    }
    Ok(routines)
}

/// A function as a row of `ROUTINES` describes it.
fn routine(row: &tokio_postgres::Row) -> Routine {
    let return_type: String = row.get(7);
    let (set, typtype, is_record): (bool, String, bool) = (row.get(6), row.get(8), row.get(12));
    let (rel_schema, rel_name): (Option<String>, Option<String>) = (row.get(9), row.get(10));
    let returns = if typtype == "c" || is_record {
        ReturnShape::Composite { set, relation: rel_schema.zip(rel_name).map(|(s, n)| QualifiedName::new(&s, &n)) }
    } else {
        ReturnShape::Scalar { set, void: return_type == "void" }
    };
    let volatility = match row.get::<_, String>(11).as_str() {
        "i" => Volatility::Immutable,
        "s" => Volatility::Stable,
        _ => Volatility::Volatile,
    };
    let row_param: Option<Vec<String>> = row.get(14);
    Routine {
        name: QualifiedName::new(row.get(0), row.get(1)),
        row_param: row_param.filter(|v| v.len() == 2).map(|v| QualifiedName::new(&v[0], &v[1])),
        rows_one: row.get(15),
        params: params(row.get(2), row.get(3), row.get(4), row.get(5)),
        returns,
        return_type,
        volatility,
        visible_to: row.get(13),
    }
}

/// The parameters a call passes (in, inout and variadic ones), the last `n_defaults` of them with defaults.
fn params(names: Vec<String>, modes: Vec<String>, types: Vec<String>, n_defaults: i32) -> Vec<RoutineParam> {
    let mut params: Vec<RoutineParam> = types
        .iter()
        .enumerate()
        .filter(|(i, _)| modes.get(*i).is_none_or(|m| m == "i" || m == "b" || m == "v"))
        .map(|(i, t)| RoutineParam {
            name: names.get(i).cloned().unwrap_or_default(),
            data_type: t.clone(),
            has_default: false,
            variadic: modes.get(i).is_some_and(|m| m == "v"),
        })
        .collect();
    let n = params.len();
    for p in params.iter_mut().skip(n.saturating_sub(n_defaults.max(0) as usize)) {
        p.has_default = true;
    }
    params
}
