"""Draw the app's icons (static/icons/*.png, listed in the web app manifest) from
static/favicon.svg, rendered by Debian's Chromium (/usr/bin/chromium, through Playwright, which
the tests already use: no image library to add).

    .venv/bin/python -m scripts.icons

- icon-192.png, icon-512.png: the favicon itself, corners transparent ("any").
- maskable-512.png: the favicon on a full square of the theme colour, at three quarters of its size
  (a launcher may cut the icon to a circle of 80 %: the "maskable" safe zone).

Run it again after changing the favicon and commit the PNGs.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

from app.api.routes.pwa import THEME_COLOR

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
OUT = ROOT / "static" / "icons"
PAGE = """<!doctype html><html><body style="margin:0;background:{bg}">
<div style="width:{size}px;height:{size}px;display:grid;place-items:center">
<img src="data:image/svg+xml;base64,{svg}" style="width:{inner}px;height:{inner}px"></div>
</body></html>"""


def main() -> None:
    svg = base64.b64encode((ROOT / "static" / "favicon.svg").read_bytes()).decode()
    OUT.mkdir(parents=True, exist_ok=True)
    icons = (
        ("icon-192.png", 192, 1.0, "transparent"),
        ("icon-512.png", 512, 1.0, "transparent"),
        ("maskable-512.png", 512, 0.75, THEME_COLOR),
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        for name, size, share, bg in icons:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(PAGE.format(bg=bg, size=size, svg=svg, inner=round(size * share)))
            page.locator("img").evaluate("img => img.decode()")
            page.screenshot(path=str(OUT / name), omit_background=bg == "transparent")
            page.close()
            print(f"{OUT / name}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
