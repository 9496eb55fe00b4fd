"""The HTML report opened in a real browser: headless Chromium (Debian's `chromium`) driven by Playwright.

The page must work offline: it is opened from a file, with the network closed to it.  The test sorts a column,
filters a family, switches the scatter's axes with Plotly's own menu, opens a cell, takes a screenshot, and
fails on any console error."""

import shutil

import pytest

from eternity.cli import main
from experiments.runner import run

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (Debian's package chromium)")]
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
pytest.importorskip("plotly", reason="plotly is not installed (the report extra)")

CONFIG = """
name = "browser"
time_limit = 20.0
families = [
  {kind = "builtin", name = "queens", names = ["queens-5", "queens-6", "queens-3"]},
  {kind = "builtin", name = "dominoes", names = ["dominoes-4x4"]},
]
solvers = [
  {name = "backtrack", mode = "count"},
  {name = "sat", mode = "count", options = {backend = ["minisat22"]}},
  {name = "cpsat", mode = "count"},
]
"""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = tmp_path_factory.mktemp("report")
    (d / "c.toml").write_text(CONFIG)
    db = str(d / "c.sqlite")
    run(str(d / "c.toml"), db, jobs=1, show_progress=False)
    out = d / "report.html"
    assert main(["report", db, "-o", str(out), "--config", str(d / "c.toml")]) == 0
    return out


def test_the_report_works_in_headless_chromium(report, tmp_path):
    errors: list[str] = []
    fetched: list[str] = []  # anything but the file itself: the page must work offline

    def route(r):
        if r.request.url.startswith("file:"):
            return r.continue_()
        fetched.append(r.request.url)
        return r.abort()

    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.route("**/*", route)
            page.goto(report.as_uri())
            page.wait_for_selector("#scatter .main-svg")
            page.wait_for_selector("#cactus .main-svg")

            def column(table: str, i: int) -> list[str]:
                js = f"t => Array.from(t.tBodies[0].rows).filter(r => r.style.display !== 'none').map(r => r.cells[{i}].textContent)"
                return page.eval_on_selector(f"#{table}", js)

            # sort the summary by solver, both ways
            heads = page.eval_on_selector("#summary", "t => Array.from(t.tHead.rows[0].cells).map(c => c.textContent)")
            i = heads.index("solver")
            page.click(f"#summary thead th >> nth={i}")
            up = column("summary", i)
            assert up == sorted(up, key=str.lower)
            page.click(f"#summary thead th >> nth={i}")
            assert column("summary", i) == sorted(up, key=str.lower, reverse=True)
            # filter a family: only its rows stay, in both tables
            page.select_option("#family", "dominoes")
            assert set(column("summary", 0)) == {"dominoes"}
            assert set(column("pivot", 0)) == {"dominoes"}
            page.select_option("#family", "")
            assert set(column("pivot", 0)) == {"queens", "dominoes"}
            # the scatter's x axis switched with Plotly's menu
            before = page.eval_on_selector("#scatter", "d => d.layout.xaxis.title.text")
            page.click("#scatter .updatemenu-header-group >> nth=0")
            buttons = page.locator("#scatter .updatemenu-dropdown-button")
            assert buttons.count() == 3
            buttons.nth(2).click()
            after = page.eval_on_selector("#scatter", "d => d.layout.xaxis.title.text")
            assert after != before and after.startswith("sat[backend=minisat22]/count")
            # a cell opened: its options, evidence, versions
            page.click("#pivot td.cell >> nth=0")
            detail = page.text_content("#detail")
            assert '"evidence"' in detail and '"versions"' in detail and '"options"' in detail
            # queens-3 has no solution: its cells carry the unsatisfiable mark and colour
            assert page.locator("#pivot td.unsat").count() >= 1
            page.screenshot(path=str(tmp_path / "report.png"))
        finally:
            browser.close()
    assert (tmp_path / "report.png").stat().st_size > 10_000
    assert errors == [] and fetched == []
