"""Take the README's screenshot (docs/screenshot.png) from a running server.

    scripts/run.sh &                       # or PORT=8765 scripts/run.sh &
    .venv/bin/python -m scripts.screenshot --url http://127.0.0.1:8000

It signs a guest in, creates an Incan Gold table with three bots, starts it, plays a few
torches in Debian's Chromium (/usr/bin/chromium, never a downloaded browser) and saves the
table page.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

CHROMIUM = Path("/usr/bin/chromium")


def set_up_table(url: str) -> tuple[str, dict[str, str]]:
    """A started table of one guest and three bots: its slug and the guest's cookies."""
    with httpx.Client(base_url=url, timeout=30) as client:
        client.post("/api/guest", json={"name": "Ola"}).raise_for_status()
        made = client.post("/api/tables", json={"game": "incan_gold", "seats": 4})
        made.raise_for_status()
        slug = str(made.json()["slug"])
        for level in ("easy", "normal", "hard"):
            client.post(f"/api/tables/{slug}/bots", params={"level": level}).raise_for_status()
        client.post(f"/api/tables/{slug}/start").raise_for_status()
        return slug, dict(client.cookies.items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--out", type=Path, default=Path("docs/screenshot.png"))
    parser.add_argument("--moves", type=int, default=3, help="torches played before the shot")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 1
    slug, cookies = set_up_table(args.url)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-background-networking"],
        )
        context = browser.new_context(viewport={"width": 1280, "height": 1040})
        context.add_cookies([{"name": k, "value": v, "url": args.url} for k, v in cookies.items()])
        page = context.new_page()
        page.goto(f"{args.url}/t/{slug}")
        for _ in range(args.moves):
            torch = page.locator("button.choice.torch")
            torch.wait_for(timeout=15_000)
            time.sleep(1.0)  # let the bots' choices and the last-move glow settle
            torch.click()
        page.locator("button.choice.torch").wait_for(timeout=15_000)
        time.sleep(4.5)  # the last move's glow lasts four seconds
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(args.out))
        browser.close()
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
