"""The installable app over HTTP (issue 34, part 1): the web app manifest, the service worker
served from the root with its scope and cache version, and the offline page it caches in both
languages. The browser's side (registration, control, offline navigation) is in
tests/browser/test_browser_pwa.py."""

from __future__ import annotations

import json
import re
import struct

import httpx

from app.api.routes import pwa
from app.guard import CSP
from tests.conftest import Server

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header chunk (IHDR, always first)."""
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def test_manifest_is_complete_and_its_icons_exist(sqlite_server: Server) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url, follow_redirects=True) as http:
        page = await http.get("/", headers={"Accept-Language": "pl"})
        link = re.search(r'<link rel="manifest" href="([^"]+)">', page.text)
        assert link is not None and link.group(1) == "/manifest.webmanifest?lang=pl"
        r = await http.get(link.group(1))
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("application/manifest+json")
        manifest = json.loads(r.text)
        assert manifest["name"] == "Stolik" and manifest["short_name"] == "Stolik"
        assert manifest["start_url"] == "/" and manifest["scope"] == "/"
        assert manifest["display"] == "standalone" and manifest["lang"] == "pl"
        assert manifest["description"] == "gry karciane ze znajomymi"
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
        assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page.text
        english = (await http.get("/manifest.webmanifest?lang=en")).json()
        assert english["lang"] == "en" and english["description"] == "card games with friends"
        purposes = set()
        for icon in manifest["icons"]:
            got = await http.get(icon["src"])
            assert got.status_code == 200 and got.headers["content-type"] == "image/png"
            width, height = png_size(got.content)
            assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
            purposes.add((width, icon["purpose"]))
        assert {(192, "any"), (512, "any"), (512, "maskable")} <= purposes


async def test_worker_is_served_from_the_root_never_cached(sqlite_server: Server) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url, follow_redirects=True) as http:
        page = await http.get("/")
        r = await http.get("/sw.js")
        again = await http.get("/sw.js")
    assert '<script src="/static/js/sw-register.js" defer></script>' in page.text
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/"
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["content-security-policy"] == CSP  # the worker runs under the policy too
    assert r.content == again.content  # byte for byte: the browser sees no new deploy
    body = r.text
    assert "__VERSION__" not in body and "__SHELL__" not in body and "__LANGUAGES__" not in body
    version = re.search(r'const VERSION = "([0-9a-f]{12})";', body)
    assert version is not None and version.group(1) == pwa.shell_version()
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))  # type: ignore[union-attr]
    assert "/offline?lang=en" in shell and "/offline?lang=pl" in shell
    assert "/static/css/stolik.css" in shell and "/static/icons/maskable-512.png" in shell
    assert not any(path == "/" or path.startswith(("/t/", "/api/", "/ws")) for path in shell)


async def test_every_shell_file_is_served(sqlite_server: Server) -> None:
    """The worker's install fails if one file of its shell does not load (cache.addAll)."""
    async with httpx.AsyncClient(base_url=sqlite_server.url, follow_redirects=True) as http:
        for path in [*pwa.SHELL_FILES, *pwa.offline_pages()]:
            r = await http.get(path)
            assert r.status_code == 200, path


def test_the_version_follows_the_shell() -> None:
    """A change to any file of the shell makes a new version: a new worker, a new cache."""
    before = pwa.shell_version()
    pwa.shell_version.cache_clear()
    try:
        original = pwa.SHELL_EPOCH
        pwa.SHELL_EPOCH = original + "-next"
        assert pwa.shell_version() != before
        pwa.SHELL_EPOCH = original
        pwa.shell_version.cache_clear()
        assert pwa.shell_version() == before
    finally:
        pwa.SHELL_EPOCH = original
        pwa.shell_version.cache_clear()


async def test_offline_page_in_both_languages(sqlite_server: Server) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url, follow_redirects=True) as http:
        en = await http.get("/offline?lang=en", headers={"Accept-Language": "pl"})
        pl = await http.get("/offline?lang=pl", headers={"Accept-Language": "en"})
    assert en.status_code == pl.status_code == 200
    assert '<html lang="en">' in en.text
    assert "You are offline; we reconnect when you are back." in en.text
    assert '<html lang="pl">' in pl.text
    assert "Jesteś offline; połączymy się ponownie, gdy wrócisz do sieci." in pl.text
    for page in (en, pl):
        assert "data-offline-page" in page.text
        assert "<script>" not in page.text  # no inline script: the CSP holds
