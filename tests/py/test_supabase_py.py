"""supabase-py (the official Python client: supabase_auth, storage3) against the gateway, as a Python app uses it.
It encodes requests differently from supabase-js (e.g. `expiresIn` as a string, multipart field `file`, `x-upsert`
always sent); see tests/conformance/AUDIT.md."""

import httpx
import pytest
from supabase import create_client


@pytest.fixture(scope="module")
def service(gateway):
    return create_client(gateway.url, gateway.service_key)


@pytest.fixture(scope="module")
def anon(gateway):
    return create_client(gateway.url, gateway.anon_key)


@pytest.fixture(scope="module")
def docs(service):
    service.storage.create_bucket("docs", options={"public": False, "file_size_limit": 1024 * 1024})
    bucket = service.storage.from_("docs")
    bucket.upload("a.txt", b"hello", {"content-type": "text/plain", "cache-control": "60", "metadata": {"k": "v"}})
    bucket.upload("dir/b.txt", b"world", {"content-type": "text/plain"})
    return bucket


def test_signed_urls_work_with_the_string_expiry_storage3_sends(docs):
    signed = docs.create_signed_url("a.txt", 60)
    res = httpx.get(signed["signedURL"])
    assert res.status_code == 200 and res.content == b"hello"
    many = docs.create_signed_urls(["a.txt", "missing.txt"], 60)
    assert many[0]["error"] is None and httpx.get(many[0]["signedURL"]).content == b"hello"
    assert many[1]["signedURL"] is None
    named = docs.create_signed_url("a.txt", 60, {"download": "my file.txt"})
    res = httpx.get(named["signedURL"])
    assert res.headers["content-disposition"] == "attachment; filename=my%20file.txt; filename*=UTF-8''my%20file.txt"


SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>\n'


def test_signed_urls_with_transform_serve_an_svg_as_stored_and_refuse_other_documents(service):
    service.storage.create_bucket("art", options={"public": False})
    art = service.storage.from_("art")
    art.upload("logo.svg", SVG, {"content-type": "image/svg+xml"})
    art.upload("notes.pdf", b"%PDF-1.4\n%%EOF\n", {"content-type": "application/pdf"})
    cover = {"transform": {"width": 200, "height": 200, "resize": "cover"}}
    signed = art.create_signed_url("logo.svg", 60, cover)
    assert "/render/image/sign/art/logo.svg?token=" in signed["signedURL"]
    res = httpx.get(signed["signedURL"])
    assert res.status_code == 200, res.text
    assert res.headers["content-type"] == "image/svg+xml"
    assert res.content == SVG
    refused = httpx.get(art.create_signed_url("notes.pdf", 60, cover)["signedURL"])
    assert refused.status_code == 400
    assert refused.json()["message"] == "The source image is invalid or unsupported for rendering"


def test_uploads_keep_content_type_cache_control_and_metadata(docs):
    info = docs.info("a.txt")
    assert info["content_type"] == "text/plain"
    assert info["cache_control"] == "max-age=60"
    assert info["metadata"] == {"k": "v"}
    assert docs.download("a.txt") == b"hello"
    assert docs.exists("a.txt") and not docs.exists("nope.txt")
    # storage3 always sends `x-upsert: false`; an update replaces.
    docs.update("a.txt", b"hello again", {"content-type": "text/plain"})
    assert docs.download("a.txt") == b"hello again"


def test_lists_with_the_default_and_paged_options(docs):
    names = [o["name"] for o in docs.list()]
    assert names == ["dir", "a.txt"] or sorted(names) == ["a.txt", "dir"]
    assert [o["name"] for o in docs.list("dir")] == ["b.txt"]
    first = docs.list_v2({"limit": 1, "with_delimiter": True, "cursor": ""})
    assert first.hasNext and first.nextCursor
    rest = docs.list_v2({"limit": 10, "with_delimiter": True, "cursor": first.nextCursor})
    assert not rest.hasNext
    seen = [o.name for o in first.objects + rest.objects] + [f.name for f in first.folders + rest.folders]
    assert sorted(seen) == ["a.txt", "dir/"]


def test_signed_uploads_move_copy_and_remove(docs):
    upload = docs.create_signed_upload_url("up.txt")
    docs.upload_to_signed_url("up.txt", upload["token"], b"signed", {"content-type": "text/plain"})
    assert docs.download("up.txt") == b"signed"
    docs.copy("up.txt", "copied.txt")
    docs.move("copied.txt", "moved.txt")
    assert docs.download("moved.txt") == b"signed"
    removed = docs.remove(["up.txt", "moved.txt"])
    assert sorted(o["name"] for o in removed) == ["moved.txt", "up.txt"]


def test_buckets_parse_as_storage3_models(service, docs):
    names = [b.name for b in service.storage.list_buckets()]
    assert "docs" in names
    bucket = service.storage.get_bucket("docs")
    assert bucket.public is False and bucket.file_size_limit == 1024 * 1024
    service.storage.update_bucket("docs", {"public": True, "file_size_limit": 2048})
    assert service.storage.get_bucket("docs").public is True
    public_url = docs.get_public_url("dir/b.txt")
    assert httpx.get(public_url).content == b"world"
    service.storage.create_bucket("scratch")
    service.storage.from_("scratch").upload("x.txt", b"x")
    service.storage.empty_bucket("scratch")
    service.storage.delete_bucket("scratch")


def test_auth_flows_and_claims(anon, service):
    signed_up = anon.auth.sign_up({"email": "py@example.com", "password": "secret-123"})
    assert signed_up.session is not None and signed_up.user.email == "py@example.com"
    session = anon.auth.sign_in_with_password({"email": "py@example.com", "password": "secret-123"}).session
    claims = anon.auth.get_claims()
    assert claims["claims"]["email"] == "py@example.com"
    assert claims["headers"]["alg"] in ("ES256", "RS256")
    updated = anon.auth.update_user({"data": {"plan": "pro"}})
    assert updated.user.user_metadata["plan"] == "pro"
    refreshed = anon.auth.refresh_session()
    assert refreshed.session.refresh_token != session.refresh_token
    anon.auth.sign_out()
    assert anon.auth.get_session() is None


def test_admin_api(service):
    admin = service.auth.admin
    created = admin.create_user({"email": "py-admin@example.com", "password": "secret-123", "email_confirm": True})
    users = admin.list_users(page=1, per_page=50)
    assert any(u.email == "py-admin@example.com" for u in users)
    for kind in ["email_change_current", "email_change_new"]:
        link = admin.generate_link({"type": kind, "email": "py-admin@example.com", "new_email": "py-new@example.com"})
        assert link.properties.verification_type == kind
    admin.delete_user(created.user.id)
    assert all(u.email != "py-admin@example.com" for u in admin.list_users())
