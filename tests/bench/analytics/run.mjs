// Analytics benchmark: 1,000 candidate profiles and 200,000 views (fixture.sql), then the analytics page's request
// timed through the gateway as the signed-in admin (POST /rest/v1/rpc/admin_profile_analytics with the page's
// arguments: the cards, the trend and the first 50 rows of the table, what supabase-js sends) with curl's own clock (connect to last byte), one request at a time after a warm-up, plus the per-profile
// trend and one page of the candidate list. Forty calls in a row on one connection pool also catch plan-cache
// regressions (PL/pgSQL's generic plan after the fifth call), which a single timing would miss.
//   scripts/with-test-db.sh node tests/bench/analytics/run.mjs        (GATEWAY_BIN=target/release/gateway for release)
// Prints min / median / p95 / max per request and the response size (the CSV export's full table too). Target: the analytics request <= 150 ms.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../../js/lib/gateway.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS || 40);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times POST url with curl (its own clock: connect to last byte), RUNS times after 5 warm-ups. */
function time(label, url, headers, body) {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', '-X', 'POST', '--data', JSON.stringify(body)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const samples = [];
  let size = 0;
  for (let i = 0; i < RUNS + 5; i++) {
    const [status, bytes, seconds] = execFileSync('curl', [...args, url], { encoding: 'utf8' }).trim().split(' ');
    if (status !== '200') throw new Error(`${label}: HTTP ${status}`);
    size = Number(bytes);
    if (i >= 5) samples.push(Number(seconds) * 1000);
  }
  samples.sort((a, b) => a - b);
  const f = (n) => n.toFixed(1).padStart(7);
  console.log(`| ${label.padEnd(44)} | ${f(samples[0])} | ${f(percentile(samples, 50))} | ${f(percentile(samples, 95))} | ${f(samples.at(-1))} | ${String(Math.round(size / 1024)).padStart(5)} kB |`);
  return percentile(samples, 50);
}

const gw = await startGateway();
try {
  const db = `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${gw.db}`;
  const started = Date.now();
  execFileSync('psql', ['-qX', '-v', 'ON_ERROR_STOP=1', db, '-f', join(here, 'fixture.sql')], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('psql', ['-qX', db, '-c', 'vacuum analyze'], { stdio: 'inherit' });
  const views = gw.sql('select count(*) from public.profile_views');
  const profiles = gw.sql('select count(*) from public.candidate_profiles');
  console.log(`fixture: ${profiles} profiles, ${views} views (loaded in ${((Date.now() - started) / 1000).toFixed(1)} s)`);

  const client = gw.client();
  const { data, error } = await client.auth.signInWithPassword({ email: 'bench.admin@example.com', password: 'bench-admin-password' });
  if (error) throw error;
  const headers = { apikey: gw.anonKey, authorization: `Bearer ${data.session.access_token}`, 'content-type': 'application/json' };
  const rpc = (name) => `${gw.url}/rest/v1/rpc/${name}`;
  const someProfile = gw.sql("select id from public.candidate_profiles where candidate_id = 'BENCH-0003'");

  console.log(`\n${RUNS} sequential requests each after 5 warm-ups, through the gateway (${process.env.GATEWAY_BIN}), ms:\n`);
  console.log('| request                                      |     min |  median |     p95 |     max |     size |');
  console.log('|----------------------------------------------|---------|---------|---------|---------|----------|');
  const median = time('rpc/admin_profile_analytics (the page)', rpc('admin_profile_analytics'), headers, { days: 30, page_size: 50, page_offset: 0 });
  time('rpc/admin_profile_figures (CSV export)', rpc('admin_profile_figures'), headers, {});
  time('rpc/admin_profile_view_trend (one profile)', rpc('admin_profile_view_trend'), headers, { profile_id: someProfile, days: 30 });
  time('rpc/admin_candidate_profile_page (25 rows)', rpc('admin_candidate_profile_page'), headers, { search: null, page_size: 25, page_offset: 0 });
  time('rpc/admin_candidate_profile_page (search)', rpc('admin_candidate_profile_page'), headers, { search: 'leeds', page_size: 25, page_offset: 0 });
  // The same call inside PostgreSQL alone (no HTTP, no gateway), as the admin: EXPLAIN ANALYZE's execution time.
  const claims = JSON.stringify({ sub: data.user.id, role: 'authenticated' });
  const sqlTimes = [];
  for (let i = 0; i < 15; i++) {
    const out = execFileSync('psql', ['-qAtX', db], {
      input: `begin;\nselect set_config('role', 'authenticated', true), set_config('request.jwt.claims', '${claims}', true);\n` +
        'explain (analyze, timing off) select public.admin_profile_analytics(30);\nrollback;\n',
      encoding: 'utf8',
    });
    sqlTimes.push(Number(out.match(/Execution Time: ([0-9.]+) ms/)[1]));
  }
  sqlTimes.sort((a, b) => a - b);
  console.log(`\nSQL alone (EXPLAIN ANALYZE of admin_profile_analytics, 15 runs): min ${sqlTimes[0]} ms, median ${percentile(sqlTimes, 50)} ms`);
  console.log(`load average while measuring: ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')} (2 cores)`);
  console.log(`analytics request median: ${median.toFixed(1)} ms (target <= 150 ms): ${median <= 150 ? 'met' : 'MISSED'}`);
} finally {
  await gw.stop();
}
