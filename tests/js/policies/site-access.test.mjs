// The site's access rules end to end: stock supabase-js → gateway → PostgreSQL grants + RLS (sql/migrations).
// Acts as anon, two candidates and an admin (tokens minted with the database's signing key) and service_role.
// Skipped unless POLICIES_SUITE=1 (it needs the gateway's data API, /rest/v1).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway } from '../lib/gateway.mjs';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { fixturesSql, demoUsersSql, currentSigningKey, clientAs, userId, accessToken } from './identities.mjs';

const enabled = process.env.POLICIES_SUITE === '1';

/** Asserts a supabase-js result failed with a privilege error (grant or RLS), never with rows. */
function assertDenied(result, what) {
  assert.ok(result.error, `${what}: expected an error, got ${JSON.stringify(result.data)}`);
  assert.equal(result.error.code, '42501', `${what}: ${JSON.stringify(result.error)}`);
  assert.ok(!result.data || result.data.length === 0, `${what}: no rows may come back`);
}

/** Asserts a supabase-js result succeeded. */
function ok(result, what) {
  assert.equal(result.error, null, `${what}: ${JSON.stringify(result.error)}`);
  return result.data;
}

const PUBLIC_PROFILE = 'id,candidate_id,job_title,candidate_reference,details,slug,status';

