// Vacancies benchmark (issue 24): the public job search over 10,000 live jobs (and 1,000 closed) through the gateway
// as a visitor (POST /rest/v1/rpc/search_jobs with the anon key, what the /jobs page sends, and GET /jobs, the page
// the database renders), with the plan PostgreSQL chose for the function's statement (auto_explain of the nested
// statement, after the plan cache has settled); then the job alert digest (private.run_job_alerts, as pg_cron
// and `make job-alerts` run it) at two sizes on a database of its own: time per pass and per alert.
//   scripts/with-test-db.sh node tests/bench/jobs/run.mjs        (GATEWAY_BIN=…/release/gateway for release)
//   BENCH_RUNS=200 requests per search (default), BENCH_JOBS=10000, BENCH_DIGEST="1000x100 10000x1000" (alerts x jobs)
// Prints figures only, never asserts them. Target: the filtered keyword search's p95 <= 20 ms.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../../js/lib/gateway.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS || 200);
const JOBS = Number(process.env.BENCH_JOBS || 10000);
const DIGESTS = (process.env.BENCH_DIGEST || '1000x100 10000x1000').split(/\s+/).map((s) => s.split('x').map(Number));
const port = process.env.TEST_PGPORT;
const siteDir = join(here, '..', '..', '..', 'web', 'dist');
const dbUrl = (db) => `postgres://postgres@127.0.0.1:${port}/${db}`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const psql = (db, args, input) => execFileSync('psql', ['-qAtX', '-v', 'ON_ERROR_STOP=1', dbUrl(db), ...args], {
  encoding: 'utf8',
  input,
  env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
});

/** Times one request RUNS times after 20 warm-ups with curl's own clock (connect to last byte); returns ms, sorted. */
function time(label, url, { method = 'GET', headers = {}, body } = {}) {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', '-X', method];
  if (body) args.push('--data', JSON.stringify(body));
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const samples = [];
  let size = 0;
  for (let i = 0; i < RUNS + 20; i++) {
    const [status, bytes, seconds] = execFileSync('curl', [...args, url], { encoding: 'utf8' }).trim().split(' ');
    if (status !== '200') throw new Error(`${label}: HTTP ${status}`);
    size = Number(bytes);
    if (i >= 20) samples.push(Number(seconds) * 1000);
  }
  samples.sort((a, b) => a - b);
  const f = (n) => n.toFixed(1).padStart(6);
  console.log(`| ${label.padEnd(58)} | ${f(samples[0])} | ${f(percentile(samples, 50))} | ${f(percentile(samples, 95))} | ${f(samples.at(-1))} | ${String(Math.round(size / 1024)).padStart(4)} kB |`);
  return samples;
}

/**
 * The plan PostgreSQL runs for search_jobs's statement, as the anon role on the 11th call (after PL/pgSQL's plan
 * cache has had its five custom plans): auto_explain of nested statements, sent to the client as NOTICEs.
 */
function searchPlan(db, args) {
  const call = `select public.search_jobs(${args}) is not null;\n`;
  const notices = execFileSync('bash', ['-c', 'psql -qAtX -v ON_ERROR_STOP=1 "$0" 2>&1 >/dev/null', dbUrl(db)], {
    encoding: 'utf8',
    input: `set role anon;\n${call.repeat(10)}reset role;\nload 'auto_explain';\n` +
      'set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on;\n' +
      'set auto_explain.log_analyze = on; set auto_explain.log_timing = off; set auto_explain.log_level = notice;\n' +
      `set client_min_messages = notice;\nset role anon;\n${call}`,
  });
  // one NOTICE per statement: keep the function's own (the one reading public.jobs)
  const plans = notices.split(/NOTICE:\s+duration: [0-9.]+ ms\s+plan:\n/).filter((p) => /\bon jobs\b/.test(p));
  return (plans.at(-1) ?? notices).replace(/^CONTEXT:[\s\S]*$/m, '').trimEnd();
}

