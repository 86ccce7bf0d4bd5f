//! Start-up checks of the pool user: the gateway refuses to run as a superuser, with BYPASSRLS, or inheriting the
//! API roles, since any of those would let a request skip row-level security.

use tokio_postgres::Client;

/// Fails when the connected role could bypass the access rules.
pub async fn check_pool_user(client: &Client) -> anyhow::Result<()> {
    let row = client
        .query_one("select rolname, rolsuper, rolbypassrls, rolinherit from pg_roles where rolname = current_user", &[])
        .await?;
    let (name, superuser, bypass, inherit): (String, bool, bool, bool) =
        (row.get(0), row.get(1), row.get(2), row.get(3));
    if superuser {
        anyhow::bail!("the pool user {name} is a superuser; connect as a login role such as authenticator");
    }
    if bypass {
        anyhow::bail!("the pool user {name} has BYPASSRLS; connect as a role without it");
    }
    if inherit {
        let granted: i64 = client
            .query_one(
                "select count(*) from pg_auth_members m join pg_roles r on r.oid = m.roleid \
                 where m.member = (select oid from pg_roles where rolname = current_user)",
                &[],
            )
            .await?
            .get(0);
        if granted > 0 {
            anyhow::bail!("the pool user {name} inherits the roles granted to it; make it NOINHERIT");
        }
    }
    Ok(())
}