describe('site access rules through the gateway', { skip: !enabled && 'set POLICIES_SUITE=1 (needs the data API)' }, () => {
  let gw;
  let anon;
  let cand1;
  let cand2;
  let admin;
  let service;
  let key;
  const ids = {};

  before(async () => {
    gw = await startGateway({ sql: `${fixturesSql}\n${demoUsersSql}` });
    key = await currentSigningKey(gw);
    anon = gw.client();
    cand1 = await clientAs(gw, key, 'cand1');
    cand2 = await clientAs(gw, key, 'cand2');
    admin = await clientAs(gw, key, 'admin');
    service = gw.client(gw.serviceKey);
    for (const [name, sql] of Object.entries({
      active1: "select tests.job('active1')",
      active2: "select tests.job('active2')",
      closed: "select tests.job('closed')",
      profileActive: "select tests.row('profile-active')",
      profileInactive: "select tests.row('profile-inactive')",
      cvCand2: "select tests.row('cv-cand2')",
      featuredActive: "select tests.row('featured-active')",
    })) {
      ids[name] = gw.sql(sql);
    }
    ids.cand1 = userId(gw, 'cand1');
    ids.cand2 = userId(gw, 'cand2');
  });
  after(async () => gw?.stop());

  test('the minted user tokens verify against the gateway\'s JWKS, as supabase-js getClaims() would', async () => {
    const jwks = createRemoteJWKSet(new URL(`${gw.url}/auth/v1/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(await accessToken(gw, key, 'cand1'), jwks, { algorithms: ['ES256'] });
    assert.equal(payload.sub, ids.cand1);
    assert.equal(payload.role, 'authenticated');
    assert.equal(protectedHeader.kid, key.kid);
  });

  describe('anon', () => {
    test('reads active jobs newest first, never closed or draft ones', async () => {
      const jobs = ok(await anon.from('jobs').select('*').eq('status', 'active').order('posted_date', { ascending: false }), 'jobs');
      assert.deepEqual(jobs.map((j) => j.id), [ids.active2, ids.active1]);
      const all = ok(await anon.from('jobs').select('id,status'), 'unfiltered jobs');
      assert.ok(all.every((j) => j.status === 'active'));
      const closed = ok(await anon.from('jobs').select('*').eq('id', ids.closed).maybeSingle(), 'closed job');
      assert.equal(closed, null);
    });

    test('reads active featured jobs with their job embedded', async () => {
      const rows = ok(
        await anon
          .from('featured_jobs')
          .select('*, jobs(id,title,company,location,salary,type)')
          .eq('is_active', true)
          .order('display_order', { ascending: true }),
        'featured jobs',
      );
      assert.equal(rows.length, 1);
      assert.equal(rows[0].custom_excerpt, 'Featured and live');
      assert.equal(rows[0].jobs.title, 'Active one');
    });

    test('reads an active profile by slug with public fields only; inactive links are not found', async () => {
      const profile = ok(
        await anon.from('candidate_profiles').select(PUBLIC_PROFILE).eq('slug', 'slug-active-0123456789abcdef').eq('status', 'active').maybeSingle(),
        'profile by slug',
      );
      assert.equal(profile.candidate_id, 'CAND-T1');
      assert.equal(profile.name, undefined);
      const inactive = ok(
        await anon.from('candidate_profiles').select(PUBLIC_PROFILE).eq('slug', 'slug-inactive-0123456789abcdef').eq('status', 'active').maybeSingle(),
        'inactive profile',
      );
      assert.equal(inactive, null);
    });

    test('cannot reach private profile fields by select, filter, order or embedding', async () => {
      assertDenied(await anon.from('candidate_profiles').select('*'), 'select *');
      assertDenied(await anon.from('candidate_profiles').select('id,name'), 'select name');
      assertDenied(await anon.from('candidate_profiles').select('id').ilike('name', '%alice%'), 'filter on name');
      assertDenied(await anon.from('candidate_profiles').select('id').eq('email', 'alice@private.test'), 'filter on email');
      assertDenied(await anon.from('candidate_profiles').select('id').order('location'), 'order by location');
      assertDenied(await anon.from('profile_views').select('id, candidate_profiles(name)'), 'embedding through profile_views');
      assertDenied(await anon.rpc('admin_candidate_profiles'), 'admin read');
    });

    test('records a profile view only as itself, and cannot read views back', async () => {
      const inserted = await anon
        .from('profile_views')
        .insert({ profile_id: ids.profileActive, user_id: null, user_agent: 'node', referrer: null });
      assert.equal(inserted.error, null, JSON.stringify(inserted.error));
      assert.equal(inserted.status, 201);
      assertDenied(await anon.from('profile_views').insert({ profile_id: ids.profileActive, user_id: ids.cand1 }), 'view as a user');
      assertDenied(await anon.from('profile_views').insert({ profile_id: ids.profileInactive }), 'view of an inactive profile');
      assertDenied(await anon.from('profile_views').select('*'), 'read views');
      assertDenied(await anon.rpc('delete_admin_profile_views'), 'clear admin views');
    });

    test('submits applications and enquiries without reading any back', async () => {
      const application = {
        job_id: ids.active1,
        first_name: 'Vic',
        last_name: 'Visitor',
        email: 'vic@example.com',
        phone: '07700900001',
        cover_letter: null,
        cv_object: 'applications/vic.pdf',
        privacy_consent: true,
      };
      const sent = await anon.from('applications').insert(application);
      assert.equal(sent.error, null, JSON.stringify(sent.error));
      assertDenied(await anon.from('applications').insert(application).select(), 'insert returning the application');
      assertDenied(await anon.from('applications').select('*'), 'read applications');
      const enquiry = await anon.from('enquiries').insert({ kind: 'contact', name: 'Hal', email: 'hal@example.com', message: 'Hi' });
      assert.equal(enquiry.error, null, JSON.stringify(enquiry.error));
      assertDenied(await anon.from('enquiries').select('*'), 'read enquiries');
    });

    test('has no access to CVs, saved jobs or roles', async () => {
      assertDenied(await anon.from('cv_documents').select('*'), 'cv_documents');
      assertDenied(await anon.from('saved_jobs').select('*'), 'saved_jobs');
      assertDenied(await anon.from('user_roles').select('*'), 'user_roles');
    });
  });

  describe('candidates', () => {
    test('each reads and writes only its own CVs', async () => {
      const created = ok(await cand1.from('cv_documents').insert({ title: 'Fresh CV', data: { step: 0 } }).select('id,user_id,title'), 'create');
      assert.equal(created[0].user_id, ids.cand1);
      const mine = ok(await cand1.from('cv_documents').select('id,user_id'), 'list');
      assert.ok(mine.length === 2 && mine.every((cv) => cv.user_id === ids.cand1));
      const theirs = ok(await cand1.from('cv_documents').select('*').eq('id', ids.cvCand2), 'IDOR read');
      assert.deepEqual(theirs, []);
      const patched = ok(await cand1.from('cv_documents').update({ title: 'hacked' }).eq('id', ids.cvCand2).select('id'), 'IDOR update');
      assert.deepEqual(patched, []);
      const removed = ok(await cand1.from('cv_documents').delete().eq('id', ids.cvCand2).select('id'), 'IDOR delete');
      assert.deepEqual(removed, []);
      assertDenied(await cand1.from('cv_documents').insert({ user_id: ids.cand2, title: 'planted' }), 'create for another user');
      assertDenied(await cand1.from('cv_documents').update({ user_id: ids.cand2 }).eq('id', created[0].id), 'move to another user');
      const cand2Cvs = ok(await cand2.from('cv_documents').select('title'), 'cand2 list');
      assert.deepEqual(cand2Cvs, [{ title: 'Cand2 CV' }]);
    });

    test('each saves jobs for itself only', async () => {
      ok(await cand2.from('saved_jobs').insert({ job_id: ids.active2 }), 'save');
      const saved = ok(await cand2.from('saved_jobs').select('user_id,job_id').order('job_id'), 'list');
      assert.ok(saved.every((s) => s.user_id === ids.cand2));
      assertDenied(await cand2.from('saved_jobs').insert({ user_id: ids.cand1, job_id: ids.active2 }), 'save for another user');
    });

    test('reads its own roles, never grants itself one', async () => {
      const roles = ok(await cand1.from('user_roles').select('role').eq('user_id', ids.cand1).eq('role', 'admin').limit(1), 'admin check');
      assert.deepEqual(roles, []);
      const everyone = ok(await cand1.from('user_roles').select('user_id'), 'all roles');
      assert.deepEqual(everyone, []);
      assertDenied(await cand1.from('user_roles').insert({ user_id: ids.cand1, role: 'admin' }), 'self-grant');
    });

    test('cannot use the admin area', async () => {
      assertDenied(await cand1.from('featured_jobs').insert({ job_id: ids.closed, custom_excerpt: 'x' }), 'add featured job');
      const toggled = ok(await cand1.from('featured_jobs').update({ is_active: false }).eq('id', ids.featuredActive).select('id'), 'toggle');
      assert.deepEqual(toggled, []);
      assertDenied(await cand1.rpc('admin_candidate_profiles'), 'admin read');
      assertDenied(await cand1.rpc('delete_admin_profile_views'), 'clear admin views');
      const views = ok(await cand1.from('profile_views').select('id'), 'views');
      assert.deepEqual(views, []);
      const jobs = ok(await cand1.from('jobs').select('status'), 'jobs');
      assert.ok(jobs.every((j) => j.status === 'active'));
    });
  });

  describe('admin', () => {
    test('reads every job and featured job', async () => {
      const jobs = ok(await admin.from('jobs').select('id,status'), 'jobs');
      assert.equal(jobs.length, 4);
      const featured = ok(await admin.from('featured_jobs').select('*, jobs(id,title,company,location,salary,type)').order('display_order'), 'featured');
      assert.equal(featured.length, 3);
    });

    test('writes jobs in the editor; publishing without reg. 27 answers 400 with the missing fields', async () => {
      const draft = ok(await admin.from('jobs').insert({ title: 'Editor draft', company: 'Acme', status: 'draft', salary_min: 40000 }).select('id,status').single(), 'draft');
      const refused = await admin.from('jobs').update({ status: 'active' }).eq('id', draft.id).select('id');
      assert.equal(refused.status, 400);
      assert.equal(refused.error.code, '23514');
      assert.deepEqual(JSON.parse(refused.error.details), ['employment_type', 'description', 'location', 'requirements']);
      const live = { status: 'active', employment_type: 'permanent', location: 'York', description: 'D', requirements: 'R' };
      assert.equal(ok(await admin.from('jobs').update(live).eq('id', draft.id).select('status').single(), 'publish').status, 'active');
      const removed = await admin.from('jobs').delete().eq('id', draft.id);
      assert.equal(removed.error?.code, '42501', 'admins close jobs, never delete them');
      ok(await admin.from('jobs').update({ status: 'closed' }).eq('id', draft.id), 'close');
      const forged = await cand1.from('jobs').insert({ title: 'x', company: 'y', status: 'draft' });
      assert.equal(forged.error?.code, '42501', 'a candidate writes no job');
    });

    test('adds, toggles and removes a featured job; display_order defaults to the count', async () => {
      const added = ok(
        await admin
          .from('featured_jobs')
          .insert({ job_id: gw.sql("select tests.job('draft')"), custom_excerpt: 'New', custom_title: null, tags: [] })
          .select('id,display_order,is_active'),
        'add',
      );
      assert.equal(added[0].display_order, 3);
      const toggled = ok(await admin.from('featured_jobs').update({ is_active: false }).eq('id', added[0].id).select('is_active'), 'toggle');
      assert.deepEqual(toggled, [{ is_active: false }]);
      ok(await admin.from('featured_jobs').delete().eq('id', added[0].id), 'remove');
    });

    test('manages candidate profiles and reads private fields through admin_candidate_profiles', async () => {
      const created = ok(
        await admin
          .from('candidate_profiles')
          .insert({ candidate_id: 'CAND-JS', name: 'Jay Script', email: 'jay@private.test', location: 'York', source: 'manual', external_id: `manual-${Date.now()}` })
          .select(PUBLIC_PROFILE),
        'create',
      );
      assert.match(created[0].slug, /^[0-9a-f]{32}$/);
      const updated = ok(await admin.from('candidate_profiles').update({ job_title: 'Planner' }).eq('id', created[0].id).select(PUBLIC_PROFILE), 'update');
      assert.equal(updated[0].job_title, 'Planner');
      const list = ok(await admin.rpc('admin_candidate_profiles').select('*').order('created_at', { ascending: false }), 'admin list');
      assert.equal(list[0].name, 'Jay Script');
      assert.equal(list.length, 4);
      const found = ok(
        await admin.rpc('admin_candidate_profiles').select('candidate_id').or('name.ilike.*york*,email.ilike.*york*,location.ilike.*york*'),
        'search',
      );
      assert.deepEqual(found, [{ candidate_id: 'CAND-JS' }]);
      assertDenied(await admin.from('candidate_profiles').select('name'), 'the table never serves name');
      ok(await admin.from('candidate_profiles').delete().eq('id', created[0].id), 'delete');
    });

    test('reads all views, applications and enquiries; clears only admin views', async () => {
      const before = ok(await admin.from('profile_views').select('profile_id,viewed_at,user_id').order('viewed_at', { ascending: false }), 'views');
      const adminIds = ok(await admin.from('user_roles').select('user_id').eq('role', 'admin'), 'admins').map((r) => r.user_id);
      const byAdmins = before.filter((v) => v.user_id && adminIds.includes(v.user_id)).length;
      assert.ok(byAdmins > 0);
      const cleared = await admin.rpc('delete_admin_profile_views');
      assert.equal(cleared.error, null, JSON.stringify(cleared.error));
      assert.equal(cleared.data, byAdmins);
      const afterViews = ok(await admin.from('profile_views').select('user_id'), 'views after');
      assert.equal(afterViews.length, before.length - byAdmins);
      assert.ok(afterViews.every((v) => !v.user_id || !adminIds.includes(v.user_id)));
      assert.ok(ok(await admin.from('applications').select('id'), 'applications').length >= 1);
      assert.ok(ok(await admin.from('enquiries').select('id'), 'enquiries').length >= 1);
    });
  });

  describe('the demo seed\'s users', () => {
    test('sign in with their printed passwords (bcrypt, Supabase Auth format) and the admin check finds the admin', async () => {
      const client = gw.client();
      const signedIn = await client.auth.signInWithPassword({ email: 'admin@example.com', password: 'demo-admin-2025' });
      assert.equal(signedIn.error, null, JSON.stringify(signedIn.error));
      const roles = ok(
        await client.from('user_roles').select('role').eq('user_id', signedIn.data.user.id).eq('role', 'admin').limit(1),
        'admin check',
      );
      assert.deepEqual(roles, [{ role: 'admin' }]);
      const wrong = await gw.client().auth.signInWithPassword({ email: 'candidate@example.com', password: 'not-the-password' });
      assert.ok(wrong.error);
      const candidate = await gw.client().auth.signInWithPassword({ email: 'candidate@example.com', password: 'demo-candidate-2025' });
      assert.equal(candidate.error, null, JSON.stringify(candidate.error));
    });
  });

  describe('service_role', () => {
    test('imports jobs from the CRM (upsert on external_id)', async () => {
      const job = { external_id: 'crm-js-1', job_id: 'JS-1', title: 'Imported', company: 'Acme', status: 'active', employment_type: 'permanent' };
      ok(await service.from('jobs').upsert(job, { onConflict: 'external_id' }), 'import');
      ok(await service.from('jobs').upsert({ ...job, title: 'Imported again' }, { onConflict: 'external_id' }), 're-import');
      const rows = ok(await anon.from('jobs').select('title').eq('external_id', 'crm-js-1'), 'public read');
      assert.deepEqual(rows, [{ title: 'Imported again' }]);
    });
  });
});
