//! Risky access rules in the exposed schemas, reported at start and by `gateway lint`.

use tokio_postgres::Client;

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub object: String,
    pub message: String,
}

/// `c` (a `pg_class` row) is reachable by anon or authenticated through the API: a table-level grant, or a grant on
/// any one column (`grant select (email) on t to anon` reaches the table too, which `has_table_privilege` misses).
macro_rules! reachable_by_api_roles {
    () => {
        "(has_table_privilege('anon', c.oid, 'delete') \
          or has_any_column_privilege('anon', c.oid, 'select,insert,update') \
          or has_table_privilege('authenticated', c.oid, 'delete') \
          or has_any_column_privilege('authenticated', c.oid, 'select,insert,update'))"
    };
}

const CHECKS: &[(&str, &str, &str)] = &[
    (
        "rls_disabled",
        concat!(
            "select format('%I.%I', n.nspname, c.relname) from pg_class c \
             join pg_namespace n on n.oid = c.relnamespace \
             where c.relkind in ('r','p') and n.nspname = any($1) and not c.relrowsecurity and ",
            reachable_by_api_roles!()
        ),
        "table is reachable by anon or authenticated but row-level security is disabled",
    ),
    // Supabase's linter (splinter 0010): a view runs with its owner's rights unless it is `security_invoker`, so the
    // row-level security of the tables it reads is the owner's, not the caller's.
    (
        "security_definer_view",
        concat!(
            "select format('%I.%I', n.nspname, c.relname) from pg_class c \
             join pg_namespace n on n.oid = c.relnamespace \
             left join pg_depend d on d.objid = c.oid and d.deptype = 'e' \
             where c.relkind = 'v' and n.nspname = any($1) and d.objid is null \
             and not (lower(coalesce(c.reloptions::text, '{}'))::text[] && array['security_invoker=1', \
                      'security_invoker=true', 'security_invoker=yes', 'security_invoker=on']) and ",
            reachable_by_api_roles!()
        ),
        "view is reachable by anon or authenticated and defined with SECURITY DEFINER (no security_invoker): it reads \
         its tables with its owner's rights, bypassing their row-level security (alter view … set (security_invoker \
         = on))",
    ),
    // splinter 0016: a materialized view has no row-level security at all.
    (
        "materialized_view_in_api",
        concat!(
            "select format('%I.%I', n.nspname, c.relname) from pg_class c \
             join pg_namespace n on n.oid = c.relnamespace \
             left join pg_depend d on d.objid = c.oid and d.deptype = 'e' \
             where c.relkind = 'm' and n.nspname = any($1) and d.objid is null and ",
            reachable_by_api_roles!()
        ),
        "materialized view is selectable by anon or authenticated (materialized views have no row-level security)",
    ),
    (
        "permissive_write_policy",
        "select format('%I.%I: %s', schemaname, tablename, policyname) from pg_policies \
         where schemaname = any($1) and cmd in ('INSERT','UPDATE','DELETE','ALL') \
         and (coalesce(qual, '') = 'true' or coalesce(with_check, '') = 'true') \
         and roles && array['public','anon','authenticated']::name[]",
        "write policy allows every row (USING (true) or WITH CHECK (true))",
    ),
    (
        "security_definer_executable_by_anon",
        "select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) from pg_proc p \
         join pg_namespace n on n.oid = p.pronamespace where p.prosecdef and n.nspname = any($1) \
         and has_function_privilege('anon', p.oid, 'execute')",
        "SECURITY DEFINER function is executable by anon through the API",
    ),
    (
        "function_search_path_mutable",
        "select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) from pg_proc p \
         join pg_namespace n on n.oid = p.pronamespace left join pg_depend d on d.objid = p.oid and d.deptype = 'e' \
         where n.nspname = any($1) and d.objid is null and p.prokind in ('f','p') \
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')",
        "function has a mutable search_path (add SET search_path)",
    ),
];

/// Runs every check over the given schemas.
pub async fn run(client: &Client, schemas: &[String]) -> anyhow::Result<Vec<Finding>> {
    let mut findings = vec![];
    for (rule, sql, message) in CHECKS {
        for row in client.query(*sql, &[&schemas]).await? {
            findings.push(Finding { rule, object: row.get(0), message: message.to_string() });
        }
    }
    Ok(findings)
}
