"""The installable app: the web app manifest, the service worker served from the site root
(scope `/`), and the offline page it shows when a navigation cannot reach the server.

The worker (static/js/sw.js, served at `/sw.js` with its version and shell list filled in)
caches the app shell at install: the stylesheet, the page scripts, the icons and the offline
page in every language (`/offline?lang=pl`). Pages and the websocket always go to the network;
the shell is fetched from the network too and read from the cache only when that fails. The
cache's name is a hash of everything in it (`shell_version`), so a deploy that changes any
shell file ships a new worker, which replaces the old cache when it activates.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app import i18n
from app.core.config import ROOT
from app.presentation.environment import templates

router = APIRouter()

THEME_COLOR = "#1f6f5c"
BACKGROUND_COLOR = "#f6f1e7"
ICONS: tuple[tuple[str, int, str], ...] = (
    ("/static/icons/icon-192.png", 192, "any"),
    ("/static/icons/icon-512.png", 512, "any"),
    ("/static/icons/maskable-512.png", 512, "maskable"),
)
SHELL_FILES: tuple[str, ...] = (
    "/static/css/stolik.css",
    "/static/vendor/htmx.min.js",
    "/static/vendor/ws.js",
    "/static/js/stolik.js",
    "/static/js/dashboard.js",
    "/static/js/sw-register.js",
    "/static/favicon.svg",
    *(icon for icon, _size, _purpose in ICONS),
)
"""The static files of the app shell (each under static/)."""
WORKER = ROOT / "static" / "js" / "sw.js"
SHELL_EPOCH = "1"
"""Part of the cache's name: raise it to replace every installed cache even when no shell
file changed (docs/operating.md, "Installable app")."""


def offline_pages() -> list[str]:
    """The offline page in every language, as the worker caches it."""
    return [f"/offline?lang={code}" for code in i18n.LANGUAGES]


@cache
def shell_version() -> str:
    """A hash of the worker, the shell files, the offline page and the catalogues: the
    cache's version (computed once per process; every process of one deploy agrees)."""
    digest = hashlib.sha256(SHELL_EPOCH.encode())
    files = [WORKER, ROOT / "templates" / "offline.html", ROOT / "templates" / "base.html"]
    files += [ROOT / path.removeprefix("/") for path in SHELL_FILES]
    files += sorted(i18n.LOCALES.glob("*/LC_MESSAGES/messages.po"))
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return digest.hexdigest()[:12]


@cache
def worker_source() -> bytes:
    """static/js/sw.js with its version and the list of what it caches filled in."""
    source = WORKER.read_text(encoding="utf-8")
    shell = json.dumps([*SHELL_FILES, *offline_pages()])
    languages = json.dumps(list(i18n.LANGUAGES))
    return (
        source.replace('"__VERSION__"', json.dumps(shell_version()))
        .replace('["__SHELL__"]', shell)
        .replace('["__LANGUAGES__"]', languages)
        .encode()
    )


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, from the root so that its scope is the whole site. Never cached by
    HTTP caches: the browser compares it byte for byte on each visit to find a new deploy."""
    return Response(
        worker_source(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    """The web app manifest in the asked language (`?lang=`, as base.html links it)."""
    lang = i18n.current()
    body = {
        "id": "/",
        "name": "Stolik",
        "short_name": "Stolik",
        "description": i18n.gettext("card games with friends"),
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": src, "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for src, size, purpose in ICONS
        ],
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/offline", response_class=HTMLResponse, include_in_schema=False)
async def offline(request: Request) -> Response:
    """What the worker shows when a page cannot be reached (`?lang=`: its language)."""
    return templates.TemplateResponse(request, "offline.html", {"user": None})
