//! Risky access rules in the exposed schemas, reported at start and by `gateway lint`.

use tokio_postgres::Client;

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub object: String,
    pub message: String,
}

const CHECKS: &[(&str, &str, &str)] = &[
    (
        "rls_disabled",
        "select format('%I.%I', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace \
         where c.relkind in ('r','p') and n.nspname = any($1) and not c.relrowsecurity \
         and (has_table_privilege('anon', c.oid, 'select,insert,update,delete') \
              or has_table_privilege('authenticated', c.oid, 'select,insert,update,delete'))",
        "table is reachable by anon or authenticated but row-level security is disabled",
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