async function searchBench() {
  // with the built site (web/dist) the gateway also serves /jobs, rendered by the database
  const site = existsSync(join(siteDir, 'index.html'));
  const gw = await startGateway({ env: site ? { GATEWAY_SITE_DIR: siteDir } : {} });
  try {
    const started = Date.now();
    psql(gw.db, ['-v', `n=${JOBS}`, '-v', 'prefix=S', '-f', join(here, 'jobs.sql')]);
    psql(gw.db, ['-c', 'vacuum analyze public.jobs']);
    const live = gw.sql("select count(*) from public.jobs where status = 'active'");
    const all = gw.sql('select count(*) from public.jobs');
    console.log(`fixture: ${live} live jobs of ${all} (loaded in ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);

    const rpc = `${gw.url}/rest/v1/rpc/search_jobs`;
    const headers = { apikey: gw.anonKey, 'content-type': 'application/json' };
    const filtered = { q: 'surveyor', sector: ['Construction'], employment_type: ['permanent'], page: 1 };
    console.log(`${RUNS} sequential requests each after 20 warm-ups, through the gateway (${process.env.GATEWAY_BIN}), ms:\n`);
    console.log('| request                                                    |    min | median |    p95 |    max |    size |');
    console.log('|------------------------------------------------------------|--------|--------|--------|--------|---------|');
    const hit = JSON.parse(execFileSync('curl', ['-s', '-X', 'POST', '-H', `apikey: ${gw.anonKey}`, '-H', 'content-type: application/json',
      '--data', JSON.stringify(filtered), rpc], { encoding: 'utf8' }));
    const main = time(`rpc/search_jobs "surveyor" + sector + type (${hit.total} hits)`, rpc, { method: 'POST', headers, body: filtered });
    time('rpc/search_jobs "project manager" (keywords only)', rpc, { method: 'POST', headers, body: { q: 'project manager' } });
    time('rpc/search_jobs no filter (newest 20, every facet count)', rpc, { method: 'POST', headers, body: {} });
    if (site) time('GET /jobs?q=surveyor&sector=Construction&type=permanent', `${gw.url}/jobs?q=surveyor&sector=Construction&type=permanent`);

    const inner = searchPlan(gw.db, "q => 'surveyor', sector => '{Construction}', employment_type => '{permanent}'");
    console.log("\nplan of search_jobs's statement for that search (auto_explain, ANALYZE, timing off, 11th call as anon):\n");
    console.log(inner.split('\n').map((l) => '    ' + l).join('\n'));
    const index = /Index Scan on jobs_active_search_vector_idx/.test(inner);
    const seq = /Seq Scan on jobs\b/.test(inner);
    console.log(`\nGIN index of live jobs used: ${index ? 'yes' : 'NO'}; sequential scan of jobs: ${seq ? 'YES' : 'no'}`);
    const p95 = percentile(main, 95);
    console.log(`filtered keyword search p95: ${p95.toFixed(1)} ms (target <= 20 ms): ${p95 <= 20 ? 'met' : 'MISSED'}`);
    console.log(`load average while measuring: ${loadavg().map((n) => n.toFixed(1)).join(' ')} (2 cores)\n`);
  } finally {
    await gw.stop();
  }
}

/** One digest pass for `alerts` confirmed alerts and `jobs` new live jobs on a database of its own. */
function digestBench(alerts, jobs) {
  const db = `bench_digest_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  psql('postgres', ['-c', `create database ${db} template "${process.env.TEST_TEMPLATE_DB}"`]);
  try {
    psql(db, ['-v', `alerts=${alerts}`, '-f', join(here, 'alerts.sql')]);
    psql(db, ['-v', `n=${jobs}`, '-v', 'prefix=D', '-f', join(here, 'jobs.sql')]);
    psql(db, ['-c', 'vacuum analyze public.jobs, public.job_alerts']);
    const r = JSON.parse(psql(db, ['-c', `select private.run_job_alerts(now() + interval '1 minute', ${alerts * 2})`]).trim());
    const mails = psql(db, ['-c', 'select count(*) from gateway.outbox']).trim();
    const again = JSON.parse(psql(db, ['-c', `select private.run_job_alerts(now() + interval '2 minutes', ${alerts * 2})`]).trim());
    const perAlert = (r.seconds * 1000) / alerts;
    console.log(`| ${String(alerts).padStart(6)} × ${String(jobs).padStart(5)} | ${String(r.digests).padStart(7)} | ${String(r.jobs_sent).padStart(9)} | ${mails.padStart(6)} | ${r.seconds.toFixed(2).padStart(8)} | ${perAlert.toFixed(2).padStart(9)} | ${again.seconds.toFixed(2).padStart(10)} |`);
  } finally {
    psql('postgres', ['-c', `drop database if exists ${db}`]);
  }
}

await searchBench();
console.log('job alert digest: one pass of private.run_job_alerts (every alert due, every job new since its confirmation):\n');
console.log('| alerts × jobs  | digests | jobs sent | queued |  pass s | ms/alert | 2nd pass s |');
console.log('|----------------|---------|-----------|--------|---------|----------|------------|');
for (const [alerts, jobs] of DIGESTS) digestBench(alerts, jobs);
console.log(`\nload average: ${loadavg().map((n) => n.toFixed(1)).join(' ')} (2 cores)`);
