"""The picture of `eternity report` in the documentation (docs/images/report.png): the report of the committed
quick run opened in headless Chromium, its scatter switched to two configurations.

    python tests/helpers/report_screenshot.py [DB] [PNG]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]


def main(db: str = "docs/runs/quick.sqlite", png: str = "docs/images/report.png") -> None:
    with tempfile.TemporaryDirectory() as d:
        page_path = Path(d) / "report.html"
        subprocess.run([sys.executable, "-m", "eternity", "report", db, "-o", str(page_path)], check=True, cwd=ROOT)
        with sync_playwright() as pw:
            exe = shutil.which("chromium")
            browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.goto(page_path.as_uri())
            page.wait_for_selector("#scatter .main-svg")
            page.click("#pivot td.cell >> nth=3")
            page.locator("#pivot").scroll_into_view_if_needed()
            page.screenshot(path=str(ROOT / png), full_page=False)
            browser.close()
    print(f"wrote {png}")


if __name__ == "__main__":
    main(*sys.argv[1:])
