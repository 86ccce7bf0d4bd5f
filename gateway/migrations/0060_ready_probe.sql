-- Platform: the pool's login role reads which app migrations are applied, for the `GET /ready` probe.
grant select on gateway.schema_migrations to authenticator;
