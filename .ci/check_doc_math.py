"""Check that the built HTML documentation typesets its formulas offline.

Usage (after the Sphinx build)::

    python .ci/check_doc_math.py doc/_build/html [PAGE ...]

Loads each page (default: every page of the user guide, the gallery and the
API page of ndcg_score) in headless Chromium, 1280 pixels wide, with the
network off (every host name resolves to nothing and every request goes to a
closed proxy), lets its scripts run, and reads the resulting DOM.

* Math: every formula of the built HTML (the ``math notranslate`` elements
  Sphinx writes) must have become a MathJax ``mjx-container``, none of them a
  MathJax error, and no raw TeX delimiter ``\\[`` or ``\\(`` may be left in the
  text.  That fails if MathJax were loaded from a CDN (no network here),
  missing, or unable to parse a formula.
* Layout: no table, code block or displayed formula of the page's content
  column may be wider than the column (nothing cut or scrolled at 1280 px).
  The API pages made from docstrings (``generated/``) get a note, not a
  failure.

Exit status: 0 passed, 1 failed, 77 no Chromium found (the caller decides
whether that is a skip).  ``--screenshot DIR`` also writes a 1280-pixel-wide
screenshot of each page to DIR.
"""

import argparse
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser",
            "google-chrome", "google-chrome-stable")
EXTRA_PAGES = ("generated/sklearn_rankeval.ndcg_score.html",)
#: no network: names resolve to nothing, requests go to a closed port
OFFLINE_FLAGS = ("--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                 "--host-resolver-rules=MAP * ~NOTFOUND")
WIDTH = 1280
#: run after MathJax has typeset the page: list what is wider than the column
LAYOUT_SCRIPT = """
<script>
window.addEventListener("load", function () {
  function report() {
    var out = [];
    var article = document.querySelector(".bd-article") || document.body;
    var right = article.getBoundingClientRect().right + 1;
    var sel = "pre, table, div.math, mjx-container[display='true'], " +
              ".pst-scrollable-table-container, .highlight";
    article.querySelectorAll(sel).forEach(function (el) {
      var box = el.getBoundingClientRect();
      if (box.width === 0) { return; }
      if (el.scrollWidth > el.clientWidth + 1 || box.right > right) {
        out.push(el.tagName.toLowerCase() + " " + el.scrollWidth + "px > " +
                 Math.round(Math.min(el.clientWidth, right - box.left)) + "px: " +
                 el.textContent.replace(/\\s+/g, " ").trim().slice(0, 70));
      }
    });
    var pre = document.createElement("pre");
    pre.id = "layout-report";
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    MathJax.startup.promise.then(report, report);
  } else {
    report();
  }
});
</script>
"""


def find_browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(browser, url, *extra, profile):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-dev-shm-usage", "--hide-scrollbars",
           f"--user-data-dir={profile}", *OFFLINE_FLAGS,
           f"--window-size={WIDTH},2400", "--virtual-time-budget=15000",
           *extra, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


class _DomScan(html.parser.HTMLParser):
    """Count MathJax containers and errors, collect the visible text."""

    def __init__(self):
        super().__init__()
        self.containers = 0
        self.errors = 0
        self.text = []
        self.layout = None
        self._skip = 0  # inside <script>/<style>/<mjx-assistive-mml>
        self._in_report = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "mjx-container":
            self.containers += 1
        if tag == "merror" or "data-mjx-error" in attrs:
            self.errors += 1
        if tag in ("script", "style", "mjx-assistive-mml"):
            self._skip += 1
        if attrs.get("id") == "layout-report":
            self._in_report = True
            self.layout = ""

    def handle_endtag(self, tag):
        if tag in ("script", "style", "mjx-assistive-mml") and self._skip:
            self._skip -= 1
        if tag == "pre":
            self._in_report = False

    def handle_data(self, data):
        if self._in_report:
            self.layout += data
        elif not self._skip:
            self.text.append(data)


def count_formulas(source):
    """The formulas Sphinx wrote into the page (before any script runs)."""
    return source.count('class="math notranslate nohighlight"')


def check_page(browser, page, profile, screenshot_dir=None, layout=True):
    source = page.read_text(encoding="utf-8")
    expected = count_formulas(source)
    # a copy beside the page (same relative links) with the layout probe
    probe = page.with_name(f".check-{page.name}")
    probe.write_text(source.replace("</body>", LAYOUT_SCRIPT + "</body>"),
                     encoding="utf-8")
    try:
        result = chromium(browser, probe.resolve().as_uri(), "--dump-dom",
                          profile=profile)
    finally:
        probe.unlink()
    if result.returncode != 0 or "<html" not in result.stdout:
        return [f"{page}: Chromium failed ({result.returncode}): "
                f"{result.stderr.strip()[-500:]}"], 0
    scan = _DomScan()
    scan.feed(result.stdout)
    text = "".join(scan.text)
    problems = []
    if scan.containers < expected:
        problems.append(f"{page}: {scan.containers} of {expected} formulas typeset")
    if scan.errors:
        problems.append(f"{page}: {scan.errors} MathJax errors")
    for raw in ("\\[", "\\("):
        if raw in text:
            at = text.index(raw)
            problems.append(f"{page}: raw TeX left in the text: "
                            f"{text[at:at + 60]!r}")
    if scan.layout is None:
        problems.append(f"{page}: the layout probe did not run")
    else:
        for item in json.loads(scan.layout):
            line = f"{page}: wider than the content column at {WIDTH} px: {item}"
            if layout:
                problems.append(line)
            else:
                print("note (not checked):", line)
    if screenshot_dir is not None:
        out = Path(screenshot_dir) / (page.stem + ".png")
        chromium(browser, page.resolve().as_uri(), f"--screenshot={out.resolve()}",
                 profile=profile)
    print(f"{page}: {scan.containers} MathJax containers for {expected} formulas, "
          f"{scan.errors} errors" + ("" if problems else ": OK"))
    return problems, expected


def default_pages(build_dir):
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    pages = sorted(p.name for p in build_dir.glob("*.html") if p.name not in skip)
    pages += sorted(f"auto_examples/{p.name}"
                    for p in build_dir.glob("auto_examples/*.html"))
    return pages + list(EXTRA_PAGES)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir")
    parser.add_argument("pages", nargs="*")
    parser.add_argument("--screenshot", metavar="DIR")
    args = parser.parse_args(argv)
    browser = find_browser()
    if browser is None:
        print("no Chromium found (tried: " + ", ".join(BROWSERS) + ")")
        return 77
    if args.screenshot:
        os.makedirs(args.screenshot, exist_ok=True)
    build_dir = Path(args.build_dir)
    problems, formulas = [], 0
    with tempfile.TemporaryDirectory() as profile:
        for name in args.pages or default_pages(build_dir):
            page = build_dir / name
            if not page.is_file():
                problems.append(f"{page}: no such page")
                continue
            # the API pages (docstrings) are checked for math only
            layout = not name.startswith("generated/")
            found, n = check_page(browser, page, profile, args.screenshot, layout)
            problems += found
            formulas += n
    if formulas == 0:
        problems.append("no formula in the pages checked: nothing was checked")
    for line in problems:
        print("FAIL:", line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
