#!/usr/bin/env python3
# Issue 26's "done when", read off report.html pages of finished runs (python3, no packages):
# every chart of a time metric (rest_time, settle_time: in its title or its text) states in its
# caption the share of worlds that never got there (or that every world has a value), and a page
# of a sweep without replicas never says "noise" except to say it cannot measure it. Exit 1,
# naming each chart or sentence, on a failure.
#
#   scripts/check-report-claims.py RUN_DIR...
import re, sys, json, html
bad = 0
for d in sys.argv[1:]:
    page = open(d + "/report.html").read()
    reps = json.load(open(d + "/summary.json")).get("replicas", 1)
    figs = re.findall(r"<figure[^>]*>(.*?)</figure>", page, re.S)
    charts = 0
    for f in figs:
        m = re.search(r'aria-label="([^"]*)"', f)
        label = html.unescape(m.group(1)) if m else ""
        cap = re.search(r"<figcaption>(.*?)</figcaption>", f, re.S)
        cap = html.unescape(re.sub("<[^>]+>", "", cap.group(1))) if cap else ""
        svgtext = html.unescape(" ".join(re.findall(r"<text[^>]*>([^<]*)", f)))
        if re.search(r"(rest_time|settle_time)", label + " " + svgtext):
            charts += 1
            if not re.search(r"never (came to rest|settled)|Every world has a value|never_rest|never_settle", cap):
                bad += 1; print(f"{d}: chart '{label}' shows a time metric without its never-share: {cap[:160]}")
    text = html.unescape(re.sub("<[^>]+>", " ", page))
    if reps == 1:
        for m in re.finditer(r"[^.]*\bnoise\b[^.]*\.", text):
            s = m.group(0).strip()
            if "cannot measure noise" in s or "no noise estimate" in s: continue
            bad += 1; print(f"{d}: says noise without replicas: {s[:200]}")
    print(f"{d}: {charts} time-metric charts checked, replicas {reps}")
sys.exit(1 if bad else 0)
